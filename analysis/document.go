package analysis

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ssalens/ssalens/treesitter"
)

// Edit describes a change of text: the bytes [StartByte, OldEndByte) of the old text were
// replaced by the bytes [StartByte, NewEndByte) of the new one.
type Edit = treesitter.Edit

// Document is one immutable version of a source file. Making the next version with Edit is
// cheap: its syntax tree is re-parsed only when its analysis is first asked for, incrementally
// from the newest parsed version it descends from. The analysis is computed once per version
// and shared by every caller.
type Document struct {
	text  []byte
	lines *Lines
	opts  Options

	parse sync.Once
	base  atomic.Pointer[Document]        // the parsed version to re-parse from; nil once parsed
	tree  atomic.Pointer[treesitter.Tree] // set by parse
	// edit is the change from base's text to this one: one edit that spans all made since, as
	// re-parsing and lowering take it; edits are the same changes one by one, apart where they
	// were made apart, as answers moved from an older text need them (moved.go). Once parsed,
	// from is the version re-parsed from, so that the analysis can copy what edit does not touch
	// from from's.
	edit  Edit
	edits []Edit
	from  *Document
	// treeMu serializes the successors that re-parse from tree and give it up, and Close.
	treeMu sync.Mutex
	closed bool // by Close: a tree parsed after it is closed at once

	analyze sync.Once
	result  atomic.Pointer[Result] // the answers: fresh, or moved from the last good analysis
	fresh   atomic.Pointer[Result] // the analysis of this text, which the next version lowers from

	parsedWhole atomic.Bool // parsed whole, or ParsedWhole looked at it already
}

// NewDocument returns the first version of a document, parsed when its analysis is first
// asked for. A large text is parsed in pieces on every processor (treesitter.ParseInPieces),
// and parsed whole again in the background, for the re-parse of the next version, once its
// analysis is done.
func NewDocument(text []byte, opts Options) *Document {
	d := &Document{text: text, lines: NewLines(text), opts: opts}
	d.parsedWhole.Store(true)
	return d
}

// Text returns the document's source. The caller must not modify it.
func (d *Document) Text() []byte { return d.text }

// Lines returns the line index of the document's text.
func (d *Document) Lines() *Lines { return d.lines }

// Edit returns the version of the document whose text is newText, d's text changed by e.
func (d *Document) Edit(newText []byte, e Edit) *Document {
	next := &Document{text: newText, lines: d.lines.Edited(newText, e), opts: d.opts, edit: e, edits: []Edit{e}}
	base := d
	if b := d.base.Load(); b != nil && d.tree.Load() == nil {
		// d is not parsed: its successor re-parses from where d would have.
		base = b
		next.edit = d.edit.Then(e)
		next.edits = d.edits
		if len(d.edits) <= maxMovedPlaces { // past it, answers are never moved: the list can stop
			next.edits = appendEdit(slices.Clone(d.edits), e)
		}
	}
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
		tree := base.reparse(d.text, d.edit)
		switch {
		case tree != nil:
			d.from = base
		case base == nil: // the first version
			tree = mustParse(treesitter.ParseInPieces, d)
		default: // the base has no tree: too large, closed, or given up to another successor
			tree = mustParse(treesitter.Parse, d)
		}
		d.treeMu.Lock()
		defer d.treeMu.Unlock()
		d.tree.Store(tree)
		if d.closed {
			tree.CloseInBackground()
		}
	})
	return d.tree.Load()
}

func mustParse(parse func(*treesitter.Grammar, []byte) (*treesitter.Tree, error), d *Document) *treesitter.Tree {
	tree, err := parse(d.opts.Language.grammar(), d.text)
	if err != nil {
		panic(fmt.Sprintf("analysis: cannot parse a document of %d bytes: %v", len(d.text), err))
	}
	return tree
}

// reparse returns the syntax tree of text, d's text changed by edit, re-parsed from d's tree,
// which it gives up; nil if d has no tree (too large) or has given it up already.
func (d *Document) reparse(text []byte, edit Edit) *treesitter.Tree {
	if d == nil {
		return nil
	}
	if d.syntaxTree() == nil {
		return nil
	}
	d.treeMu.Lock()
	defer d.treeMu.Unlock()
	bt := d.tree.Load()
	if bt == nil {
		return nil
	}
	tree, err := bt.Reparse(edit, text)
	if err != nil {
		return nil
	}
	bt.Close()
	return tree
}

// compactAfter is how many incremental parses a document's syntax tree goes through before
// Compact parses it whole again: one parse of the file when the user stops typing, seldom.
const compactAfter = 100

// Compact gives back the memory that many incremental parses scattered (treesitter.Tree.Compact),
// and detaches what the analysis copied and did not detach yet (lower.File.DetachCopies), which
// keeps the older versions it copies until then. It parses the whole file and copies, so it
// belongs where nothing waits: when the user stops typing.
func (d *Document) Compact() {
	if r := d.result.Load(); r != nil && r.moving == nil && r.File != nil {
		r.File.DetachCopies(true)
	}
	d.treeMu.Lock()
	defer d.treeMu.Unlock()
	if t := d.tree.Load(); t != nil {
		t.Compact(compactAfter) // on an error the tree stays as it is, which is no worse
	}
}

