package analysis

import (
	"sync"
	"sync/atomic"

	"github.com/ssalens/ssalens/treesitter"
)

// Document is one immutable version of a source file. Its analysis is computed on first use
// and shared by every caller of that version; Edit makes the next version, re-parsing
// incrementally from this one's syntax tree.
type Document struct {
	tree *treesitter.Tree

	once   sync.Once
	result atomic.Pointer[Result]
}

// NewDocument parses text.
func NewDocument(text []byte) (*Document, error) {
	tree, err := treesitter.Parse(text)
	if err != nil {
		return nil, err
	}
	return &Document{tree: tree}, nil
}

// Text returns the document's source. The caller must not modify it.
func (d *Document) Text() []byte { return d.tree.Src }

// Edit returns the version of the document whose text is newText, which is this version's
// text with the bytes [e.StartByte, e.OldEndByte) replaced by [e.StartByte, e.NewEndByte) of
// newText.
func (d *Document) Edit(e treesitter.Edit, newText []byte) (*Document, error) {
	tree, err := d.tree.Reparse(e, newText)
	if err != nil {
		return nil, err
	}
	return &Document{tree: tree}, nil
}

// Close frees the syntax tree that Edit needs; the text and the analysis stay usable.
func (d *Document) Close() { d.tree.Close() }

// Result returns the analysis of this version, computing it if no caller did yet.
func (d *Document) Result() *Result {
	d.once.Do(func() { d.result.Store(analyzeTree(d.tree)) })
	return d.result.Load()
}

// Ready returns the analysis of this version if it is computed already, or nil.
func (d *Document) Ready() *Result { return d.result.Load() }
