package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawClient writes JSON-RPC messages byte for byte, with any ids, and reads the server's
// messages as raw JSON.
type rawClient struct {
	t      *testing.T
	conn   net.Conn
	server *Server
	stderr *syncBuffer
	status chan int
	frames chan json.RawMessage
}

func startRaw(t *testing.T, setup ...func(*Server)) *rawClient {
	return startRawReading(t, 1000, setup...)
}

// startRawReading is startRaw for a client that reads ahead at most the given number of the
// server's messages that no one took (next) yet.
func startRawReading(t *testing.T, ahead int, setup ...func(*Server)) *rawClient {
	clientSide, serverSide := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &rawClient{t: t, conn: clientSide, stderr: &syncBuffer{}, status: make(chan int, 1), frames: make(chan json.RawMessage, ahead)}
	c.server = newServer(ctx, newConnForTest(serverSide), c.stderr, Config{Version: "test"})
	for _, f := range setup {
		f(c.server)
	}
	go func() { c.status <- c.server.serve() }()
	go c.readFrames()
	t.Cleanup(func() {
		clientSide.Close()
		cancel()
	})
	return c
}

func (c *rawClient) readFrames() {
	defer close(c.frames)
	r := textproto.NewReader(bufio.NewReader(c.conn))
	for {
		header, err := r.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(header.Get("Content-Length"))
		if err != nil {
			return
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(r.R, data); err != nil {
			return
		}
		c.frames <- data
	}
}

func (c *rawClient) send(msg string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// next returns the next message from the server whose method is not one of skip.
func (c *rawClient) next(skip ...string) json.RawMessage {
	c.t.Helper()
	for {
		select {
		case data, ok := <-c.frames:
			if !ok {
				c.t.Fatal("connection closed")
			}
			var m struct{ Method string }
			json.Unmarshal(data, &m)
			if !contains(skip, m.Method) {
				return data
			}
		case <-time.After(10 * time.Second):
			c.t.Fatal("timed out waiting for a message")
		}
	}
}

// response returns the next response, skipping notifications such as diagnostics.
func (c *rawClient) response() json.RawMessage {
	c.t.Helper()
	return c.next("textDocument/publishDiagnostics", "window/logMessage", "ssalens/status")
}

func (c *rawClient) exitStatus() int {
	c.t.Helper()
	select {
	case status := <-c.status:
		return status
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit")
	}
	return -1
}

// response is a decoded JSON-RPC response.
type response struct {
	ID     any
	Result any
	Error  struct {
		Code    int
		Message string
	}
}

func decodeResponse(t *testing.T, data json.RawMessage) response {
	t.Helper()
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return r
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

const initializeMessage = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`

func hoverMessage(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.js"},"position":{"line":0,"character":4}}}`
}

func TestLifecycle(t *testing.T) {
	c := startRaw(t)
	c.send(hoverMessage("1"))
	wantJSON(t, "request before initialize", c.response(),
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"textDocument/hover before initialize"}}`)
	c.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.js","languageId":"javascript","version":1,"text":"let a = 1;"}}}`)

	c.send(strings.Replace(initializeMessage, `"id":0`, `"id":"init"`, 1))
	if got := decodeResponse(t, c.response()); got.ID != "init" || got.Result == nil {
		t.Fatalf("initialize: %+v", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	c.send(hoverMessage("2"))
	wantJSON(t, "the didOpen before initialize was dropped", c.response(),
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"file:///a.js is not open"}}`)
	c.send(initializeMessage)
	wantJSON(t, "a second initialize", c.response(),
		`{"jsonrpc":"2.0","id":0,"error":{"code":-32600,"message":"initialize was already called"}}`)

	c.send(`{"jsonrpc":"2.0","id":3,"method":"textDocument/semanticTokens/full","params":{}}`)
	wantJSON(t, "unknown request", c.response(),
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method not found: textDocument/semanticTokens/full"}}`)
	c.send(`{"jsonrpc":"2.0","id":4,"method":"ssalens/noParams"}`)
	wantJSON(t, "unknown request without params", c.response(),
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found: ssalens/noParams"}}`)
	c.send(`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"verbose"}}`)
	c.send(`{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[]}}`)
	c.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.js","languageId":"javascript","version":1,"text":"let a = 1;"}}}`)
	c.send(hoverMessage("5"))
	if got := decodeResponse(t, c.response()); got.ID != 5.0 || got.Result == nil {
		t.Fatalf("hover after unknown notifications: %+v", got)
	}
	c.send(`{"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":[1,2]}`)
	if got := decodeResponse(t, c.response()); got.ID != 6.0 || got.Error.Code != -32602 {
		t.Fatalf("hover with bad params: %+v", got)
	}

	c.send(`{"jsonrpc":"2.0","id":7,"method":"shutdown"}`)
	wantJSON(t, "shutdown", c.response(), `{"jsonrpc":"2.0","id":7,"result":null}`)
	c.send(hoverMessage("8"))
	wantJSON(t, "request after shutdown", c.response(),
		`{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"textDocument/hover after shutdown"}}`)
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if status := c.exitStatus(); status != 0 {
		t.Errorf("exit after shutdown: status %d, want 0", status)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := startRaw(t)
	c.send(initializeMessage)
	c.response()
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	if status := c.exitStatus(); status != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", status)
	}
}

func TestEndOfInput(t *testing.T) {
	c := startRaw(t)
	c.send(initializeMessage)
	c.response()
	c.conn.Close()
	if status := c.exitStatus(); status != 1 {
		t.Errorf("end of input without shutdown: status %d, want 1", status)
	}
}

func TestMalformedMessages(t *testing.T) {
	c := startRaw(t)
	c.send(initializeMessage)
	c.response()
	c.send(`{"jsonrpc":"2.0","id":1,"method":`)
	if got := decodeResponse(t, c.response()); got.ID != nil || got.Error.Code != -32700 {
		t.Errorf("truncated JSON: %+v", got)
	}
	c.send(`{"jsonrpc":"1.0","id":2,"method":"shutdown"}`)
	if got := decodeResponse(t, c.response()); got.ID != nil || got.Error.Code != -32600 {
		t.Errorf("wrong version: %+v", got)
	}
	msg := `{"jsonrpc":"2.0","id":3,"method":"shutdown"}`
	fmt.Fprintf(c.conn, "\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: %d\r\n\r\n%s", len(msg), msg)
	wantJSON(t, "shutdown after malformed messages, with more headers", c.response(), `{"jsonrpc":"2.0","id":3,"result":null}`)
}

// TestUnreadableInput sends a header the server cannot read: the session ends, and the
// server's log says why.
func TestUnreadableInput(t *testing.T) {
	for _, header := range []string{"garbage\r\n\r\n", "Content-Length: abc\r\n\r\n", "Content-Type: x\r\n\r\n{}"} {
		c := startRaw(t)
		c.send(initializeMessage)
		c.response()
		fmt.Fprint(c.conn, header)
		if status := c.exitStatus(); status != 1 {
			t.Errorf("%q: status %d, want 1", header, status)
		}
		if log := c.stderr.String(); !strings.Contains(log, "cannot read the client's messages") {
			t.Errorf("%q: the log says %q, not why the session ended", header, log)
		}
	}
}

// TestNotOpenMessages checks that a request about a document it cannot answer for says why:
// no document named, a language not analyzed, a document not open.
func TestNotOpenMessages(t *testing.T) {
	c := startRaw(t)
	c.send(initializeMessage)
	c.response()
	c.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.py","languageId":"python","version":1,"text":"x = 1"}}}`)
	for _, tc := range []struct{ params, want string }{
		{`{}`, "the params name no document: textDocument.uri is missing or empty"},
		{`{"textDocument":{"uri":"file:///a.py"},"position":{"line":0,"character":0}}`,
			`file:///a.py is not analyzed: its language "python" is none of javascript, javascriptreact, typescript and typescriptreact`},
		{`{"textDocument":{"uri":"file:///b.js"},"position":{"line":0,"character":0}}`, "file:///b.js is not open"},
	} {
		c.send(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":` + tc.params + `}`)
		if got := decodeResponse(t, c.response()); got.Error.Message != tc.want {
			t.Errorf("hover with %s: error %q, want %q", tc.params, got.Error.Message, tc.want)
		}
	}
}

// TestChangeOutsideTheText sends a change whose range starts past the last line: the server
// applies it at the end of the text, and its log says that the client's text may differ.
func TestChangeOutsideTheText(t *testing.T) {
	c := startRaw(t)
	c.send(initializeMessage)
	c.response()
	c.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.js","languageId":"javascript","version":1,"text":"let a = 1;\n"}}}`)
	c.send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.js","version":2},"contentChanges":[{"range":{"start":{"line":100,"character":0},"end":{"line":100,"character":0}},"text":"a;"}]}}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`)
	c.response()
	want := "file:///a.js: version 2, content change 0: the range 100:0-100:0 (from 0) goes past the last line, 1; the client's text and the server's may differ"
	if log := c.stderr.String(); !strings.Contains(log, want) {
		t.Errorf("the log says %q, not %q", log, want)
	}
	if text := string(c.server.snapshot().files["file:///a.js"].text()); text != "let a = 1;\na;" {
		t.Errorf("the text is %q, want the change at its end", text)
	}
}

// blockUntilCancelled is a test request that waits for its cancellation.
func blockUntilCancelled(s *Server) {
	s.requests["test/block"] = func(ctx context.Context, _ *snapshot, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return "done", nil
	}
}

func TestCancelRequest(t *testing.T) {
	c := startRaw(t, blockUntilCancelled)
	c.send(initializeMessage)
	c.response()
	c.send(`{"jsonrpc":"2.0","id":7,"method":"test/block"}`)
	c.send(`{"jsonrpc":"2.0","id":"seven","method":"test/block"}`)
	c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"seven"}}`)
	wantJSON(t, "string id cancelled", c.response(),
		`{"jsonrpc":"2.0","id":"seven","error":{"code":-32800,"message":"test/block cancelled"}}`)
	c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}`)
	wantJSON(t, "numeric id cancelled", c.response(),
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"test/block cancelled"}}`)
	c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":123}}`) // already answered or unknown
	c.send(`{"jsonrpc":"2.0","id":8,"method":"shutdown"}`)
	wantJSON(t, "still serving", c.response(), `{"jsonrpc":"2.0","id":8,"result":null}`)
}

