package lower

import (
	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// scope is one lexical scope: a function's (parameters, var declarations, its body's lexical
// declarations) or a block's. Every declaration of a scope is entered before any statement of
// it is lowered, which gives hoisting and the temporal dead zone: a read before the
// declaration finds the binding and sees its initial value.
//
// Scopes open and close in nesting order (openScope, closeScope; a function's at finish), so a
// name resolves in constant time: lowerer.visible holds the innermost binding of every name
// declared in an open scope, and each scope remembers the bindings its own names hid, to put
// them back when it closes. Walking the chain of scopes instead would cost the nesting depth
// per identifier, quadratic in deeply nested code.
type scope struct {
	parent *scope
	fs     *funcState
	names  map[string]*ssa.Binding
	hid    []hiddenName // in declaration order
	// evalSeen is 1 + how many names the scope had when a direct eval last saw it, 0 before
	// (directEval).
	evalSeen int
}

// hiddenName is a binding that a declaration hid, visible again when the scope closes.
type hiddenName struct {
	name string
	b    *ssa.Binding // nil: the name was not declared in an open scope
}

// lookup returns the binding name resolves to in s, which must be the innermost open scope;
// nil for a global.
func (s *scope) lookup(name []byte) *ssa.Binding {
	return s.fs.lw.visible[string(ts.IdentifierName(name))]
}

// openScope enters a block scope nested in the current one.
func (fs *funcState) openScope() { fs.scope = &scope{parent: fs.scope, fs: fs} }

// closeScope leaves the current scope for its parent: the names it declared resolve as they
// did before it opened.
func (fs *funcState) closeScope() {
	s := fs.scope
	for i := len(s.hid) - 1; i >= 0; i-- {
		if h := s.hid[i]; h.b != nil {
			fs.lw.visible[h.name] = h.b
		} else {
			delete(fs.lw.visible, h.name)
		}
	}
	fs.scope = s.parent
}

// binding resolves the identifier node by the scope chain; a name no scope declares is a
// global.
func (fs *funcState) binding(node int32) *ssa.Binding {
	name := fs.lw.t.Text(node)
	b := fs.scope.lookup(name)
	switch {
	case b == nil:
		if string(ts.IdentifierName(name)) == "arguments" {
			fs.argumentsUsed(fs.span(node))
		}
		return fs.lw.global(name)
	case b.Owner != fs.fn && fs.inWith > 0:
		fs.markUsedInWith(b, fs.span(node))
	}
	return b
}

// global returns the binding of the global name.
func (lw *lowerer) global(name []byte) *ssa.Binding {
	name = ts.IdentifierName(name)
	g, ok := lw.globals[string(name)]
	if !ok {
		g = ssa.NewGlobal(string(name))
		lw.globals[g.Name] = g
	}
	return g
}

// declare enters a binding of name in s, owned by s's function, unless s already has one
// (var redeclarations and a var named like a parameter are the same variable). s is the
// innermost open scope, or the scope a named function expression's own name is declared in,
// around the function's scope that holds no name yet.
func (s *scope) declare(name []byte, kind ssa.BindingKind, decl ssa.Span) *ssa.Binding {
	name = ts.IdentifierName(name)
	if b, ok := s.names[string(name)]; ok {
		return b
	}
	b := s.fs.fn.NewBinding(string(name), kind, decl)
	s.enter(b.Name, b)
	return b
}

// enter makes b the binding of name in s, a binding declared here or one s shares with
// another scope (a namespace's exports).
func (s *scope) enter(name string, b *ssa.Binding) {
	if s.names == nil {
		s.names = make(map[string]*ssa.Binding)
	}
	s.names[name] = b
	visible := s.fs.lw.visible
	s.hid = append(s.hid, hiddenName{name: name, b: visible[name]})
	visible[name] = b
}

// declareFunctionScope enters the declarations of a function body or of the program, node,
// into the function's scope: its var declarations anywhere below it, its lexical declarations,
// and, in sloppy code, the var that ECMAScript Annex B.3.3 adds for a function declared in a
// nested block, which the declaration assigns when it is evaluated (see annexB).
func (fs *funcState) declareFunctionScope(node int32) {
	lw, s := fs.lw, fs.scope
	inBlocks := lw.declareVars(s, node)
	lw.declareLexical(s, node)
	if fs.strict {
		return
	}
	for _, name := range inBlocks {
		if !lw.annexBCandidate(node, name) {
			continue
		}
		text := lw.t.Text(name)
		b := s.names[string(ts.IdentifierName(text))]
		switch {
		case b == nil:
			b = s.declare(text, ssa.FunctionDecl, span(lw.t, name))
		case b.Kind != ssa.Var && b.Kind != ssa.FunctionDecl:
			continue // a let, const, class or parameter of that name: no var (B.3.3's condition)
		}
		if lw.annexB == nil {
			lw.annexB = make(map[int32]*ssa.Binding)
		}
		lw.annexB[name] = b
	}
}

// declareVars enters the var declarations of a function body: every variable_declaration and
// `for (var …)` below node, except inside nested functions and classes. It returns the names
// of the function declarations in blocks nested in node.
func (lw *lowerer) declareVars(s *scope, node int32) (inBlocks []int32) {
	t := lw.t
	walk(t, node, func(i int32) bool {
		n := &t.Nodes[i]
		switch n.Kind {
		case ts.KindVariableDeclaration:
			for d := range t.NamedChildren(i) {
				if t.Nodes[d].Kind == ts.KindVariableDeclarator {
					lw.declarePattern(s, t.ChildByField(d, ts.FieldName), ssa.Var)
				}
			}
		case ts.KindForInStatement:
			if k := t.ChildByField(i, ts.FieldKind); k >= 0 && t.Nodes[k].Kind == ts.TokenVar {
				lw.declarePattern(s, t.ChildByField(i, ts.FieldLeft), ssa.Var)
			}
		case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration:
			// In sloppy code a function declared as the body of an if or a loop is a var of
			// the function (ECMAScript Annex B.3.3), defined when the statement runs.
			name := t.ChildByField(i, ts.FieldName)
			switch list := statementList(t, i); {
			case name < 0:
			case !isBlockLike(t, list):
				s.declare(t.Text(name), ssa.Var, span(t, name))
			case list != node:
				inBlocks = append(inBlocks, name)
			}
			return false
		case ts.KindClassBody, ts.KindAmbientDeclaration:
			return false
		}
		return i == node || !isFunctionNode(n.Kind)
	})
	return inBlocks
}

// statementList returns the node whose statements hold the statement n, looking through labels:
// a block, a switch case, the program, or, for the body of an if or a loop, that statement.
func statementList(t *ts.Tree, n int32) int32 {
	p := t.Nodes[n].Parent
	for p >= 0 && t.Nodes[p].Kind == ts.KindLabeledStatement {
		p = t.Nodes[p].Parent
	}
	return p
}

// unlabeled returns the statement that the labels of the statement n label.
func unlabeled(t *ts.Tree, n int32) int32 {
	for n >= 0 && t.Nodes[n].Kind == ts.KindLabeledStatement {
		n = t.ChildByField(n, ts.FieldBody)
	}
	return n
}

// isBlockLike reports whether the statements directly in node n are in a block scope of their
// own, where function declarations are hoisted (hoistFunctions). The root of the tree is the
// program even when error recovery made it an ERROR node: its function declarations are
// hoisted and lowered there, and must not be lowered again where they stand.
func isBlockLike(t *ts.Tree, n int32) bool {
	switch t.Nodes[n].Kind {
	case ts.KindStatementBlock, ts.KindProgram, ts.KindSwitchCase, ts.KindSwitchDefault, ts.KindExportStatement:
		return true
	}
	return n == 0
}

// forEachDeclared calls f with the name node of each binding a declaration statement makes.
func (lw *lowerer) forEachDeclared(d int32, f func(name int32)) {
	t := lw.t
	switch t.Nodes[d].Kind {
	case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration, ts.KindClassDeclaration,
		ts.KindAbstractClassDeclaration, ts.KindEnumDeclaration:
		if name := t.ChildByField(d, ts.FieldName); name >= 0 {
			f(name)
		}
	case ts.KindInternalModule, ts.KindModule:
		if name := lw.namespaceBinding(d); name >= 0 {
			f(name)
		}
	case ts.KindImportAlias:
		if name := importAliasName(t, d); name >= 0 {
			f(name)
		}
	case ts.KindLexicalDeclaration, ts.KindVariableDeclaration, ts.KindUsingDeclaration:
		for c := range t.NamedChildren(d) {
			if t.Nodes[c].Kind == ts.KindVariableDeclarator {
				lw.forEachPatternName(t.ChildByField(c, ts.FieldName), f)
			}
		}
	}
}

// declareLexical enters the declarations that the statements directly in node (a block, a
// program, a switch body) make in scope s: let, const, using, class, function and import.
func (lw *lowerer) declareLexical(s *scope, node int32) {
	t := lw.t
	for c := range t.NamedChildren(node) {
		if t.Nodes[c].Kind == ts.KindSwitchCase || t.Nodes[c].Kind == ts.KindSwitchDefault {
			lw.declareLexical(s, c)
			continue
		}
		lw.declareStatement(s, c)
	}
}

func (lw *lowerer) declareStatement(s *scope, c int32) {
	t := lw.t
	if c = unlabeled(t, c); c < 0 {
		return
	}
	if a := misparsedUsing(t, c); a >= 0 {
		lw.declarePattern(s, t.ChildByField(a, ts.FieldLeft), ssa.Const)
		return
	}
	if ns := namespaceOf(t, c); ns >= 0 {
		if name := lw.namespaceBinding(ns); name >= 0 {
			s.declare(t.Text(name), ssa.Namespace, span(t, name))
		}
		return
	}
	switch t.Nodes[c].Kind {
	case ts.KindLexicalDeclaration, ts.KindUsingDeclaration:
		kind := ssa.Let
		if k := t.ChildByField(c, ts.FieldKind); k >= 0 && t.Nodes[k].Kind != ts.TokenLet {
			kind = ssa.Const
		}
		for d := range t.NamedChildren(c) {
			if t.Nodes[d].Kind == ts.KindVariableDeclarator {
				lw.declarePattern(s, t.ChildByField(d, ts.FieldName), kind)
			}
		}
	case ts.KindClassDeclaration, ts.KindAbstractClassDeclaration:
		if name := t.ChildByField(c, ts.FieldName); name >= 0 {
			s.declare(t.Text(name), ssa.Class, span(t, name))
		}
	case ts.KindEnumDeclaration:
		if name := t.ChildByField(c, ts.FieldName); name >= 0 {
			s.declare(t.Text(name), ssa.Enum, span(t, name))
		}
	case ts.KindImportAlias:
		if name := importAliasName(t, c); name >= 0 {
			s.declare(t.Text(name), ssa.Import, span(t, name))
		}
	case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration:
		if name := t.ChildByField(c, ts.FieldName); name >= 0 {
			s.declare(t.Text(name), ssa.FunctionDecl, span(t, name))
		}
	case ts.KindExportStatement:
		if d := t.ChildByField(c, ts.FieldDeclaration); d >= 0 {
			lw.declareStatement(s, d)
		}
	case ts.KindImportStatement:
		lw.forEachImport(c, func(local int32) {
			s.declare(t.Text(local), ssa.Import, span(t, local))
		})
	}
}

// forEachImport calls f with the local name node of every binding an import statement makes.
func (lw *lowerer) forEachImport(stmt int32, f func(local int32)) {
	t := lw.t
	if isTypeOnlyImportExport(t, stmt) {
		return // import type
	}
	for clause := range t.NamedChildren(stmt) {
		if t.Nodes[clause].Kind == ts.KindImportRequireClause {
			// import x = require("m")
			if id := t.FirstNamedChild(clause); id >= 0 && t.Nodes[id].Kind == ts.KindIdentifier {
				f(id)
			}
		}
		if t.Nodes[clause].Kind != ts.KindImportClause {
			continue
		}
		for c := range t.NamedChildren(clause) {
			switch t.Nodes[c].Kind {
			case ts.KindIdentifier:
				f(c)
			case ts.KindNamespaceImport:
				if id := t.FirstNamedChild(c); id >= 0 {
					f(id)
				}
			case ts.KindNamedImports:
				for spec := range t.NamedChildren(c) {
					if t.Nodes[spec].Kind != ts.KindImportSpecifier || isTypeOnlyImportExport(t, spec) {
						continue
					}
					local := t.ChildByField(spec, ts.FieldAlias)
					if local < 0 {
						local = t.ChildByField(spec, ts.FieldName)
					}
					if local >= 0 && t.Nodes[local].Kind == ts.KindIdentifier {
						f(local)
					}
				}
			}
		}
	}
}

// declarePattern declares every identifier a binding pattern binds.
func (lw *lowerer) declarePattern(s *scope, p int32, kind ssa.BindingKind) {
	lw.forEachPatternName(p, func(id int32) {
		s.declare(lw.t.Text(id), kind, span(lw.t, id))
	})
}

// forEachPatternName calls f with each identifier a binding pattern binds.
func (lw *lowerer) forEachPatternName(p int32, f func(id int32)) {
	if p < 0 {
		return
	}
	t := lw.t
	switch t.Nodes[p].Kind {
	case ts.KindIdentifier, ts.KindShorthandPropertyIdentifierPattern:
		f(p)
	case ts.KindAssignmentPattern, ts.KindObjectAssignmentPattern:
		lw.forEachPatternName(t.ChildByField(p, ts.FieldLeft), f)
	case ts.KindPairPattern:
		lw.forEachPatternName(t.ChildByField(p, ts.FieldValue), f)
	case ts.KindRequiredParameter, ts.KindOptionalParameter:
		pattern, _ := paramParts(t, p)
		lw.forEachPatternName(pattern, f)
	case ts.KindObjectPattern, ts.KindArrayPattern, ts.KindRestPattern:
		for c := range t.NamedChildren(p) {
			lw.forEachPatternName(c, f)
		}
	}
}
