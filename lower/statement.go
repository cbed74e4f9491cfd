package lower

import (
	"bytes"
	ts "github.com/ssalens/ssalens/treesitter"
	"strconv"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// jumpTarget is an enclosing statement that break or continue can leave.
type jumpTarget struct {
	labels     [][]byte
	breakTo    *ssa.Block
	continueTo *ssa.Block // nil unless a loop
	breakable  bool       // an unlabeled break may leave it (loops and switches)
	finallys   int        // len(funcState.finallys) outside the statement
}

// finallyState is a finally block while its try and catch blocks are lowered: every way out of
// them goes through the finally block, and the finally block ends with a dispatch to where
// each of them was going.
type finallyState struct {
	entry  *ssa.Block
	normal bool // the try or catch block can complete normally
	exits  []finallyExit
}

type exitKind uint8

const (
	exitJump exitKind = iota
	exitReturn
	exitThrow
)

type finallyExit struct {
	kind     exitKind
	to       *ssa.Block
	finallys int
}

func (f *finallyState) addExit(e finallyExit) {
	for _, x := range f.exits {
		if x == e {
			return
		}
	}
	f.exits = append(f.exits, e)
}

// children yields the named children of node that are not comments.
func (fs *funcState) children(node int32) func(func(int32) bool) {
	t := fs.lw.t
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

// endOfLine returns the offset of the end of the line holding off, where a loop's φs are shown.
func (fs *funcState) endOfLine(off uint32) int32 {
	src := fs.lw.t.Src
	i := bytes.IndexByte(src[off:], '\n')
	if i < 0 {
		return int32(len(src))
	}
	end := int(off) + i
	if end > int(off) && src[end-1] == '\r' {
		end--
	}
	return int32(end)
}

func (fs *funcState) stmt(n int32) {
	if !fs.nest(n) {
		return
	}
	defer fs.unnest()
	t := fs.lw.t
	node := &t.Nodes[n]
	switch node.Kind {
	case ts.KindExpressionStatement:
		if e := fs.first(n); e >= 0 {
			fs.expr(e)
		}
	case ts.KindStatementBlock:
		fs.block(n)
	case ts.KindLexicalDeclaration, ts.KindVariableDeclaration, ts.KindUsingDeclaration:
		fs.declaration(n)
	case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration:
		// Hoisted to the start of its block, unless it is the body of an if or a loop: then a
		// var of the function (see declareVars) assigned here.
		if name := fs.field(n, ts.FieldName); name >= 0 && !isBlockLike(t.Nodes[node.Parent].Kind) {
			fs.store(name, fs.closure(n, string(t.Text(name))))
		}
	case ts.KindClassDeclaration:
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
		v := ssa.NoTemp
		if e := fs.first(n); e >= 0 {
			v = fs.expr(e)
		}
		fs.ret(v, node.Start)
	case ts.KindThrowStatement:
		v := ssa.NoTemp
		if e := fs.first(n); e >= 0 {
			v = fs.expr(e)
		}
		fs.cur.Throw(v, fs.handler).Span = point(node.Start)
		fs.deadBlock()
	case ts.KindTryStatement:
		fs.tryStmt(n)
	case ts.KindSwitchStatement:
		fs.switchStmt(n)
	case ts.KindWithStatement:
		if fs.fn.NotAnalyzed == "" {
			fs.fn.NotAnalyzed = "contains a with statement at " + fs.lw.position(node.Start)
		}
		if o := fs.field(n, ts.FieldObject); o >= 0 {
			fs.expr(o)
		}
		fs.inWith++
		if b := fs.field(n, ts.FieldBody); b >= 0 {
			fs.stmt(b)
		}
		fs.inWith--
	case ts.KindExportStatement:
		fs.export(n)
	case ts.KindImportStatement, ts.KindEmptyStatement, ts.KindDebuggerStatement, ts.KindComment,
		ts.KindHashBangLine, ts.KindHTMLComment:
	default:
		fs.any(n)
	}
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

func isStatementKind(k ts.Kind) bool {
	switch k {
	case ts.KindExpressionStatement, ts.KindStatementBlock, ts.KindLexicalDeclaration, ts.KindVariableDeclaration,
		ts.KindUsingDeclaration, ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration,
		ts.KindClassDeclaration, ts.KindIfStatement, ts.KindWhileStatement, ts.KindDoStatement, ts.KindForStatement,
		ts.KindForInStatement, ts.KindLabeledStatement, ts.KindBreakStatement, ts.KindContinueStatement,
		ts.KindReturnStatement, ts.KindThrowStatement, ts.KindTryStatement, ts.KindSwitchStatement,
		ts.KindWithStatement, ts.KindExportStatement, ts.KindImportStatement, ts.KindEmptyStatement,
		ts.KindDebuggerStatement, ts.KindElseClause:
		return true
	}
	return false
}

// block lowers a statement block in a scope of its own.
func (fs *funcState) block(n int32) {
	saved := fs.scope
	fs.scope = &scope{parent: saved, fs: fs}
	fs.declareBlockScope(n)
	fs.body(n)
	fs.scope = saved
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

// loopBody lowers the body statement of a loop.
func (fs *funcState) loopBody(body int32) {
	fs.loops++
	fs.stmt(body)
	fs.loops--
}

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
		switch {
		case name < 0:
		case value >= 0:
			fs.assign(name, fs.exprNamed(value, name))
		case lexical && t.Nodes[name].Kind == ts.KindIdentifier:
			// `let x;` defines x as undefined, ending its temporal dead zone.
			fs.store(name, fs.constant("undefined", name))
		}
	}
}

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

// loopHeader starts the header block of a loop statement n, whose φs count as defined at
// offset at and are shown at the end of the loop's first line.
func (fs *funcState) loopHeader(n int32, label string, at uint32) *ssa.Block {
	start := fs.lw.t.Nodes[n].Start
	h := fs.newBlock(label)
	h.Anchor = ssa.Span{Start: int32(at), End: fs.endOfLine(start)}
	h.LoopHeader = true
	fs.gotoBlock(h, start)
	fs.startBlock(h)
	return h
}

func (fs *funcState) exitBlock(n int32) *ssa.Block { return fs.joinAfter(n, "exit") }

// joinAfter starts a block, labeled label, where the paths through the construct n meet; its
// φs are shown, and count as defined, right after n.
func (fs *funcState) joinAfter(n int32, label string) *ssa.Block {
	b := fs.newBlock(label)
	b.Anchor = point(fs.lw.t.Nodes[n].End)
	return b
}

func (fs *funcState) pushLoop(labels [][]byte, breakTo, continueTo *ssa.Block) {
	fs.jumps = append(fs.jumps, jumpTarget{labels: labels, breakTo: breakTo, continueTo: continueTo,
		breakable: true, finallys: len(fs.finallys)})
}

func (fs *funcState) popJump() { fs.jumps = fs.jumps[:len(fs.jumps)-1] }

func (fs *funcState) whileStmt(n int32, labels [][]byte) {
	t := fs.lw.t
	cond := fs.field(n, ts.FieldCondition)
	header := fs.loopHeader(n, "while", t.Nodes[cond].Start)
	c := fs.expr(cond)
	body := fs.newBlock("body")
	exit := fs.exitBlock(n)
	fs.loopTest(cond, c, body, exit)
	fs.pushLoop(labels, exit, header)
	fs.startBlock(body)
	b := fs.field(n, ts.FieldBody)
	fs.loopBody(b)
	fs.gotoBlock(header, t.Nodes[b].End)
	fs.popJump()
	fs.startBlock(exit)
}

func (fs *funcState) doStmt(n int32, labels [][]byte) {
	t := fs.lw.t
	b := fs.field(n, ts.FieldBody)
	body := fs.loopHeader(n, "do", t.Nodes[b].Start)
	test := fs.newBlock("test")
	test.Anchor = point(t.Nodes[b].End)
	exit := fs.exitBlock(n)
	fs.pushLoop(labels, exit, test)
	fs.loopBody(b)
	fs.gotoBlock(test, t.Nodes[b].End)
	fs.popJump()
	fs.startBlock(test)
	cond := fs.field(n, ts.FieldCondition)
	fs.loopTest(cond, fs.expr(cond), body, exit)
	fs.startBlock(exit)
}

func (fs *funcState) forStmt(n int32, labels [][]byte) {
	t := fs.lw.t
	saved := fs.scope
	fs.scope = &scope{parent: saved, fs: fs}
	if init := fs.field(n, ts.FieldInitializer); init >= 0 {
		switch t.Nodes[init].Kind {
		case ts.KindLexicalDeclaration, ts.KindVariableDeclaration:
			fs.lw.declareStatement(fs.scope, init)
			fs.declaration(init)
		case ts.KindEmptyStatement:
		default:
			fs.expr(init)
		}
	}
	cond := fs.field(n, ts.FieldCondition)
	if cond >= 0 && (t.Nodes[cond].Flags&ts.Named == 0 || t.Nodes[cond].Kind == ts.KindEmptyStatement) {
		cond = -1
	}
	b := fs.field(n, ts.FieldBody)
	at := t.Nodes[b].Start
	if cond >= 0 {
		at = t.Nodes[cond].Start
	}
	header := fs.loopHeader(n, "for", at)
	body := fs.newBlock("body")
	exit := fs.exitBlock(n)
	if cond >= 0 {
		fs.loopTest(cond, fs.expr(cond), body, exit)
	} else {
		fs.cur.Goto(body).Span = point(at)
	}
	// The update merges the paths that reach the end of the body and the continues; its φs are
	// shown after the body and count as defined before the update expression.
	update := fs.newBlock("update")
	update.Anchor = point(t.Nodes[b].End)
	if inc := fs.field(n, ts.FieldIncrement); inc >= 0 {
		update.Anchor.Start = int32(t.Nodes[inc].Start)
	}
	fs.pushLoop(labels, exit, update)
	fs.startBlock(body)
	fs.loopBody(b)
	fs.gotoBlock(update, t.Nodes[b].End)
	fs.popJump()
	fs.startBlock(update)
	leave := t.Nodes[b].End
	if inc := fs.field(n, ts.FieldIncrement); inc >= 0 {
		fs.expr(inc)
		leave = t.Nodes[inc].Start
	}
	fs.gotoBlock(header, leave)
	fs.scope = saved
	fs.startBlock(exit)
}

// loopTest ends the current block with the test c of a loop, whose node is cond: a branch to
// body or exit, or, when the test is a literal that is always true (`while (1)`,
// `while (true)`), a jump to body. Such a loop is left only by break, return or throw; an
// edge to exit would let the values of the test's block reach the code after the loop.
func (fs *funcState) loopTest(cond int32, c ssa.Temp, body, exit *ssa.Block) {
	if alwaysTrue(fs.lw.t, cond) {
		fs.cur.Goto(body).Span = fs.span(cond)
		return
	}
	fs.cur.If(c, body, exit).Span = fs.span(cond)
}

// alwaysTrue reports whether the expression n is a literal whose value is truthy: true, a
// number other than zero, or a non-empty string. Anything else may be false.
func alwaysTrue(t *ts.Tree, n int32) bool {
	n = unparen(t, n)
	if n < 0 {
		return false
	}
	switch t.Nodes[n].Kind {
	case ts.KindTrue:
		return true
	case ts.KindNumber:
		return nonzeroNumber(string(t.Text(n)))
	case ts.KindString:
		// Something between the quotes and no escape: "\<newline>" is a line continuation,
		// the empty string.
		text := t.Text(n)
		return len(text) > 2 && !bytes.Contains(text, []byte{'\\'})
	}
	return false
}

// nonzeroNumber reports whether the numeric literal text is known not to be zero.
func nonzeroNumber(text string) bool {
	text = strings.ReplaceAll(strings.TrimSuffix(text, "n"), "_", "")
	if len(text) > 1 && text[0] == '0' && strings.ContainsRune("xXoObB", rune(text[1])) {
		return strings.Trim(text[2:], "0") != ""
	}
	f, err := strconv.ParseFloat(text, 64)
	return err == nil && f != 0
}

func (fs *funcState) forInStmt(n int32, labels [][]byte) {
	t := fs.lw.t
	left := fs.field(n, ts.FieldLeft)
	right := fs.field(n, ts.FieldRight)
	saved := fs.scope
	fs.scope = &scope{parent: saved, fs: fs}
	if k := fs.field(n, ts.FieldKind); k >= 0 && t.Nodes[k].Kind != ts.TokenVar {
		declKind := ssa.Const
		if t.Nodes[k].Kind == ts.TokenLet {
			declKind = ssa.Let
		}
		// The head expression already sees the loop's own bindings, in their dead zone.
		fs.lw.declarePattern(fs.scope, left, declKind)
	}
	iterable := fs.expr(right)
	kind := "ForIn"
	if op := fs.field(n, ts.FieldOperator); op >= 0 && string(t.Text(op)) == "of" {
		kind = "ForOf"
		if bytes.HasPrefix(bytes.TrimSpace(t.Src[t.Nodes[n].Start+3:t.Nodes[left].Start]), []byte("await")) {
			kind = "ForAwaitOf"
		}
	}
	iter := fs.emit(ssa.OpIntrinsic, kind, right, iterable)
	header := fs.loopHeader(n, "for", t.Nodes[left].Start)
	next := fs.emit(ssa.OpIntrinsic, "IterNext", left, iter)
	body := fs.newBlock("body")
	exit := fs.exitBlock(n)
	fs.cur.If(next, body, exit).Span = fs.span(left)
	fs.startBlock(body)
	fs.assign(left, fs.emit(ssa.OpIntrinsic, "IterValue", left, next))
	fs.pushLoop(labels, exit, header)
	b := fs.field(n, ts.FieldBody)
	fs.loopBody(b)
	fs.gotoBlock(header, t.Nodes[b].End)
	fs.popJump()
	fs.scope = saved
	fs.startBlock(exit)
}

// labeledStmt lowers a loop or a labeled statement n that the labels of the enclosing labeled
// statements name: a loop takes them as targets for break and continue; a labeled statement
// adds its own and passes them on to its body, which only break can leave if not a loop.
func (fs *funcState) labeledStmt(n int32, labels [][]byte) {
	t := fs.lw.t
	switch t.Nodes[n].Kind {
	case ts.KindWhileStatement:
		fs.whileStmt(n, labels)
	case ts.KindDoStatement:
		fs.doStmt(n, labels)
	case ts.KindForStatement:
		fs.forStmt(n, labels)
	case ts.KindForInStatement:
		fs.forInStmt(n, labels)
	case ts.KindLabeledStatement:
		if l := fs.field(n, ts.FieldLabel); l >= 0 {
			labels = append(labels, t.Text(l))
		}
		body := fs.field(n, ts.FieldBody)
		switch {
		case body < 0:
		case isLoopOrLabeled(t.Nodes[body].Kind):
			fs.labeledStmt(body, labels)
		default:
			exit := fs.exitBlock(n)
			fs.jumps = append(fs.jumps, jumpTarget{labels: labels, breakTo: exit, finallys: len(fs.finallys)})
			fs.stmt(body)
			fs.gotoBlock(exit, t.Nodes[n].End)
			fs.popJump()
			fs.startBlock(exit)
		}
	}
}

func isLoopOrLabeled(k ts.Kind) bool {
	switch k {
	case ts.KindWhileStatement, ts.KindDoStatement, ts.KindForStatement, ts.KindForInStatement, ts.KindLabeledStatement:
		return true
	}
	return false
}

func (fs *funcState) breakOrContinue(n int32) {
	t := fs.lw.t
	isContinue := t.Nodes[n].Kind == ts.KindContinueStatement
	var label []byte
	if l := fs.field(n, ts.FieldLabel); l >= 0 {
		label = t.Text(l)
	}
	for i := len(fs.jumps) - 1; i >= 0; i-- {
		j := &fs.jumps[i]
		if isContinue && j.continueTo == nil {
			continue
		}
		if label == nil && !j.breakable {
			continue
		}
		if label != nil && !hasLabel(j.labels, label) {
			continue
		}
		to := j.breakTo
		if isContinue {
			to = j.continueTo
		}
		fs.jump(to, j.finallys, t.Nodes[n].Start)
		return
	}
	// A jump with no target is a syntax error tree-sitter does not report.
	if fs.fn.NotAnalyzed == "" {
		fs.fn.NotAnalyzed = "syntax error at " + fs.lw.position(t.Nodes[n].Start) + ": no target for " + string(t.Text(n))
	}
}

func hasLabel(labels [][]byte, l []byte) bool {
	for _, x := range labels {
		if bytes.Equal(x, l) {
			return true
		}
	}
	return false
}

// jump leaves for block to, whose statement is outside finallys finally blocks, through the
// finally blocks in between.
func (fs *funcState) jump(to *ssa.Block, finallys int, at uint32) {
	if len(fs.finallys) > finallys {
		f := fs.finallys[len(fs.finallys)-1]
		f.addExit(finallyExit{kind: exitJump, to: to, finallys: finallys})
		fs.gotoBlock(f.entry, at)
	} else {
		fs.gotoBlock(to, at)
	}
	fs.deadBlock()
}

// ret returns v (NoTemp: undefined), through the enclosing finally blocks.
func (fs *funcState) ret(v ssa.Temp, at uint32) {
	if len(fs.finallys) == 0 {
		fs.cur.Return(v).Span = point(at)
		fs.deadBlock()
		return
	}
	if fs.returned == ssa.NoTemp {
		fs.returned = fs.fn.NewTemp()
	}
	if v == ssa.NoTemp {
		v = fs.cur.Emit(ssa.OpConst, "undefined", point(at))
	}
	if v != fs.returned {
		fs.cur.EmitTo(fs.returned, ssa.OpCopy, "", point(at), v)
	}
	f := fs.finallys[len(fs.finallys)-1]
	f.addExit(finallyExit{kind: exitReturn})
	fs.gotoBlock(f.entry, at)
	fs.deadBlock()
}

func (fs *funcState) tryStmt(n int32) {
	t := fs.lw.t
	body := fs.field(n, ts.FieldBody)
	catch := fs.field(n, ts.FieldHandler)
	finalizer := fs.field(n, ts.FieldFinalizer)
	if body < 0 || catch < 0 && finalizer < 0 {
		// Incomplete code (a try being typed): the block runs as it is.
		fs.any(n)
		return
	}
	after := fs.exitBlock(n)
	outerHandler := fs.handler
	var fin *finallyState
	if finalizer >= 0 {
		fin = &finallyState{entry: fs.newBlock("finally")}
		fin.entry.Anchor = fs.afterBrace(finalizer)
		fs.finallys = append(fs.finallys, fin)
	}
	// normalExit leaves the try or catch block at its end.
	normalExit := func(end uint32) {
		if fs.cur.Terminated() {
			return
		}
		if fin != nil {
			fin.normal = true
			fs.cur.Goto(fin.entry).Span = point(end)
		} else {
			fs.cur.Goto(after).Span = point(end)
		}
	}
	var catchBlock *ssa.Block
	if catch >= 0 {
		catchBlock = fs.newBlock("catch")
		catchBlock.Anchor = fs.afterBrace(catch)
		fs.handler = catchBlock
	} else {
		fs.handler = fin.entry
		fin.addExit(finallyExit{kind: exitThrow})
	}
	fs.enterGuarded(t.Nodes[body].Start, "try")
	fs.block(body)
	normalExit(t.Nodes[body].End)
	if catch >= 0 {
		fs.handler = outerHandler
		fs.startBlock(catchBlock)
		if fin != nil {
			fs.handler = fin.entry
			fin.addExit(finallyExit{kind: exitThrow})
			fs.enterGuarded(t.Nodes[catch].Start, "catch")
		}
		saved := fs.scope
		fs.scope = &scope{parent: saved, fs: fs}
		if p := fs.field(catch, ts.FieldParameter); p >= 0 {
			fs.lw.declarePattern(fs.scope, p, ssa.CatchParam)
			fs.assign(p, fs.emit(ssa.OpIntrinsic, "CaughtValue", p))
		}
		if b := fs.field(catch, ts.FieldBody); b >= 0 {
			fs.block(b)
		}
		fs.scope = saved
		normalExit(t.Nodes[catch].End)
	}
	fs.handler = outerHandler
	if fin != nil {
		fs.finallys = fs.finallys[:len(fs.finallys)-1]
		fs.startBlock(fin.entry)
		if b := fs.field(finalizer, ts.FieldBody); b >= 0 {
			fs.block(b)
		}
		fs.dispatch(fin, after, t.Nodes[finalizer].End)
	}
	fs.startBlock(after)
}

// afterBrace returns the point just inside the body block of a catch or finally clause, where
// the φs of its entry are shown.
func (fs *funcState) afterBrace(clause int32) ssa.Span {
	if b := fs.field(clause, ts.FieldBody); b >= 0 {
		return point(fs.lw.t.Nodes[b].Start + 1)
	}
	return point(fs.lw.t.Nodes[clause].Start)
}

// enterGuarded starts the block of a try or catch body with an edge to the handler, which
// sees the state on entry.
func (fs *funcState) enterGuarded(at uint32, label string) {
	b := fs.newBlock(label)
	fs.cur.MaybeThrow(b, fs.handler).Span = point(at)
	fs.startBlock(b)
}

// dispatch ends a finally block by continuing where each way into it was going.
func (fs *funcState) dispatch(fin *finallyState, after *ssa.Block, at uint32) {
	if fs.cur.Terminated() {
		return
	}
	var targets []*ssa.Block
	var kinds []string
	if fin.normal {
		targets = append(targets, after)
		kinds = append(kinds, "normal")
	}
	for _, e := range fin.exits {
		b := fs.newBlock("completion")
		saved := fs.cur
		fs.startBlock(b)
		switch e.kind {
		case exitJump:
			fs.jump(e.to, e.finallys, at)
			kinds = append(kinds, "jump")
		case exitReturn:
			fs.ret(fs.returned, at)
			kinds = append(kinds, "return")
		case exitThrow:
			fs.cur.Throw(fs.cur.Emit(ssa.OpIntrinsic, "Exception", point(at)), fs.handler).Span = point(at)
			kinds = append(kinds, "throw")
		}
		fs.cur = saved
		targets = append(targets, b)
	}
	switch len(targets) {
	case 0:
		fs.cur.Return(ssa.NoTemp).Span = point(at) // unreachable: the try block never ends
	case 1:
		fs.cur.Goto(targets[0]).Span = point(at)
	default:
		completion := fs.cur.Emit(ssa.OpIntrinsic, "Completion", point(at))
		cases := make([]ssa.Temp, len(targets)-1)
		for i := range cases {
			cases[i] = fs.cur.Emit(ssa.OpConst, kinds[i], point(at))
		}
		fs.cur.Switch(completion, cases, targets).Span = point(at)
	}
}

func (fs *funcState) switchStmt(n int32) {
	t := fs.lw.t
	value := fs.field(n, ts.FieldValue)
	d := fs.expr(value)
	body := fs.field(n, ts.FieldBody)
	exit := fs.exitBlock(n)
	saved := fs.scope
	fs.scope = &scope{parent: saved, fs: fs}
	if body < 0 {
		fs.gotoBlock(exit, t.Nodes[n].End)
		fs.scope = saved
		fs.startBlock(exit)
		return
	}
	fs.declareBlockScope(body)
	var clauses []int32
	var blocks []*ssa.Block
	for c := range fs.children(body) {
		clauses = append(clauses, c)
		fs.hoistFunctions(c)
	}
	var tests []ssa.Temp
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
		// Case tests are evaluated before the dispatch, in order; JavaScript stops at the
		// first match, which only differs when a test has side effects on locals.
		tests = append(tests, fs.expr(label))
		targets = append(targets, b)
	}
	fs.cur.Switch(d, tests, append(targets, def)).Span = fs.span(value)
	fs.jumps = append(fs.jumps, jumpTarget{breakTo: exit, breakable: true, finallys: len(fs.finallys)})
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
	fs.scope = saved
	fs.startBlock(exit)
}

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
	if fs.field(n, ts.FieldSource) >= 0 {
		return // a re-export reads no local variable
	}
	for c := range fs.children(n) {
		if t.Nodes[c].Kind != ts.KindExportClause {
			continue
		}
		for spec := range fs.children(c) {
			if name := fs.field(spec, ts.FieldName); name >= 0 && t.Nodes[name].Kind == ts.KindIdentifier {
				if b := fs.scope.lookup(t.Text(name)); b != nil {
					b.Exported = true
				}
			}
		}
	}
}
