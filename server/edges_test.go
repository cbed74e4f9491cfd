package server

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/internal/race"
)

// Protocol edges of issue 13, each a defect found by driving the server as a hostile editor.

var refreshCapable = map[string]any{"workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": true}}}

// TestDiagnosticsWhenRefreshIsNeverAnswered: a client may answer workspace/inlayHint/refresh
// late or never. The diagnostics publisher asked for a refresh after analyzing a version whose
// hints were answered stale and waited for the answer: with a client that never answers, no
// diagnostics were published again (defect 3).
func TestDiagnosticsWhenRefreshIsNeverAnswered(t *testing.T) {
	var sb strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&sb, "function f%d(a, b) {\n  let x = a;\n  if (b) { x = %d; }\n  return x;\n}\n", i, i)
	}
	text := sb.String()
	c := startInitialized(t, refreshCapable, nil)
	c.mu.Lock()
	c.unanswered = map[string]bool{"workspace/inlayHint/refresh": true}
	c.mu.Unlock()
	c.open(fixtureURI, text)
	c.diagnostics(fixtureURI, 1)
	before := c.count("")
	mid := uint32(strings.Count(text, "\n") / 2)
	c.change(fixtureURI, 2, contentChange{Range: span(mid, 0, mid, 0), Text: " "})
	c.mustCall("textDocument/inlayHint", hintsParams(fixtureURI, mid-50, mid+50)) // answered stale
	c.waitFor(before, "workspace/inlayHint/refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	for v := int32(3); v <= 5; v++ {
		c.change(fixtureURI, v, contentChange{Range: span(mid, 0, mid, 0), Text: " "})
		c.mustCall("textDocument/inlayHint", hintsParams(fixtureURI, mid-50, mid+50))
		c.diagnostics(fixtureURI, v)
	}
}

// TestLoneCarriageReturns: a lone \r ends a line in JavaScript and in the LSP. The server
// counted only \n, and placed 4 of 5 hints on lines the client does not have (defect 4): the
// answers about a text with \r line ends must be those about the same text with \n.
func TestLoneCarriageReturns(t *testing.T) {
	c := startInitialized(t, nil, nil)
	lf, cr := protocol.DocumentURI("file:///lf.js"), protocol.DocumentURI("file:///cr.js")
	c.open(lf, fixture)
	c.open(cr, strings.ReplaceAll(fixture, "\n", "\r"))
	rename := func(data json.RawMessage) string { return strings.ReplaceAll(string(data), string(lf), string(cr)) }
	wantJSON(t, "hints", c.inlayHints(cr), rename(c.inlayHints(lf)))
	wantJSON(t, "diagnostics", c.diagnostics(cr, 1), rename(c.diagnostics(lf, 1)))
	for line := uint32(0); line < 17; line++ {
		for _, char := range []uint32{2, 9} {
			wantJSON(t, fmt.Sprintf("hover at %d:%d", line, char), c.mustCall("textDocument/hover", at(cr, line, char)),
				rename(c.mustCall("textDocument/hover", at(lf, line, char))))
		}
	}
}

// TestInlayHintsOfPartOfALine asks for the hints of a few characters in the middle of a 1 MB
// line holding non-ASCII characters: the answer holds the hints of that range only, and the
// hints of the whole line come in bounded time (defect 5: converting each hint's position
// decoded the line from its start, minutes for the whole line).
func TestInlayHintsOfPartOfALine(t *testing.T) {
	skipUnderRace(t)
	const unit = "x = x + 'é';" // 12 UTF-16 units, 13 bytes
	text := "let x = 0;" + strings.Repeat(unit, 80_000)
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///minified.js")
	c.open(uri, text)
	from := uint32(10 + 12*40_000) // the start of the 40,000th unit
	var hints []inlayHint
	if err := json.Unmarshal(c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": span(0, from, 0, from+24)}), &hints); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hints {
		got = append(got, fmt.Sprintf("%d:%d %v", h.Position.Line, h.Position.Character, h.Label))
	}
	want := []string{fmt.Sprintf("0:%d ₄₀₀₀₂", from+1), fmt.Sprintf("0:%d ₄₀₀₀₁", from+5),
		fmt.Sprintf("0:%d ₄₀₀₀₃", from+13), fmt.Sprintf("0:%d ₄₀₀₀₂", from+17)}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hints of 0:%d–0:%d:\n%s\nwant\n%s", from, from+24, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := json.Unmarshal(c.inlayHints(uri), &hints); err != nil || len(hints) != 160_001 {
		t.Errorf("%d hints for the whole line (%v), want 160001", len(hints), err)
	}
}

