package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/treesitter"
)

// typist types text into an open document one character per didChange, as an editor sends
// keystrokes, with UTF-16 positions.
type typist struct {
	c       *testClient
	uri     protocol.DocumentURI
	version int32
	line    uint32
	char    uint32 // in UTF-16 units
}

func (ty *typist) send(r protocol.Range, text string) {
	ty.version++
	ty.c.change(ty.uri, ty.version, contentChange{Range: &r, Text: text})
}

func (ty *typist) typeText(text string) {
	for _, r := range text {
		here := pos(ty.line, ty.char)
		ty.send(protocol.Range{Start: here, End: here}, string(r))
		if r == '\n' {
			ty.line, ty.char = ty.line+1, 0
		} else {
			ty.char += uint32(utf16.RuneLen(r))
		}
	}
}

// typo types a character and deletes it again.
func (ty *typist) typo() {
	ty.typeText("#")
	ty.char--
	ty.send(protocol.Range{Start: pos(ty.line, ty.char), End: pos(ty.line, ty.char+1)}, "")
}

// sameAnalysis checks that the document at uri has the hints and diagnostics (the first of
// version after the first skip messages) that opening its text afresh gives.
func sameAnalysis(t *testing.T, c *testClient, uri protocol.DocumentURI, version int32, skip int, text string) {
	t.Helper()
	fresh := protocol.DocumentURI(string(uri) + ".fresh.js")
	c.open(fresh, text)
	rename := func(data json.RawMessage) string {
		return strings.ReplaceAll(string(data), string(fresh), string(uri))
	}
	wantJSON(t, "hints", c.inlayHints(uri), rename(c.inlayHints(fresh)))
	var diags protocol.PublishDiagnosticsParams
	if err := json.Unmarshal(c.diagnostics(fresh, 1), &diags); err != nil {
		t.Fatal(err)
	}
	diags.URI, diags.Version = uri, uint32(version)
	want, _ := json.Marshal(diags)
	wantJSON(t, "diagnostics", c.diagnosticsAfter(skip, uri, version), string(want))
}

func TestTypingCharacterByCharacter(t *testing.T) {
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///typed.js")
	c.open(uri, "")
	ty := &typist{c: c, uri: uri, version: 1}
	text := fixture + "const s = \"😀\"; let w = s;\nif (w) w = 1;\nw;\n"
	for i, line := range strings.SplitAfter(text, "\n") {
		ty.typeText(line)
		if i%2 == 0 {
			ty.typo()
		}
	}
	if ty.version < int32(utf8.RuneCountInString(text)) {
		t.Fatalf("only %d changes", ty.version)
	}
	sameAnalysis(t, c, uri, ty.version, 0, text)
}

