package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// file is one version of an open document.
type file struct {
	uri     protocol.DocumentURI
	version int32
	doc     *analysis.Document
	// prev is the version this one was edited from by edits, in order, kept while this
	// version is not analyzed yet, for answers from an older analysis (see stale.go).
	prev  atomic.Pointer[file]
	edits []analysis.Edit
	// unanalyzed counts the versions back to one analyzed when this one was made, at most.
	unanalyzed int
	// staleAnswered is set once inlay hints of this version were answered from an older one.
	staleAnswered atomic.Bool
}

func (f *file) text() []byte { return f.doc.Text() }

func (f *file) lines() *analysis.Lines { return f.doc.Lines() }

// result returns the analysis of this version, computed once for all requests. Once it
// exists, older versions are no longer needed.
func (f *file) result() *analysis.Result {
	r := f.doc.Result()
	f.prev.Store(nil)
	return r
}

func openFile(uri protocol.DocumentURI, version int32, text []byte, opts analysis.Options) *file {
	return &file{uri: uri, version: version, doc: analysis.NewDocument(text, opts)}
}

// contentChange is a TextDocumentContentChangeEvent; a nil Range replaces the whole text
// (protocol's type cannot tell that from a change at 0:0). Text is required: a change without
// it (noText) is rejected, not taken for a deletion.
type contentChange struct {
	Range  *protocol.Range `json:"range,omitempty"`
	Text   string          `json:"text"`
	noText bool
}