// PrepareEdit makes what the next version needs of this one, if it is analyzed: for a version
// lowered from scratch, the summaries of the functions it will copy (lower.File.PrepareCopies);
// for a version whose syntax tree was spliced or parsed in pieces, the C tree that re-parsing
// needs if the edit cannot be spliced (treesitter.Tree.ParseWhole): without it, such an edit
// re-parses twice. It re-parses, so it belongs between keystrokes, where it does not slow the
// next one down, nor the first answers of a file opened.
func (d *Document) PrepareEdit() {
	if r := d.fresh.Load(); r != nil && r.File != nil {
		r.File.PrepareCopies()
	}
	d.treeMu.Lock()
	t := d.tree.Load()
	d.treeMu.Unlock()
	if t != nil {
		t.ParseWhole()
	}
}

// ParsedWhole returns this version parsed whole, if its tree differs from the one incremental
// parses gave it: tree-sitter's error recovery may keep subtrees that an earlier text parsed
// without errors where a whole parse of this text recovers otherwise, and answers must depend
// on the text alone, not on the versions it was edited through. It returns nil for a version
// parsed whole already, for one whose tree has no error, for one whose answers come from an
// older analysis (moved.go: they were chosen against this tree's breakage, and the version
// parsed whole has no history to move them from), for one not analyzed yet, for one whose
// tree a later version has taken, and after its first call. It parses the file whole, so it
// belongs where nothing waits: when the user stops typing.
func (d *Document) ParsedWhole() *Document {
	r := d.result.Load()
	if r == nil || r.moving != nil || !d.parsedWhole.CompareAndSwap(false, true) {
		return nil
	}
	d.treeMu.Lock()
	t := d.tree.Load()
	broken := t != nil && len(t.Nodes) > 0 && t.Nodes[0].Flags&treesitter.HasError != 0
	d.treeMu.Unlock()
	if !broken {
		return nil
	}
	whole := NewDocument(d.text, d.opts)
	wholeNodes := whole.syntaxTree().Nodes
	d.treeMu.Lock()
	// A successor that gave the tree up meanwhile is newer than d: there is nothing to replace.
	differs := d.tree.Load() == t && !slices.Equal(wholeNodes, t.Nodes)
	d.treeMu.Unlock()
	if !differs {
		whole.Close()
		return nil
	}
	return whole
}

// Close frees the syntax tree of a document no longer edited; its text and analysis stay
// usable. The C tree is freed on another goroutine: a server closes documents on the
// goroutine that reads its messages, and freeing a large tree takes a tenth of its parse
// (three.core.js: 15 ms, typescript.js: 0.1 s).
func (d *Document) Close() {
	d.treeMu.Lock()
	defer d.treeMu.Unlock()
	d.closed = true
	if t := d.tree.Load(); t != nil {
		t.CloseInBackground()
	}
}

// Result returns the analysis of this version, computing it if no caller did yet. If the
// version's text breaks functions with syntax errors that the previous analysis did not have,
// the answers come from that analysis, moved through the edit (see moved.go).
func (d *Document) Result() *Result {
	d.analyze.Do(func() {
		tree := d.syntaxTree()
		if tree == nil {
			d.result.Store(tooLarge(d.text, d.lines))
			return
		}
		var prev, answered *Result
		from := d.from
		if from != nil {
			answered = from.Result()
			prev = from.fresh.Load()
			d.from = nil
		}
		if from == nil && tree.ParsedWholeLater() {
			// Made in pieces: made while the user reads the answers, the whole parse is there for
			// the first edit that cannot be spliced; Close stops it, once no spliced tree needs
			// it. A spliced tree's waits for PrepareEdit.
			defer func() { go tree.ParseWhole() }()
		}
		fresh := analyzeTree(tree, d.lines, d.opts, prev, d.edit, true)
		d.fresh.Store(fresh)
		if prev != nil && prev.File != nil { // a file not analyzed has no File
			// Only lowering the next version needed from's flat tree, and this was it; from's
			// analysis may live on to answer for later texts (moved.go), without it.
			prev.File.Tree = nil
			from.recycleTree()
		}
		if answered != nil && answered.breaks(fresh, d.edits) {
			d.result.Store(answered.Moved(d.text, d.lines, d.edits, fresh))
			return
		}
		d.result.Store(fresh)
	})
	return d.result.Load()
}

// recycleTree gives d's syntax tree up, once its successor re-parsed from it and lowered
// from its analysis: its nodes serve the next flat tree (treesitter.Tree.Recycle). Whoever
// else reads d's tree holds treeMu.
func (d *Document) recycleTree() {
	d.treeMu.Lock()
	defer d.treeMu.Unlock()
	if t := d.tree.Swap(nil); t != nil {
		t.Recycle()
	}
}

// Ready returns the analysis of this version if it is computed already, or nil.
func (d *Document) Ready() *Result { return d.result.Load() }