func TestSyntaxErrorsWhileTyping(t *testing.T) {
	text := "function good(a) {\n  let x = a;\n  if (x) x = 2;\n  return x;\n}\nfunction middle(b) {\n  let y = b;\n  \n  return y;\n}\nfunction alsoGood(c) {\n  let z = c * 2;\n  return z;\n}\n"
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///broken.js")
	c.open(uri, text)
	hintsOf := func(from, to uint32) json.RawMessage {
		return c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": span(from, 0, to, 0)})
	}
	good, alsoGood := hintsOf(0, 5), hintsOf(10, 14)
	if string(good) == "[]" || string(alsoGood) == "[]" {
		t.Fatalf("no hints before typing: %s %s", good, alsoGood)
	}
	ty := &typist{c: c, uri: uri, version: 1, line: 7, char: 2}
	for _, r := range "y = y + (() => { while (" {
		ty.typeText(string(r))
		wantJSON(t, "hints of good after typing "+string(r), hintsOf(0, 5), string(good))
		wantJSON(t, "hints of alsoGood after typing "+string(r), hintsOf(10, 14), string(alsoGood))
	}
	var diags struct {
		Diagnostics []protocol.Diagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal(c.diagnostics(uri, ty.version), &diags); err != nil {
		t.Fatal(err)
	}
	if len(diags.Diagnostics) == 0 || diags.Diagnostics[0].Code != "syntaxError" || !strings.Contains(diags.Diagnostics[0].Message, "syntax error") {
		t.Errorf("diagnostics of the broken text: %+v, want a syntax error", diags.Diagnostics)
	}
}

func TestChangesInOneNotification(t *testing.T) {
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///multi.js")
	c.open(uri, fixture)
	c.change(uri, 2,
		contentChange{Range: span(1, 10, 1, 11), Text: "42"},                            // let x = 42;
		contentChange{Range: span(0, 0, 0, 0), Text: "// head\n"},                       // shifts every line
		contentChange{Range: span(4, 2, 4, 11), Text: "return x + c;"},                  // f's return
		contentChange{Range: span(19, 0, 19, 0), Text: "function h(q) { return q; }\n"}, // at the end
	)
	want := "// head\n" + strings.Replace(strings.Replace(fixture, "let x = 1;", "let x = 42;", 1), "return x;", "return x + c;", 1) +
		"function h(q) { return q; }\n"
	sameAnalysis(t, c, uri, 2, 0, want)
}

func TestFullTextChange(t *testing.T) {
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///full.js")
	c.open(uri, fixture)
	want := strings.Replace(fixture, "i = i + 1;", "i += 2;", 1)
	c.change(uri, 2, contentChange{Text: want})
	sameAnalysis(t, c, uri, 2, 0, want)
}

func TestDidSaveResynchronizes(t *testing.T) {
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///saved.js")
	c.open(uri, fixture)
	c.diagnostics(uri, 1)
	saved := c.count("")
	want := strings.Replace(fixture, "let y = 1;", "let y = 1; y++;", 1)
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}, "text": want})
	sameAnalysis(t, c, uri, 1, saved, want)
}

func TestApplyChanges(t *testing.T) {
	text := []byte("abc\r\ndef\nghi")
	tests := []struct {
		name    string
		changes []contentChange
		want    string
		edits   []analysis.Edit
		warning string // what the server logs, if anything
	}{
		{"insert", []contentChange{{Range: span(1, 1, 1, 1), Text: "XY"}}, "abc\r\ndXYef\nghi", []analysis.Edit{{StartByte: 6, OldEndByte: 6, NewEndByte: 8}}, ""},
		{"delete across a CRLF", []contentChange{{Range: span(0, 2, 1, 1), Text: ""}}, "abef\nghi", []analysis.Edit{{StartByte: 2, OldEndByte: 6, NewEndByte: 2}}, ""},
		{"reversed range", []contentChange{{Range: span(1, 1, 0, 2), Text: "-"}}, "ab-ef\nghi", []analysis.Edit{{StartByte: 2, OldEndByte: 6, NewEndByte: 3}}, "ends before it starts"},
		{"past the last line", []contentChange{{Range: span(5, 0, 5, 0), Text: "!"}}, "abc\r\ndef\nghi!", []analysis.Edit{{StartByte: 12, OldEndByte: 12, NewEndByte: 13}}, "goes past the last line, 2"},
		{"past the end of a line", []contentChange{{Range: span(1, 9, 1, 9), Text: "!"}}, "abc\r\ndef!\nghi", []analysis.Edit{{StartByte: 8, OldEndByte: 8, NewEndByte: 9}}, ""},
		{"two changes", []contentChange{{Range: span(2, 3, 2, 3), Text: "!"}, {Range: span(0, 0, 0, 1), Text: ""}},
			"bc\r\ndef\nghi!", []analysis.Edit{{StartByte: 12, OldEndByte: 12, NewEndByte: 13}, {StartByte: 0, OldEndByte: 1, NewEndByte: 0}}, ""},
		{"whole text", []contentChange{{Text: "abc\r\nDEF\nghi"}}, "abc\r\nDEF\nghi", []analysis.Edit{{StartByte: 5, OldEndByte: 8, NewEndByte: 8}}, ""},
		{"same whole text", []contentChange{{Text: string(text)}}, string(text), []analysis.Edit{{StartByte: 12, OldEndByte: 12, NewEndByte: 12}}, ""},
	}
	for _, tt := range tests {
		doc := analysis.NewDocument(text, analysis.Options{})
		var warned []string
		got, edits := applyChanges(doc, tt.changes, utf16Encoding, func(i int, why string) { warned = append(warned, why) })
		if string(got.Text()) != tt.want || !slices.Equal(edits, tt.edits) {
			t.Errorf("%s: got %q, %+v; want %q, %+v", tt.name, got.Text(), edits, tt.want, tt.edits)
		}
		if w := strings.Join(warned, "; "); tt.warning == "" && w != "" || !strings.Contains(w, tt.warning) {
			t.Errorf("%s: warned %q, want %q", tt.name, w, tt.warning)
		}
	}
}