func TestPanicIsRecovered(t *testing.T) {
	c := startRaw(t, func(s *Server) {
		s.requests["test/panic"] = func(context.Context, *snapshot, json.RawMessage) (any, error) { panic("boom") }
		s.notifications["test/panicking"] = func(context.Context, json.RawMessage) error { panic("bang") }
	})
	c.send(initializeMessage)
	c.response()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"test/panic"}`)
	wantJSON(t, "log", c.next(), `{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":1,
		"message":"ssalens: internal error in test/panic: boom (the stack is in the server's stderr)"}}`)
	wantJSON(t, "reply", c.next(), `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"test/panic: internal error: boom"}}`)
	c.send(`{"jsonrpc":"2.0","method":"test/panicking"}`)
	wantJSON(t, "log", c.next(), `{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":1,
		"message":"ssalens: internal error in test/panicking: bang (the stack is in the server's stderr)"}}`)
	if log := c.stderr.String(); !strings.Contains(log, "ssalens: panic in test/panic: boom\n") || !strings.Contains(log, "ssalens: panic in test/panicking: bang\n") ||
		!strings.Contains(log, "server.(*Server).runRequest") {
		t.Errorf("stderr lacks the panics and their stacks:\n%s", log)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
	wantJSON(t, "still serving", c.response(), `{"jsonrpc":"2.0","id":2,"result":null}`)
}
