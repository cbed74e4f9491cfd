package lower

import (
	"bytes"
	"fmt"
	ts "github.com/ssalens/ssalens/treesitter"

	"github.com/ssalens/ssalens/ssa"
)

// File is the HIR of one source file: every function, the top level first, parents before
// their nested functions.
type File struct {
	Tree   *ts.Tree
	Funcs  []*ssa.Function
	strict bool // the top level is strict code
	// shapes records, for the functions nested directly in the top level, the kinds of their
	// node and its parent: a function's lowering depends on them beyond its text.
	shapes map[*ssa.Function]shape
}

type shape struct {
	kind, parent ts.Kind
	inWith       bool // created in the body of a with statement
	strict       bool // in strict code
}

// Lower lowers every function of the tree to HIR. Functions that cannot be analyzed (a with
// statement, a direct eval, a syntax error in their own body) are lowered too, so that their
// nested functions resolve their names, but carry NotAnalyzed.
func Lower(t *ts.Tree) *File { return LowerFrom(t, nil, ts.Edit{}) }

// LowerFrom lowers t, whose source is prev's changed by edit. Only the functions the edit
// touches are lowered again: a function the edit does not touch, nested in one it does (or in
// the top level), is copied from prev with its nested functions, HIR and SSA form (if prev's
// functions were built), shifted to the new positions, provided that its syntax tree, its role
// and the names it uses from outside are as they were (see reuse.go).
func LowerFrom(t *ts.Tree, prev *File, edit ts.Edit) *File {
	lw := &lowerer{t: t, globals: make(map[string]*ssa.Binding), prev: prev, shapes: make(map[*ssa.Function]shape)}
	if prev != nil {
		lw.reuse = reusable(prev, edit)
	}
	lw.lowerProgram(prev)
	lw.markContextVariables()
	return &File{Tree: t, Funcs: lw.funcs, strict: lw.strict, shapes: lw.shapes}
}

type lowerer struct {
	t       *ts.Tree
	globals map[string]*ssa.Binding
	funcs   []*ssa.Function
	// captured records, for each binding used by a function other than its owner, how.
	captured map[*ssa.Binding]*capture
	// selfNames are the names named function expressions bind to themselves.
	selfNames map[*ssa.Binding]bool
	// reuse holds the functions of the previous version that can stand for the top-level
	// functions starting at each offset (see LowerFrom).
	reuse  map[uint32]*ssa.Function
	prev   *File
	shapes map[*ssa.Function]shape
	strict bool // the top level is strict code
}

type capture struct {
	assignedIn *ssa.Function
	readIn     *ssa.Function
}

// funcState is the lowering state of one function.
type funcState struct {
	lw    *lowerer
	fn    *ssa.Function
	cur   *ssa.Block
	scope *scope
	// jumps are the enclosing break and continue targets, innermost last.
	jumps []jumpTarget
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
	outer    *funcState
	// arrow, strict and simpleParams decide whether `arguments` aliases the parameters.
	arrow, strict, simpleParams bool
}

func span(t *ts.Tree, i int32) ssa.Span {
	n := &t.Nodes[i]
	return ssa.Span{Start: int32(n.Start), End: int32(n.End)}
}

func point(off uint32) ssa.Span { return ssa.Span{Start: int32(off), End: int32(off)} }

func (fs *funcState) span(i int32) ssa.Span { return span(fs.lw.t, i) }

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

func (fs *funcState) emit(op ssa.Op, text string, node int32, args ...ssa.Temp) ssa.Temp {
	return fs.cur.Emit(op, text, fs.span(node), args...)
}

func (fs *funcState) constant(text string, node int32) ssa.Temp {
	return fs.emit(ssa.OpConst, text, node)
}

// binding resolves the identifier node by the scope chain; a name no scope declares is a
// global. It records uses across functions for the context-variable rule.
func (fs *funcState) binding(node int32, write bool) *ssa.Binding {
	lw := fs.lw
	name := lw.t.Text(node)
	b := fs.scope.lookup(name)
	if b == nil {
		if string(name) == "arguments" {
			fs.argumentsUsed()
		}
		return lw.global(name)
	}
	if b.Owner != fs.fn {
		if fs.inWith > 0 && !b.Context {
			b.Context = true
			b.Why = "it may be assigned through the with statement in " + fs.fn.Name
		}
	}
	return b
}

