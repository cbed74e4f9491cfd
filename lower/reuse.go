package lower

import (
	"runtime"
	"sync"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Reuse of unchanged functions. After an edit, a function whose text the edit does not touch
// is copied from the previous version (ssa.Copy, HIR and SSA form together) instead
// of being lowered and built again, when nothing else it depends on changed either: its syntax
// tree (tree-sitter may parse unchanged text differently while it recovers from an error
// nearby), its shape (below), and how the names it uses from outside resolve.

// shape is what a function's lowering depends on besides its own text: the kinds of its node
// and its parent (a declaration or an expression, a class or an object method), whether it is
// in the body of a with statement, and strictness.
type shape struct {
	kind, parent ts.Kind
	inWith       bool // created in the body of a with statement
	strict       bool // in strict code
}

// reusable maps, for each function of prev that edit does not touch but whose enclosing
// function it does (that one is lowered again), the function's new start offset to it. Left
// out are subtrees that are not analyzed (a with statement or a direct eval in them changes
// variables outside them) or that use arguments, which an arrow function shares with the
// function around it.
func reusable(prev *File, edit ts.Edit) map[uint32]*ssa.Function {
	delta := int32(edit.NewEndByte) - int32(edit.OldEndByte)
	reuse := make(map[uint32]*ssa.Function)
	var walk func(*ssa.Function)
	walk = func(parent *ssa.Function) {
		for _, fn := range parent.Children {
			start, end := uint32(fn.Span.Start), uint32(fn.Span.End)
			switch {
			case end <= edit.StartByte:
			case start >= edit.OldEndByte:
				start = uint32(int32(start) + delta)
			default:
				walk(fn)
				continue
			}
			if selfContained(fn, prev.usesArguments) {
				reuse[start] = fn
			}
		}
	}
	walk(prev.Funcs[0])
	return reuse
}

// selfContained reports whether fn and its nested functions are analyzed and do not use the
// arguments object of a function around them, which usesArguments lists.
func selfContained(fn *ssa.Function, usesArguments map[*ssa.Function]bool) bool {
	if !fn.Analyzed() || usesArguments[fn] {
		return false
	}
	for _, c := range fn.Children {
		if !selfContained(c, usesArguments) {
			return false
		}
	}
	return true
}

// shapeOf returns the shape of the function node nested in outer.
func (lw *lowerer) shapeOf(outer *funcState, node int32) shape {
	return shape{kind: lw.t.Nodes[node].Kind, parent: lw.t.Nodes[lw.t.Nodes[node].Parent].Kind,
		inWith: outer.inWith > 0, strict: outer.strict}
}

// reused returns a copy of the previous version's function for node, nested in outer and
// named name, or nil if there is none, if the text around it changed its role (a declaration
// become an expression, a class method an object method, another name, strictness), if it is
// in the body of a with statement (which makes the variables it uses context variables), or
// if the names it uses from outside resolve differently now. The copy is only started: the
// copier makes it while the lowering goes on, and outer adopts it when it is finished.
func (lw *lowerer) reused(outer *funcState, node int32, name string) *ssa.Function {
	old := lw.reuse[lw.t.Nodes[node].Start]
	now := lw.shapeOf(outer, node)
	if old == nil || now.inWith || old.Name != name || lw.prev.shapes[old] != now ||
		!sameSubtree(lw.prev.Tree, lw.prevNode(old, node), lw.t, node) {
		return nil
	}
	cp := old.NewCopy(int32(lw.t.Nodes[node].Start)-old.Span.Start, func(b *ssa.Binding) *ssa.Binding {
		then := outer.scope.lookup([]byte(b.Name))
		switch {
		case b.Kind == ssa.Global && then == nil:
			return lw.global([]byte(b.Name))
		case b.Kind != ssa.Global && then != nil && then.Kind == b.Kind &&
			levelsUp(old.Parent, b.Owner) == levelsUp(outer.fn, then.Owner):
			return then
		}
		return nil
	}, lw.prev.Captures)
	if cp == nil {
		return nil
	}
	fn := cp.Func()
	outer.fn.AddChild(fn)
	lw.shapes[fn] = now
	// The copy and its nested functions take their places in File.Funcs now, as lowering
	// them would; adopt fills them in.
	outer.copies = append(outer.copies, reusedCopy{cp, len(lw.funcs)})
	lw.funcs = append(lw.funcs, make([]*ssa.Function, countFuncs(old))...)
	lw.copier.start(cp)
	return fn
}

// prevNode returns the node of old, a function of the previous version, in its tree, or -1:
// the node that node, of the same kind, was copied from by the re-parse, if it is old's, and
// else the one found by its span.
func (lw *lowerer) prevNode(old *ssa.Function, node int32) int32 {
	t, kind := lw.prev.Tree, lw.t.Nodes[node].Kind
	if a := lw.t.CopiedFrom(t, node); a >= 0 {
		if n := &t.Nodes[a]; n.Kind == kind && int32(n.Start) == old.Span.Start && int32(n.End) == old.Span.End {
			return a
		}
	}
	return t.NodeAt(uint32(old.Span.Start), uint32(old.Span.End), kind)
}

// reusedCopy is a copy started by reused, and the index in File.Funcs of its root.
type reusedCopy struct {
	copy  *ssa.Copy
	index int
}

// countFuncs returns the number of functions in fn and nested in it.
func countFuncs(fn *ssa.Function) int {
	n := 1
	for _, c := range fn.Children {
		n += countFuncs(c)
	}
	return n
}

// copier makes copies of functions on the processors besides the lowering's own, in the
// order they were started. The copies of a function's nested functions are made while the
// lowering goes through the rest of it, and when it is finished, the lowering makes those the
// copier has not taken yet itself, from the last (adoptCopies). nil when there is one
// processor: the lowering then makes every copy itself.
type copier struct {
	queue chan *ssa.Copy
	done  sync.WaitGroup
}

// startCopier returns a copier whose queue holds n copies.
func startCopier(n int) *copier {
	workers := runtime.GOMAXPROCS(0) - 1
	if workers == 0 || n == 0 {
		return nil
	}
	c := &copier{queue: make(chan *ssa.Copy, n)}
	for range workers {
		c.done.Go(func() {
			for cp := range c.queue {
				cp.Make()
			}
		})
	}
	return c
}

// start queues cp, unless the queue is full (a function lowered twice, as code in a finally
// block is, may be copied twice): the lowering then makes it itself.
func (c *copier) start(cp *ssa.Copy) {
	if c != nil {
		select {
		case c.queue <- cp:
		default:
		}
	}
}

// stop ends the workers, once the lowering has made or waited for every copy (adoptCopies).
func (c *copier) stop() {
	if c != nil {
		close(c.queue)
		c.done.Wait()
	}
}

// adoptCopies makes the copies of fs's nested functions that are not made yet, from the last,
// while the copier goes on from the first, and adopts them all.
func (fs *funcState) adoptCopies() {
	for i := len(fs.copies) - 1; i >= 0; i-- {
		fs.copies[i].copy.Make()
	}
	for _, c := range fs.copies {
		fs.lw.adopt(c)
	}
}

// sameSubtree reports whether the subtrees of node a of ta and node b of tb have the same
// shape: the same nodes, fields and flags at the same offsets from their roots. Tree-sitter
// may parse unchanged text differently when it recovers from a syntax error nearby. Where it
// reused the subtree as it was, the re-parse copied the nodes below b from a's (CopiedFrom),
// and only the roots are left to compare.
func sameSubtree(ta *ts.Tree, a int32, tb *ts.Tree, b int32) bool {
	if a < 0 {
		return false
	}
	na, nb := ta.SubtreeEnd(a)-a, tb.SubtreeEnd(b)-b
	if na != nb {
		return false
	}
	if tb.CopiedFrom(ta, b) == a {
		na = 1
	}
	da, db := ta.Nodes[a].Start, tb.Nodes[b].Start
	for i := range na {
		x, y := &ta.Nodes[a+i], &tb.Nodes[b+i]
		if x.Kind != y.Kind || x.Field != y.Field || x.Flags != y.Flags || x.Start-da != y.Start-db || x.End-da != y.End-db ||
			x.ChildCount != y.ChildCount {
			return false
		}
	}
	return true
}

// levelsUp returns how many functions up from fn owner is, or -1 if it does not enclose fn.
func levelsUp(fn, owner *ssa.Function) int {
	for n := 0; fn != nil; n, fn = n+1, fn.Parent {
		if fn == owner {
			return n
		}
	}
	return -1
}

// adopt lists the functions of a copy in File.Funcs, where lowering them would have, and in
// File.Copied, and takes in what the copy gathered as it was made: the uses its functions make of enclosing
// functions' variables, and the captured reads inside it. Their own variables are settled and
// resolved as they were in prev.
func (lw *lowerer) adopt(c reusedCopy) {
	copy(lw.funcs[c.index:], c.copy.Funcs())
	for i, of := range c.copy.Originals() {
		lw.copied = append(lw.copied, Copied{Func: c.copy.Funcs()[i], Of: of, Shift: c.copy.Shift()})
	}
	root := c.copy.Func()
	for _, u := range c.copy.OuterUses() {
		lw.captures.readOuter(u.Func, c.index+u.Order, u.Instr, root)
	}
	for _, r := range c.copy.Captured() {
		lw.captures.captures[r.Read] = r.Def
	}
}
