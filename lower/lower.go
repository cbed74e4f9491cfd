package lower

import (
	"sync"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// File is the HIR of one source file: every function, the top level first, parents before
// their nested functions.
type File struct {
	Tree  *ts.Tree
	Funcs []*ssa.Function
	// Captures maps each read of a variable captured from an enclosing function to the
	// variable's one definition there, when that definition runs before the closure holding
	// the read is created: then the read sees that value and no other (see context.go). The
	// reads in copied functions are their copy's (ssa.Function.Captures); Capture finds both.
	Captures map[*ssa.Place]*ssa.Place
	// Copied lists the functions copied from the previous version, with the functions they
	// are copies of, for the analysis to carry over what it derived from those. It holds the
	// previous version: the analysis drops it once it has.
	Copied []Copied
	// copies keeps the copies whose functions Funcs lists, which refer to them weakly: their
	// bodies are made when first asked for (ssa.Copy). See DetachCopies.
	copies []*ssa.Copy

	strict     bool // the top level is strict code
	typescript bool // lowered with the TypeScript or the TSX grammar
	// usesArguments holds the functions whose own code uses an arguments object: their own, or
	// in an arrow function that of a function around it (see selfContained).
	usesArguments map[*ssa.Function]bool
	// shapes records, for each function, the kinds of its node and its parent and the code
	// around it: a function's lowering depends on them beyond its text (see reuse.go).
	shapes map[*ssa.Function]shape
	// visited counts the statements, expressions and patterns lowered, for tests that bound it.
	visited int
	// alone is the one function lowered, if the lowering cloned those around it (spine.go).
	alone *ssa.Function
}

// DetachCopies detaches the copies of the previous version's functions (ssa.Copy.Detach): the
// first time a function is copied, its bodies are copied once into a template, which its later
// copies copy, so that no version keeps another. A keystroke that moves to another function
// detaches the one it left. Without all, it leaves the functions of a version lowered from
// scratch (whole), the file as opened, which keep only each other: detaching them copies the
// whole file, and belongs where the user pauses. The caller runs it once the version is
// built, off the keystroke's path.
func (f *File) DetachCopies(all bool) {
	for _, c := range f.copies {
		c.Detach(all)
	}
}

// PrepareCopies makes ahead, for a file lowered from scratch, what the next version reads of
// the functions it copies (ssa.Function.Summarize): the first keystroke after a file is opened
// copies nearly all of it, and summarizing them was half of that keystroke (typescript.js:
// 60 ms of 124). Where the user types is not known yet: it summarizes the functions nested in
// the top level, then those nested in the largest of them, and so on, leaving out the largest,
// which a keystroke in it lowers again rather than copies. The subtrees summarized do not
// overlap, so it reads each function once, and once summarized, a function is not again. The
// caller runs it off the keystroke's path, while the user reads the file.
func (f *File) PrepareCopies() {
	if !f.whole() || len(f.Funcs) == 0 {
		return
	}
	for fn := f.Funcs[0]; fn != nil; {
		var largest *ssa.Function
		for _, c := range fn.Children {
			if largest == nil || c.Span.End-c.Span.Start > largest.Span.End-largest.Span.Start {
				largest = c
			}
		}
		for _, c := range fn.Children {
			if c != largest {
				c.Summarize(f.Capture, true)
			}
		}
		fn = largest
	}
}

// whole reports whether f was lowered from scratch, copying and cloning nothing of another
// version: its functions hold no other version (ssa.Function.NewCopy).
func (f *File) whole() bool { return len(f.copies) == 0 && f.alone == nil }

// Capture returns the place of the single definition that the read at p, in fn, sees of a
// variable captured from a function around fn, or nil.
func (f *File) Capture(fn *ssa.Function, p *ssa.Place) *ssa.Place {
	if def, ok := fn.CopyCapture(p); ok {
		return def
	}
	return f.Captures[p]
}

// Copied is a function copied from the previous version: Func is the copy of Of, whose
// positions Move maps to Func's. A function the edit does not touch moves as a whole; one
// around the edit keeps the positions before it (see spine.go).
type Copied struct {
	Func, Of *ssa.Function
	Move     ssa.Move
}

// Lower lowers every function of the tree to HIR. Functions that cannot be analyzed (a with
// statement, a direct eval, a syntax error in their own body) are lowered too, so that their
// nested functions resolve their names, but carry a NotAnalyzed reason.
func Lower(t *ts.Tree) *File { return LowerFrom(t, nil, ts.Edit{}, nil, nil) }

// LowerFrom lowers t, whose source is prev's changed by edit. Only the functions the edit
// touches are lowered again: a function the edit does not touch, nested in one it does (or in
// the top level), is copied from prev with its nested functions, HIR and SSA form (if prev's
// functions were built), shifted to the new positions, provided that its syntax tree, its role
// and the names it uses from outside are as they were (see reuse.go). prev may be nil, and
// so may lines, an index of the lines of t's source.
//
// If ready is not nil, LowerFrom calls it with each function it lowers that can be analyzed,
// as soon as the function can be built: when it is finished, with its own variables' status
// final (context.go). The functions nested in it come first. ready may build the function on
// another goroutine while the lowering goes on: nothing the lowering does after the call
// writes what ssa.Build reads, but File.Captures and NotAnalyzed are written
// until LowerFrom returns.
func LowerFrom(t *ts.Tree, prev *File, edit ts.Edit, lines Lines, ready func(*ssa.Function)) *File {
	return lowerFile(t, prev, edit, lines, ready, false)
}

// LowerStrict is Lower for the start of a program parsed alone (treesitter.ParsePrefix),
// whose top level the rest of the program may make strict code: an import or an export
// anywhere makes it a module. It lowers the top level as strict code whatever t says.
func LowerStrict(t *ts.Tree) *File { return lowerFile(t, nil, ts.Edit{}, nil, nil, true) }

// Strict reports whether the top level was lowered as strict code.
func (f *File) Strict() bool { return f.strict }

// TypeScript reports whether the file was lowered as TypeScript or TSX.
func (f *File) TypeScript() bool { return f.typescript }

func lowerFile(t *ts.Tree, prev *File, edit ts.Edit, lines Lines, ready func(*ssa.Function), strict bool) *File {
	if prev != nil {
		if f := lowerSpine(t, prev, edit, lines, ready); f != nil {
			return f
		}
	}
	lw := newLowerer(t, prev, edit, lines, ready, strict)
	lw.lowerProgram(prev)
	return lw.file()
}

// newLowerer starts the lowering of t, from prev, whose source edit changed into t's, if prev
// is not nil.
func newLowerer(t *ts.Tree, prev *File, edit ts.Edit, lines Lines, ready func(*ssa.Function), strict bool) *lowerer {
	lw := &lowerer{strict: strict, t: t, globals: make(map[string]*ssa.Binding), visible: make(map[string]*ssa.Binding), prev: prev,
		shapes: make(map[*ssa.Function]shape), captures: newCaptureResolver(), ready: ready, lines: lines}
	if s, ok := scratches.Get().(*scratch); ok {
		lw.instrs, lw.captures.free = s.instrs, s.opened
	}
	if prev != nil {
		lw.reuse = reusable(prev, edit, t.Src)
		// The new version has about as many entries: growing the maps showed in the profile of
		// a keystroke.
		lw.shapes = make(map[*ssa.Function]shape, len(prev.shapes))
		lw.captures.captures = make(map[*ssa.Place]*ssa.Place, len(prev.Captures))
	}
	return lw
}

// file returns the file lowered, once every function is, with its captured reads.
func (lw *lowerer) file() *File {
	f := &File{Tree: lw.t, Funcs: lw.funcs, Copied: lw.copied, copies: lw.copies, strict: lw.strict, shapes: lw.shapes, visited: lw.visited,
		typescript: lw.t.Grammar == ts.TypeScript || lw.t.Grammar == ts.TSX}
	lw.captures.finish(f)
	scratches.Put(&scratch{instrs: lw.instrs, opened: lw.captures.spare()})
	return f
}

// scratch is what a lowering keeps for the functions it lowers next, handed on to the next
// lowering, empty: the arrays instructions are appended to, and the capture state of functions
// being lowered. The function typed in is lowered again at every keystroke, and when it is
// large, growing them again was a fifth of what a keystroke allocated (lodash.js's
// runInContext: 0.8 MB of 3.2; three.core.js: 1.3 of 5.2).
type scratch struct {
	instrs ssa.InstrPool
	opened []*opened
}

var scratches sync.Pool // of *scratch

// lowerer holds the state of lowering one file.
type lowerer struct {
	t       *ts.Tree
	globals map[string]*ssa.Binding
	visible map[string]*ssa.Binding // the innermost binding of each name in an open scope
	funcs   []*ssa.Function
	// selfNames are the names named function expressions and classes bind to themselves.
	selfNames map[*ssa.Binding]bool
	// annexB maps the name of a function declared in a block of sloppy code to the var of its
	// function that the declaration assigns (declareFunctionScope).
	annexB map[int32]*ssa.Binding
	// reuse holds the functions of the previous version that can stand for the functions
	// starting at each offset (see LowerFrom).
	reuse  map[uint32]*ssa.Function
	copied []Copied
	copies []*ssa.Copy // File.copies
	prev   *File
	shapes map[*ssa.Function]shape
	strict bool // the top level is strict code; set beforehand, it is, whatever the tree says
	// captures applies the context-variable rule to each function as it is finished, and
	// ready, if not nil, is then given the function to build (see LowerFrom).
	captures *captureResolver
	ready    func(*ssa.Function)
	// instrs lends the functions being lowered the arrays their instructions are appended to.
	instrs ssa.InstrPool
	tsFile

	visited int // see File.visited
	// scopesOpened records a with statement or a direct eval, which see the variables of the
	// functions around them (see spine.go).
	scopesOpened bool
	lines        Lines // the caller's, or lineEnds once a loop asked
}

// funcState is the lowering state of one function.
type funcState struct {
	lw    *lowerer
	fn    *ssa.Function
	index int // fn's index in File.Funcs
	// copies are those of fn's nested functions that are copied from the previous version:
	// being made while fn is lowered, they are adopted when it is finished.
	copies []reusedCopy
	cur    *ssa.Block
	scope  *scope
	// funcScope is the function's own scope: its parameters, vars and top-level declarations.
	funcScope *scope
	// jumps are the enclosing break and continue targets, innermost last, found through
	// jumpIndex.
	jumps     []jumpTarget
	jumpIndex jumps
	// handler receives the exceptions thrown at the current point: a catch clause or a finally
	// block of an enclosing try, or nil.
	handler *ssa.Block
	// finallys are the finally blocks of the enclosing try statements whose try or catch
	// block holds the current point, innermost last.
	finallys []*finallyState
	// returned holds the return value while a return passes through finally blocks.
	returned ssa.Temp
	inWith   int
	loops    int // enclosing loops in this function
	depth    int // nesting of the statements and expressions being lowered
	budget   int // the instructions and blocks the lowering may make (budget.go)
	outer    *funcState
	// arrow, strict and simpleParams decide whether `arguments` aliases the parameters.
	arrow, strict, simpleParams bool
	argumentsSeen               bool // a use of arguments marked the parameters (argumentsUsed)
	tsFunc
}

func span(t *ts.Tree, i int32) ssa.Span {
	n := &t.Nodes[i]
	return ssa.Span{Start: int32(n.Start), End: int32(n.End)}
}

func point(off uint32) ssa.Span { return ssa.Span{Start: int32(off), End: int32(off)} }

func (fs *funcState) span(i int32) ssa.Span { return span(fs.lw.t, i) }

// children yields the named children of node that are not comments.
func (fs *funcState) children(node int32) func(func(int32) bool) { return children(fs.lw.t, node) }

// children yields the named children of node that are not comments.
func children(t *ts.Tree, node int32) func(func(int32) bool) {
	return func(yield func(int32) bool) {
		for c := t.FirstNamedChild(node); c >= 0; c = t.NextNamedSibling(c) {
			if t.Nodes[c].Flags&ts.Extra == 0 && !yield(c) {
				return
			}
		}
	}
}

func (fs *funcState) first(node int32) int32 {
	for c := range fs.children(node) {
		return c
	}
	return -1
}

func (fs *funcState) field(node int32, f ts.Field) int32 { return fs.lw.t.ChildByField(node, f) }

func (fs *funcState) newBlock(label string) *ssa.Block { return fs.fn.NewBlock(label) }

// startBlock makes b the current block.
func (fs *funcState) startBlock(b *ssa.Block) { fs.cur = b }

// deadBlock starts a block no edge reaches, for the statements after a jump; Finish drops it.
func (fs *funcState) deadBlock() { fs.cur = fs.newBlock("unreachable") }

// gotoBlock ends the current block with a jump to b, leaving at offset at, unless it already
// ended.
func (fs *funcState) gotoBlock(b *ssa.Block, at uint32) {
	if !fs.cur.Terminated() {
		fs.cur.Goto(b).Span = point(at)
	}
}

// joinAfter starts a block, labeled label, where the paths through the construct n meet; its
// φs are shown, and count as defined, right after n's last token (not after comments that
// follow it: see treesitter.Tree.ContentEnd).
func (fs *funcState) joinAfter(n int32, label string) *ssa.Block {
	b := fs.newBlock(label)
	b.Anchor = point(fs.lw.t.ContentEnd(n))
	return b
}

func (fs *funcState) emit(op ssa.Op, text string, node int32, args ...ssa.Temp) ssa.Temp {
	return fs.cur.Emit(op, text, fs.span(node), args...)
}

func (fs *funcState) intrinsic(i ssa.Intrinsic, text string, node int32, args ...ssa.Temp) ssa.Temp {
	return fs.cur.Intrinsic(i, text, fs.span(node), args...)
}

func (fs *funcState) constant(text string, node int32) ssa.Temp {
	return fs.emit(ssa.OpConst, text, node)
}

func (fs *funcState) undefined(node int32) ssa.Temp { return fs.emit(ssa.OpUndefined, "", node) }

// load reads the variable named by identifier node.
func (fs *funcState) load(node int32) ssa.Temp {
	return fs.cur.Load(fs.binding(node), fs.span(node))
}

// store assigns value to the variable named by identifier node.
func (fs *funcState) store(node int32, value ssa.Temp) {
	fs.storeBinding(fs.binding(node), fs.span(node), value)
}

// storeBinding assigns value to b at span at. Inside a try block the store ends the block with
// an edge to the handler: a throw after it shows the handler this state. A binding that
// cannot change keeps its value: its declaration stores it, and an assignment elsewhere throws
// (AssignConstant), but for a named function expression's own name in sloppy code, which
// ignores it.
func (fs *funcState) storeBinding(b *ssa.Binding, at ssa.Span, value ssa.Temp) {
	switch {
	case !fs.assignsConstant(b, at):
	case b.Kind == ssa.FunctionDecl && !fs.strict:
		fs.cur.Intrinsic(ssa.IntrinsicIgnoredAssignment, "IgnoredAssignment "+b.Name, at, value)
		return
	default:
		fs.cur.Intrinsic(ssa.IntrinsicAssignConstant, "AssignConstant "+b.Name, at, value)
		return
	}
	fs.cur.Store(b, at, value)
	if fs.handler != nil {
		next := fs.newBlock(fs.cur.Label)
		fs.cur.MaybeThrow(next, fs.handler).Span = at
		fs.cur = next
	}
}

// assignsConstant reports whether storing to b at span at assigns a binding that cannot
// change, anywhere but where it is declared: a const, an import, or the name a named function
// expression or a class binds to itself (a class sets its own at the empty span after its
// declaration, or at its name).
func (fs *funcState) assignsConstant(b *ssa.Binding, at ssa.Span) bool {
	switch {
	case at == b.Decl:
		return false
	case fs.lw.selfNames[b]:
		return b.Kind == ssa.FunctionDecl || at.Start != at.End
	}
	return b.Kind == ssa.Const || b.Kind == ssa.Import
}

// MaxNesting bounds how deeply statements and expressions may nest: lowering recurses on the
// syntax tree, and a goroutine's stack is finite. Deeper code is not lowered, and its function
// is not analyzed.
const MaxNesting = 100_000

// nest enters node n one level deeper, unless that is too deep or the function's lowering ran
// past its work budget (budget.go); unnest leaves it.
func (fs *funcState) nest(n int32) bool {
	if fs.depth >= MaxNesting {
		fs.refuse(ssa.TooDeep, fs.span(n), "")
		return false
	}
	if !fs.withinBudget(n) {
		return false
	}
	fs.lw.visited++
	fs.depth++
	return true
}

func (fs *funcState) unnest() { fs.depth-- }

// refuse marks the function as not analyzed, for the first reason found.
func (fs *funcState) refuse(kind ssa.ReasonKind, at ssa.Span, name string) {
	if fs.fn.Analyzed() {
		fs.fn.NotAnalyzed = ssa.Reason{Kind: kind, At: at, Name: name}
	}
}
