package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// testClient is an LSP client talking to a Server over a pipe, through jsonrpc2's own
// framing, as an editor would.
type testClient struct {
	t      testing.TB
	conn   jsonrpc2.Conn
	server *Server
	stderr *syncBuffer
	status chan int // the server's exit status, once it ends

	mu       sync.Mutex
	changed  *sync.Cond // signalled on every message from the server
	received []message  // notifications and requests from the server, in order
	// unanswered are the methods of the server's requests the client never answers.
	unanswered map[string]bool
}

// message is a notification or a request the server sent to the client.
type message struct {
	Method string
	Params json.RawMessage
}

// startServer starts a server, lets setup add test methods to it, and connects a client. The
// server is not initialized.
func startServer(t testing.TB, setup ...func(*Server)) *testClient {
	t.Helper()
	clientSide, serverSide := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &testClient{t: t, stderr: &syncBuffer{}, status: make(chan int, 1)}
	c.changed = sync.NewCond(&c.mu)
	c.server = newServer(ctx, jsonrpc2.NewConn(newStream(serverSide)), c.stderr, Config{Version: "test"})
	for _, f := range setup {
		f(c.server)
	}
	go func() { c.status <- c.server.serve() }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide))
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		c.conn.Close()
		cancel()
		select {
		case <-c.status:
		case <-time.After(10 * time.Second):
			t.Errorf("server did not stop")
		}
	})
	return c
}

// startInitialized starts a server and initializes it with capabilities and
// initializationOptions (nil: none).
func startInitialized(t testing.TB, capabilities, options any) *testClient {
	t.Helper()
	c := startServer(t)
	c.initialize(capabilities, options)
	return c
}

func (c *testClient) initialize(capabilities, options any) json.RawMessage {
	c.t.Helper()
	if capabilities == nil {
		capabilities = map[string]any{}
	}
	params := map[string]any{"processId": nil, "rootUri": nil, "capabilities": capabilities}
	if options != nil {
		params["initializationOptions"] = options
	}
	result := c.mustCall("initialize", params)
	c.notify("initialized", map[string]any{})
	return result
}

func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	c.mu.Lock()
	c.received = append(c.received, message{Method: req.Method(), Params: append(json.RawMessage(nil), req.Params()...)})
	c.changed.Broadcast()
	silent := c.unanswered[req.Method()]
	c.mu.Unlock()
	switch {
	case silent:
	case req.Method() == "workspace/inlayHint/refresh", req.Method() == "window/workDoneProgress/create":
		reply(ctx, nil, nil)
	default:
		reply(ctx, nil, jsonrpc2.ErrMethodNotFound) // no reply goes out for a notification
	}
	// A reply fails once the test has closed the connection. Returned, the error would fail the
	// connection, and the read that then fails too would store an error of another type in
	// the connection's atomic.Value: jsonrpc2 panics, and the test binary dies.
	return nil
}

func (c *testClient) call(method string, params any) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var result json.RawMessage
	_, err := c.conn.Call(ctx, method, params, &result)
	if err == nil && len(result) == 0 {
		result = json.RawMessage("null") // jsonrpc2 decodes a null result as nothing
	}
	return result, err
}

func (c *testClient) mustCall(method string, params any) json.RawMessage {
	c.t.Helper()
	result, err := c.call(method, params)
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	return result
}

// answer makes a call that must be answered within 10 s (later is a hang, which fails the
// test), and returns its result, or {"error":code} for a JSON-RPC error.
func (c *testClient) answer(method string, params any) json.RawMessage {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var result json.RawMessage
	if _, err := c.conn.Call(ctx, method, params, &result); err != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			c.t.Fatalf("%s: %v (a hang: no answer within 10 s)", method, err)
		}
		return json.RawMessage(fmt.Sprintf(`{"error":%d}`, rpcErr.Code))
	}
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	return result
}

