package lower

import (
	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Reuse of unchanged functions. After an edit, a function whose text the edit does not touch
// is copied from the previous version (ssa.Function.Clone, HIR and SSA form together) instead
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
// if the names it uses from outside resolve differently now.
func (lw *lowerer) reused(outer *funcState, node int32, name string) *ssa.Function {
	old := lw.reuse[lw.t.Nodes[node].Start]
	now := lw.shapeOf(outer, node)
	if old == nil || now.inWith || old.Name != name || lw.prev.shapes[old] != now ||
		!sameSubtree(lw.prev.Tree, lw.prev.Tree.NodeAt(uint32(old.Span.Start), uint32(old.Span.End), now.kind), lw.t, node) {
		return nil
	}
	fn := old.Clone(int32(lw.t.Nodes[node].Start)-old.Span.Start, func(b *ssa.Binding) *ssa.Binding {
		then := outer.scope.lookup([]byte(b.Name))
		switch {
		case b.Kind == ssa.Global && then == nil:
			return lw.global([]byte(b.Name))
		case b.Kind != ssa.Global && then != nil && then.Kind == b.Kind &&
			levelsUp(old.Parent, b.Owner) == levelsUp(outer.fn, then.Owner):
			return then
		}
		return nil
	})
	if fn == nil {
		return nil
	}
	outer.fn.AddChild(fn)
	lw.shapes[fn] = now
	lw.adopt(fn)
	return fn
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

// adopt lists a copied function and its nested functions, as lowering them would have, and
// reads them for the uses they make of enclosing functions' variables. Their own variables
// are settled as they were in prev, and resolved again for the copy.
func (lw *lowerer) adopt(fn *ssa.Function) {
	lw.captures.enter(fn)
	index := len(lw.funcs)
	lw.funcs = append(lw.funcs, fn)
	for _, c := range fn.Children {
		lw.adopt(c)
	}
	lw.captures.read(fn, index)
	lw.captures.resolve(fn)
	lw.captures.leave()
}