func (c *contentChange) UnmarshalJSON(data []byte) error {
	var raw struct {
		Range *protocol.Range `json:"range"`
		Text  *string         `json:"text"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*c = contentChange{Range: raw.Range, noText: raw.Text == nil}
	if raw.Text != nil {
		c.Text = *raw.Text
	}
	return nil
}

type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Text         *string                         `json:"text,omitempty"`
}

// The text notifications run in the order they arrive, on the connection's reading goroutine:
// each makes the next version of a document and publishes a new snapshot. Only they close
// documents, and only the latest version is ever edited.

func (s *Server) didOpen(_ context.Context, params json.RawMessage) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decodeDidOpen(params, &p); err != nil {
		return err
	}
	if p.TextDocument.Version < 0 {
		return fmt.Errorf("%s: rejected: negative version %d", p.TextDocument.URI, p.TextDocument.Version)
	}
	opts, ok := s.documentOptions(p.TextDocument.URI, string(p.TextDocument.LanguageID))
	if !ok {
		return nil
	}
	s.replaceFile(nil, openFile(p.TextDocument.URI, p.TextDocument.Version, []byte(p.TextDocument.Text), opts))
	return nil
}

func (s *Server) didChange(_ context.Context, params json.RawMessage) error {
	var p didChangeParams
	if err := decodeParams(params, &p); err != nil || s.isUnsupported(p.TextDocument.URI) {
		return err
	}
	if p.TextDocument.Version < 0 {
		return fmt.Errorf("%s: change rejected: negative version %d", p.TextDocument.URI, p.TextDocument.Version)
	}
	for i, c := range p.ContentChanges {
		if c.noText {
			return fmt.Errorf("%s: change rejected: content change %d has no text", p.TextDocument.URI, i)
		}
	}
	st := s.snapshot()
	old, err := st.file(p.TextDocument.URI)
	if err != nil {
		return err
	}
	if p.TextDocument.Version <= old.version {
		// The text is what answers depend on: the change is applied all the same.
		s.logf("%s: version %d follows version %d: a document's versions increase", p.TextDocument.URI, p.TextDocument.Version, old.version)
	}
	f, err := old.change(p.TextDocument.Version, p.ContentChanges, st.encoding, func(i int, why string) {
		s.logf("%s: version %d, content change %d: %s; the client's text and the server's may differ", p.TextDocument.URI, p.TextDocument.Version, i, why)
	})
	if err != nil {
		return err
	}
	s.replaceFile(old, f)
	return nil
}

// didSave re-synchronizes the document when the client sent a text that differs from ours.
func (s *Server) didSave(_ context.Context, params json.RawMessage) error {
	var p didSaveParams
	if err := decodeParams(params, &p); err != nil || s.isUnsupported(p.TextDocument.URI) {
		return err
	}
	st := s.snapshot()
	old, err := st.file(p.TextDocument.URI)
	if err != nil || p.Text == nil || bytes.Equal(old.text(), []byte(*p.Text)) {
		return err
	}
	s.logf("%s: saved text differs from the synchronized one; re-synchronizing", old.uri)
	f, err := old.change(old.version, []contentChange{{Text: *p.Text}}, st.encoding, nil) // no range
	if err != nil {
		return err
	}
	s.replaceFile(old, f)
	return nil
}

func (s *Server) didClose(_ context.Context, params json.RawMessage) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	if s.isUnsupported(p.TextDocument.URI) {
		s.setUnsupported(p.TextDocument.URI, "", false)
		return nil
	}
	var old *file
	s.update(func(st *snapshot) {
		old = st.files[p.TextDocument.URI]
		delete(st.files, p.TextDocument.URI)
		st.setCursor(p.TextDocument.URI, nil)
	})
	if old != nil {
		old.doc.Close()
	}
	s.diagnostics.add(p.TextDocument.URI)
	return nil
}

// replaceFile makes f the current version of its document, made from old by its edits (nil for
// a document just opened): the cursor moves with them.
func (s *Server) replaceFile(old, f *file) {
	s.update(func(st *snapshot) {
		st.files[f.uri] = f
		if c, ok := st.cursors[f.uri]; ok && old != nil && f.doc != old.doc {
			c.move(old.lines(), f.lines(), f.edits, st.encoding)
			st.setCursor(f.uri, &c)
		}
	})
	s.diagnostics.add(f.uri) // which re-parses and analyzes the new version
}

// change returns the version of f after changes, re-parsed incrementally from f. warn is told
// of each change whose range does not fit the text (see applyChanges).
func (f *file) change(version int32, changes []contentChange, enc positionEncoding, warn func(i int, why string)) (*file, error) {
	if len(changes) == 0 {
		next := &file{uri: f.uri, version: version, doc: f.doc, edits: f.edits, unanalyzed: f.unanalyzed}
		next.prev.Store(f.prev.Load())
		return next, nil
	}
	doc, edits := applyChanges(f.doc, changes, enc, warn)
	next := &file{uri: f.uri, version: version, doc: doc, edits: edits, unanalyzed: 1}
	if f.doc.Ready() != nil {
		f.prev.Store(nil)
	} else {
		next.unanalyzed = f.unanalyzed + 1
	}
	if next.unanalyzed <= maxStaleEdits {
		next.prev.Store(f)
	}
	return next, nil
}

// applyChanges applies changes in order to doc and returns the version after the last one,
// with the edit each change made. A range past the last line or that ends before it starts is
// applied clamped and reversed, and warn is told: the client's text and the server's may
// differ from then on. (A character past the end of its line is the line's end, by the
// protocol.)
func applyChanges(doc *analysis.Document, changes []contentChange, enc positionEncoding, warn func(i int, why string)) (*analysis.Document, []analysis.Edit) {
	edits := make([]analysis.Edit, len(changes))
	for i, c := range changes {
		if c.Range != nil {
			if why := rangeMisfit(doc.Lines(), *c.Range); why != "" {
				warn(i, why)
			}
		}
		text := doc.Text()
		start, end, insert := replacement(text, doc.Lines(), c, enc)
		next := make([]byte, 0, len(text)-(end-start)+len(insert))
		next = append(append(append(next, text[:start]...), insert...), text[end:]...)
		edits[i] = analysis.Edit{StartByte: uint32(start), OldEndByte: uint32(end), NewEndByte: uint32(start + len(insert))}
		doc = doc.Edit(next, edits[i])
	}
	return doc, edits
}

// rangeMisfit says how r cannot be a range of the text whose line index is lines, or "".
func rangeMisfit(lines *analysis.Lines, r protocol.Range) string {
	at := fmt.Sprintf("the range %d:%d-%d:%d (from 0)", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
	switch {
	case max(r.Start.Line, r.End.Line) >= uint32(lines.Count()):
		return fmt.Sprintf("%s goes past the last line, %d", at, lines.Count()-1)
	case r.End.Line < r.Start.Line || r.End.Line == r.Start.Line && r.End.Character < r.Start.Character:
		return at + " ends before it starts"
	}
	return ""
}

// replacement returns the bytes [start, end) of text that c replaces, and what with. A change
// of the whole text is narrowed to the part that differs, so that re-parsing stays
// incremental.
func replacement(text []byte, lines *analysis.Lines, c contentChange, enc positionEncoding) (start, end int, insert string) {
	if c.Range == nil {
		p := commonPrefix(text, c.Text)
		s := commonSuffix(text[p:], c.Text[p:])
		return p, len(text) - s, c.Text[p : len(c.Text)-s]
	}
	start = int(offset(lines, c.Range.Start, enc))
	end = int(offset(lines, c.Range.End, enc))
	if end < start {
		start, end = end, start
	}
	return start, end, c.Text
}

func commonPrefix(a []byte, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func commonSuffix(a []byte, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[len(a)-1-i] != b[len(b)-1-i] {
			return i
		}
	}
	return n
}
