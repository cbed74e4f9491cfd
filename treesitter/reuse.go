package treesitter

import "github.com/ssalens/ssalens/ssa"

// reusable maps the new start offset of each function of prev nested directly in its top level
// and untouched by edit to that function. Functions whose subtree is not analyzed are left
// out: a with statement or a direct eval in them changes variables of the top level.
func reusable(prev *File, edit Edit) map[uint32]*ssa.Function {
	top := prev.Funcs[0]
	delta := int32(edit.NewEndByte) - int32(edit.OldEndByte)
	reuse := make(map[uint32]*ssa.Function)
	for _, fn := range top.Children {
		start, end := uint32(fn.Span.Start), uint32(fn.Span.End)
		switch {
		case end <= edit.StartByte:
		case start >= edit.OldEndByte:
			start = uint32(int32(start) + delta)
		default:
			continue
		}
		if analyzedSubtree(fn) {
			reuse[start] = fn
		}
	}
	return reuse
}

func analyzedSubtree(fn *ssa.Function) bool {
	if fn.NotAnalyzed != "" {
		return false
	}
	for _, c := range fn.Children {
		if !analyzedSubtree(c) {
			return false
		}
	}
	return true
}

func (lw *lowerer) shapeOf(top *funcState, node int32) shape {
	return shape{kind: lw.t.Nodes[node].Kind, parent: lw.t.Nodes[lw.t.Nodes[node].Parent].Kind, inWith: top.inWith > 0}
}

// reused returns a copy of the previous version's function for node, nested in the top level
// top and named name, or nil if there is none, if the text around it changed its role (a
// declaration become an expression, a class method an object method, another name), if it is
// in the body of a with statement (which makes the variables it uses context variables), or if
// the names it uses from outside resolve differently now.
func (lw *lowerer) reused(top *funcState, node int32, name string) *ssa.Function {
	old := lw.reuse[lw.t.Nodes[node].Start]
	now := lw.shapeOf(top, node)
	if old == nil || now.inWith || old.Span.End-old.Span.Start != int32(lw.t.Nodes[node].End-lw.t.Nodes[node].Start) ||
		old.Name != name || lw.prev.shapes[old] != now {
		return nil
	}
	oldTop := old.Parent
	fn := old.Clone(int32(lw.t.Nodes[node].Start)-old.Span.Start, func(b *ssa.Binding) *ssa.Binding {
		now := top.scope.lookup([]byte(b.Name))
		switch {
		case b.Kind == ssa.Global && now == nil:
			return lw.global([]byte(b.Name))
		case b.Owner == oldTop && now != nil && now.Kind == b.Kind:
			return now
		}
		return nil
	})
	if fn == nil {
		return nil
	}
	top.fn.AddChild(fn)
	lw.shapes[fn] = now
	lw.adopt(fn, top.fn)
	return fn
}

// adopt lists a copied function and its nested functions, and records their uses of the
// top level's variables for the context-variable rule.
func (lw *lowerer) adopt(fn, top *ssa.Function) {
	lw.funcs = append(lw.funcs, fn)
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if in.Place.Binding != nil && in.Place.Binding.Owner == top {
				lw.recordCapture(in.Place.Binding, fn, in.Defines())
			}
		}
	}
	for _, c := range fn.Children {
		lw.adopt(c, top)
	}
}
