package treesitter

import (
	"bytes"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Re-parsing an edit by parsing alone the statements around it.
//
// A keystroke changes a few bytes, but tree-sitter's incremental parse of a large file costs
// far more than the statements around them: most repetition nodes of tree-sitter-javascript's
// statement lists are fragile (reduced where the parse table had two actions), and a fragile
// node is never reused, so the parser descends to every statement of the lists around the
// edit and lexes the first token of each again (lodash.js: 1,675 tokens, a third of the file,
// for a space typed in runInContext). The argument that lets a large file be parsed in pieces
// (pieces.go) lets an edit be parsed alone: at some places between two statements the parser
// is between statements whatever comes before or after. So the edit's run, the statements of
// one statement list (a program, a block) that the edit touches, with the text between them
// and their neighbours, is parsed alone as a program, and its nodes take the place of the old
// run's in a copy of the old flat tree:
//
//	old text:  … prev; ␣ s₁ s₂ ␣ next …      the edit touches s₁ and s₂
//	piece:           ␣ s₁'s₂'␣               the new text from prev's end to next's start
//	new tree:  … prev; [the piece's statements] next …
//
// A statement A followed by B is such a place if A ends with a `;`, or if A ends with a `}`, a
// line break follows, and B starts with a keyword that cannot continue A (`function`, `var`,
// `if`, …): A may be an expression that ends with a function's body, and only the automatic
// semicolon, which needs the line break, ends it before B. The start and the end of a list are
// places too, for a last statement that ends with `;` or `}`. The piece is kept only if its
// parse proves the places at both its ends, has no syntax error, has no `/*` that a comment of
// its own does not hold (the edit deleted a `*/`, and the text after the piece would close the
// comment), and its last token ends before the piece does (a line comment typed before next
// runs on into it). Where an end is not a place, the run takes in the statement beyond it, and
// is parsed again; at the end of its list, the run is the statement of the next list out that
// holds the list. The old tree must have no syntax error: error recovery may read far. If the
// piece has one, is long (maxPiece), or does not fit after a few tries, tree-sitter re-parses
// the file. TestSpliceEqualsWhole checks spliced trees against whole parses for edits all over
// the corpora, TestSpliceAtItsLimits each way a piece goes wrong.
//
// A spliced tree has no C tree of its own: it keeps the C tree of the last version that had one
// and the edits since, and ParseWhole re-parses from them, once, for the next version that cannot
// be spliced. The analysis starts it when the answers are out, off the path of the next keystroke.
// Spliced from a tree made in pieces whose whole parse is not over, it keeps that tree instead,
// whose parse goes on for it: the user who types as soon as a large file's first answers are
// out does not wait for the parse of the whole file (three.core.js: 0.23 s).

// maxPiece is the size of the longest piece parsed alone in a source of size bytes: a quarter
// of it, from 8 kB (any piece of a small file parses in no time) to 64 kB (about 10 ms). A
// longer one is left to tree-sitter's re-parse, which may cost less than parsing the piece
// afresh: a keystroke in the parameters of typescript.js's createTypeChecker would otherwise
// parse its 2 MB body.
func maxPiece(size int) uint32 {
	return uint32(min(max(size/4, 8<<10), 64<<10))
}

// spliceTries bounds the parses of a splice: a piece whose parse shows that an end of it is not
// a place grows, and is parsed again.
const spliceTries = 4

// splice returns the tree of newSrc, t.Src changed by edit, made as the comment above says, or
// nil where tree-sitter must re-parse.
func (t *Tree) splice(edit Edit, newSrc []byte, inputEdit *sitter.InputEdit) *Tree {
	if len(t.Nodes) == 0 || t.Nodes[0].Flags&HasError != 0 {
		return nil
	}
	tries := 0
	delta := int64(edit.NewEndByte) - int64(edit.OldEndByte)
lists:
	for _, list := range t.listsAround(edit) {
		r := t.runAround(list, edit)
		for tries < spliceTries {
			tries++
			from, to := r.text(t)
			if to-from > maxPiece(len(t.Src)) {
				return nil
			}
			piece := newSrc[from : int64(to)+delta]
			m, err := consumeParse(t.Grammar, piece)
			if err != nil || m[0].Flags&HasError != 0 || opensComment(m, piece) {
				return nil
			}
			switch r.check(t, m, piece, newSrc, from, delta) {
			case pieceFits:
				return t.spliced(r, m, from, delta, newSrc, inputEdit)
			case startTooLate:
				if !r.grow(t, -1) {
					continue lists
				}
			case endTooEarly:
				if !r.grow(t, +1) {
					continue lists
				}
			}
		}
		return nil
	}
	return nil
}

// listsAround returns the statement lists (the program, blocks) that hold the edit between
// their statements' first and last token, the innermost first.
func (t *Tree) listsAround(edit Edit) []int32 {
	var lists []int32
	for n := int32(0); n >= 0; {
		if t.listHolds(n, edit) {
			lists = append(lists, n)
		}
		inner := int32(-1)
		for c := t.Nodes[n].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Start <= edit.StartByte && edit.OldEndByte <= t.Nodes[c].End {
				inner = c
				break
			}
		}
		n = inner
	}
	slices.Reverse(lists)
	return lists
}

