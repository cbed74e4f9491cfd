package server

import (
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// TestBinary builds ssalens and talks to `ssalens serve --stdio` over its stdin and stdout, as
// an editor does, through a whole session.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "ssalens")
	build := exec.Command("go", "build", "-o", bin, "../cmd/ssalens")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--stdio")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{stdout, stdin}))
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return reply(ctx, nil, nil) // diagnostics and logs
	})
	call := func(method string, params any) string {
		t.Helper()
		var result json.RawMessage
		if _, err := conn.Call(ctx, method, params, &result); err != nil {
			t.Fatalf("%s: %v\nstderr: %s", method, err, stderr.String())
		}
		return string(result)
	}

	var init struct {
		Capabilities struct{ PositionEncoding string } `json:"capabilities"`
		ServerInfo   protocol.ServerInfo               `json:"serverInfo"`
	}
	if err := json.Unmarshal([]byte(call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}})), &init); err != nil {
		t.Fatal(err)
	}
	if init.Capabilities.PositionEncoding != "utf-16" || init.ServerInfo.Name != "ssalens" || init.ServerInfo.Version == "" {
		t.Errorf("initialize: %+v", init)
	}
	if err := conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if err := conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fixtureURI, "languageId": "javascript", "version": 1, "text": fixture}}); err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "inlayHint", json.RawMessage(call("textDocument/inlayHint", map[string]any{
		"textDocument": map[string]any{"uri": fixtureURI}, "range": span(0, 0, 100, 0)})), fixtureHints)
	var hover protocol.Hover
	if err := json.Unmarshal([]byte(call("textDocument/hover", at(fixtureURI, 7, 9))), &hover); err != nil || !strings.HasPrefix(hover.Contents.Value, "**i₂**") {
		t.Errorf("hover: %+v %v", hover, err)
	}
	wantJSON(t, "definition", json.RawMessage(call("textDocument/definition", at(fixtureURI, 7, 9))), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 6, "character": 6}, "end": {"line": 6, "character": 7}}},
		{"uri": "file:///fixture.js", "range": {"start": {"line": 8, "character": 4}, "end": {"line": 8, "character": 5}}}
	]`)
	refs := at(fixtureURI, 15, 9)
	refs["context"] = map[string]any{"includeDeclaration": true}
	wantJSON(t, "references", json.RawMessage(call("textDocument/references", refs)), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 14, "character": 2}, "end": {"line": 14, "character": 3}}},
		{"uri": "file:///fixture.js", "range": {"start": {"line": 15, "character": 9}, "end": {"line": 15, "character": 10}}}
	]`)
	call("shutdown", nil)
	if err := conn.Notify(ctx, "exit", nil); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("ssalens serve: %v\nstderr: %s", err, stderr.String())
	}
}

// pipes joins a subprocess's stdout and stdin into one connection.
type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}
