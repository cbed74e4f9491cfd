package server

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

var (
	sessionEdits = flag.Int("edits", 60, "edits per editing session of TestEditingSessions")
	sessionSeed  = flag.Uint64("seed", 1, "the seed of TestEditingSessions")
	sessionFiles = flag.String("files", "moment", "the corpus files TestEditingSessions edits, comma-separated, or all")
)

// TestEditingSessions drives the server through random editing sessions over corpus files, as
// an editor would: typing, backspacing, deleting selections, pasting from other corpus files,
// several changes in one notification, requests left in flight and cancelled, and undo back to
// the last valid text. Answers must be a function of the text:
//
//   - at every settle point (a text without syntax errors), every answer (the inlay hints of
//     the whole file, the diagnostics, and hover, definition and references at sampled
//     positions) equals the answer of a server that opens the same text afresh;
//   - with syntax errors, once the server went idle (when it parses whole a version whose
//     incremental parses left another tree, Server.parseWhole), answers may differ only inside
//     the functions an error touches (their own code, their nested functions aside), in the
//     fresh analysis or in one that followed the edits;
//   - no function is analyzed twice: no hint and no diagnostic comes twice;
//   - no answer comes later than 10 s, and the server survives.
//
// It runs on a fixed seed and a small budget; longer on demand:
//
//	go test ./server -run TestEditingSessions -args -edits=5000 -files=all -seed=7
func TestEditingSessions(t *testing.T) {
	skipUnderRace(t)
	files := corpus.Fetch(t)
	var chosen []corpus.File
	for _, f := range files {
		if *sessionFiles == "all" || slices.Contains(strings.Split(*sessionFiles, ","), f.Name) {
			chosen = append(chosen, f)
		}
	}
	if len(chosen) == 0 {
		t.Fatalf("no corpus file named %q", *sessionFiles)
	}
	ref := startInitialized(t, nil, nil)
	var total sessionStats
	for i, f := range chosen {
		t.Run(f.Name, func(t *testing.T) {
			s := newSession(t, f, files, ref, *sessionSeed+uint64(i))
			s.run(*sessionEdits)
			t.Logf("%s: %s", f.Name, &s.stats)
			total.add(&s.stats)
		})
	}
	t.Logf("all sessions: %s", &total)
}

type sessionStats struct {
	sessions, edits, notifications, settles, errorChecks, parsedWhole, compared, inflight, cancelled int
}

func (st *sessionStats) add(o *sessionStats) {
	st.sessions += o.sessions
	st.edits += o.edits
	st.notifications += o.notifications
	st.settles += o.settles
	st.errorChecks += o.errorChecks
	st.parsedWhole += o.parsedWhole
	st.compared += o.compared
	st.inflight += o.inflight
	st.cancelled += o.cancelled
}

func (st *sessionStats) String() string {
	return fmt.Sprintf("%d sessions, %d edits in %d notifications, %d settle points and %d checks with syntax errors (%d parsed whole), %d answers compared, %d requests left in flight (%d cancelled)",
		st.sessions, st.edits, st.notifications, st.settles, st.errorChecks, st.parsedWhole, st.compared, st.inflight, st.cancelled)
}

// session is one editing session: a server edited through its client, and a model of the
// text the client has.
type session struct {
	t       *testing.T
	rng     *rand.Rand
	c       *testClient
	ref     *testClient // the server that opens each compared text afresh
	uri     protocol.DocumentURI
	version int32
	text    []byte
	valid   []byte // the last text without syntax errors, for undo
	pastes  []corpus.File
	stats   sessionStats
}

