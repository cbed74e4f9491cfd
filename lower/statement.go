package lower

import (
	"bytes"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Statements other than loops (loop.go) and exceptions (exception.go): blocks, declarations,
// if, switch, export, with.

// stmt lowers the statement n into the current block.
func (fs *funcState) stmt(n int32) {
	if !fs.nest(n) {
		return
	}
	defer fs.unnest()
	t := fs.lw.t
	node := &t.Nodes[n]
	switch node.Kind {
	case ts.KindExpressionStatement:
		if a := misparsedUsing(t, n); a >= 0 {
			fs.usingDeclaration(a)
		} else if ns := namespaceOf(t, n); ns >= 0 {
			fs.namespaceStmt(ns)
		} else if e := fs.first(n); e >= 0 {
			fs.expr(e)
		}
	case ts.KindStatementBlock:
		fs.block(n)
	case ts.KindLexicalDeclaration, ts.KindVariableDeclaration, ts.KindUsingDeclaration:
		if node.Kind != ts.KindVariableDeclaration {
			fs.checkInBlock(n)
		}
		fs.declaration(n)
	case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration:
		// Hoisted to the start of its block, unless it is the body of an if or a loop: then a
		// var of the function (see declareVars) assigned here. In sloppy code, a function
		// declared in a block also assigns its var here (Annex B.3.3, declareFunctionScope).
		name := fs.field(n, ts.FieldName)
		switch {
		case name < 0:
		case !isBlockLike(t, statementList(t, n)):
			fs.store(name, fs.closure(n, string(t.Text(name))))
		case fs.lw.annexB[name] != nil:
			fs.storeBinding(fs.lw.annexB[name], fs.span(name), fs.load(name))
		}
	case ts.KindClassDeclaration, ts.KindAbstractClassDeclaration:
		fs.checkInBlock(n)
		v := fs.class(n, "")
		if name := fs.field(n, ts.FieldName); name >= 0 {
			fs.store(name, v)
		}
	case ts.KindIfStatement:
		fs.ifStmt(n)
	case ts.KindWhileStatement, ts.KindDoStatement, ts.KindForStatement, ts.KindForInStatement, ts.KindLabeledStatement:
		fs.labeledStmt(n, nil)
	case ts.KindBreakStatement, ts.KindContinueStatement:
		fs.breakOrContinue(n)
	case ts.KindReturnStatement:
		fs.ret(fs.operand(n), node.Start)
	case ts.KindThrowStatement:
		fs.throwStmt(n)
	case ts.KindTryStatement:
		fs.tryStmt(n)
	case ts.KindSwitchStatement:
		fs.switchStmt(n)
	case ts.KindWithStatement:
		fs.withStmt(n)
	case ts.KindExportStatement:
		fs.export(n)
	case ts.KindEnumDeclaration:
		fs.enum(n)
	case ts.KindInternalModule, ts.KindModule:
		fs.namespaceStmt(n)
	case ts.KindImportAlias:
		fs.importAlias(n)
	case ts.KindImportStatement, ts.KindEmptyStatement, ts.KindDebuggerStatement, ts.KindComment,
		ts.KindHashBangLine, ts.KindHTMLComment:
	default:
		if !isTypeOnly(node.Kind) {
			fs.any(n)
		}
	}
}

// operand lowers the expression of a return or throw statement n, if it has one.
func (fs *funcState) operand(n int32) ssa.Temp {
	if e := fs.first(n); e >= 0 {
		return fs.expr(e)
	}
	return ssa.NoTemp
}

// withStmt lowers the object and the body of a with statement. The function is not analyzed:
// the object's properties may shadow any variable the body names, and the variables of outer
// functions used in the body become context variables (context.go).
func (fs *funcState) withStmt(n int32) {
	fs.refuse(ssa.WithStatement, fs.span(n), "")
	if o := fs.field(n, ts.FieldObject); o >= 0 {
		fs.expr(o)
	}
	fs.inWith++
	fs.lw.scopesOpened = true
	if b := fs.field(n, ts.FieldBody); b >= 0 {
		fs.stmt(b)
	}
	fs.inWith--
}

// any lowers a node of unexpected kind (an ERROR node, say) by lowering what it contains.
func (fs *funcState) any(n int32) {
	for c := range fs.children(n) {
		if isStatementKind(fs.lw.t.Nodes[c].Kind) {
			fs.stmt(c)
		} else {
			fs.expr(c)
		}
	}
}

// isStatementKind reports whether k is a statement, to lower the children of an unexpected node
// as what they are.
func isStatementKind(k ts.Kind) bool {
	switch k {
	case ts.KindExpressionStatement, ts.KindStatementBlock, ts.KindLexicalDeclaration, ts.KindVariableDeclaration,
		ts.KindUsingDeclaration, ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration,
		ts.KindClassDeclaration, ts.KindIfStatement, ts.KindWhileStatement, ts.KindDoStatement, ts.KindForStatement,
		ts.KindForInStatement, ts.KindLabeledStatement, ts.KindBreakStatement, ts.KindContinueStatement,
		ts.KindReturnStatement, ts.KindThrowStatement, ts.KindTryStatement, ts.KindSwitchStatement,
		ts.KindWithStatement, ts.KindExportStatement, ts.KindImportStatement, ts.KindEmptyStatement,
		ts.KindDebuggerStatement, ts.KindElseClause, ts.KindAbstractClassDeclaration, ts.KindEnumDeclaration,
		ts.KindModule, ts.KindImportAlias, ts.KindInterfaceDeclaration, ts.KindTypeAliasDeclaration,
		ts.KindFunctionSignature, ts.KindAmbientDeclaration:
		return true
	}
	return false
}

// block lowers a statement block in a scope of its own.
func (fs *funcState) block(n int32) {
	fs.openScope()
	fs.declareBlockScope(n)
	fs.body(n)
	fs.closeScope()
}

// declareBlockScope enters the lexical declarations of a block into the current scope. In a
// loop, each iteration enters the block anew, with its let, const and class bindings back in
// their temporal dead zone: the values of the previous iteration must not reach.
func (fs *funcState) declareBlockScope(n int32) {
	first := len(fs.fn.Bindings)
	fs.lw.declareLexical(fs.scope, n)
	if fs.loops == 0 {
		return
	}
	for _, b := range fs.fn.Bindings[first:] {
		switch b.Kind {
		case ssa.Let, ssa.Const, ssa.Class:
			fs.cur.Uninit(b, b.Decl)
		}
	}
}

// declaration lowers a var, let, const or using declaration: each declarator's value stored
// into its name or pattern, in order. The bindings were declared when the scope was entered.
func (fs *funcState) declaration(n int32) {
	t := fs.lw.t
	lexical := t.Nodes[n].Kind != ts.KindVariableDeclaration
	for d := range fs.children(n) {
		if t.Nodes[d].Kind != ts.KindVariableDeclarator {
			fs.any(d)
			continue
		}
		name := fs.field(d, ts.FieldName)
		value := fs.field(d, ts.FieldValue)
		fs.declaredType(name, fs.field(d, ts.FieldType))
		switch {
		case name < 0:
		case value >= 0:
			fs.assign(name, fs.exprNamed(value, name))
		case lexical && t.Nodes[name].Kind == ts.KindIdentifier:
			// `let x;` defines x as undefined, ending its temporal dead zone.
			fs.store(name, fs.undefined(name))
		}
	}
}

// ifStmt lowers `if (cond) then else alt`:
//
//	    ...cond...
//	    If cond then then else else      (without else: else join)
//	then:
//	    ...then...
//	    Goto join
//	else:
//	    ...alt...
//	    Goto join
//	join:
//
// An else-if is an if statement in the else block.
func (fs *funcState) ifStmt(n int32) {
	t := fs.lw.t
	cond := fs.field(n, ts.FieldCondition)
	c := fs.expr(cond)
	then := fs.newBlock("then")
	join := fs.joinAfter(n, "join")
	alt := fs.field(n, ts.FieldAlternative)
	els := join
	if alt >= 0 {
		els = fs.newBlock("else")
	}
	fs.cur.If(c, then, els).Span = fs.span(cond)
	fs.startBlock(then)
	if body := fs.field(n, ts.FieldConsequence); body >= 0 {
		fs.stmt(body)
		fs.gotoBlock(join, t.Nodes[body].End)
	}
	fs.gotoBlock(join, t.Nodes[n].End)
	if alt >= 0 {
		fs.startBlock(els)
		if body := fs.first(alt); body >= 0 {
			fs.stmt(body)
		}
		fs.gotoBlock(join, t.Nodes[alt].End)
	}
	fs.startBlock(join)
}

// switchStmt lowers a switch statement, its clauses in one block scope:
//
//	    ...discriminant...
//	    ...case tests, in order...
//	    Switch d [case t1: case1, case t2: case2, default: dflt]   (no default clause: exit)
//	case1:
//	    ...statements...
//	    Goto case2                       (fall-through)
//	case2:
//	    ...statements...                (break: Goto exit)
//	    Goto dflt
//	dflt:
//	    ...statements...
//	    Goto exit
//	exit:
//
// When a case test after the first assigns a variable, the tests are a chain of comparisons
// instead of one Switch (see caseTests).
func (fs *funcState) switchStmt(n int32) {
	t := fs.lw.t
	value := fs.field(n, ts.FieldValue)
	d := fs.expr(value)
	body := fs.field(n, ts.FieldBody)
	exit := fs.exitBlock(n)
	if body < 0 {
		fs.gotoBlock(exit, t.Nodes[n].End)
		fs.startBlock(exit)
		return
	}
	fs.openScope()
	fs.declareBlockScope(body)
	var clauses []int32
	var blocks []*ssa.Block
	for c := range fs.children(body) {
		clauses = append(clauses, c)
		fs.hoistFunctions(c)
	}
	var labels []int32
	var targets []*ssa.Block
	def := exit
	for _, c := range clauses {
		b := fs.newBlock("case")
		blocks = append(blocks, b)
		label := fs.field(c, ts.FieldValue)
		labelEnd := t.Nodes[c].Start
		if label >= 0 {
			labelEnd = t.Nodes[label].End
		}
		if colon := bytes.IndexByte(t.Src[labelEnd:t.Nodes[c].End], ':'); colon >= 0 {
			labelEnd += uint32(colon) + 1
		}
		b.Anchor = point(labelEnd)
		if t.Nodes[c].Kind == ts.KindSwitchDefault {
			def = b
			continue
		}
		labels = append(labels, label)
		targets = append(targets, b)
	}
	fs.caseTests(d, value, labels, targets, def)
	fs.pushJump(jumpTarget{breakTo: exit, breakable: true, finallys: len(fs.finallys)})
	for i, c := range clauses {
		fs.gotoBlock(blocks[i], t.Nodes[c].Start)
		fs.startBlock(blocks[i])
		for s := range fs.children(c) {
			if t.Nodes[s].Field == ts.FieldBody {
				fs.stmt(s)
			}
		}
	}
	fs.gotoBlock(exit, t.Nodes[n].End)
	fs.popJump()
	fs.closeScope()
	fs.startBlock(exit)
}

// caseTests lowers the dispatch of a switch on d. JavaScript evaluates the case tests in order
// and stops at the first that matches. When no test after the first assigns a variable, they
// are evaluated before one Switch, which differs from that in nothing SSA can see. Otherwise
// they become a chain of comparisons, so that a test's assignment happens only on the paths
// that reach it.
func (fs *funcState) caseTests(d ssa.Temp, value int32, labels []int32, targets []*ssa.Block, def *ssa.Block) {
	t := fs.lw.t
	chain := false
	for _, label := range labels[min(1, len(labels)):] {
		for i := label; label >= 0 && i < t.SubtreeEnd(label); i++ {
			switch t.Nodes[i].Kind {
			case ts.KindAssignmentExpression, ts.KindAugmentedAssignmentExpression, ts.KindUpdateExpression:
				chain = true
			}
		}
	}
	if !chain {
		tests := make([]ssa.Temp, len(labels))
		for i, label := range labels {
			tests[i] = fs.expr(label)
		}
		fs.cur.Switch(d, tests, append(targets, def)).Span = fs.span(value)
		return
	}
	for i, label := range labels {
		match := fs.emit(ssa.OpBinary, "===", label, d, fs.expr(label))
		next := fs.newBlock("case test")
		fs.cur.If(match, targets[i], next).Span = fs.span(label)
		fs.startBlock(next)
	}
	fs.cur.Goto(def).Span = fs.span(value)
}

// export lowers an export statement: a declaration or a default value as such; the bindings it
// exports are marked, since importers see every value they take.
func (fs *funcState) export(n int32) {
	t := fs.lw.t
	if d := fs.field(n, ts.FieldDeclaration); d >= 0 {
		fs.stmt(d)
		fs.lw.forEachDeclared(d, func(name int32) {
			if b := fs.scope.lookup(t.Text(name)); b != nil {
				b.Exported = true
			}
		})
		return
	}
	if v := fs.field(n, ts.FieldValue); v >= 0 {
		fs.exprNamed(v, -1)
		return
	}
	if v := exportAssignment(t, n); v >= 0 {
		fs.expr(v) // export = v
		return
	}
	if fs.field(n, ts.FieldSource) >= 0 || isTypeOnlyImportExport(t, n) {
		return // a re-export reads no local variable; export type exports no value
	}
	for c := range fs.children(n) {
		if t.Nodes[c].Kind != ts.KindExportClause {
			continue
		}
		for spec := range fs.children(c) {
			if isTypeOnlyImportExport(t, spec) {
				continue
			}
			if name := fs.field(spec, ts.FieldName); name >= 0 && t.Nodes[name].Kind == ts.KindIdentifier {
				if b := fs.scope.lookup(t.Text(name)); b != nil {
					b.Exported = true
				}
			}
		}
	}
}

// checkInBlock refuses the function if the lexical declaration n (let, const, using, class)
// is the body of an if, a loop or a label, where ECMAScript allows only statements: an early
// SyntaxError that tree-sitter accepts. Lowered, the binding would be scoped to the body alone.
func (fs *funcState) checkInBlock(n int32) {
	if t := fs.lw.t; !isBlockLike(t, t.Nodes[n].Parent) {
		fs.refuse(ssa.SyntaxError, fs.span(n), "a lexical declaration cannot be the body of a statement")
	}
}
