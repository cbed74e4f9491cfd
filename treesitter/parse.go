package treesitter

/*
#include <stddef.h>

// Defined by the tree-sitter C library that go-tree-sitter compiles in; the
// prototype is repeated here because its header is not on our include path.
void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// go-tree-sitter v0.25.0 routes every allocation of the C library through
// exported Go functions (millions of cgo callbacks per large parse, 1.1–1.35×
// slower parsing). NULL restores tree-sitter's libc defaults. Those Go
// functions only wrap libc malloc and free too, so memory allocated before
// this switch may still be freed after it.
func init() {
	C.ts_set_allocator(nil, nil, nil, nil)
}

// Tree is a parsed source file.
type Tree struct {
	// Src is the parsed source; node offsets index into it.
	Src []byte
	// Nodes is the syntax tree in preorder; Nodes[0] is the program node.
	Nodes []Node
	// Grammar parsed it.
	Grammar *Grammar

	ts      *sitter.Tree // nil after Close, and for a tree made in pieces (see whole)
	cleanup runtime.Cleanup
	// whole is, for a tree that ParseInPieces made, the C tree of its source parsed whole.
	whole *wholeParse
	// reparses counts the incremental parses since the C tree was last parsed afresh.
	reparses int
	// id names the tree for the trees re-parsed from it (see CopiedFrom), without keeping it:
	// reparsedFrom is the id of the tree this one was re-parsed from, if it was, and copied
	// the runs of its flat nodes copied from that tree's, in preorder.
	id, reparsedFrom uint64
	copied           []copied
}

// treeIDs numbers the trees parsed.
var treeIDs atomic.Uint64

// CopiedFrom returns the node of from whose subtree the subtree of t's node is, shifted by the
// edit, when t was re-parsed from from and tree-sitter reused that subtree as it was; else -1.
// The nodes below node are then copies of from's; node itself may be another child of its
// parent (another field).
func (t *Tree) CopiedFrom(from *Tree, node int32) int32 {
	if t.reparsedFrom != from.id {
		return -1
	}
	i := sort.Search(len(t.copied), func(i int) bool { return t.copied[i].node+t.copied[i].size > node })
	if i < len(t.copied) && t.copied[i].node <= node {
		return t.copied[i].old + node - t.copied[i].node
	}
	return -1
}

// SameOutside reports whether t, re-parsed from from after edit, has from's nodes, moved by
// the edit, outside the subtree of its node inside, which holds the edit: tree-sitter may read
// unchanged text otherwise while it recovers from an error. The ancestors of inside may
// differ in HasError, and inside itself in its children. It reads only the nodes the re-parse
// made: a subtree it reused is the same.
func (t *Tree) SameOutside(from *Tree, inside int32, edit Edit) bool {
	if t.reparsedFrom != from.id {
		return false
	}
	delta := int64(edit.NewEndByte) - int64(edit.OldEndByte)
	moved := func(p uint32) uint32 {
		if p >= edit.OldEndByte {
			return uint32(int64(p) + delta)
		}
		return p
	}
	same := func(x, y *Node, ignore Flags) bool {
		return x.Kind == y.Kind && x.Field == y.Field && (x.Flags^y.Flags)&^ignore == 0 &&
			moved(x.Start) == y.Start && moved(x.End) == y.End
	}
	insideEnd := t.SubtreeEnd(inside)
	var around []int32 // inside's ancestors, the root first
	for a := t.Nodes[inside].Parent; a >= 0; a = t.Nodes[a].Parent {
		around = append(around, a)
	}
	slices.Reverse(around)
	var i, j int32 // from's node and t's
	k := 0         // t.copied[k] is the next run of nodes reused, or the one j is in
	for j < int32(len(t.Nodes)) {
		if i >= int32(len(from.Nodes)) {
			return false
		}
		x, y := &from.Nodes[i], &t.Nodes[j]
		for k < len(t.copied) && t.copied[k].node+t.copied[k].size <= j {
			k++
		}
		switch {
		case j == inside:
			if !same(x, y, ^Flags(0)) {
				return false
			}
			i, j = from.SubtreeEnd(i), insideEnd
		case k < len(t.copied) && t.copied[k].node <= j:
			// A splice's last run starts inside the edited body, where the edit's statements
			// end, and goes on to the end of the file: the walk joins it after the body.
			c := t.copied[k]
			if c.old+j-c.node != i || !same(x, y, 0) || x.ChildCount != y.ChildCount {
				return false
			}
			rest := c.node + c.size - j
			i, j = i+rest, j+rest
		default:
			var ignore Flags
			if len(around) > 0 && around[0] == j {
				ignore, around = HasError, around[1:]
			}
			if !same(x, y, ignore) || x.ChildCount != y.ChildCount {
				return false
			}
			i, j = i+1, j+1
		}
	}
	return i == int32(len(from.Nodes))
}

// Edit describes a change of source text: the bytes
// [StartByte, OldEndByte) of the old source were replaced by the bytes
// [StartByte, NewEndByte) of the new one.
type Edit struct {
	StartByte, OldEndByte, NewEndByte uint32
}

// Parse parses src with g. The tree keeps src as its Src, so src must not be
// modified afterwards, and holds C memory until Close.
func Parse(g *Grammar, src []byte) (*Tree, error) {
	return parse(g, src, nil, nil)
}

// ParseOnce is Parse for a caller that will not re-parse src: the walk that makes the flat
// tree frees tree-sitter's subtrees as it leaves them, so that memory peaks with the parse, not
// with the parse and the flat copy together (typescript.js: 209 MB of subtrees, then 64 MB of
// nodes). A large source is parsed in pieces, as ParseInPieces does. The tree it returns is
// closed.
func ParseOnce(g *Grammar, src []byte) (*Tree, error) {
	nodes, err := parsePieces(g, src, piecesOf(src), true)
	if nodes != nil {
		// The pieces' nodes, copied into the joined tree, are garbage: collected now, their
		// memory serves what the caller allocates next instead of adding to the peak.
		runtime.GC()
	}
	if err == nil && nodes == nil {
		nodes, err = consumeParse(g, src)
	}
	if err != nil {
		return nil, err
	}
	return &Tree{Src: src, Nodes: nodes, Grammar: g, id: treeIDs.Add(1)}, nil
}

// consumeParse parses src whole and flattens the tree, consuming it.
func consumeParse(g *Grammar, src []byte) ([]Node, error) {
	ts, err := parseC(g, src, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	defer ts.Close()
	return flattenFrom(ts, g, nil, true)
}

// Reparse parses newSrc, which is t.Src changed by edit, reusing the unchanged
// parts of t. t itself is not modified and stays usable. Where it can, it parses
// only the statements around the edit and copies the rest of t's nodes (splice.go);
// else tree-sitter re-parses from t's C tree, and the flat copy of the new tree
// copies the subtrees tree-sitter kept from t's nodes.
func (t *Tree) Reparse(edit Edit, newSrc []byte) (*Tree, error) {
	inputEdit, err := makeInputEdit(t.Src, newSrc, edit)
	if err != nil {
		return nil, err
	}
	if next := t.splice(edit, newSrc, inputEdit); next != nil {
		return next, nil
	}
	return t.reparseC(edit, newSrc, inputEdit)
}

// reparseC is Reparse by tree-sitter's incremental parse, from t's C tree.
func (t *Tree) reparseC(edit Edit, newSrc []byte, inputEdit *sitter.InputEdit) (*Tree, error) {
	t.ParseWhole()
	ts := t.sitterTree()
	if ts == nil {
		return nil, errors.New("treesitter: Reparse of a closed tree, or of pieces that differ from the whole parse")
	}
	// ts_tree_edit mutates the tree it is given; editing a shallow copy
	// leaves t intact (tree-sitter copies shared subtrees on write).
	old := ts.Clone()
	defer old.Close()
	old.Edit(inputEdit)
	next, err := parse(t.Grammar, newSrc, old, &reuse{nodes: t.Nodes, edit: edit, edited: old, from: t.id})
	if err == nil {
		next.reparses = t.reparses + 1
	}
	return next, err
}

// wholeParse is the C tree of a tree made without one, which ParseWhole makes once: for a tree
// made in pieces, by parsing its source whole; for a spliced one (splice.go), by re-parsing it
// from the C tree of an earlier version with the edits since.
type wholeParse struct {
	once   sync.Once
	cancel *atomic.Int32 // set once no tree needs the parse (Close), which stops it
	mu     sync.Mutex    // guards the fields below and the tree's cleanup
	ts     *sitter.Tree  // nil until parsed, if the nodes differ, and after Close
	// For a spliced tree until it is parsed: from is the C tree of an earlier version, and
	// edits the edits from its text to this one's. pending is, instead of from, the tree made
	// in pieces whose whole parse had not ended when the splice was made: its C tree, once
	// parsed, is from. The splice does not wait for it, or the first keystroke after a large
	// file is opened would wait for the parse of the whole file.
	spliced bool
	from    *sitter.Tree
	pending *Tree
	edits   []sitter.InputEdit
	// For a tree made in pieces: holders counts the trees that need its parse, itself until
	// closed (closed) and the spliced trees pending on it; the parse stops once none is left.
	// ended says the parse is over; recycleNodes, that Recycle came before, and left the
	// nodes, which the parse compares with its own, for it to recycle.
	holders                     int
	closed, ended, recycleNodes bool
}

// ParseWhole makes the C tree that Reparse needs (Reparse calls it first, or waits for the
// call under way) for a tree made without one: it parses whole the source of a tree that
// ParseInPieces made, and re-parses a spliced tree from the earlier C tree it keeps. It
// reports false if a whole parse's nodes differ from the joined pieces' (TestPiecesEqualWhole
// finds that on no corpus file): the tree then has no C tree, so that the next version is
// parsed whole. It parses once; a Close stops the parse, unless spliced trees still need it,
// and does not wait for it. For any other tree it does nothing and reports true.
func (t *Tree) ParseWhole() bool {
	w := t.whole
	if w == nil {
		return true
	}
	w.once.Do(func() {
		if w.spliced {
			t.reparseSpliced(w)
			return
		}
		ts, err := parseC(t.Grammar, t.Src, nil, w.cancel, nil)
		var nodes []Node
		if err == nil {
			nodes, err = flatten(ts, t.Grammar)
			defer recycle(nodes) // the first re-parse's flat tree
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		w.ended = true
		// Close sets cancel under the lock: a tree closed meanwhile keeps no C tree.
		same := err == nil && w.cancel.Load() == 0 && slices.Equal(nodes, t.Nodes)
		if w.recycleNodes {
			recycle(t.Nodes)
			t.Nodes = nil
		}
		if !same {
			if ts != nil {
				ts.Close()
			}
			return
		}
		w.ts = ts
		t.cleanup = runtime.AddCleanup(t, (*sitter.Tree).Close, ts)
	})
	return t.sitterTree() != nil
}

// reparseSpliced makes the C tree of a spliced tree: it re-parses the source from the earlier
// C tree with the edits since, once the tree made in pieces that t is pending on, if any, is
// parsed whole. A splice made meanwhile from t takes them as they are.
func (t *Tree) reparseSpliced(w *wholeParse) {
	w.mu.Lock()
	pending := w.pending
	w.mu.Unlock()
	if pending != nil {
		pending.ParseWhole()
		from, _, _ := pending.wholeSource() // its parse is over: a copy of its C tree, or nil
		w.mu.Lock()
		if w.pending == nil { // closed meanwhile
			w.mu.Unlock()
			if from != nil {
				from.Close()
			}
			return
		}
		w.pending, w.from = nil, from
		if from != nil {
			t.cleanup = runtime.AddCleanup(t, (*sitter.Tree).Close, from)
		}
		w.mu.Unlock()
		pending.unhold()
	}
	w.mu.Lock()
	if w.from == nil { // closed, or the pieces differ from the whole parse
		w.mu.Unlock()
		return
	}
	old, edits := w.from.Clone(), w.edits
	w.mu.Unlock()
	for i := range edits {
		old.Edit(&edits[i])
	}
	ts, err := parseC(t.Grammar, t.Src, old, w.cancel, nil)
	old.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil || w.from == nil {
		if err == nil {
			ts.Close()
		}
		return
	}
	t.cleanup.Stop()
	w.from.Close()
	w.from, w.edits, w.ts = nil, nil, ts
	t.cleanup = runtime.AddCleanup(t, (*sitter.Tree).Close, ts)
}

// unhold counts out a spliced tree pending on the whole parse of t, a tree made in pieces
// (wholeSource counted it in): it has what it needed (reparseSpliced), or is closed.
func (t *Tree) unhold() {
	w := t.whole
	w.mu.Lock()
	ts := t.drop(w)
	w.mu.Unlock()
	if ts != nil {
		go ts.Close() // off the keystroke that closes the tree pending on it
	}
}

// drop counts out a tree that needed the whole parse of t, a tree made in pieces; w.mu is held.
// Once none is left, the parse stops, and the C tree it made, which t gives up, is returned.
func (t *Tree) drop(w *wholeParse) *sitter.Tree {
	if w.holders--; w.holders > 0 {
		return nil
	}
	w.cancel.Store(1)
	ts := w.ts
	if ts != nil {
		t.cleanup.Stop()
	}
	w.ts = nil
	return ts
}

// sitterTree returns the C tree, nil if t has none (yet).
func (t *Tree) sitterTree() *sitter.Tree {
	if w := t.whole; w != nil {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.ts
	}
	return t.ts
}

// Compact parses Src afresh if the C tree comes from at least after incremental parses, and
// keeps the new C tree if it is the same tree. Each incremental parse allocates the subtrees it
// rebuilds between those of earlier versions, so after many edits the C tree is scattered over
// memory that the allocator cannot give back; one that is parsed whole packs it again. Where
// error recovery made the incremental tree differ from a fresh one, Compact keeps it, so that
// Nodes and everything made from them stay right; it then waits for as many parses again.
func (t *Tree) Compact(after int) error {
	if t.reparses < after {
		return nil
	}
	if t.ParseWhole(); t.sitterTree() == nil {
		return nil
	}
	t.reparses = 0
	ts, err := parseC(t.Grammar, t.Src, nil, nil, nil)
	if err != nil {
		return err
	}
	nodes, err := flatten(ts, t.Grammar)
	defer recycle(nodes)
	if err != nil || !slices.Equal(nodes, t.Nodes) {
		ts.Close()
		return err
	}
	t.replaceCTree(ts)
	return nil
}

// replaceCTree makes ts t's C tree, in place of the one t has; if t has none (closed
// meanwhile), ts is freed.
func (t *Tree) replaceCTree(ts *sitter.Tree) {
	slot := &t.ts
	if w := t.whole; w != nil {
		w.mu.Lock()
		defer w.mu.Unlock()
		slot = &w.ts
	}
	if *slot == nil {
		ts.Close()
		return
	}
	t.cleanup.Stop()
	(*slot).Close()
	*slot = ts
	t.cleanup = runtime.AddCleanup(t, (*sitter.Tree).Close, ts)
}

// Close frees the C syntax tree. Src and Nodes stay valid; only Reparse needs
// the C tree. Close is idempotent.
func (t *Tree) Close() {
	if ts := t.detach(); ts != nil {
		ts.Close()
	}
}

// CloseInBackground is Close for a caller that need not wait for the memory: the C tree is
// freed on another goroutine, while the caller goes on with the flat tree. Freeing a large
// tree takes a tenth as long as parsing it did.
func (t *Tree) CloseInBackground() {
	if ts := t.detach(); ts != nil {
		go ts.Close()
	}
}

// detach returns the C tree, which t gives up, or nil if t has none.
func (t *Tree) detach() *sitter.Tree {
	w := t.whole
	if w == nil {
		ts := t.ts
		if ts != nil {
			t.cleanup.Stop()
			t.ts = nil
		}
		return ts
	}
	w.mu.Lock()
	if !w.spliced {
		defer w.mu.Unlock()
		if w.closed {
			return nil
		}
		w.closed = true
		return t.drop(w)
	}
	w.cancel.Store(1)
	ts, pending := w.ts, w.pending
	if ts != nil || w.from != nil {
		t.cleanup.Stop()
	}
	if w.from != nil {
		w.from.Close()
	}
	w.ts, w.from, w.pending, w.edits = nil, nil, nil, nil
	w.mu.Unlock()
	if pending != nil {
		pending.unhold()
	}
	return ts
}

// parse parses src with g, from the edited tree old if it is not nil, and flattens the result,
// copying from r if it is not nil.
func parse(g *Grammar, src []byte, old *sitter.Tree, r *reuse) (*Tree, error) {
	ts, err := parseC(g, src, old, nil, nil)
	if err != nil {
		return nil, err
	}
	nodes, err := flattenFrom(ts, g, r, false)
	if err != nil {
		ts.Close()
		return nil, err
	}
	t := &Tree{Src: src, Nodes: nodes, Grammar: g, ts: ts, id: treeIDs.Add(1)}
	if r != nil {
		t.reparsedFrom, t.copied = r.from, r.copied
	}
	// A safety net for trees dropped without Close; the C heap is invisible
	// to the Go garbage collector, so this must not be relied upon.
	t.cleanup = runtime.AddCleanup(t, (*sitter.Tree).Close, ts)
	return t, nil
}

// parseC runs tree-sitter only, without the flat copy; with cancel, a parse that setting it
// stops (see parseOnStack); with ranges, only those of src, as if the text between them were
// not there (but with the offsets of src).
func parseC(g *Grammar, src []byte, old *sitter.Tree, cancel *atomic.Int32, ranges []sitter.Range) (*sitter.Tree, error) {
	if len(src) > math.MaxUint32 {
		return nil, fmt.Errorf("treesitter: source of %d bytes exceeds tree-sitter's 4 GiB limit", len(src))
	}
	pp := g.parsers.Get().(*pooledParser)
	if ranges != nil {
		if err := pp.p.SetIncludedRanges(ranges); err != nil {
			g.parsers.Put(pp)
			return nil, err
		}
	}
	ts := parseOnStack(pp.p, old, lexable(src), cancel)
	if ts == nil {
		// A parse stopped while tree-sitter balanced the tree would be resumed by the parser's
		// next parse, of another text, which then fails an assertion: tree-sitter 0.25's
		// ts_parser_reset leaves the parser's canceled_balancing set. The parser is dropped.
		return nil, errors.New("treesitter: tree-sitter returned no tree")
	}
	if ranges != nil {
		pp.p.SetIncludedRanges(nil)
	}
	g.parsers.Put(pp)
	return ts, nil
}

// makeInputEdit adds the row/column points tree-sitter wants next to the
// byte offsets of edit.
func makeInputEdit(oldSrc, newSrc []byte, e Edit) (*sitter.InputEdit, error) {
	if e.StartByte > e.OldEndByte || int(e.OldEndByte) > len(oldSrc) ||
		e.StartByte > e.NewEndByte || int(e.NewEndByte) > len(newSrc) {
		return nil, fmt.Errorf("treesitter: edit %+v out of range for sources of %d and %d bytes", e, len(oldSrc), len(newSrc))
	}
	start := advance(sitter.Point{}, oldSrc, 0, e.StartByte)
	return &sitter.InputEdit{
		StartByte:      uint(e.StartByte),
		OldEndByte:     uint(e.OldEndByte),
		NewEndByte:     uint(e.NewEndByte),
		StartPosition:  start,
		OldEndPosition: advance(start, oldSrc, e.StartByte, e.OldEndByte),
		NewEndPosition: advance(start, newSrc, e.StartByte, e.NewEndByte),
	}, nil
}

// advance returns the point reached from p, the point of offset from in src, at offset to.
// Like tree-sitter reading the text lexable gives it, it counts rows at '\n' and at a '\r'
// that no '\n' follows in src, and columns in bytes. It runs on every re-parse, over the text
// before the edit: the line feeds are counted in one pass, and only carriage returns looked at
// one by one.
func advance(p sitter.Point, src []byte, from, to uint32) sitter.Point {
	text := src[from:to]
	rows, lineStart := bytes.Count(text, []byte{'\n'}), bytes.LastIndexByte(text, '\n')+1
	for i := bytes.IndexByte(text, '\r'); i >= 0; {
		if at := int(from) + i; at+1 == len(src) || src[at+1] != '\n' {
			rows++
			lineStart = max(lineStart, i+1)
		}
		next := bytes.IndexByte(text[i+1:], '\r')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	if rows == 0 {
		return sitter.Point{Row: p.Row, Column: p.Column + uint(len(text))}
	}
	return sitter.Point{Row: p.Row + uint(rows), Column: uint(len(text) - lineStart)}
}

// Then returns the one edit that makes the change of e followed by the change of next, which
// applies to the text e produces: the span from the first byte either touches to the last.
func (e Edit) Then(next Edit) Edit {
	end := max(e.NewEndByte, next.OldEndByte) // in the text between the two
	return Edit{
		StartByte:  min(e.StartByte, next.StartByte),
		OldEndByte: end - (e.NewEndByte - e.OldEndByte),
		NewEndByte: end + next.NewEndByte - next.OldEndByte,
	}
}
