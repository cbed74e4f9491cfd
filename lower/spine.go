package lower

import (
	"maps"
	"math"
	"slices"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Lowering one function again. Most keystrokes land in the body of a function nested in
// others: lodash's functions sit in runInContext, typescript.js's checker in
// createTypeChecker, in a bundle's function. Lowering again every function the edit touches
// would lower those spines of functions around it, and copy the thousands of functions they
// hold, at every keystroke. Yet an edit inside a function's body changes nothing in the
// functions around it but positions, as long as what the function does with their variables
// is as it was: which it assigns and reads, where, and in which of its nested functions
// (context.go's rule reads nothing else of it).
//
// So when the edit lies inside the body of a function, the innermost one lowerFunction makes,
// and the syntax tree outside that body is as it was, lowerSpine lowers that function alone,
// in the scope its old version saw, and clones the functions around it: their bindings,
// blocks, instructions and SSA form, with the positions after the edit moved (ssa.Move). Their
// other nested functions are copied as a whole (reuse.go). It then checks that the function
// uses the variables around it as its old version did, and gives up otherwise: LowerFrom then
// lowers as before.
//
//	<module>            cloned: the positions after the edit move
//	└── runInContext    cloned
//	    ├── baseEach    copied, moved
//	    ├── baseFlatten lowered again: the edit is in its body
//	    │   └── …       copied, or lowered again if the edit touches them
//	    └── …           copied, moved or not
//
// The functions around it are answered as a lowering of them would: the captured reads and
// context variables are resolved again (captureResolver), from their cloned instructions and
// the uses of the functions nested in them, and their diagnostics are carried over as a copy's
// (Copied.Move).

// spine is the state of lowering the function an edit lies in, and cloning those around it.
type spine struct {
	lw   *lowerer
	move ssa.Move
	// path holds the previous version's functions around the edited one, the top level
	// first; clones their clones, as they are made; level the position of each in path.
	path, clones []*ssa.Function
	level        map[*ssa.Function]int
	old          *ssa.Function // the edited function's previous version
	node         int32         // its node in the new tree
	lowered      *ssa.Function // its new version
	failed       bool
}

// lowerSpine lowers t, prev's source changed by edit, as LowerFrom does, if edit lies inside
// the body of a function nested in the top level (see above); else it returns nil.
func lowerSpine(t *ts.Tree, prev *File, edit ts.Edit, lines Lines, ready func(*ssa.Function)) *File {
	if prev.Tree == nil {
		return nil
	}
	sp := &spine{move: ssa.Move{At: int32(edit.OldEndByte), By: int32(edit.NewEndByte) - int32(edit.OldEndByte)}}
	if sp.node = editedFunction(t, edit); sp.node < 0 || !sp.findOld(prev, t) || !sp.sameAround(prev, t, edit) {
		return nil
	}
	// The function's own lowering hands it over to be built; the rest is built already.
	var lowered []*ssa.Function
	lw := newLowerer(t, prev, edit, lines, func(fn *ssa.Function) { lowered = append(lowered, fn) }, prev.strict)
	sp.lw = lw
	sp.clones = make([]*ssa.Function, len(sp.path))
	if sp.clone(0, nil); sp.failed {
		return nil
	}
	f := lw.file()
	f.alone = sp.lowered
	if ready != nil {
		for _, fn := range lowered {
			ready(fn)
		}
	}
	return f
}

// editedFunction returns the node of the innermost function of t, one lowerFunction lowers,
// whose body holds edit with a byte of the body on either side, or -1.
func editedFunction(t *ts.Tree, edit ts.Edit) int32 {
	// The nodes are in preorder, which sorts them by their start: the last one starting
	// before the edit lies in the innermost node holding it.
	i, _ := slices.BinarySearchFunc(t.Nodes, edit.StartByte, func(n ts.Node, at uint32) int {
		if n.Start < at {
			return -1
		}
		return 1
	})
	for n := int32(i - 1); n > 0; n = t.Nodes[n].Parent {
		if !loweredFunction(t.Nodes[n].Kind) {
			continue
		}
		if body := t.ChildByField(n, ts.FieldBody); body >= 0 && t.Nodes[body].Start < edit.StartByte && edit.NewEndByte < t.Nodes[body].End {
			return n
		}
	}
	return -1
}

// loweredFunction reports whether lowerFunction lowers nodes of kind k.
func loweredFunction(k ts.Kind) bool {
	switch k {
	case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration, ts.KindFunctionExpression,
		ts.KindGeneratorFunction, ts.KindArrowFunction, ts.KindMethodDefinition:
		return true
	}
	return false
}

// findOld finds the previous version of the function at sp.node and those around it. It
// fails if that is not one function, nested in functions lowerFunction made (a namespace
// would share its scope with its other declarations), or if it is in the body of a with
// statement.
func (sp *spine) findOld(prev *File, t *ts.Tree) bool {
	n := &t.Nodes[sp.node]
	want := ssa.Span{Start: int32(n.Start), End: int32(n.End) - sp.move.By}
	fn := prev.Funcs[0]
	sp.level = make(map[*ssa.Function]int)
	for {
		sp.level[fn] = len(sp.path)
		sp.path = append(sp.path, fn)
		var in *ssa.Function
		for _, c := range fn.Children {
			if c.Span.Start <= want.Start && want.End <= c.Span.End {
				if in != nil {
					return false // lowered twice
				}
				in = c
			}
		}
		switch {
		case in == nil:
			return false
		case in.Span == want:
			sp.old = in
			sh, ok := prev.shapes[in]
			return ok && !sh.inWith && sh.kind == n.Kind && sh.parent == t.Nodes[n.Parent].Kind
		}
		if sh, ok := prev.shapes[in]; !ok || !loweredFunction(sh.kind) {
			return false
		}
		fn = in
	}
}

// openedBy reports whether a with statement or a direct eval in span made b a context
// variable.
func openedBy(b *ssa.Binding, span ssa.Span) bool {
	k := b.Why.Kind
	return (k == ssa.VisibleToDirectEval || k == ssa.AssignedThroughWith) && span.Start <= b.Why.At.Start && b.Why.At.End <= span.End
}

// sameAround reports whether the tree outside the edited function's body is prev's, moved by
// the edit, and whether the functions around, and those beside them, keep their loops' φs
// where a lowering of them would show them: at the end of the line a loop starts on, which an
// edit that makes or removes a line break moves for a loop that starts on the edit's line
// before it (editedLineStart).
func (sp *spine) sameAround(prev *File, t *ts.Tree, edit ts.Edit) bool {
	if !t.SameOutside(prev.Tree, t.ChildByField(sp.node, ts.FieldBody), edit) {
		return false
	}
	lineStart := editedLineStart(prev.Tree.Src, t.Src, edit)
	if lineStart == math.MaxInt32 {
		return true
	}
	lineEnd := int32(len(prev.Tree.Src))
	if i := slices.Index(prev.Tree.Src[edit.OldEndByte:], '\n'); i >= 0 {
		lineEnd = int32(edit.OldEndByte) + int32(i)
	}
	for _, fn := range sp.path {
		fn.Materialize()
		for _, b := range fn.Blocks {
			if b.LoopHeader && int32(edit.StartByte) <= b.Anchor.End && b.Anchor.End <= lineEnd {
				return false
			}
		}
		if slices.ContainsFunc(fn.Children, func(c *ssa.Function) bool { return endsOnEditedLine(c, edit, lineStart) }) {
			return false
		}
	}
	return true
}

// clone clones the function around the edit at level of sp.path, nested in outer's function
// (nil for the top level), with its nested functions: the next one around the edit, or the
// edited function, lowered again, or copies.
func (sp *spine) clone(level int, outer *funcState) *ssa.Function {
	lw, old := sp.lw, sp.path[level]
	old.Materialize()
	nf := old.CloneFrame(sp.move)
	sp.clones[level] = nf
	fs := &funcState{lw: lw, fn: nf, index: len(lw.funcs), outer: outer}
	fs.scope = &scope{fs: fs}
	fs.funcScope = fs.scope
	if outer != nil {
		nf.Parent = outer.fn
	}
	if sh, ok := lw.prev.shapes[old]; ok {
		lw.shapes[nf] = sh
	}
	lw.funcs = append(lw.funcs, nf)
	lw.captures.enter(nf)
	lw.copied = append(lw.copied, Copied{Func: nf, Of: old, Move: sp.move})
	nf.Children = make([]*ssa.Function, len(old.Children))
	for k, c := range old.Children {
		var child *ssa.Function
		switch {
		case level+1 < len(sp.path) && c == sp.path[level+1]:
			child = sp.clone(level+1, fs)
		case c == sp.old:
			child = sp.lowerEdited(fs)
		default:
			child = sp.copy(fs, c)
		}
		if sp.failed {
			return nil
		}
		nf.Children[k] = child
	}
	nf.CloneBody(old, sp.move, sp.resolve)
	for _, c := range fs.copies {
		sp.adopt(c)
	}
	lw.captures.read(nf, fs.index)
	// The edited function uses nf's variables as its old version did (lowerEdited), so which
	// are context variables is as it was, and cloned with them: only their single definitions
	// and the captured reads that see them are resolved again.
	lw.captures.resolve(nf)
	lw.captures.leave()
	return nf
}

// adopt adopts c, a copy of a function beside those around the edit, as lowerer.adopt does;
// but if c copies a copy, it does not read the uses c makes of the variables around it
// (typescript.js's checker's functions use those of createTypeChecker hundreds of thousands of
// times). Their rule is as it was (see clone), and so is what a captured read sees: the
// definition and the closure's creation it is checked against are cloned. So the reads that
// the copy recorded as seeing a variable's single definition see the clone's
// (ssa.Copy.CarryCaptures).
func (sp *spine) adopt(c reusedCopy) {
	sp.lw.listCopied(c)
	if !c.copy.CarryCaptures(c.old) {
		sp.lw.readUses(c)
	}
}

// resolve returns the binding of this version that stands for b, a global or a variable of a
// function around the edit in the previous version.
func (sp *spine) resolve(b *ssa.Binding) *ssa.Binding {
	if b.Owner == nil {
		return sp.lw.global([]byte(b.Name))
	}
	if level, ok := sp.level[b.Owner]; ok && sp.clones[level] != nil {
		return sp.clones[level].Bindings[b.ID]
	}
	sp.failed = true
	return nil
}

// copy copies old, a function nested in outer's function that the edit does not touch.
func (sp *spine) copy(outer *funcState, old *ssa.Function) *ssa.Function {
	lw := sp.lw
	shift := sp.move.Pos(old.Span.Start) - old.Span.Start
	cp := old.NewCopy(shift, sp.resolve, lw.prev.Capture, lw.prev.whole())
	if cp == nil {
		sp.failed = true
		return nil
	}
	fn := cp.Func()
	fn.Parent = outer.fn
	if sh, ok := lw.prev.shapes[old]; ok {
		lw.shapes[fn] = sh
	}
	lw.takeCopy(outer, cp, old, shift)
	return fn
}

// moveUse returns where the use of a variable at span at in the old version lies in the new
// one, if the edit left it as it was: one that ends where text is inserted keeps its end.
func (sp *spine) moveUse(at ssa.Span) ssa.Span {
	end := at.End
	if end > sp.move.At {
		end += sp.move.By
	}
	return ssa.Span{Start: sp.move.Pos(at.Start), End: end}
}

// firstUses are the first assignment and the first read of a variable in a function and its
// nested functions, in the order of File.Funcs and in each function's, with the function that
// makes them: all that the rule of context variables reads of them (captured.record).
type firstUses struct {
	assignedIn, readIn string
	assignedAt, readAt ssa.Span
	assigned, read     bool
}

// add returns u with a use in function fn at span at, an assignment if defines is set.
func (u firstUses) add(fn string, at ssa.Span, defines bool) firstUses {
	switch {
	case defines && !u.assigned:
		u.assignedIn, u.assignedAt, u.assigned = fn, at, true
	case !defines && !u.read:
		u.readIn, u.readAt, u.read = fn, at, true
	}
	return u
}

// lowerEdited lowers the edited function again, nested in outer's function, in the scope its
// previous version saw: the names it used from outside resolve as they did, and every other
// name to a global, unless a function around declares it. The new version must make the
// first assignment and the first read of each variable around it where the old one did (see
// above); a new global it uses must be one.
func (sp *spine) lowerEdited(outer *funcState) *ssa.Function {
	lw, old := sp.lw, sp.old
	sh := lw.prev.shapes[old]
	outer.strict = sh.strict
	before := make(map[*ssa.Binding]firstUses)
	globals := make(map[string]bool)
	old.EachOuterUse(func(f *ssa.Function, b *ssa.Binding, at ssa.Span, defines, _ bool) {
		if b.Owner == nil {
			globals[b.Name] = true
			return
		}
		nb := sp.resolve(b)
		lw.visible[nb.Name] = nb
		before[nb] = before[nb].add(f.Name, sp.moveUse(at), defines)
	})
	if sp.failed {
		return nil
	}
	fn := lw.lowerFunction(outer, sp.node, old.Name)
	sp.lowered = fn
	outer.fn.Children = outer.fn.Children[:len(outer.fn.Children)-1] // AddChild's; the caller places it
	clear(lw.visible)
	// What a with statement or a direct eval sees of the functions around depends on where it
	// is; the old version's marked their variables (openedBy).
	declared := make(map[string]bool)
	for _, f := range sp.path {
		for _, b := range f.Bindings {
			declared[b.Name] = true
			sp.failed = sp.failed || openedBy(b, old.Span)
		}
	}
	after := make(map[*ssa.Binding]firstUses, len(before))
	fn.EachOuterUse(func(f *ssa.Function, b *ssa.Binding, at ssa.Span, defines, _ bool) {
		switch {
		case b.Owner != nil:
			after[b] = after[b].add(f.Name, at, defines)
		case declared[b.Name] && !globals[b.Name]:
			sp.failed = true
		case b.Name == "arguments" && fn.Arrow:
			// An undeclared arguments in an arrow function is the arguments object of a function
			// around it, which may alias that one's parameters.
			sp.failed = true
		}
	})
	if !maps.Equal(before, after) || fn.Name != old.Name || lw.scopesOpened || old.Arrow && globals["arguments"] {
		sp.failed = true
	}
	return fn
}
