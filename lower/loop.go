package lower

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Loops, labeled statements, break and continue. A loop's header block is where its φs are:
// the values that enter the loop merge there with the values of every later iteration.

// jumpTarget is an enclosing statement that break or continue can leave.
type jumpTarget struct {
	labels     [][]byte
	breakTo    *ssa.Block
	continueTo *ssa.Block // nil unless a loop
	breakable  bool       // an unlabeled break may leave it (loops and switches)
	finallys   int        // len(funcState.finallys) outside the statement
	// outer is the jumps of the function outside the statement, restored by popJump.
	outer jumps
}

// jumps finds the target of a break or continue in constant time: the innermost enclosing
// statement an unlabeled break leaves and the innermost loop, as indices into
// funcState.jumps (-1: none), and for each label the statements it labels, innermost last.
// Searching the enclosing statements instead would cost their number per jump.
type jumps struct {
	breakable, loop int
	labels          map[string][]int
}

// pushJump makes j the innermost target of break and continue; popJump leaves it.
func (fs *funcState) pushJump(j jumpTarget) {
	i := len(fs.jumps)
	j.outer = fs.jumpIndex
	if j.breakable {
		fs.jumpIndex.breakable = i
	}
	if j.continueTo != nil {
		fs.jumpIndex.loop = i
	}
	for _, l := range j.labels {
		if fs.jumpIndex.labels == nil {
			fs.jumpIndex.labels = make(map[string][]int)
		}
		fs.jumpIndex.labels[string(l)] = append(fs.jumpIndex.labels[string(l)], i)
	}
	fs.jumps = append(fs.jumps, j)
}

func (fs *funcState) popJump() {
	j := &fs.jumps[len(fs.jumps)-1]
	for _, l := range j.labels {
		stack := fs.jumpIndex.labels[string(l)]
		fs.jumpIndex.labels[string(l)] = stack[:len(stack)-1]
	}
	fs.jumpIndex.breakable, fs.jumpIndex.loop = j.outer.breakable, j.outer.loop
	fs.jumps = fs.jumps[:len(fs.jumps)-1]
}