// TestRandomEdits sends random range edits, of texts with astral characters and CRLF, at
// UTF-16 positions computed by a client-side model of the text, which must end in the model's
// text: the server does not re-synchronize when the client saves it, and, if it parses, its
// analysis is that of opening the model's text.
func TestRandomEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inserts := []string{"", "x", "😀", "\r\n", "\n", "é", "let q = 1;", "q = q + 1;", "}", "{", "if (q) ", "while (x) {", "(", ")", "\"😀\""}
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///random.js")
	model := []rune(strings.ReplaceAll(fixture, "\n", "\r\n"))
	c.open(uri, string(model))
	// position returns the LSP position of rune index i of the model.
	position := func(i int) protocol.Position {
		var p protocol.Position
		for _, r := range model[:i] {
			if r == '\n' {
				p.Line, p.Character = p.Line+1, 0
			} else {
				p.Character += uint32(utf16.RuneLen(r))
			}
		}
		return p
	}
	// boundary picks a rune index that is not between \r and \n.
	boundary := func(from int) int {
		i := from + rng.IntN(len(model)-from+1)
		if i > 0 && i < len(model) && model[i-1] == '\r' && model[i] == '\n' {
			i--
		}
		return max(i, from)
	}
	version := int32(1)
	for range 300 {
		start := boundary(0)
		end := start
		if rng.IntN(3) == 0 {
			end = boundary(start)
			end = min(end, start+10)
			if end > 0 && end < len(model) && model[end-1] == '\r' && model[end] == '\n' {
				end--
			}
		}
		insert := inserts[rng.IntN(len(inserts))]
		r := protocol.Range{Start: position(start), End: position(end)}
		version++
		c.change(uri, version, contentChange{Range: &r, Text: insert})
		model = append(model[:start:start], append([]rune(insert), model[end:]...)...)
	}
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}, "text": string(model)})
	c.inlayHints(uri) // the save is handled before this request
	if strings.Contains(c.stderr.String(), "re-synchronizing") {
		t.Fatalf("the server's text differs from the model's:\n%s", c.stderr.String())
	}
	if r, _ := analysis.Analyze([]byte(string(model)), analysis.Options{}); !hasSyntaxErrors(r) {
		sameAnalysis(t, c, uri, version, 0, string(model))
	}
}

// hasSyntaxErrors reports whether r has a function that a syntax error keeps from being
// analyzed; its answers after edits then may come from the last version that parsed.
func hasSyntaxErrors(r *analysis.Result) bool {
	for _, d := range r.Diagnostics(false) {
		if d.Code == "notAnalyzed" && strings.Contains(d.Message, "syntax error") {
			return true
		}
	}
	return false
}