func newSession(t *testing.T, f corpus.File, pastes []corpus.File, ref *testClient, seed uint64) *session {
	s := &session{t: t, rng: rand.New(rand.NewPCG(seed, 13)), ref: ref, uri: protocol.DocumentURI("file:///session/" + f.Name + ".js"),
		version: 1, text: f.Src, pastes: pastes}
	// The session decides when the user stops typing (check), not the server's timer.
	s.c = startServer(t, func(srv *Server) { srv.idleAfter = time.Hour })
	s.c.initialize(refreshCapable, nil)
	s.c.open(s.uri, string(f.Src))
	first, err := analysis.Analyze(f.Src, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.stats.sessions = 1
	if !hasSyntaxError(first) {
		s.valid = f.Src
		s.settle()
	}
	return s
}

// run makes edits edits, in random steps.
func (s *session) run(edits int) {
	checked := 0
	for s.stats.edits < edits {
		switch k := s.rng.IntN(20); {
		case k < 6:
			s.typeText()
		case k < 9:
			s.backspace()
		case k < 11:
			s.deleteSelection()
		case k < 13:
			s.paste()
		case k < 15:
			s.severalChanges()
		case k < 17:
			s.inflightRequests()
		default:
			s.undo()
		}
		if s.stats.notifications >= checked+7 {
			checked = s.stats.notifications
			s.check()
		}
	}
	s.undo()
}

// snippets are what typing inserts: code, brackets, comment and string starts, line breaks.
var snippets = []string{"x", " ", "\n", "let q = 1;", "q = q + 1;", "if (q) ", "{", "}", "(", ")", "/*", "*/", "//", "'", "\"", "`",
	"function h(p) { return p; }", "for (let i = 0; i < q; i++) ", "=>", "-", "++", "return ", ";", "é", "😀"}

// typeText types a snippet one character at a time.
func (s *session) typeText() {
	at := s.boundary(s.rng.IntN(len(s.text) + 1))
	for _, r := range snippets[s.rng.IntN(len(snippets))] {
		s.send(s.replace(at, at, string(r)))
		at += len(string(r))
	}
}

// backspace deletes up to 8 characters one at a time, backwards.
func (s *session) backspace() {
	at := s.boundary(s.rng.IntN(len(s.text) + 1))
	for range 1 + s.rng.IntN(8) {
		start := s.boundary(at - 1)
		if start >= at {
			return
		}
		s.send(s.replace(start, at, ""))
		at = start
	}
}

// deleteSelection deletes up to 300 bytes at once.
func (s *session) deleteSelection() {
	start := s.boundary(s.rng.IntN(len(s.text) + 1))
	s.send(s.replace(start, s.boundary(start+s.rng.IntN(300)), ""))
}

// paste inserts a piece of a corpus file, replacing a selection half of the time.
func (s *session) paste() {
	from := s.pastes[s.rng.IntN(len(s.pastes))].Src
	a := s.rng.IntN(len(from))
	b := min(len(from), a+1+s.rng.IntN(400))
	for a > 0 && from[a]&0xc0 == 0x80 {
		a--
	}
	for b < len(from) && from[b]&0xc0 == 0x80 {
		b++
	}
	start := s.boundary(s.rng.IntN(len(s.text) + 1))
	end := start
	if s.rng.IntN(2) == 0 {
		end = s.boundary(start + s.rng.IntN(100))
	}
	s.send(s.replace(start, end, string(from[a:b])))
}

// severalChanges sends two to four changes in one notification, each on the text the ones
// before it made.
func (s *session) severalChanges() {
	var changes []contentChange
	for range 2 + s.rng.IntN(3) {
		start := s.boundary(s.rng.IntN(len(s.text) + 1))
		end := start
		if s.rng.IntN(2) == 0 {
			end = s.boundary(start + s.rng.IntN(20))
		}
		changes = append(changes, s.replace(start, end, snippets[s.rng.IntN(len(snippets))]))
	}
	s.send(changes...)
}

// undo goes back to the last valid text in one change, as an editor's undo of several edits
// does, or as a change of the whole text; the text is then a settle point.
func (s *session) undo() {
	if s.valid == nil || string(s.valid) == string(s.text) {
		return
	}
	if s.rng.IntN(3) == 0 {
		s.text = s.valid
		s.stats.edits++
		s.send(contentChange{Text: string(s.valid)})
	} else {
		e := changedBytes(s.text, s.valid)
		s.send(s.replace(int(e.StartByte), int(e.OldEndByte), string(s.valid[e.StartByte:e.NewEndByte])))
	}
	s.settle()
}

// inflightRequests sends requests without waiting for their answers, and cancels some.
func (s *session) inflightRequests() {
	for range 1 + s.rng.IntN(4) {
		method, params := s.request(s.rng.IntN(len(s.text) + 1))
		id, err := s.c.conn.Call(&afterSend{Context: context.Background()}, method, params, nil)
		if err != nil && !errors.Is(err, context.Canceled) {
			s.t.Fatalf("%s left in flight: %v", method, err)
		}
		s.stats.inflight++
		if s.rng.IntN(2) == 0 {
			s.c.notify("$/cancelRequest", map[string]any{"id": &id})
			s.stats.cancelled++
		}
	}
}

// replace returns the change that replaces the bytes [start, end) of the text by insert, and
// applies it to the model.
func (s *session) replace(start, end int, insert string) contentChange {
	lines := analysis.NewLines(s.text)
	r := protocol.Range{Start: position(lines, int32(start), utf16Encoding), End: position(lines, int32(end), utf16Encoding)}
	next := slices.Concat(s.text[:start], []byte(insert), s.text[end:])
	s.text = next
	s.stats.edits++
	return contentChange{Range: &r, Text: insert}
}

// send sends changes, already applied to the model, as the next version.
func (s *session) send(changes ...contentChange) {
	s.version++
	s.c.change(s.uri, s.version, changes...)
	s.stats.notifications++
}

// boundary returns the character boundary at or before off, within the text, and not between
// "\r" and "\n".
func (s *session) boundary(off int) int {
	off = max(0, min(off, len(s.text)))
	for off > 0 && off < len(s.text) && (s.text[off]&0xc0 == 0x80 || s.text[off] == '\n' && s.text[off-1] == '\r') {
		off--
	}
	return off
}

// check compares the answers about the current text with a fresh server's: all of them at a
// settle point, those outside the functions a syntax error touches otherwise.
func (s *session) check() {
	fresh, err := analysis.Analyze(s.text, analysis.Options{})
	if err != nil {
		s.t.Fatal(err)
	}
	if !hasSyntaxError(fresh) {
		s.valid = s.text
		s.settle()
		return
	}
	s.stats.errorChecks++
	s.diagnostics(s.c, 0, s.uri, s.version) // the server has analyzed this version
	// The user stops typing: a version whose tree incremental parses made other than a whole
	// parse would is parsed whole, and its diagnostics published again.
	typed, mark := s.current(), s.c.count("")
	s.c.server.idle()
	f := s.current()
	if f == typed {
		mark = 0 // the diagnostics of the version are the ones published before
	} else {
		s.stats.parsedWhole++
	}
	s.compare(append(touched(fresh), f.result().Kept()...), mark)
}

// current returns the server's file of the session, which must be at the session's version.
func (s *session) current() *file {
	f, err := s.c.server.snapshot().file(s.uri)
	if err != nil {
		s.t.Fatal(err)
	}
	if f.version != s.version {
		s.t.Fatalf("the server holds %s version %d, not %d", s.uri, f.version, s.version)
	}
	return f
}

// settle compares every answer about the current text, which has no syntax error.
func (s *session) settle() {
	s.stats.settles++
	s.compare(nil, 0)
}

// compare compares the answers about the current text with those of a fresh server, except
// at the offsets inside the spans of skip. The session's diagnostics are the first of its
// version after the server's first published messages: a version parsed whole publishes its
// own after those of the version it replaced.
func (s *session) compare(skip []ssa.Span, published int) {
	t := s.t
	t.Helper()
	lines := analysis.NewLines(s.text)
	inside := func(p protocol.Position) bool {
		off := lines.Offset(p.Line, p.Character, analysis.UTF16)
		for _, sp := range skip {
			if sp.Start <= off && off <= sp.End { // a missing token ends a function at its end
				return true
			}
		}
		return false
	}
	mark := s.ref.count("")
	s.ref.open(freshURI, string(s.text))
	defer s.ref.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": freshURI}})
	where := fmt.Sprintf("version %d (%d edits), a settle point", s.version, s.stats.edits)
	if skip != nil {
		where = fmt.Sprintf("version %d (%d edits), with syntax errors", s.version, s.stats.edits)
	}

	gotDiags, wantDiags := s.diagnostics(s.c, published, s.uri, s.version), s.diagnostics(s.ref, mark, freshURI, 1)
	gotDiags = slices.DeleteFunc(gotDiags, func(d protocol.Diagnostic) bool { return inside(d.Range.Start) })
	wantDiags = slices.DeleteFunc(wantDiags, func(d protocol.Diagnostic) bool { return inside(d.Range.Start) })
	s.same(where+": diagnostics", gotDiags, wantDiags)

	gotHints, wantHints := s.hints(s.c, s.uri), s.hints(s.ref, freshURI)
	for _, hints := range [][]map[string]any{gotHints, wantHints} {
		seen := map[string]bool{}
		for _, h := range hints {
			data, _ := json.Marshal(h)
			if seen[string(data)] {
				t.Errorf("%s: hint %s twice: a function analyzed twice", where, data)
				break
			}
			seen[string(data)] = true
		}
	}
	outside := func(h map[string]any) bool {
		var p protocol.Position
		data, _ := json.Marshal(h["position"])
		_ = json.Unmarshal(data, &p)
		return inside(p)
	}
	s.same(where+": inlay hints", slices.DeleteFunc(gotHints, outside), slices.DeleteFunc(wantHints, outside))

	for range 12 {
		off := s.identifierAt(s.rng.IntN(len(s.text) + 1))
		p := position(lines, int32(off), utf16Encoding)
		if inside(p) {
			continue
		}
		method, params := s.request(off)
		got := s.c.answer(method, params)
		params["textDocument"] = map[string]any{"uri": freshURI}
		want := s.ref.answer(method, params)
		s.same(fmt.Sprintf("%s: %s at %d:%d", where, method, p.Line, p.Character), got, want)
	}
}

const freshURI protocol.DocumentURI = "file:///fresh/session.js"

// same reports a difference between answers of the session's server and the fresh one,
// whose URI it reads as the session's: the first element of a list that differs, with the
// number of elements of each.
func (s *session) same(what string, got, want any) {
	s.t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	w = []byte(strings.ReplaceAll(string(w), string(freshURI), string(s.uri)))
	s.stats.compared++
	if string(g) == string(w) {
		return
	}
	var gl, wl []json.RawMessage
	if json.Unmarshal(g, &gl) == nil && json.Unmarshal(w, &wl) == nil {
		i := 0
		for i < min(len(gl), len(wl)) && string(gl[i]) == string(wl[i]) {
			i++
		}
		at := func(l []json.RawMessage) json.RawMessage {
			if i < len(l) {
				return l[i]
			}
			return json.RawMessage("(none)")
		}
		s.t.Errorf("%s differs from a fresh server's at element %d (%d and %d elements):\ngot  %.600s\nwant %.600s", what, i, len(gl), len(wl), at(gl), at(wl))
		return
	}
	s.t.Errorf("%s differs from a fresh server's:\ngot  %.600s\nwant %.600s", what, g, w)
}

// request returns a request about offset off: hover, definition or references.
func (s *session) request(off int) (string, map[string]any) {
	p := position(analysis.NewLines(s.text), int32(off), utf16Encoding)
	params := map[string]any{"textDocument": map[string]any{"uri": s.uri}, "position": p}
	switch s.rng.IntN(3) {
	case 0:
		return "textDocument/hover", params
	case 1:
		return "textDocument/definition", params
	}
	params["context"] = map[string]any{"includeDeclaration": true}
	return "textDocument/references", params
}

// identifierAt returns the offset of the first identifier character at or after off.
func (s *session) identifierAt(off int) int {
	for off < len(s.text) && !isIdentifierByte(s.text[off]) {
		off++
	}
	return off
}

func isIdentifierByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func (s *session) hints(c *testClient, uri protocol.DocumentURI) []map[string]any {
	var hints []map[string]any
	if err := json.Unmarshal(c.answer("textDocument/inlayHint", hintsParams(uri, 0, 1<<30)), &hints); err != nil {
		s.t.Fatal(err)
	}
	return hints
}

// diagnostics waits for the diagnostics of version of uri published after the first skip
// messages from the server.
func (s *session) diagnostics(c *testClient, skip int, uri protocol.DocumentURI, version int32) []protocol.Diagnostic {
	var p protocol.PublishDiagnosticsParams
	if err := json.Unmarshal(c.diagnosticsAfter(skip, uri, version), &p); err != nil {
		s.t.Fatal(err)
	}
	return p.Diagnostics
}

// touched returns the own code of the functions a syntax error touches: their spans, their
// nested functions aside.
func touched(r *analysis.Result) []ssa.Span {
	var spans []ssa.Span
	for _, fn := range r.Funcs {
		if fn.NotAnalyzed.Kind != ssa.SyntaxError {
			continue
		}
		start := fn.Span.Start
		for _, c := range fn.Children {
			spans = append(spans, ssa.Span{Start: start, End: c.Span.Start})
			start = c.Span.End
		}
		spans = append(spans, ssa.Span{Start: start, End: fn.Span.End})
	}
	return spans
}

func hasSyntaxError(r *analysis.Result) bool {
	for _, fn := range r.Funcs {
		if fn.NotAnalyzed.Kind == ssa.SyntaxError {
			return true
		}
	}
	return false
}

// changedBytes returns the edit that turns old into new: the bytes between their common
// prefix and suffix.
func changedBytes(old, new []byte) analysis.Edit {
	p := commonPrefix(old, string(new))
	sfx := commonSuffix(old[p:], string(new[p:]))
	return analysis.Edit{StartByte: uint32(p), OldEndByte: uint32(len(old) - sfx), NewEndByte: uint32(len(new) - sfx)}
}

// afterSend is a context that is cancelled once a request is sent: jsonrpc2's Call then
// returns the request's id at once, and leaves its answer to nobody.
type afterSend struct {
	context.Context
	once sync.Once
	done chan struct{}
	sent bool
}

func (c *afterSend) Done() <-chan struct{} {
	c.once.Do(func() { c.done = make(chan struct{}) })
	if c.sent {
		select {
		case <-c.done:
		default:
			close(c.done)
		}
	}
	c.sent = true // the first look at Done is the stream's, before it writes
	return c.done
}

func (c *afterSend) Err() error {
	if c.sent {
		return context.Canceled
	}
	return nil
}
