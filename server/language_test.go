package server

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestDocumentLanguage opens the same TypeScript text as typescript, typescriptreact and
// javascript: the first two parse it with their grammars and see one parameter and its
// versions; JavaScript's grammar sees a syntax error. A document of another language is not
// analyzed, the client's log says so, and its changes are ignored.
func TestDocumentLanguage(t *testing.T) {
	c := startInitialized(t, nil, nil)
	const text = "function f(x: number) {\n  let y = x! + 1;\n  return y;\n}\n"
	for _, tt := range []struct {
		uri      protocol.DocumentURI
		id, want string
	}{
		{"file:///a.ts", "typescript", "version 1 of `y` (let)"},
		{"file:///a.tsx", "typescriptreact", "version 1 of `y` (let)"},
		{"file:///a.js", "javascript", "which is not analyzed: syntax error"},
	} {
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": tt.uri, "languageId": tt.id, "version": 1, "text": text}})
		var h protocol.Hover
		if err := json.Unmarshal(c.mustCall("textDocument/hover", at(tt.uri, 2, 9)), &h); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(h.Contents.Value, tt.want) {
			t.Errorf("%s as %s: hover %q, want it to contain %q", tt.uri, tt.id, h.Contents.Value, tt.want)
		}
	}

	const jsonURI protocol.DocumentURI = "file:///a.json"
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": jsonURI, "languageId": "json", "version": 1, "text": "{}"}})
	_, params := c.waitFor(0, "log message", func(m message) bool { return m.Method == "window/logMessage" })
	wantJSON(t, "log", params, `{"type":2,"message":"ssalens: file:///a.json is not analyzed: its language \"json\" is none of javascript, javascriptreact, typescript and typescriptreact"}`)
	c.change(jsonURI, 2, contentChange{Text: "[]"})
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": jsonURI}})
	if code := c.callError("textDocument/hover", at(jsonURI, 0, 0)); code != -32602 {
		t.Errorf("hover in a document of another language: error %d, want InvalidParams", code)
	}
	c.mustCall("shutdown", nil)
	c.mu.Lock()
	defer c.mu.Unlock()
	logs := 0
	for _, m := range c.received {
		if m.Method == "window/logMessage" {
			logs++
		}
	}
	if logs != 1 {
		t.Errorf("%d log messages, want 1 (the change and close of the json document are ignored): %v", logs, c.received)
	}
}