// mustCallDiscarding makes a call and drops its result undecoded, to keep the client's work
// out of benchmarks.
func (c *testClient) mustCallDiscarding(method string, params any) {
	c.t.Helper()
	if _, err := c.conn.Call(context.Background(), method, params, nil); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// callError makes a call that must fail and returns its error code.
func (c *testClient) callError(method string, params any) jsonrpc2.Code {
	c.t.Helper()
	result, err := c.call(method, params)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) {
		c.t.Fatalf("%s: got result %s, error %v; want a JSON-RPC error", method, result, err)
	}
	return rpcErr.Code
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *testClient) open(uri protocol.DocumentURI, text string) {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "javascript", "version": 1, "text": text}})
}

// change sends one didChange with the given changes, each a contentChange.
func (c *testClient) change(uri protocol.DocumentURI, version int32, changes ...contentChange) {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": changes})
}

// waitFor waits for the first message from the server after the first skip ones that
// satisfies match, and returns its index and params.
func (c *testClient) waitFor(skip int, what string, match func(message) bool) (int, json.RawMessage) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	timer := time.AfterFunc(30*time.Second, func() {
		c.mu.Lock()
		c.changed.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := skip; ; {
		for ; i < len(c.received); i++ {
			if match(c.received[i]) {
				return i, c.received[i].Params
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s; the server's log:\n%s", what, c.stderr)
		}
		c.changed.Wait()
	}
}

// diagnostics waits for the diagnostics of version of uri (0: of a closed document).
func (c *testClient) diagnostics(uri protocol.DocumentURI, version int32) json.RawMessage {
	c.t.Helper()
	return c.diagnosticsAfter(0, uri, version)
}

// diagnosticsAfter waits for diagnostics of version of uri after the first skip messages.
func (c *testClient) diagnosticsAfter(skip int, uri protocol.DocumentURI, version int32) json.RawMessage {
	c.t.Helper()
	_, params := c.waitFor(skip, fmt.Sprintf("diagnostics of %s version %d", uri, version), func(m message) bool {
		return isDiagnosticsOf(m, uri, version)
	})
	return params
}

// isDiagnosticsOf reports whether m publishes the diagnostics of version of uri.
func isDiagnosticsOf(m message, uri protocol.DocumentURI, version int32) bool {
	var p protocol.PublishDiagnosticsParams
	return m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &p) == nil &&
		p.URI == uri && p.Version == uint32(version)
}

// count returns how many messages with method ("": any) the server sent.
func (c *testClient) count(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.received {
		if method == "" || m.Method == method {
			n++
		}
	}
	return n
}

func (c *testClient) inlayHints(uri protocol.DocumentURI) json.RawMessage {
	c.t.Helper()
	return c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": map[string]any{"start": pos(0, 0), "end": pos(1<<20, 0)}})
}

// at builds TextDocumentPositionParams.
func at(uri protocol.DocumentURI, line, char uint32) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(line, char)}
}

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func span(l1, c1, l2, c2 uint32) *protocol.Range {
	return &protocol.Range{Start: pos(l1, c1), End: pos(l2, c2)}
}

// hoverJSON is the JSON of a Markdown hover.
func hoverJSON(markdown string, r *protocol.Range) string {
	data, _ := json.Marshal(protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: markdown}, Range: r})
	return string(data)
}

// wantJSON fails unless got and want are the same JSON value.
func wantJSON(t testing.TB, what string, got json.RawMessage, want string) {
	t.Helper()
	if g, w := canonicalJSON(t, got), canonicalJSON(t, json.RawMessage(want)); g != w {
		t.Errorf("%s:\ngot  %s\nwant %s", what, g, w)
	}
}

func canonicalJSON(t testing.TB, data json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("invalid JSON %q: %v", data, err)
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	return string(out)
}

// syncBuffer is the server's stderr in tests.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newConnForTest(c net.Conn) jsonrpc2.Conn { return jsonrpc2.NewConn(newStream(c)) }