// loopBody lowers the body statement of a loop.
func (fs *funcState) loopBody(body int32) {
	fs.loops++
	fs.stmt(body)
	fs.loops--
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

// exitBlock starts the block after the statement n, where break jumps to.
func (fs *funcState) exitBlock(n int32) *ssa.Block { return fs.joinAfter(n, "exit") }

// pushLoop makes a loop the innermost target of break and continue.
func (fs *funcState) pushLoop(labels [][]byte, breakTo, continueTo *ssa.Block) {
	fs.pushJump(jumpTarget{labels: labels, breakTo: breakTo, continueTo: continueTo, breakable: true, finallys: len(fs.finallys)})
}

// whileStmt lowers `while (cond) body`:
//
//	    Goto while
//	while:                               (loop header; continue)
//	    ...cond...
//	    If cond then body else exit      (an always-true cond: Goto body)
//	body:
//	    ...body...
//	    Goto while                       (back edge)
//	exit:                                (break)
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

// doStmt lowers `do body while (cond)`:
//
//	    Goto do
//	do:                                  (loop header)
//	    ...body...
//	    Goto test
//	test:                                (continue)
//	    ...cond...
//	    If cond then do else exit        (back edge)
//	exit:                                (break)
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

// forStmt lowers `for (init; cond; update) body`, its let and const declarations in a scope of
// their own (one binding for all iterations):
//
//	    ...init...
//	    Goto for
//	for:                                 (loop header)
//	    ...cond...
//	    If cond then body else exit      (no cond: Goto body)
//	body:
//	    ...body...
//	    Goto update
//	update:                              (continue)
//	    ...update...
//	    Goto for                         (back edge)
//	exit:                                (break)
func (fs *funcState) forStmt(n int32, labels [][]byte) {
	t := fs.lw.t
	fs.openScope()
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
	fs.closeScope()
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

// forInOfStmt lowers `for (left in right) body`, `for (left of right) body` and
// `for await (left of right) body`, a let or const left in a scope of its own:
//
//	    ...right...
//	    iter = ForIn(right)              (ForOf, ForAwaitOf)
//	    Goto for
//	for:                                 (loop header; continue)
//	    next = IterNext(iter)
//	    If next then body else exit
//	body:
//	    ...left = IterValue(next)...
//	    ...body...
//	    Goto for                         (back edge)
//	exit:                                (break)
func (fs *funcState) forInOfStmt(n int32, labels [][]byte) {
	t := fs.lw.t
	left := fs.field(n, ts.FieldLeft)
	right := fs.field(n, ts.FieldRight)
	fs.openScope()
	if k := fs.field(n, ts.FieldKind); k >= 0 && t.Nodes[k].Kind != ts.TokenVar {
		declKind := ssa.Const
		if t.Nodes[k].Kind == ts.TokenLet {
			declKind = ssa.Let
		}
		// The head expression already sees the loop's own bindings, in their dead zone.
		fs.lw.declarePattern(fs.scope, left, declKind)
	}
	iterable := fs.expr(right)
	kind := ssa.IntrinsicForIn
	if op := fs.field(n, ts.FieldOperator); op >= 0 && t.Nodes[op].Kind == ts.TokenOf {
		kind = ssa.IntrinsicForOf
		if bytes.HasPrefix(bytes.TrimSpace(t.Src[t.Nodes[n].Start+3:t.Nodes[left].Start]), []byte("await")) {
			kind = ssa.IntrinsicForAwaitOf
		}
	}
	iter := fs.intrinsic(kind, "", right, iterable)
	label := "for-of"
	if kind == ssa.IntrinsicForIn {
		label = "for-in"
	}
	header := fs.loopHeader(n, label, t.Nodes[left].Start)
	next := fs.intrinsic(ssa.IntrinsicIterNext, "", left, iter)
	body := fs.newBlock("body")
	exit := fs.exitBlock(n)
	fs.cur.If(next, body, exit).Span = fs.span(left)
	fs.startBlock(body)
	fs.assign(left, fs.intrinsic(ssa.IntrinsicIterValue, "", left, next))
	fs.pushLoop(labels, exit, header)
	b := fs.field(n, ts.FieldBody)
	fs.loopBody(b)
	fs.gotoBlock(header, t.Nodes[b].End)
	fs.popJump()
	fs.closeScope()
	fs.startBlock(exit)
}

// labeledStmt lowers a loop or a labeled statement n that the labels of the enclosing labeled
// statements name: a loop takes them as targets for break and continue; a labeled statement
// adds its own and passes them on to its body, which only break can leave if not a loop:
//
//	    ...body...                       (break label: Goto exit)
//	    Goto exit
//	exit:
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
		fs.forInOfStmt(n, labels)
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
			fs.pushJump(jumpTarget{labels: labels, breakTo: exit, finallys: len(fs.finallys)})
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

// breakOrContinue lowers a break or continue statement as a jump to the innermost statement it
// can leave (of its label, if it has one), through the finally blocks in between. A continue
// whose label names a statement that is not a loop has no target, as in JavaScript.
func (fs *funcState) breakOrContinue(n int32) {
	t := fs.lw.t
	isContinue := t.Nodes[n].Kind == ts.KindContinueStatement
	i := fs.jumpIndex.breakable
	switch l := fs.field(n, ts.FieldLabel); {
	case l >= 0:
		i = -1
		if stack := fs.jumpIndex.labels[string(t.Text(l))]; len(stack) > 0 {
			i = stack[len(stack)-1]
		}
		if i >= 0 && isContinue && fs.jumps[i].continueTo == nil {
			i = -1
		}
	case isContinue:
		i = fs.jumpIndex.loop
	}
	if i < 0 {
		// A jump with no target is a syntax error tree-sitter does not report.
		fs.refuse(ssa.NoJumpTarget, fs.span(n), string(t.Text(n)))
		return
	}
	j := &fs.jumps[i]
	to := j.breakTo
	if isContinue {
		to = j.continueTo
	}
	fs.jump(to, j.finallys, t.Nodes[n].Start)
}

// jump leaves for block to, whose statement is outside finallys finally blocks, through the
// finally blocks in between.
func (fs *funcState) jump(to *ssa.Block, finallys int, at uint32) {
	if len(fs.finallys) > finallys && fs.cur.Reached() {
		f := fs.finallys[len(fs.finallys)-1]
		f.addExit(finallyExit{kind: exitJump, to: to, finallys: finallys})
		fs.gotoBlock(f.entry, at)
	} else {
		fs.gotoBlock(to, at)
	}
	fs.deadBlock()
}

// Lines finds the end of the line holding an offset of the source (LineEnd), where a loop's
// φs are shown. A caller that indexes the lines of the source anyway (analysis.Lines, which an
// edit updates instead of scanning the whole text again) gives its index to LowerFrom; without
// one, the lowering scans the source the first time a loop asks (lineEnds).
type Lines interface {
	EndOfLine(off int32) int32
}

// endOfLine returns the offset of the end of the line holding off, where a loop's φs are shown.
func (fs *funcState) endOfLine(off uint32) int32 {
	if fs.lw.lines == nil {
		fs.lw.lines = scanLineEnds(fs.lw.t.Src)
	}
	return fs.lw.lines.EndOfLine(int32(off))
}

// lineEnds are the offsets where the lines of a source end (LineEnd), and its length last:
// the loops of a long line cost a search each, not a scan to the line's end.
type lineEnds []int32

func scanLineEnds(src []byte) lineEnds {
	var ends lineEnds
	for start := 0; ; {
		end, next := LineEnd(src, start)
		ends = append(ends, int32(end))
		if next < 0 {
			return ends
		}
		start = next
	}
}

func (ends lineEnds) EndOfLine(off int32) int32 {
	return ends[sort.Search(len(ends), func(i int) bool { return ends[i] >= off })]
}

// LineEnd returns where the line starting at offset start of text ends, before its "\n",
// "\r\n" or lone "\r" (the line ends of JavaScript and of the LSP alike), and where the next
// line starts, -1 if the line ends the text.
func LineEnd(text []byte, start int) (end, next int) {
	nl := bytes.IndexByte(text[start:], '\n')
	limit := nl
	if nl < 0 {
		limit = len(text) - start
	}
	cr := bytes.IndexByte(text[start:start+limit], '\r')
	switch {
	case cr >= 0 && (nl < 0 || cr+1 < nl): // a lone \r
		return start + cr, start + cr + 1
	case cr >= 0: // \r\n
		return start + cr, start + nl + 1
	case nl >= 0:
		return start + nl, start + nl + 1
	}
	return len(text), -1
}