// TestNotAnalyzedSaysSo: a document too large to parse, or whose analysis would pass the
// memory ceiling, says so in a diagnostic and, once, in a window message (a 40 MB file was
// silently not analyzed).
func TestNotAnalyzedSaysSo(t *testing.T) {
	for _, tt := range []struct {
		name, text, reason string
		limit              int64
	}{
		{"over the size limit", strings.Repeat("x = 1;\n", analysis.MaxSize/7+1), "more than the 32 MiB ssalens analyzes", 0},
		{"over the memory ceiling", fixture, "more than the 0 MiB ssalens allows a document", 1000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.limit == 0 {
				skipUnderRace(t)
			}
			c := startServer(t, func(s *Server) { s.config.Analysis.MemoryLimit = tt.limit })
			c.initialize(nil, nil)
			uri := protocol.DocumentURI("file:///big.js")
			c.open(uri, tt.text)
			var diags protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(c.diagnostics(uri, 1), &diags); err != nil {
				t.Fatal(err)
			}
			if len(diags.Diagnostics) != 1 || !strings.Contains(diags.Diagnostics[0].Message, tt.reason) {
				t.Errorf("diagnostics %+v, want one that says %q", diags.Diagnostics, tt.reason)
			}
			for v := int32(2); v <= 3; v++ {
				c.change(uri, v, contentChange{Range: span(0, 0, 0, 0), Text: " "})
				c.diagnostics(uri, v)
			}
			_, shown := c.waitFor(0, "window/showMessage", func(m message) bool { return m.Method == "window/showMessage" })
			if n := c.count("window/showMessage"); n != 1 || !strings.Contains(string(shown), tt.reason) {
				t.Errorf("%d window messages, the first %s; want one that says %q", n, shown, tt.reason)
			}
		})
	}
}

// TestMalformedChangesRejected: a content change without text used to be taken for a deletion,
// and a negative version came back as 4294967293 (defect 7). Both are rejected, with a log
// message, and the document stays as it was.
func TestMalformedChangesRejected(t *testing.T) {
	c := openFixture(t)
	c.diagnostics(fixtureURI, 1)
	hints := c.inlayHints(fixtureURI)
	for _, tt := range []struct {
		name, log string
		params    map[string]any
	}{
		{"a range without text", "has no text", map[string]any{"textDocument": map[string]any{"uri": fixtureURI, "version": 2},
			"contentChanges": []any{map[string]any{"range": span(0, 0, 5, 0)}}}},
		{"a negative version", "negative version -3", map[string]any{"textDocument": map[string]any{"uri": fixtureURI, "version": -3},
			"contentChanges": []any{map[string]any{"range": span(0, 0, 5, 0), "text": ""}}}},
	} {
		before := c.count("")
		c.notify("textDocument/didChange", tt.params)
		c.waitFor(before, "a log message that says "+tt.log, func(m message) bool {
			return m.Method == "window/logMessage" && strings.Contains(string(m.Params), tt.log)
		})
		wantJSON(t, tt.name+": hints", c.inlayHints(fixtureURI), string(hints))
	}
	before := c.count("")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///neg.js", "languageId": "javascript",
		"version": -1, "text": "let a = 1;"}})
	c.waitFor(before, "a log message about the negative version", func(m message) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "negative version -1")
	})
	if code := c.callError("textDocument/hover", at("file:///neg.js", 0, 4)); code == 0 {
		t.Errorf("a document opened with a negative version is open")
	}
}

