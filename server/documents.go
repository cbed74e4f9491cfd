package server

import (
	"bytes"
	"context"
	"encoding/json"
	"sync/atomic"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/treesitter"
)

// file is one version of an open document.
type file struct {
	uri     protocol.DocumentURI
	version int32
	doc     *analysis.Document
	lines   *lineIndex
	// prev is the version this one was edited from by edit, kept while this version is not
	// analyzed yet, for answers from an older analysis (see stale.go).
	prev atomic.Pointer[file]
	edit treesitter.Edit
	// unanalyzed counts the versions back to one analyzed when this one was made, at most.
	unanalyzed int
	// staleAnswered is set once inlay hints of this version were answered from an older one.
	staleAnswered atomic.Bool
}

func (f *file) text() []byte { return f.doc.Text() }

// result returns the analysis of this version, computed once for all requests. Once it
// exists, older versions are no longer needed.
func (f *file) result() *analysis.Result {
	r := f.doc.Result()
	f.prev.Store(nil)
	return r
}

func openFile(uri protocol.DocumentURI, version int32, text []byte) (*file, error) {
	doc, err := analysis.NewDocument(text)
	if err != nil {
		return nil, err
	}
	return &file{uri: uri, version: version, doc: doc, lines: newLineIndex(text)}, nil
}

// contentChange is a TextDocumentContentChangeEvent; a nil Range replaces the whole text
// (protocol's type cannot tell that from a change at 0:0).
type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
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
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	f, err := openFile(p.TextDocument.URI, p.TextDocument.Version, []byte(p.TextDocument.Text))
	if err != nil {
		return err
	}
	s.replaceFile(f)
	return nil
}

func (s *Server) didChange(_ context.Context, params json.RawMessage) error {
	var p didChangeParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	st := s.snapshot()
	old, err := st.file(p.TextDocument.URI)
	if err != nil {
		return err
	}
	f, err := old.change(p.TextDocument.Version, p.ContentChanges, st.encoding)
	if err != nil {
		return err
	}
	s.replaceFile(f)
	return nil
}

// didSave re-synchronizes the document when the client sent a text that differs from ours.
func (s *Server) didSave(_ context.Context, params json.RawMessage) error {
	var p didSaveParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	st := s.snapshot()
	old, err := st.file(p.TextDocument.URI)
	if err != nil || p.Text == nil || bytes.Equal(old.text(), []byte(*p.Text)) {
		return err
	}
	s.logf("%s: saved text differs from the synchronized one; re-synchronizing", old.uri)
	f, err := old.change(old.version, []contentChange{{Text: *p.Text}}, st.encoding)
	if err != nil {
		return err
	}
	s.replaceFile(f)
	return nil
}

func (s *Server) didClose(_ context.Context, params json.RawMessage) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	var old *file
	s.update(func(st *snapshot) {
		old = st.files[p.TextDocument.URI]
		delete(st.files, p.TextDocument.URI)
	})
	if old != nil {
		old.doc.Close()
	}
	s.diagnostics.add(p.TextDocument.URI)
	return nil
}

// replaceFile makes f the current version of its document.
func (s *Server) replaceFile(f *file) {
	s.update(func(st *snapshot) { st.files[f.uri] = f })
	s.diagnostics.add(f.uri) // which re-parses and analyzes the new version
}

// change returns the version of f after changes, re-parsed incrementally from f.
func (f *file) change(version int32, changes []contentChange, enc positionEncoding) (*file, error) {
	if len(changes) == 0 {
		next := &file{uri: f.uri, version: version, doc: f.doc, lines: f.lines, edit: f.edit, unanalyzed: f.unanalyzed}
		next.prev.Store(f.prev.Load())
		return next, nil
	}
	text, edit := applyChanges(f.text(), f.lines, changes, enc)
	next := &file{uri: f.uri, version: version, doc: f.doc.Edit(text), lines: f.lines.edited(text, edit), edit: edit, unanalyzed: 1}
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

// applyChanges applies changes in order to text, whose lines are indexed by lines, and
// returns the new text with one edit that turns text into it: the span between the prefix
// and the suffix that no change touched.
func applyChanges(text []byte, lines *lineIndex, changes []contentChange, enc positionEncoding) ([]byte, treesitter.Edit) {
	origLen := len(text)
	prefix, suffix := origLen, origLen // bytes of the original text left untouched at each end
	for i, c := range changes {
		if i > 0 {
			lines = newLineIndex(text)
		}
		start, end, insert := replacement(text, lines, c, enc)
		next := make([]byte, 0, len(text)-(end-start)+len(insert))
		next = append(append(append(next, text[:start]...), insert...), text[end:]...)
		prefix = min(prefix, start)
		suffix = min(suffix, len(text)-end)
		text = next
	}
	return text, treesitter.Edit{
		StartByte:  uint32(prefix),
		OldEndByte: uint32(origLen - suffix),
		NewEndByte: uint32(len(text) - suffix),
	}
}

// replacement returns the bytes [start, end) of text that c replaces, and what with. A change
// of the whole text is narrowed to the part that differs, so that re-parsing stays
// incremental.
func replacement(text []byte, lines *lineIndex, c contentChange, enc positionEncoding) (start, end int, insert string) {
	if c.Range == nil {
		p := commonPrefix(text, c.Text)
		s := commonSuffix(text[p:], c.Text[p:])
		return p, len(text) - s, c.Text[p : len(c.Text)-s]
	}
	start = int(lines.offset(c.Range.Start, enc))
	end = int(lines.offset(c.Range.End, enc))
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