// listHolds reports whether node n is a statement list whose braces, if it has them, are
// outside the edit.
func (t *Tree) listHolds(n int32, edit Edit) bool {
	switch t.Nodes[n].Kind {
	case KindProgram:
		return true
	case KindStatementBlock:
		open, close := t.Nodes[n].FirstChild, t.lastNonExtra(n)
		return open >= 0 && t.Nodes[open].Kind == openBraceKind && t.Nodes[close].Kind == closeBraceKind &&
			t.Nodes[open].End <= edit.StartByte && edit.OldEndByte <= t.Nodes[close].Start
	}
	return false
}

var openBraceKind = TokenKind("{")

// lastNonExtra returns node n's last child that is not a comment.
func (t *Tree) lastNonExtra(n int32) int32 {
	_, last := childrenBefore(t.Nodes, n, -1)
	return last
}

// run is the statements of a list that a piece replaces: stmts[first:end], with the text
// around them back to the statement before (or the list's start) and on to the one after (or
// the list's end).
type run struct {
	list       int32
	stmts      []int32 // the list's children that are not comments, without its braces
	first, end int     // stmts[first:end] is the run; first == end for an edit between statements
}

// runAround returns the run of list around edit: the statements the edit touches, and those
// before them back to one after a statement that ends with `;` or `}` (no other ends at a place).
func (t *Tree) runAround(list int32, edit Edit) run {
	r := run{list: list}
	for c := t.Nodes[list].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		if n := &t.Nodes[c]; n.Flags&Extra == 0 && n.Kind != openBraceKind && n.Kind != closeBraceKind {
			r.stmts = append(r.stmts, c)
		}
	}
	r.first = len(r.stmts)
	for i, s := range r.stmts {
		if t.Nodes[s].End >= edit.StartByte {
			r.first = i
			break
		}
	}
	r.end = r.first
	for r.end < len(r.stmts) && t.Nodes[r.stmts[r.end]].Start <= edit.OldEndByte {
		r.end++
	}
	for r.first > 0 && !endsStatement(t.Nodes, r.stmts[r.first-1]) {
		r.first--
	}
	return r
}

// grow adds to the run the statement before it (dir -1), and those before that back to one
// after a statement that ends with `;` or `}`, or the statement after it (dir +1); false if
// there is none.
func (r *run) grow(t *Tree, dir int) bool {
	if dir < 0 {
		if r.first == 0 {
			return false
		}
		r.first--
		for r.first > 0 && !endsStatement(t.Nodes, r.stmts[r.first-1]) {
			r.first--
		}
		return true
	}
	if r.end == len(r.stmts) {
		return false
	}
	r.end++
	return true
}

// prev and next are the statements just before and after the run, -1 for none.
func (r *run) prev() int32 {
	if r.first == 0 {
		return -1
	}
	return r.stmts[r.first-1]
}

func (r *run) next() int32 {
	if r.end == len(r.stmts) {
		return -1
	}
	return r.stmts[r.end]
}

// text returns the old text the piece replaces: from the end of prev, or the list's start, to
// the start of next, or the list's end.
func (r *run) text(t *Tree) (from, to uint32) {
	_, hi, before := r.nodes(t)
	if before >= 0 {
		from = t.Nodes[before].End
	}
	to = uint32(len(t.Src))
	if hi < int32(len(t.Nodes)) {
		to = t.Nodes[hi].Start
	}
	return from, to
}

// nodes returns the old nodes the piece replaces, [lo, hi), and the child of the list just
// before them (-1 for none): prev, or the block's `{`. Node hi is next, or the block's `}`.
func (r *run) nodes(t *Tree) (lo, hi, before int32) {
	list := &t.Nodes[r.list]
	before = -1
	switch p := r.prev(); {
	case p >= 0:
		before = p
	case list.Kind == KindStatementBlock:
		before = list.FirstChild
	}
	lo = r.list + 1
	if before >= 0 {
		lo = t.SubtreeEnd(before)
	}
	switch n := r.next(); {
	case n >= 0:
		hi = n
	case list.Kind == KindStatementBlock:
		hi = t.lastNonExtra(r.list)
	default:
		hi = t.SubtreeEnd(r.list)
	}
	return lo, hi, before
}

