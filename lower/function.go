package lower

import (
	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Functions and parameters: every function-like node (a declaration, an expression, an arrow,
// a method, an accessor), every class field initializer and static block, and the top level
// become an ssa.Function of their own. The enclosing function creates the closure (OpFunction)
// where JavaScript does.

// lowerProgram lowers the top level as the function <module>:
//
//	entry:
//	    StoreLocal of each import binding   (hoisted)
//	    StoreLocal of each function declaration   (hoisted)
//	    ...statements...
//	    Return
func (lw *lowerer) lowerProgram(prev *File) {
	t := lw.t
	// The whole file, also the spaces before the program node, which starts at its first token.
	fn := ssa.NewFunction("<module>", ssa.Span{End: int32(len(t.Src))})
	fs := lw.newFuncState(fn, nil, 0)
	fs.strict = lw.strict || lw.isModule() || lw.hasUseStrict(0)
	lw.strict = fs.strict
	if prev != nil && prev.strict != fs.strict {
		lw.reuse = nil // strictness decides how arguments aliases parameters
	}
	fs.checkSyntax(0)
	fs.declareFunctionScope(0)
	fs.hoistImports(0)
	fs.body(0)
	fs.finish(uint32(len(t.Src)))
}

// newFuncState starts the lowering of fn, the function of node, nested in outer (nil: the top
// level).
func (lw *lowerer) newFuncState(fn *ssa.Function, outer *funcState, node int32) *funcState {
	fs := &funcState{lw: lw, fn: fn, returned: ssa.NoTemp, jumpIndex: jumps{breakable: -1, loop: -1},
		budget: workBudget(lw.t, node)}
	fn.Borrow(&lw.instrs, (fs.budget-WorkBase)/WorkPerNode/2) // typescript.js makes a third of an instruction per syntax node
	fs.scope = &scope{fs: fs}
	fs.funcScope = fs.scope
	if outer != nil {
		fs.scope.parent = outer.scope
		fs.inWith = outer.inWith
		fs.outer = outer
		fs.strict = outer.strict
		fs.depth = outer.depth // the goroutine's stack holds the enclosing functions' lowering too
	}
	fs.cur = fn.Blocks[0]
	fs.index = len(lw.funcs)
	lw.funcs = append(lw.funcs, fn)
	lw.captures.enter(fn)
	return fs
}

// body lowers the statements of a block-like node in the current scope, after hoisting its
// function declarations; a constructor's parameter properties are stored where TypeScript
// stores them (propertiesAt).
func (fs *funcState) body(node int32) {
	fs.hoistFunctions(node)
	props := len(fs.paramProps) > 0
	if props && fs.propsAt == node {
		fs.storeParameterProperties()
	}
	for c := range fs.lw.t.NamedChildren(node) {
		fs.stmt(c)
		if props && fs.propsAt == c {
			fs.storeParameterProperties()
		}
	}
}

// hoistImports defines the bindings of the import statements at the entry of the module.
func (fs *funcState) hoistImports(program int32) {
	t := fs.lw.t
	for c := range t.NamedChildren(program) {
		if t.Nodes[c].Kind == ts.KindImportStatement {
			fs.lw.forEachImport(c, func(local int32) {
				fs.store(local, fs.intrinsic(ssa.IntrinsicImport, "", c))
			})
		}
	}
}

// hoistFunctions defines the function declarations directly in node at the start of its
// scope.
func (fs *funcState) hoistFunctions(node int32) {
	t := fs.lw.t
	for c := range t.NamedChildren(node) {
		d := unlabeled(t, c)
		if d >= 0 && t.Nodes[d].Kind == ts.KindExportStatement {
			d = t.ChildByField(d, ts.FieldDeclaration)
		}
		if d < 0 {
			continue
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

// finish ends the function at offset end, closes its scopes and seals its CFG.
func (fs *funcState) finish(end uint32) {
	for fs.scope != nil && (fs.outer == nil || fs.scope != fs.outer.scope) {
		fs.closeScope()
	}
	if !fs.cur.Terminated() {
		fs.cur.Return(ssa.NoTemp).Span = point(end)
	}
	if err := fs.fn.Finish(); err != nil {
		// Every lowering path terminates the blocks it leaves; reaching this is a bug.
		panic(err)
	}
	fs.adoptCopies()
	// The functions nested in this one are finished, and read, already.
	fs.lw.captures.read(fs.fn, fs.index)
	fs.lw.captures.settle(fs.fn)
	fs.lw.captures.leave()
	if fs.lw.ready != nil && fs.fn.Analyzed() {
		fs.lw.ready(fs.fn)
	}
}

// closure lowers the function-like node (function, arrow, method, generator) as a nested
// function and returns the closure created in the current block.
func (fs *funcState) closure(node int32, name string) ssa.Temp {
	child := fs.lw.lowerFunction(fs, node, name)
	return fs.cur.Closure(child, fs.span(node))
}

// lowerFunction lowers a function-like node nested in outer's current scope:
//
//	entry:
//	    StoreLocal self = Callee   (a named function expression: its own name)
//	    Param p ...                (each parameter; a pattern is destructured, see pattern.go)
//	    ...body...                 (an arrow's expression body: Return its value)
//	    Return
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
	fs := lw.newFuncState(fn, outer, node)
	fs.checkSyntax(node)
	kind := t.Nodes[node].Kind
	fs.arrow = kind == ts.KindArrowFunction
	fn.Arrow = fs.arrow
	body := t.ChildByField(node, ts.FieldBody)
	fs.strict = fs.strict || kind == ts.KindMethodDefinition && t.Nodes[t.Nodes[node].Parent].Kind == ts.KindClassBody ||
		body >= 0 && t.Nodes[body].Kind == ts.KindStatementBlock && lw.hasUseStrict(body)
	fs.simpleParams = lw.simpleParams(node)
	if kind == ts.KindFunctionExpression || kind == ts.KindGeneratorFunction {
		if id := t.ChildByField(node, ts.FieldName); id >= 0 {
			// A named function expression sees its own name, in a scope around its parameters.
			inner := &scope{parent: outer.scope, fs: fs}
			fs.scope.parent = inner
			self := inner.declare(t.Text(id), ssa.FunctionDecl, span(t, id))
			fs.cur.Store(self, span(t, id), fs.intrinsic(ssa.IntrinsicCallee, "", id))
			if lw.selfNames == nil {
				lw.selfNames = make(map[*ssa.Binding]bool)
			}
			lw.selfNames[self] = true
		}
	}
	fs.params(node)
	if list := t.ChildByField(node, ts.FieldParameters); list >= 0 && body >= 0 && kind == ts.KindMethodDefinition {
		if fs.paramProps = parameterProperties(t, list); len(fs.paramProps) > 0 {
			fs.propsAt = propertiesAt(t, body)
		}
	}
	switch {
	case body < 0:
	case t.Nodes[body].Kind == ts.KindStatementBlock:
		fs.declareFunctionScope(body)
		fs.argumentsVar()
		fs.body(body)
	default: // an arrow function's expression body
		v := fs.expr(body)
		fs.cur.Return(v).Span = point(t.Nodes[body].End)
	}
	fs.finish(t.Nodes[node].End)
	return fn
}

// lowerInitializer lowers a class field initializer as a function of its own that returns the
// value:
//
//	entry:
//	    ...value...
//	    Return value
func (lw *lowerer) lowerInitializer(outer *funcState, field, value int32, name string) *ssa.Function {
	fn := ssa.NewFunction(name, span(lw.t, field))
	fn.RunsWhenCreated = lw.t.HasToken(field, ts.TokenStatic)
	outer.fn.AddChild(fn)
	fs := lw.newFuncState(fn, outer, value)
	fs.strict = true // class code
	fs.checkSyntax(value)
	fs.cur.Return(fs.expr(value)).Span = point(lw.t.Nodes[value].End)
	fs.finish(lw.t.Nodes[field].End)
	return fn
}

// lowerStaticBlock lowers a class static block as a function of its own, run once when the
// class is defined.
func (lw *lowerer) lowerStaticBlock(outer *funcState, node int32) *ssa.Function {
	fn := ssa.NewFunction("static", span(lw.t, node))
	fn.RunsWhenCreated = true
	outer.fn.AddChild(fn)
	fs := lw.newFuncState(fn, outer, node)
	fs.strict = true // class code
	fs.checkSyntax(node)
	if body := lw.t.ChildByField(node, ts.FieldBody); body >= 0 {
		fs.declareFunctionScope(body)
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
		pattern, value := paramParts(t, p)
		if pattern >= 0 && (value >= 0 || t.Nodes[pattern].Kind != ts.KindIdentifier && t.Nodes[pattern].Kind != ts.KindComment) {
			return false
		}
	}
	return true
}

// params defines the parameters at the entry of the function. All of them are declared
// before any is defined: a default value sees the parameters before it, and the ones after it
// in their temporal dead zone.
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
	pattern, value := paramParts(t, p)
	if pattern < 0 {
		return // TypeScript's this parameter
	}
	fs.declaredType(pattern, t.ChildByField(p, ts.FieldType))
	if value < 0 {
		p = pattern // a TypeScript parameter without default is its pattern
	}
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

// checkSyntax marks the function as not analyzed if its own part of node has a syntax error:
// nested functions aside, but with the parts of them it evaluates (outsideParts), and without
// its own such parts, which the function around it evaluates. In a type, which makes no code,
// only an error that may have taken code in counts (codeInType).
func (fs *funcState) checkSyntax(node int32) {
	t := fs.lw.t
	if t.Nodes[node].Flags&(ts.HasError|ts.IsError|ts.Missing) == 0 {
		return
	}
	outside := make(map[int32]bool)
	for part := range outsideParts(t, node) {
		outside[part] = true
	}
	found := false
	var check func(root int32)
	check = func(root int32) {
		walk(t, root, func(i int32) bool {
			n := &t.Nodes[i]
			switch {
			case found || outside[i] || n.Flags&(ts.HasError|ts.IsError|ts.Missing) == 0:
				return false
			case i != node && isFunctionNode(n.Kind):
				for part := range outsideParts(t, i) {
					check(part)
				}
				return false // the rest is the nested function's own
			case i != node && isType(n.Kind):
				if at := codeInType(t, i); at >= 0 {
					fs.refuse(ssa.SyntaxError, span(t, at), "")
					found = true
				}
				return false
			case n.Flags&(ts.IsError|ts.Missing) != 0:
				fs.refuse(ssa.SyntaxError, span(t, i), "")
				found = true
				return false
			}
			return true
		})
	}
	check(node)
}

// codeInType returns the first error in type node typ that may hold code, or -1. Error
// recovery in an unfinished type (`let v: { a: number`, `function sig(a`, `type L =`) takes
// the statements after it into the type, where they would be dropped as types are; so a token
// tree-sitter made up counts, an error node holding code (holdsCode), and a name anywhere in the
// type that is a reserved word (`type L =` before `return t;` makes return the type, `keyof`
// before it the type keyof return). Any other error is valid TypeScript the grammar does not
// know, which makes no code either: the variance annotations of `interface Producer<out T>`,
// `keyof readonly T[]`, `import("m").T` as a parameter's type, call signatures one a line.
func codeInType(t *ts.Tree, typ int32) int32 {
	found := int32(-1)
	walk(t, typ, func(i int32) bool {
		n := &t.Nodes[i]
		switch {
		case found >= 0:
			return false
		case n.Flags&ts.Missing != 0, namesReserved(t, i):
			found = i
			return false
		case n.Flags&ts.IsError != 0:
			if holdsCode(t, i) {
				found = i
			}
			return false
		}
		return true
	})
	return found
}

// namesReserved reports whether node i is a name that is a reserved word, which no variable or
// type can have: a statement's first word, read as a name by error recovery. A name after a dot
// is a member's, which can be any word (Op.delete, an enum's member).
func namesReserved(t *ts.Tree, i int32) bool {
	k := t.Nodes[i].Kind
	return (k == ts.KindIdentifier || k == ts.KindTypeIdentifier) && reservedWords[string(t.Text(i))] &&
		(i == 0 || t.Nodes[i-1].Kind != tokenDot)
}

// holdsCode reports whether error node i holds a token no type has (codeTokens; an = outside
// angle brackets, where it would give a type parameter its default; a + or - but before a
// number, readonly or ?, as in -1 or a mapped type's -readonly), a name that is a reserved
// word, or a token tree-sitter made up.
func holdsCode(t *ts.Tree, i int32) bool {
	angles := 0
	for j, end := i+1, t.SubtreeEnd(i); j < end; j++ {
		switch k := t.Nodes[j].Kind; {
		case t.Nodes[j].Flags&ts.Missing != 0:
			return true
		case k == tokenLess:
			angles++
		case k == tokenGreater:
			angles--
		case k == tokenAssign && angles > 0:
		case (k == tokenPlus || k == tokenMinus) && j+1 < end && signsType[t.Nodes[j+1].Kind]:
		case codeTokens[k], namesReserved(t, j):
			return true
		}
	}
	return false
}

var (
	tokenLess, tokenGreater, tokenAssign = ts.TokenKind("<"), ts.TokenKind(">"), ts.TokenKind("=")
	tokenPlus, tokenMinus, tokenDot      = ts.TokenKind("+"), ts.TokenKind("-"), ts.TokenKind(".")
	// signsType are what a + or - comes before in a type.
	signsType = map[ts.Kind]bool{ts.KindNumber: true, ts.TokenKind("readonly"): true, ts.TokenKind("?"): true}
)

// codeTokens are the tokens of statements and of operators that assign or compute, which no
// type has: an error that holds one took code in (holdsCode lets a type's + and - be).
var codeTokens = func() map[ts.Kind]bool {
	m := make(map[ts.Kind]bool)
	for _, tok := range []string{"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "&&=", "||=", "??=",
		"++", "--", "+", "-", "==", "===", "!=", "!==", "&&", "||", "??", "let", "yield", "await"} {
		m[ts.TokenKind(tok)] = true
	}
	for word := range reservedWords {
		m[ts.TokenKind(word)] = true
	}
	return m
}()

// reservedWords are the words that start a statement or a clause of one and can name nothing.
var reservedWords = map[string]bool{"if": true, "else": true, "for": true, "while": true, "do": true, "return": true,
	"const": true, "var": true, "switch": true, "case": true, "break": true, "continue": true, "throw": true, "try": true,
	"catch": true, "finally": true, "with": true, "debugger": true, "function": true, "class": true, "delete": true}

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
		if k := t.Nodes[c].Kind; (k == ts.KindImportStatement || k == ts.KindExportStatement) && !lw.erased(c) {
			return true
		}
	}
	return false
}

func isFunctionNode(k ts.Kind) bool {
	switch k {
	case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration, ts.KindFunctionExpression,
		ts.KindGeneratorFunction, ts.KindArrowFunction, ts.KindMethodDefinition, ts.KindClassStaticBlock,
		ts.KindInternalModule, ts.KindModule:
		return true
	}
	return false
}
