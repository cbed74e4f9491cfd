package lower

import (
	"bytes"
	"math"
	"slices"

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
// variables outside them) or that use the arguments object of a function around them
// (selfContained), and functions that end on the line the edit starts on, if it makes or
// removes a line break (editedLineStart). src is the new version's source.
func reusable(prev *File, edit ts.Edit, src []byte) map[uint32]*ssa.Function {
	delta := int32(edit.NewEndByte) - int32(edit.OldEndByte)
	lineStart := editedLineStart(prev.Tree.Src, src, edit)
	reuse := make(map[uint32]*ssa.Function)
	var walk func(*ssa.Function)
	walk = func(parent *ssa.Function) {
		for _, fn := range parent.Children {
			start, end := uint32(fn.Span.Start), uint32(fn.Span.End)
			switch {
			case endsOnEditedLine(fn, edit, lineStart):
				walk(fn)
				continue
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

// editedLineStart returns where the line that edit starts on begins in old, the previous
// version's source, if the edit makes or removes a line break, and else math.MaxInt32. A
// loop shows its φs at the end of the line it starts on (loopHeader), so a line break typed
// after a loop on its line moves them: a function that ends on that line before the edit may
// have such a loop, and is lowered again.
func editedLineStart(old, src []byte, edit ts.Edit) int32 {
	if !breaksLine(old[edit.StartByte:edit.OldEndByte]) && !breaksLine(src[edit.StartByte:edit.NewEndByte]) {
		return math.MaxInt32
	}
	return int32(bytes.LastIndexByte(old[:edit.StartByte], '\n') + 1)
}

// endsOnEditedLine reports whether fn ends before edit, on the line it starts on, which begins
// at lineStart (editedLineStart).
func endsOnEditedLine(fn *ssa.Function, edit ts.Edit, lineStart int32) bool {
	return fn.Span.End <= int32(edit.StartByte) && fn.Span.End > lineStart
}

// breaksLine reports whether text may hold a line terminator: a line feed, a carriage return,
// or the first byte of U+2028 or U+2029.
func breaksLine(text []byte) bool {
	return slices.ContainsFunc(text, func(c byte) bool { return c == '\n' || c == '\r' || c == 0xE2 })
}

// selfContained reports whether fn and its nested functions are analyzed and none of them
// uses the arguments object of a function around fn. usesArguments lists the functions whose
// own code uses an arguments object: their own, or, in an arrow function, that of the nearest
// function around it that is not one. In sloppy code that object aliases its function's
// parameters (argumentsUsed), so an arrow function at the root of a copy, or nested in one
// through arrow functions only, would leave the function that owns the object unmarked: it is
// lowered again. Any other use, lodash's wrappers reading their own arguments, stays inside.
func selfContained(fn *ssa.Function, usesArguments map[*ssa.Function]bool) bool {
	var inside func(f *ssa.Function, arrowsFromRoot bool) bool
	inside = func(f *ssa.Function, arrowsFromRoot bool) bool {
		arrowsFromRoot = arrowsFromRoot && f.Arrow
		if !f.Analyzed() || arrowsFromRoot && usesArguments[f] {
			return false
		}
		for _, c := range f.Children {
			if !inside(c, arrowsFromRoot) {
				return false
			}
		}
		return true
	}
	return inside(fn, true)
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
// if the names it uses from outside resolve differently now. The copy's functions are shells,
// whose bodies are made when first needed; outer adopts the copy when it is finished.
func (lw *lowerer) reused(outer *funcState, node int32, name string) *ssa.Function {
	old := lw.reuse[lw.t.Nodes[node].Start]
	now := lw.shapeOf(outer, node)
	if old == nil || now.inWith || old.Name != name || lw.prev.shapes[old] != now ||
		!sameSubtree(lw.prev.Tree, lw.prevNode(old, node), lw.t, node) {
		return nil
	}
	shift := int32(lw.t.Nodes[node].Start) - old.Span.Start
	cp := old.NewCopy(shift, func(b *ssa.Binding) *ssa.Binding {
		then := outer.scope.lookup([]byte(b.Name))
		switch {
		case b.Kind == ssa.Global && then == nil:
			return lw.global([]byte(b.Name))
		case b.Kind != ssa.Global && then != nil && then.Kind == b.Kind &&
			levelsUp(old.Parent, b.Owner) == levelsUp(outer.fn, then.Owner):
			return then
		}
		return nil
	}, lw.prev.Capture, lw.prev.whole())
	if cp == nil {
		return nil
	}
	fn := cp.Func()
	outer.fn.AddChild(fn)
	lw.shapes[fn] = now
	lw.takeCopy(outer, cp, old, shift)
	return fn
}

// takeCopy makes cp, a copy of old nested in outer's function, whose text starts shift bytes
// later, one of the file's functions: the copy and its nested functions take their places in
// File.Funcs now, as lowering them would, and outer adopts it when it is finished.
func (lw *lowerer) takeCopy(outer *funcState, cp *ssa.Copy, old *ssa.Function, shift int32) {
	outer.copies = append(outer.copies, reusedCopy{cp, len(lw.funcs), old, shift})
	lw.copies = append(lw.copies, cp)
	lw.funcs = append(lw.funcs, cp.Funcs()...)
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

// reusedCopy is a copy started by reused, the index in File.Funcs of its root, the function
// of the previous version it copies, and how many bytes later the copy starts.
type reusedCopy struct {
	copy  *ssa.Copy
	index int
	old   *ssa.Function
	shift int32
}

// adoptCopies adopts the copies of fs's nested functions, once fs's function is finished.
func (fs *funcState) adoptCopies() {
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

// adopt lists the functions of a copy in File.Copied, with the functions of the previous
// version they copy, and reads the uses its functions make of enclosing functions' variables.
// Their own variables are settled and resolved as they were in prev, and the captured reads
// inside the copy are the copy's own (ssa.Function.Captures).
func (lw *lowerer) adopt(c reusedCopy) {
	lw.listCopied(c)
	lw.readUses(c)
}

// listCopied lists the functions of copy c in File.Copied, with the functions of the previous
// version they copy; those whose code uses the arguments object of a function around them
// still do.
func (lw *lowerer) listCopied(c reusedCopy) {
	funcs := c.copy.Funcs()
	first := len(lw.copied)
	var list func(*ssa.Function)
	list = func(of *ssa.Function) {
		fn := funcs[len(lw.copied)-first]
		lw.copied = append(lw.copied, Copied{Func: fn, Of: of, Move: ssa.Move{At: math.MinInt32, By: c.shift}})
		if lw.prev.usesArguments[of] {
			lw.captures.usesArguments[fn] = true
		}
		for _, child := range of.Children {
			list(child)
		}
	}
	list(c.old)
}

// readUses reads the uses the functions of copy c make of globals and of the variables of
// functions around it.
func (lw *lowerer) readUses(c reusedCopy) {
	funcs, root := c.copy.Funcs(), c.copy.Func()
	c.copy.OuterUses(func(u ssa.OuterUse) {
		lw.captures.readOuter(funcs[u.Order], c.index+int(u.Order), outerUse{binding: c.copy.Binding(u), span: u.Span,
			defines: u.Defines, reads: u.Reads, copy: c.copy, copied: u}, root)
	})
}
