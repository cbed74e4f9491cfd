package analysis

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/ssalens/ssalens/treesitter"
)

// Document is one immutable version of a source file. Making the next version with Edit is
// cheap: its syntax tree is re-parsed only when its analysis is first asked for, incrementally
// from the newest parsed version it descends from. The analysis is computed once per version
// and shared by every caller.
type Document struct {
	text []byte

	parse sync.Once
	base  atomic.Pointer[Document]        // the parsed version to re-parse from; nil once parsed
	tree  atomic.Pointer[treesitter.Tree] // set by parse
	// from is the version re-parsed from and edit the change from its text, so that the
	// analysis can copy what the change does not touch from from's.
	from *Document
	edit treesitter.Edit
	// treeMu serializes the successors that re-parse from tree and give it up, and Close.
	treeMu sync.Mutex

	analyze sync.Once
	result  atomic.Pointer[Result]
}

// NewDocument parses text, unless it is larger than MaxSize.
func NewDocument(text []byte) (*Document, error) {
	if len(text) > MaxSize {
		d := &Document{text: text}
		d.parse.Do(func() {})
		return d, nil
	}
	tree, err := treesitter.Parse(treesitter.JavaScript, text)
	if err != nil {
		return nil, err
	}
	d := &Document{text: text}
	d.tree.Store(tree)
	d.parse.Do(func() {})
	return d, nil
}

// Text returns the document's source. The caller must not modify it.
func (d *Document) Text() []byte { return d.text }

// Edit returns the version of the document whose text is newText.
func (d *Document) Edit(newText []byte) *Document {
	base := d
	if b := d.base.Load(); b != nil && d.tree.Load() == nil {
		base = b // d is not parsed: its successor re-parses from where d would have
	}
	next := &Document{text: newText}
	next.base.Store(base)
	return next
}

// syntaxTree parses the document if no caller did yet. The version it re-parses from gives up
// its syntax tree, which only re-parsing needs.
func (d *Document) syntaxTree() *treesitter.Tree {
	d.parse.Do(func() {
		base := d.base.Load()
		d.base.Store(nil)
		if len(d.text) > MaxSize {
			return
		}
		if tree, edit := base.reparse(d.text); tree != nil {
			d.tree.Store(tree)
			d.from, d.edit = base, edit
			return
		}
		// The base has no tree: too large, closed, or given up to another successor.
		tree, err := treesitter.Parse(treesitter.JavaScript, d.text)
		if err != nil {
			panic(fmt.Sprintf("analysis: cannot parse a document of %d bytes: %v", len(d.text), err))
		}
		d.tree.Store(tree)
	})
	return d.tree.Load()
}

// reparse returns the syntax tree of text, re-parsed from d's, which it gives up, and the edit
// from d's text; nil if d has no tree (too large) or has given it up already.
func (d *Document) reparse(text []byte) (*treesitter.Tree, treesitter.Edit) {
	bt := d.syntaxTree()
	if bt == nil {
		return nil, treesitter.Edit{}
	}
	d.treeMu.Lock()
	defer d.treeMu.Unlock()
	edit := changed(d.text, text)
	tree, err := bt.Reparse(edit, text)
	if err != nil {
		return nil, treesitter.Edit{}
	}
	bt.Close()
	return tree, edit
}

// changed returns the edit that turns old into new: the bytes between their common prefix and
// their common suffix.
func changed(old, new []byte) treesitter.Edit {
	n := min(len(old), len(new))
	prefix := 0
	for prefix < n && old[prefix] == new[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < n-prefix && old[len(old)-1-suffix] == new[len(new)-1-suffix] {
		suffix++
	}
	return treesitter.Edit{StartByte: uint32(prefix), OldEndByte: uint32(len(old) - suffix), NewEndByte: uint32(len(new) - suffix)}
}

// Close frees the syntax tree of a document no longer edited; its text and analysis stay
// usable.
func (d *Document) Close() {
	d.treeMu.Lock()
	defer d.treeMu.Unlock()
	if t := d.tree.Load(); t != nil {
		t.Close()
	}
}

// Result returns the analysis of this version, computing it if no caller did yet.
func (d *Document) Result() *Result {
	d.analyze.Do(func() {
		if tree := d.syntaxTree(); tree != nil {
			var prev *Result
			if d.from != nil {
				prev = d.from.Ready()
				d.from = nil
			}
			d.result.Store(analyzeTree(tree, prev, d.edit))
		} else {
			d.result.Store(tooLarge(d.text))
		}
	})
	return d.result.Load()
}

// Ready returns the analysis of this version if it is computed already, or nil.
func (d *Document) Ready() *Result { return d.result.Load() }