// TestVersionGoingBackLogged: a change whose version does not follow the document's was
// applied without a word; it is still applied (answers follow the text), and logged.
func TestVersionGoingBackLogged(t *testing.T) {
	c := openFixture(t)
	c.change(fixtureURI, 1, contentChange{Range: span(0, 0, 0, 0), Text: " "})
	c.diagnostics(fixtureURI, 1)
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(c.stderr.String(), "version 1 follows version 1"); {
		if time.Now().After(deadline) {
			t.Fatalf("no log of the version; the log:\n%s", c.stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServerReadsWhileTheClientDoesNot: a client may write while it does not read (its
// reading goroutine busy answering the server, say). The server's reading goroutine writes
// too (the log of a notification it cannot apply), and over a pipe with no room it waited for
// the client, which waited for it: both stopped for good. The client here stops reading after
// 1,000 messages and sends 1,500 notifications that the server logs an error for: every one
// must be read, and every log message come once the client reads again.
func TestServerReadsWhileTheClientDoesNot(t *testing.T) {
	c := startRaw(t)
	c.send(initializeMessage)
	c.response()
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	if err := c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	const n = 1500
	for range n {
		c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}`)
	}
	for range n {
		if got := c.next(); !strings.Contains(string(got), "window/logMessage") {
			t.Fatalf("got %s, want a log message", got)
		}
	}
}

// TestServerBoundsUnreadAnswers: a client sends requests and does not read the answers. The
// server held every answer (5.4 GB in a user test); now it holds at most maxUnsent bytes of
// them queued and maxInflight being answered, then stops reading, so that the client's writes
// wait. Once the client reads again, every request is answered.
func TestServerBoundsUnreadAnswers(t *testing.T) {
	if race.Enabled {
		t.Skip("its 300 MB of answers take a minute under the race detector; go test ./... runs it")
	}
	c := startRawReading(t, 0)
	c.send(initializeMessage)
	c.response()
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	var src strings.Builder
	for i := range 300 {
		fmt.Fprintf(&src, "function f%d(a) { let x = a; if (a) x = 1; return x; }\n", i)
	}
	text, _ := json.Marshal(src.String())
	c.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.js","languageId":"javascript","version":1,"text":` + string(text) + `}}}`)
	hints := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/inlayHint","params":{"textDocument":{"uri":"file:///a.js"},"range":{"start":{"line":0,"character":0},"end":{"line":300,"character":0}}}}`, id)
	}
	c.send(hints(0))
	answerSize := len(c.response())

	// Enough requests that their answers are three times what the bounds let the server hold.
	held := maxUnsent + maxInflight*answerSize
	n := 3 * held / answerSize
	var sent atomic.Int64
	sending := make(chan error, 1)
	go func() {
		for id := 1; id <= n; id++ {
			msg := hints(id)
			if _, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
				sending <- err
				return
			}
			sent.Add(1)
		}
		sending <- nil
	}()
	for last := int64(-1); last != sent.Load(); {
		last = sent.Load()
		time.Sleep(time.Second)
	}
	if got := sent.Load(); got == int64(n) {
		t.Errorf("the server read all %d requests while their answers were not read", n)
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if limit := uint64(held) + 64<<20; m.HeapAlloc > limit {
		t.Errorf("the heap holds %d MB with the answers unread, more than %d MB", m.HeapAlloc>>20, limit>>20)
	}
	t.Logf("%d of %d requests sent, %d MB heap, answers of %d kB", sent.Load(), n, m.HeapAlloc>>20, answerSize>>10)

	answered := make(map[int]bool)
	for len(answered) < n {
		var r struct {
			ID     *int
			Result json.RawMessage
		}
		if err := json.Unmarshal(c.response(), &r); err != nil || r.ID == nil || len(r.Result) < answerSize/2 || answered[*r.ID] {
			t.Fatalf("after %d answers, not the hints of another request: %v", len(answered), err)
		}
		answered[*r.ID] = true
	}
	if err := <-sending; err != nil {
		t.Fatal(err)
	}
}
