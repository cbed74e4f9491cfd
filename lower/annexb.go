package lower

import (
	"bytes"

	ts "github.com/ssalens/ssalens/treesitter"
)

// annexBCandidate reports whether the function declaration whose name is name, nested in a
// block of the function body node, makes a var of the function (ECMAScript Annex B.3.3) as far
// as the blocks between them tell. Only a plain function does, not a generator or an async
// function; and not when a var of its name would clash with a let, const, class or function of
// an enclosing block, or a let or const of an enclosing for loop (the function's own scope and
// parameters are the caller's to check).
func (lw *lowerer) annexBCandidate(node, name int32) bool {
	t := lw.t
	d := t.Nodes[name].Parent
	if t.Nodes[d].Kind != ts.KindFunctionDeclaration || t.Nodes[t.Nodes[d].FirstChild].Kind == ts.TokenAsync {
		return false
	}
	list := statementList(t, d)
	if k := t.Nodes[list].Kind; k == ts.KindSwitchCase || k == ts.KindSwitchDefault {
		list = t.Nodes[list].Parent // the scope is the switch body
	}
	for a := t.Nodes[list].Parent; a >= 0 && a != node; a = t.Nodes[a].Parent {
		if lw.declaresLexically(a, t.Text(name)) {
			return false
		}
	}
	return true
}

// declaresLexically reports whether node a has name in its own scope as a let, const, class
// or block function: a block's statements, a switch's cases, a for loop's let or const.
func (lw *lowerer) declaresLexically(a int32, name []byte) bool {
	t := lw.t
	found := false
	name = ts.IdentifierName(name)
	check := func(id int32) { found = found || bytes.Equal(ts.IdentifierName(t.Text(id)), name) }
	stmts := func(list int32) {
		for c := range t.NamedChildren(list) {
			switch t.Nodes[unlabeled(t, c)].Kind {
			case ts.KindLexicalDeclaration, ts.KindUsingDeclaration, ts.KindClassDeclaration,
				ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration:
				lw.forEachDeclared(unlabeled(t, c), check)
			}
		}
	}
	switch t.Nodes[a].Kind {
	case ts.KindStatementBlock:
		stmts(a)
	case ts.KindSwitchBody:
		for c := range t.NamedChildren(a) {
			stmts(c)
		}
	case ts.KindForStatement:
		if init := t.ChildByField(a, ts.FieldInitializer); init >= 0 && t.Nodes[init].Kind == ts.KindLexicalDeclaration {
			lw.forEachDeclared(init, check)
		}
	case ts.KindForInStatement:
		if k := t.ChildByField(a, ts.FieldKind); k >= 0 && t.Nodes[k].Kind != ts.TokenVar {
			lw.forEachPatternName(t.ChildByField(a, ts.FieldLeft), check)
		}
	}
	return found
}