// global returns the binding of the global name.
func (lw *lowerer) global(name []byte) *ssa.Binding {
	g, ok := lw.globals[string(name)]
	if !ok {
		g = ssa.NewGlobal(string(name))
		lw.globals[g.Name] = g
	}
	return g
}

// recordCaptures notes the variables of enclosing functions that fn reads or assigns, for the
// context-variable rule. Only code that can run counts: Finish has dropped the dead blocks.
func (lw *lowerer) recordCaptures(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if v := in.Place.Binding; v != nil && v.Owner != nil && v.Owner != fn {
				lw.recordCapture(v, fn, in.Defines())
			}
		}
	}
}

// recordCapture notes that fn, which b's owner encloses, reads or assigns b.
func (lw *lowerer) recordCapture(b *ssa.Binding, fn *ssa.Function, write bool) {
	if lw.captured == nil {
		lw.captured = make(map[*ssa.Binding]*capture)
	}
	c := lw.captured[b]
	if c == nil {
		c = &capture{}
		lw.captured[b] = c
	}
	if write {
		c.assignedIn = fn
	} else {
		c.readIn = fn
	}
}

// load reads the variable named by identifier node.
func (fs *funcState) load(node int32) ssa.Temp {
	return fs.cur.Load(fs.binding(node, false), fs.span(node))
}

// store assigns value to the variable named by identifier node. Inside a try block the store
// ends the block with an edge to the handler: a throw after it shows the handler this state.
func (fs *funcState) store(node int32, value ssa.Temp) {
	fs.storeBinding(fs.binding(node, true), fs.span(node), value)
}

func (fs *funcState) storeBinding(b *ssa.Binding, at ssa.Span, value ssa.Temp) {
	if fs.lw.selfNames[b] {
		// A named function expression's own name cannot be reassigned: sloppy code ignores
		// the assignment, strict code throws.
		fs.cur.Emit(ssa.OpIntrinsic, "IgnoredAssignment "+b.Name, at, value)
		return
	}
	fs.cur.Store(b, at, value)
	if fs.handler != nil {
		next := fs.newBlock(fs.cur.Label)
		fs.cur.MaybeThrow(next, fs.handler).Span = at
		fs.cur = next
	}
}

// argumentsUsed handles a use of the arguments object: in sloppy code, the elements of the
// arguments of a function with simple parameters are the parameters themselves, so writing
// one assigns the other. Its parameters are then not renamed.
func (fs *funcState) argumentsUsed() {
	f := fs
	for f.arrow && f.outer != nil {
		f = f.outer
	}
	if f.arrow || f.strict || !f.simpleParams {
		return
	}
	for _, b := range f.scope.names {
		if b.Kind == ssa.Param && !b.Context {
			b.Context = true
			b.Why = "in sloppy code it is aliased by the arguments object of " + f.fn.Name
		}
	}
}

// hasUseStrict reports whether the statements of body start with a "use strict" directive.
func (lw *lowerer) hasUseStrict(body int32) bool {
	t := lw.t
	for c := t.FirstNamedChild(body); c >= 0; c = t.NextNamedSibling(c) {
		if t.Nodes[c].Flags&ts.Extra != 0 {
			continue
		}
		if t.Nodes[c].Kind != ts.KindExpressionStatement {
			return false
		}
		e := t.FirstNamedChild(c)
		if e < 0 || t.Nodes[e].Kind != ts.KindString {
			return false
		}
		if text := string(t.Text(e)); text == `"use strict"` || text == `'use strict'` {
			return true
		}
	}
	return false
}

// isModule reports whether the program has import or export statements, which make it a
// module: strict code.
func (lw *lowerer) isModule() bool {
	t := lw.t
	for c := t.FirstNamedChild(0); c >= 0; c = t.NextNamedSibling(c) {
		if k := t.Nodes[c].Kind; k == ts.KindImportStatement || k == ts.KindExportStatement {
			return true
		}
	}
	return false
}