// TestIdleParsesWhole edits a text with syntax errors where tree-sitter's incremental parse
// keeps another tree than its whole parse of the new text (as analysis.TestParsedWhole): once
// the server goes idle, the version is parsed whole, its diagnostics published again and the
// client asked to refresh its hints, and its answers are a fresh server's.
func TestIdleParsesWhole(t *testing.T) {
	text, err := os.ReadFile("../testdata/recovery/reparse_differs.js")
	if err != nil {
		t.Fatal(err)
	}
	prev, at := string(text), bytes.Index(text, []byte("ed]; "))
	next := prev[:at] + "function " + prev[at+5:]
	c := startInitialized(t, refreshCapable, nil)
	uri := protocol.DocumentURI("file:///recovered.js")
	c.open(uri, prev)
	c.diagnostics(uri, 1)
	lines := analysis.NewLines(text)
	c.change(uri, 2, contentChange{Range: &protocol.Range{Start: position(lines, int32(at), utf16Encoding),
		End: position(lines, int32(at+5), utf16Encoding)}, Text: "function "})
	first, _ := c.waitFor(0, "the diagnostics of version 2", func(m message) bool { return isDiagnosticsOf(m, uri, 2) })
	again, _ := c.waitFor(first+1, "the diagnostics of version 2 parsed whole", func(m message) bool { return isDiagnosticsOf(m, uri, 2) })
	c.waitFor(first+1, "a refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	f, err := c.server.snapshot().file(uri)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := treesitter.Parse(treesitter.JavaScript, []byte(next))
	if err != nil {
		t.Fatal(err)
	}
	if string(f.text()) != next || !slices.Equal(f.result().File.Tree.Nodes, whole.Nodes) {
		t.Errorf("version 2 after the server went idle: not the whole parse of %q", next)
	}
	sameAnalysis(t, c, uri, 2, again, next)
}

// TestQuietCollects checks that a moment without edits after a version's diagnostics starts a
// garbage collection once the garbage fills a quarter of the room the collector leaves the
// heap, long before the pause that parses whole and compacts (Server.idle), and not with less.
func TestQuietCollects(t *testing.T) {
	c := startServer(t, func(s *Server) { s.idleAfter = time.Hour })
	c.initialize(nil, nil)
	uri := protocol.DocumentURI("file:///quiet.js")
	c.open(uri, "let x = 1;\n")
	c.diagnostics(uri, 1)

	runtime.GC()
	before := forcedCollections()
	c.change(uri, 2, contentChange{Text: "let x = 2;\n"})
	c.diagnostics(uri, 2)
	time.Sleep(20 * collectDelay)
	if forcedCollections() != before {
		t.Error("a quiet moment after little garbage started a collection")
	}

	for version := int32(3); ; version++ {
		if version == 13 {
			t.Fatal("the collector ran on its own before every one of 10 quiet moments")
		}
		cycles := collections()
		makeGarbage(0.5)
		c.change(uri, version, contentChange{Text: fmt.Sprintf("let x = %d;\n", version)})
		c.diagnostics(uri, version)
		if collections() != cycles {
			continue // the collector ran on its own before the quiet moment: try again
		}
		for deadline := time.Now().Add(10 * time.Second); forcedCollections() == before; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("no collection 10 s after the last diagnostics, with garbage past half the room")
			}
		}
		return
	}
}

// makeGarbage allocates, and drops, until the heap holds share of the room the collector
// leaves it past what the last collection found live.
func makeGarbage(share float64) {
	defer func() { made = nil }()
	for {
		if garbage, room := heapGarbage(); float64(garbage) >= share*float64(room) {
			return
		}
		made = append(made, make([]byte, 64<<10))
	}
}

// made is what makeGarbage makes, held until it is done so that the compiler keeps it on the
// heap.
var made [][]byte

// collections returns how many garbage collections ended in this process.
func collections() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumGC
}

// forcedCollections returns how many garbage collections runtime.GC started in this process.
func forcedCollections() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumForcedGC
}