// pieceCheck is what the parse of a piece shows about its places.
type pieceCheck int

const (
	pieceFits    pieceCheck = iota
	startTooLate            // the piece must start at an earlier statement
	endTooEarly             // the piece must end at a later statement
)

// check reads the parse m of piece, the new text at from, as the comment at the top says.
func (r *run) check(t *Tree, m []Node, piece, newSrc []byte, from uint32, delta int64) pieceCheck {
	first, last := m[0].FirstChild, int32(-1) // the piece's first and last statements
	for first >= 0 && m[first].Flags&Extra != 0 {
		first = m[first].NextSibling
	}
	if first >= 0 {
		_, last = childrenBefore(m, 0, -1)
	}
	beyond := follower{token: -1} // what follows the piece
	if next := r.next(); next >= 0 {
		beyond = follower{int64(t.Nodes[next].Start) + delta, true, startsWithKeyword(t.Nodes, next)}
	}
	if prev := r.prev(); prev >= 0 {
		f := beyond
		if c := m[0].FirstChild; c >= 0 {
			f.token = int64(from + m[c].Start)
		}
		if first >= 0 {
			f.statement, f.keyword = true, startsWithKeyword(m, first)
		}
		if !isPlace(lastToken(t.Nodes, prev), t.Nodes[prev].End, f, newSrc) {
			return startTooLate
		}
	}
	if last >= 0 {
		f := beyond
		if c := m[last].NextSibling; c >= 0 {
			f.token = int64(from + m[c].Start)
		}
		if !isPlace(lastToken(m, last), from+m[last].End, f, newSrc) {
			return endTooEarly
		}
	}
	// Past the piece, the text goes on: its last token must end before the piece does, else it
	// may read on (a line comment typed just before the next statement).
	if len(m) > 1 && int(m[len(m)-1].End) == len(piece) && int(from)+len(piece) < len(newSrc) {
		return endTooEarly
	}
	return pieceFits
}

// follower is what follows a statement: the offset of the next token, a comment's or a
// statement's (-1 if the list ends), and whether a statement follows, and starts with a keyword.
type follower struct {
	token              int64
	statement, keyword bool
}

// isPlace reports whether the parser is between statements after a statement whose last token,
// of kind last, ends at end, and which f follows in src. After a `}` a line break must come
// before the next token: the statement may end by an automatic semicolon, which tree-sitter
// puts after a comment on the line of the `}` (the comment is the statement's), and which needs
// the line break or the end of the list.
func isPlace(last Kind, end uint32, f follower, src []byte) bool {
	switch {
	case last == semicolonKind:
		return true
	case last != closeBraceKind:
		return false
	case f.token < 0:
		return true
	}
	return bytes.IndexByte(src[end:f.token], '\n') >= 0 && (!f.statement || f.keyword)
}

// opensComment reports whether piece, whose parse is m, has a `/*` that is not in one of its
// comments, strings or template strings: one whose comment the piece does not close, and which
// the text after the piece closes (the edit deleted a `*/`), which the piece alone lexes as
// a regular expression or division. One pass over both: the nodes come in preorder, by start.
func opensComment(m []Node, piece []byte) bool {
	next := func(from int) int {
		if i := bytes.Index(piece[from:], []byte("/*")); i >= 0 {
			return from + i
		}
		return -1
	}
	at := next(0)
	for k := range m {
		if n := &m[k]; at >= 0 && (n.Kind == KindComment || n.Kind == KindString || n.Kind == KindTemplateString) {
			if uint32(at) < n.Start { // no holder before n held it, and none after n can
				return true
			}
			for at >= 0 && uint32(at)+2 <= n.End {
				at = next(at + 2)
			}
		}
	}
	return at >= 0
}

// lastToken returns the kind of the last token of node i.
func lastToken(nodes []Node, i int32) Kind {
	return nodes[(&Tree{Nodes: nodes}).SubtreeEnd(i)-1].Kind
}