// maxNesting bounds how deeply statements and expressions may nest: lowering recurses on the
// syntax tree, and a goroutine's stack is finite. Deeper code is not lowered, and its function
// is not analyzed.
const maxNesting = 100_000

// nest enters node n one level deeper, unless that is too deep; unnest leaves it.
func (fs *funcState) nest(n int32) bool {
	fs.depth++
	if fs.depth <= maxNesting {
		return true
	}
	fs.depth--
	if fs.fn.NotAnalyzed == "" {
		fs.fn.NotAnalyzed = fmt.Sprintf("nested more than %d levels deep at %s", maxNesting, fs.lw.position(fs.lw.t.Nodes[n].Start))
	}
	return false
}

func (fs *funcState) unnest() { fs.depth-- }

// lowerProgram lowers the top level as the function <module>.
func (lw *lowerer) lowerProgram(prev *File) {
	t := lw.t
	fn := ssa.NewFunction("<module>", span(t, 0))
	fs := lw.newFuncState(fn, nil)
	fs.strict = lw.isModule() || lw.hasUseStrict(0)
	lw.strict = fs.strict
	if prev != nil && prev.strict != fs.strict {
		lw.reuse = nil // strictness decides how arguments aliases parameters
	}
	lw.checkSyntax(fn, 0)
	lw.declareVars(fs.scope, 0)
	lw.declareLexical(fs.scope, 0)
	fs.hoistImports(0)
	fs.body(0)
	fs.finish(uint32(len(t.Src)))
}

func (lw *lowerer) newFuncState(fn *ssa.Function, outer *funcState) *funcState {
	fs := &funcState{lw: lw, fn: fn, returned: ssa.NoTemp}
	fs.scope = &scope{fs: fs}
	if outer != nil {
		fs.scope.parent = outer.scope
		fs.inWith = outer.inWith
		fs.outer = outer
		fs.strict = outer.strict
	}
	fs.cur = fn.Blocks[0]
	lw.funcs = append(lw.funcs, fn)
	return fs
}

// body lowers the statements of a block-like node in the current scope, after hoisting its
// function declarations.
func (fs *funcState) body(node int32) {
	fs.hoistFunctions(node)
	for c := range fs.lw.t.NamedChildren(node) {
		fs.stmt(c)
	}
}

// hoistImports defines the bindings of the import statements at the entry of the module.
func (fs *funcState) hoistImports(program int32) {
	t := fs.lw.t
	for c := range t.NamedChildren(program) {
		if t.Nodes[c].Kind == ts.KindImportStatement {
			fs.lw.forEachImport(c, func(local int32) {
				fs.store(local, fs.emit(ssa.OpIntrinsic, "Import", c))
			})
		}
	}
}

// hoistFunctions defines the function declarations directly in node at the start of its
// scope.
func (fs *funcState) hoistFunctions(node int32) {
	t := fs.lw.t
	for c := range t.NamedChildren(node) {
		d := c
		if t.Nodes[d].Kind == ts.KindExportStatement {
			if d = t.ChildByField(c, ts.FieldDeclaration); d < 0 {
				continue
			}
		}
		switch t.Nodes[d].Kind {
		case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration:
			name := t.ChildByField(d, ts.FieldName)
			if name < 0 {
				continue
			}
			closure := fs.closure(d, string(t.Text(name)))
			fs.store(name, closure)
		}
	}
}

// finish ends the function at offset end and seals its CFG.
func (fs *funcState) finish(end uint32) {
	if !fs.cur.Terminated() {
		fs.cur.Return(ssa.NoTemp).Span = point(end)
	}
	if err := fs.fn.Finish(); err != nil {
		// Every lowering path terminates the blocks it leaves; reaching this is a bug.
		panic(err)
	}
	fs.lw.recordCaptures(fs.fn)
}

// closure lowers the function-like node (function, arrow, method, generator) as a nested
// function and returns the closure created in the current block.
func (fs *funcState) closure(node int32, name string) ssa.Temp {
	child := fs.lw.lowerFunction(fs, node, name)
	return fs.cur.Closure(child, fs.span(node))
}

