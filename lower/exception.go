package lower

import (
	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Exceptions: try, catch, finally, throw, and return, which passes through finally blocks.
//
// A try block can throw anywhere, so its handler (the catch clause, or the finally block when
// there is none) must merge every state the block can leave: the try block has an edge to the
// handler at its start and after every store (storeBinding), a MaybeThrow terminal. A finally
// block is lowered once; every way into it (the end of the try or catch block, a break,
// continue or return inside them, an exception) jumps to it, and it ends with a Switch on the
// completion that continues where each was going.

// finallyState is a finally block while its try and catch blocks are lowered: every way out of
// them goes through the finally block, and the finally block ends with a dispatch to where
// each of them was going.
type finallyState struct {
	entry  *ssa.Block
	normal bool // the try or catch block can complete normally
	exits  []finallyExit
	added  map[finallyExit]bool // exits as a set
}

// exitKind is a way out of a try or catch block through its finally block, besides its end.
type exitKind uint8

const (
	exitJump exitKind = iota
	exitReturn
	exitThrow
)

// finallyExit is where a way out continues after the finally block: a jump to block to, whose
// statement is outside finallys finally blocks; a return; a rethrow.
type finallyExit struct {
	kind     exitKind
	to       *ssa.Block
	finallys int
}

// addExit records a way out of the try or catch block, once.
func (f *finallyState) addExit(e finallyExit) {
	if f.added[e] {
		return
	}
	if f.added == nil {
		f.added = make(map[finallyExit]bool)
	}
	f.added[e] = true
	f.exits = append(f.exits, e)
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
		v = fs.cur.Emit(ssa.OpUndefined, "", point(at))
	}
	if v != fs.returned {
		fs.cur.EmitTo(fs.returned, ssa.OpCopy, "", point(at), v)
	}
	if fs.cur.Reached() {
		f := fs.finallys[len(fs.finallys)-1]
		f.addExit(finallyExit{kind: exitReturn})
		fs.gotoBlock(f.entry, at)
	}
	fs.deadBlock()
}

// throwStmt lowers `throw e`: to the handler of the enclosing try statement, if any.
func (fs *funcState) throwStmt(n int32) {
	v := fs.operand(n)
	fs.cur.Throw(v, fs.handler).Span = point(fs.lw.t.Nodes[n].Start)
	fs.deadBlock()
}

// tryStmt lowers `try body catch (p) handler finally finalizer`:
//
//	    MaybeThrow then try handler catch      (the state on entry may reach the handler)
//	try:
//	    ...body...                             (each store: MaybeThrow then next handler catch)
//	    Goto finally                           (without finally: Goto after)
//	catch:                                     (the φs of every state the body can leave)
//	    MaybeThrow then catch' handler finally (with finally, or in an outer try: guarded too)
//	catch':
//	    p = CaughtValue
//	    ...handler...
//	    Goto finally
//	finally:                                   (merges every way in)
//	    ...finalizer...                        (in an outer try: guarded at its start)
//	    Switch Completion [normal: after, jump: …, return: …, throw: …]
//	after:                                     (in an outer try: guarded, for the state after)
//
// The normal completion and the jumps and returns that lead through the finally block count
// only from code that can run (Block.Reached): a try block that always jumps has no normal
// completion, and the code after the statement is dead.
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
	// normalExit leaves the try or catch block at its end, if it can get there.
	normalExit := func(end uint32) {
		if fs.cur.Terminated() || !fs.cur.Reached() {
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
		}
		if fs.handler != nil {
			fs.enterGuarded(t.Nodes[catch].Start, "catch")
		}
		fs.openScope()
		if p := fs.field(catch, ts.FieldParameter); p >= 0 {
			fs.lw.declarePattern(fs.scope, p, ssa.CatchParam)
			fs.declaredType(p, fs.field(catch, ts.FieldType))
			fs.assign(p, fs.intrinsic(ssa.IntrinsicCaughtValue, "", p))
		}
		if b := fs.field(catch, ts.FieldBody); b >= 0 {
			fs.block(b)
		}
		fs.closeScope()
		normalExit(t.Nodes[catch].End)
	}
	fs.handler = outerHandler
	if fin != nil {
		fs.finallys = fs.finallys[:len(fs.finallys)-1]
		fs.startBlock(fin.entry)
		if fs.handler != nil {
			fs.enterGuarded(t.Nodes[finalizer].Start, "finally")
		}
		if b := fs.field(finalizer, ts.FieldBody); b >= 0 {
			fs.block(b)
		}
		fs.dispatch(fin, after, finalizer)
	}
	fs.startBlock(after)
	if fs.handler != nil {
		fs.enterGuarded(t.Nodes[n].End, "after")
	}
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

// dispatch ends a finally block by continuing where each way into it was going: a Switch on
// the completion to the block after the statement (normal completion) and to one block per
// other way (a jump, a return, a rethrow), which the switch reaches before they are filled.
// The jumps to outer statements go on through the enclosing finally blocks, whose dispatches
// follow without lowering any node in between: the work budget is checked here too.
func (fs *funcState) dispatch(fin *finallyState, after *ssa.Block, finalizer int32) {
	at := fs.lw.t.Nodes[finalizer].End
	if fs.cur.Terminated() {
		return
	}
	if !fs.withinBudget(finalizer) {
		fs.cur.Return(ssa.NoTemp).Span = point(at) // the function is not analyzed
		return
	}
	var targets []*ssa.Block
	var kinds []string
	if fin.normal {
		targets = append(targets, after)
		kinds = append(kinds, "normal")
	}
	for _, e := range fin.exits {
		targets = append(targets, fs.newBlock("completion"))
		kinds = append(kinds, [...]string{exitJump: "jump", exitReturn: "return", exitThrow: "throw"}[e.kind])
	}
	switch len(targets) {
	case 0:
		fs.cur.Return(ssa.NoTemp).Span = point(at) // unreachable: the try block never ends
	case 1:
		fs.cur.Goto(targets[0]).Span = point(at)
	default:
		completion := fs.cur.Intrinsic(ssa.IntrinsicCompletion, "", point(at))
		cases := make([]ssa.Temp, len(targets)-1)
		for i := range cases {
			cases[i] = fs.cur.Emit(ssa.OpConst, kinds[i], point(at))
		}
		fs.cur.Switch(completion, cases, targets).Span = point(at)
	}
	for i, e := range fin.exits {
		fs.startBlock(targets[len(targets)-len(fin.exits)+i])
		switch e.kind {
		case exitJump:
			fs.jump(e.to, e.finallys, at)
		case exitReturn:
			fs.ret(fs.returned, at)
		case exitThrow:
			fs.cur.Throw(fs.cur.Intrinsic(ssa.IntrinsicException, "", point(at)), fs.handler).Span = point(at)
		}
	}
}