// spliced returns the tree of newSrc made from t with m, the parse of the piece at from, in
// place of the run's nodes.
func (t *Tree) spliced(r run, m []Node, from uint32, delta int64, newSrc []byte, edit *sitter.InputEdit) *Tree {
	cfrom, pending, edits := t.wholeSource()
	if cfrom == nil && pending == nil {
		return nil
	}
	whole := &wholeParse{cancel: new(atomic.Int32), spliced: true, from: cfrom, pending: pending, edits: append(edits, *edit)}
	old := t.Nodes
	lo, hi, before := r.nodes(t)
	shift := int32(len(m)-1) - (hi - lo)
	after := int32(-1) // the list's child after the piece, in the new tree
	if hi < t.SubtreeEnd(r.list) {
		after = hi + shift
	}
	nodes := newNodes(len(old) + int(shift))
	// Before the piece, only the list and its ancestors change: every other node ends before
	// the piece, and so do its children and its next sibling.
	copy(nodes, old[:lo])
	var ancestors []int32 // the root first
	for a := r.list; a >= 0; a = old[a].Parent {
		n := &nodes[a]
		n.End = uint32(int64(n.End) + delta)
		if n.NextSibling >= hi {
			n.NextSibling += shift
		}
		ancestors = append(ancestors, a)
	}
	slices.Reverse(ancestors)
	firstNew := after
	if m[0].FirstChild >= 0 {
		firstNew = lo
	}
	if before >= 0 {
		nodes[before].NextSibling = firstNew
	} else {
		nodes[r.list].FirstChild = firstNew
		if r.list == 0 {
			nodes[0].Start = from + m[0].Start
		}
	}
	replaced := int32(0)
	for c := firstChildFrom(old, r.list, before); c >= 0 && c < hi; c = old[c].NextSibling {
		replaced++
	}
	nodes[r.list].ChildCount += m[0].ChildCount - replaced
	placePiece(nodes, m, lo-1, from, r.list, after)
	inParts(len(old)-int(hi), func(start, end int) {
		for i, n := range old[int(hi)+start : int(hi)+end] {
			n.Start = uint32(int64(n.Start) + delta)
			n.End = uint32(int64(n.End) + delta)
			if n.Parent >= hi {
				n.Parent += shift
			}
			if n.FirstChild >= 0 {
				n.FirstChild += shift
			}
			if n.NextSibling >= 0 {
				n.NextSibling += shift
			}
			nodes[hi+shift+int32(start+i)] = n
		}
	})
	next := &Tree{Src: newSrc, Nodes: nodes, Grammar: t.Grammar, whole: whole, id: treeIDs.Add(1), reparsedFrom: t.id,
		copied: copiedAround(ancestors, lo, hi, shift, int32(len(old))), reparses: t.reparses + 1}
	if cfrom != nil {
		next.cleanup = runtime.AddCleanup(next, (*sitter.Tree).Close, cfrom)
	}
	return next
}

// inParts calls do on [0, count) in parts, one per processor if count is large: moving the
// nodes after a piece in typescript.js (2.3 million nodes) takes 10 ms on one.
func inParts(count int, do func(start, end int)) {
	parts := runtime.GOMAXPROCS(0)
	if count < flatParallel || parts < 2 {
		do(0, count)
		return
	}
	var wg sync.WaitGroup
	for k := range parts {
		wg.Go(func() { do(count*k/parts, count*(k+1)/parts) })
	}
	wg.Wait()
}

// firstChildFrom returns the child of parent after before, or its first child if before is -1.
func firstChildFrom(nodes []Node, parent, before int32) int32 {
	if before < 0 {
		return nodes[parent].FirstChild
	}
	return nodes[before].NextSibling
}

// copiedAround returns the subtrees a splice copied: all the old nodes but the run's, [lo, hi),
// and its ancestors, the root first; those after the run move by shift.
func copiedAround(ancestors []int32, lo, hi, shift, count int32) []copied {
	var cs []copied
	for k, a := range ancestors {
		end := lo
		if k+1 < len(ancestors) {
			end = ancestors[k+1]
		}
		if end > a+1 {
			cs = append(cs, copied{node: a + 1, old: a + 1, size: end - a - 1})
		}
	}
	if count > hi {
		cs = append(cs, copied{node: hi + shift, old: hi, size: count - hi})
	}
	return cs
}

// wholeSource returns what the C tree of a tree spliced from t starts from: a copy of t's C
// tree; for a spliced tree not parsed whole yet, a copy of the C tree its whole parse starts
// from, or the tree made in pieces it is pending on, with the edits it applies; for a tree made
// in pieces whose whole parse is not over, t. A tree made in pieces that is returned counts the
// new tree in among those that need its parse (unhold counts it out). All are nil if t has none
// (closed, or its pieces differ from the whole parse).
func (t *Tree) wholeSource() (from *sitter.Tree, pending *Tree, edits []sitter.InputEdit) {
	w := t.whole
	if w == nil {
		if t.ts == nil {
			return nil, nil, nil
		}
		return t.ts.Clone(), nil, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.ts != nil:
		return w.ts.Clone(), nil, nil
	case w.from != nil:
		return w.from.Clone(), nil, slices.Clone(w.edits)
	case w.pending != nil: // it holds the pending tree: that tree's parse goes on
		pw := w.pending.whole
		pw.mu.Lock()
		pw.holders++
		pw.mu.Unlock()
		return nil, w.pending, slices.Clone(w.edits)
	case !w.spliced && !w.ended && w.holders > 0:
		w.holders++
		return nil, t, nil
	}
	return nil, nil, nil
}