// lowerFunction lowers a function-like node nested in outer's current scope.
func (lw *lowerer) lowerFunction(outer *funcState, node int32, name string) *ssa.Function {
	t := lw.t
	if id := t.ChildByField(node, ts.FieldName); id >= 0 && t.Nodes[node].Kind != ts.KindMethodDefinition {
		name = string(t.Text(id))
	}
	if name == "" {
		name = "<anonymous>"
	}
	if fn := lw.reused(outer, node, name); fn != nil {
		return fn
	}
	fn := ssa.NewFunction(name, span(t, node))
	outer.fn.AddChild(fn)
	lw.shapes[fn] = lw.shapeOf(outer, node)
	fs := lw.newFuncState(fn, outer)
	lw.checkSyntax(fn, node)
	kind := t.Nodes[node].Kind
	fs.arrow = kind == ts.KindArrowFunction
	body := t.ChildByField(node, ts.FieldBody)
	fs.strict = fs.strict || kind == ts.KindMethodDefinition && t.Nodes[t.Nodes[node].Parent].Kind == ts.KindClassBody ||
		body >= 0 && t.Nodes[body].Kind == ts.KindStatementBlock && lw.hasUseStrict(body)
	fs.simpleParams = lw.simpleParams(node)
	if k := kind; k == ts.KindFunctionExpression || k == ts.KindGeneratorFunction {
		if id := t.ChildByField(node, ts.FieldName); id >= 0 {
			// A named function expression sees its own name, in a scope around its parameters.
			inner := &scope{parent: outer.scope, fs: fs}
			fs.scope.parent = inner
			self := inner.declare(t.Text(id), ssa.FunctionDecl, span(t, id))
			fs.cur.Store(self, span(t, id), fs.emit(ssa.OpIntrinsic, "Callee", id))
			if lw.selfNames == nil {
				lw.selfNames = make(map[*ssa.Binding]bool)
			}
			lw.selfNames[self] = true
		}
	}
	fs.params(node)
	switch {
	case body < 0:
	case t.Nodes[body].Kind == ts.KindStatementBlock:
		lw.declareVars(fs.scope, body)
		lw.declareLexical(fs.scope, body)
		fs.body(body)
	default: // an arrow function's expression body
		v := fs.expr(body)
		fs.cur.Return(v).Span = point(t.Nodes[body].End)
	}
	fs.finish(t.Nodes[node].End)
	return fn
}

// lowerInitializer lowers a class field initializer as a function of its own that returns the
// value.
func (lw *lowerer) lowerInitializer(outer *funcState, field, value int32, name string) *ssa.Function {
	fn := ssa.NewFunction(name, span(lw.t, field))
	outer.fn.AddChild(fn)
	fs := lw.newFuncState(fn, outer)
	fs.strict = true // class code
	lw.checkSyntax(fn, value)
	fs.cur.Return(fs.expr(value)).Span = point(lw.t.Nodes[value].End)
	fs.finish(lw.t.Nodes[field].End)
	return fn
}

// lowerStaticBlock lowers a class static block as a function of its own.
func (lw *lowerer) lowerStaticBlock(outer *funcState, node int32) *ssa.Function {
	fn := ssa.NewFunction("static", span(lw.t, node))
	outer.fn.AddChild(fn)
	fs := lw.newFuncState(fn, outer)
	fs.strict = true // class code
	lw.checkSyntax(fn, node)
	if body := lw.t.ChildByField(node, ts.FieldBody); body >= 0 {
		lw.declareVars(fs.scope, body)
		lw.declareLexical(fs.scope, body)
		fs.body(body)
	}
	fs.finish(lw.t.Nodes[node].End)
	return fn
}

// simpleParams reports whether a function's parameters are all plain identifiers.
func (lw *lowerer) simpleParams(node int32) bool {
	t := lw.t
	list := t.ChildByField(node, ts.FieldParameters)
	if list < 0 {
		return true
	}
	for p := range t.NamedChildren(list) {
		if k := t.Nodes[p].Kind; k != ts.KindIdentifier && k != ts.KindComment {
			return false
		}
	}
	return true
}

// params defines the parameters at the entry of the function.
func (fs *funcState) params(node int32) {
	t := fs.lw.t
	if p := t.ChildByField(node, ts.FieldParameter); p >= 0 {
		fs.param(p)
		return
	}
	list := t.ChildByField(node, ts.FieldParameters)
	if list < 0 {
		return
	}
	for p := range t.NamedChildren(list) {
		fs.lw.declarePattern(fs.scope, p, ssa.Param)
	}
	for p := range t.NamedChildren(list) {
		fs.param(p)
	}
}

func (fs *funcState) param(p int32) {
	t := fs.lw.t
	switch t.Nodes[p].Kind {
	case ts.KindIdentifier:
		b := fs.scope.declare(t.Text(p), ssa.Param, fs.span(p))
		fs.cur.Param(b, fs.span(p))
	case ts.KindComment:
	default:
		v := fs.fn.NewTemp()
		fs.cur.EmitTo(v, ssa.OpParam, "", fs.span(p))
		fs.assign(p, v)
	}
}

// checkSyntax marks fn as not analyzed if its own part of node (nested functions aside) has a
// syntax error.
func (lw *lowerer) checkSyntax(fn *ssa.Function, node int32) {
	t := lw.t
	if t.Nodes[node].Flags&(ts.HasError|ts.IsError|ts.Missing) == 0 {
		return
	}
	end := t.SubtreeEnd(node)
	for i := node; i < end; i++ {
		n := &t.Nodes[i]
		switch {
		case n.Flags&(ts.IsError|ts.Missing) != 0:
			fn.NotAnalyzed = "syntax error at " + lw.position(n.Start)
			return
		case i != node && isFunctionNode(n.Kind):
			i = t.SubtreeEnd(i) - 1
		}
	}
}

// directEval marks the function as not analyzed and every binding visible at the call as a
// context variable: a direct eval can read and assign any of them.
func (fs *funcState) directEval(call int32) {
	if fs.fn.NotAnalyzed == "" {
		fs.fn.NotAnalyzed = "contains a direct eval at " + fs.lw.position(fs.lw.t.Nodes[call].Start)
	}
	for s := fs.scope; s != nil; s = s.parent {
		for _, b := range s.names {
			if !b.Context {
				b.Context = true
				b.Why = "it is visible to the direct eval in " + fs.fn.Name
			}
		}
	}
}

func isFunctionNode(k ts.Kind) bool {
	switch k {
	case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration, ts.KindFunctionExpression,
		ts.KindGeneratorFunction, ts.KindArrowFunction, ts.KindMethodDefinition, ts.KindClassStaticBlock:
		return true
	}
	return false
}

// position renders a byte offset as line:column, both from 1, the column in bytes.
func (lw *lowerer) position(off uint32) string {
	src := lw.t.Src[:off]
	line := bytes.Count(src, []byte{'\n'}) + 1
	col := len(src) - bytes.LastIndexByte(src, '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// markContextVariables applies React Compiler's rule: a variable is a context variable, and
// is not renamed, if a nested function assigns it, or if it is assigned more than once and a
// nested function reads it.
func (lw *lowerer) markContextVariables() {
	readOnly := make(map[*ssa.Function][]*ssa.Binding)
	for b, c := range lw.captured {
		switch {
		case b.Context:
		case c.assignedIn != nil:
			b.Context = true
			b.Why = "it is assigned in the nested function " + c.assignedIn.Name
		default:
			readOnly[b.Owner] = append(readOnly[b.Owner], b)
		}
	}
	for owner, bindings := range readOnly {
		defs := definitions(owner)
		for _, b := range bindings {
			if defs[b] > 1 {
				b.Context = true
				b.Why = "it is assigned more than once and read in the nested function " + lw.captured[b].readIn.Name
			}
		}
	}
}

// definitions counts the definitions of each binding in fn.
func definitions(fn *ssa.Function) map[*ssa.Binding]int {
	defs := make(map[*ssa.Binding]int)
	for _, blk := range fn.Blocks {
		for i := range blk.Instrs {
			if in := &blk.Instrs[i]; in.Defines() {
				defs[in.Place.Binding]++
			}
		}
	}
	return defs
}
