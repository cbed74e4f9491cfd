package ssatest

import (
	"fmt"
	"math/rand/v2"

	"github.com/ssalens/ssalens/ssa"
)

// Options shapes the functions RandomFunction generates.
type Options struct {
	Blocks int // about how many blocks to create: no compound statement starts after that many
	Vars   int // local variables, each a let or a var
	Params int // parameters, renamed and reassigned like the locals; Vars+Params must be positive
	// Irreducible adds loops entered at two blocks and, once the function is written, a few
	// jumps from the end of random blocks to random blocks.
	Irreducible bool
}

// RandomOptions draws options for one function of up to maxBlocks blocks: 1 to 4 locals, up to
// 2 parameters, and an irreducible CFG one time in three.
func RandomOptions(rng *rand.Rand, maxBlocks int) Options {
	return Options{
		Blocks:      1 + rng.IntN(maxBlocks),
		Vars:        1 + rng.IntN(4),
		Params:      rng.IntN(3),
		Irreducible: rng.IntN(3) == 0,
	}
}

// maxDepth bounds the nesting of compound statements, and with it the generator's recursion.
const maxDepth = 6

// RandomFunction returns a finished (not built) random function. Its code is structured like a
// JavaScript function (sequences, if/else, while and do-while loops with breaks and continues,
// switches with fallthrough, try/catch with an exceptional edge from every call in the try body,
// early returns and throws), with the irreducible additions of opts.Irreducible. Statements
// assign constants to the locals and parameters and read them; they also read a global, a
// variable of the enclosing function, and a context variable, which are not renamed.
func RandomFunction(rng *rand.Rand, opts Options) *ssa.Function {
	if opts.Vars+opts.Params <= 0 {
		panic("ssatest: RandomFunction needs a local variable or a parameter")
	}
	g := &generator{rng: rng, opts: opts}
	outer := ssa.NewFunction("outer", g.src.span())
	captured := outer.NewBinding("captured", ssa.Let, g.src.span())
	g.fn = ssa.NewFunction("random", g.src.span())
	outer.AddChild(g.fn)
	ctx := g.fn.NewBinding("ctx", ssa.Let, g.src.span())
	ctx.Why = ssa.Reason{Kind: ssa.AssignedInNestedFunction}
	g.others = []*ssa.Binding{ssa.NewGlobal("globalThis"), captured, ctx}

	entry := g.fn.Entry()
	for i := range opts.Params {
		p := g.fn.NewBinding(fmt.Sprintf("p%d", i), ssa.Param, g.src.span())
		entry.Param(p, p.Decl)
		g.locals = append(g.locals, p)
	}
	for i := range opts.Vars {
		kind := ssa.Let
		if rng.IntN(2) == 0 {
			kind = ssa.Var
		}
		name := string("xyzw"[i%4])
		if i >= 4 {
			name += fmt.Sprint(i / 4)
		}
		g.locals = append(g.locals, g.fn.NewBinding(name, kind, g.src.span()))
	}
	g.blocks = []*ssa.Block{entry}
	g.cur = entry
	g.statements(0)
	for g.cur != nil && len(g.blocks) < opts.Blocks {
		g.statement(0)
	}
	if g.cur != nil {
		g.cur.Return(g.read()).Span = g.src.span()
	}
	// A block that no path reaches may still be unterminated; Finish drops it unless a jump
	// added below reaches it.
	for _, b := range g.blocks {
		if !b.Terminated() {
			b.Return(ssa.NoTemp)
		}
	}
	if opts.Irreducible {
		g.addJumps()
	}
	return mustFinish(g.fn)
}

// generator writes one random function, statement by statement, into the block cur.
type generator struct {
	rng    *rand.Rand
	opts   Options
	src    source
	fn     *ssa.Function
	cur    *ssa.Block // where the next statement goes; nil after a jump, to the end of the sequence
	blocks []*ssa.Block
	locals []*ssa.Binding // renamed: the parameters and locals
	others []*ssa.Binding // not renamed

	breaks, continues []*ssa.Block // targets of break and continue, innermost last
	handlers          []*ssa.Block // catch blocks, innermost last
}

func (g *generator) newBlock(label string) *ssa.Block {
	b := g.fn.NewBlock(label)
	g.blocks = append(g.blocks, b)
	return b
}

// goTo ends cur with a jump to b, unless a jump already ended it.
func (g *generator) goTo(b *ssa.Block) {
	if g.cur != nil {
		g.cur.Goto(b).Span = g.src.span()
	}
}

func (g *generator) local() *ssa.Binding { return g.locals[g.rng.IntN(len(g.locals))] }

// read reads a random binding, mostly a local.
func (g *generator) read() ssa.Temp {
	if g.rng.IntN(5) == 0 {
		return g.cur.Load(g.others[g.rng.IntN(len(g.others))], g.src.span())
	}
	return g.cur.Load(g.local(), g.src.span())
}

// statements writes a sequence of one to four statements at nesting depth.
func (g *generator) statements(depth int) {
	for n := 1 + g.rng.IntN(4); n > 0 && g.cur != nil; n-- {
		g.statement(depth)
	}
}

func (g *generator) statement(depth int) {
	if depth >= maxDepth || len(g.blocks) >= g.opts.Blocks {
		g.simple()
		return
	}
	switch r := g.rng.IntN(100); {
	case r < 30:
		g.simple()
	case r < 45:
		g.ifElse(depth)
	case r < 55:
		g.while(depth)
	case r < 62:
		g.doWhile(depth)
	case r < 70:
		g.switchCases(depth)
	case r < 77:
		g.tryCatch(depth)
	case r < 85 && g.opts.Irreducible:
		g.twoEntryLoop()
	case r < 92 && depth > 0: // a jump at the top level would end the function early
		g.jump()
	default:
		g.simple()
	}
}

// simple writes straight-line code: assignments, reads, calls, increments.
func (g *generator) simple() {
	for n := 1 + g.rng.IntN(3); n > 0; n-- {
		switch g.rng.IntN(7) {
		case 6: // a block scope entered anew: the variable is uninitialized again
			g.cur.Uninit(g.local(), g.src.span())
		case 0, 1:
			x := g.local()
			g.cur.Store(x, g.src.span(), g.cur.Emit(ssa.OpConst, fmt.Sprint(g.src.pos), g.src.span()))
		case 2:
			g.cur.Binary(ssa.OperatorAdd, g.src.span(), g.read(), g.read())
		case 3: // x++
			x := g.local()
			one := g.cur.Emit(ssa.OpConst, "1", g.src.span())
			g.cur.Store(x, g.src.span(), g.cur.Binary(ssa.OperatorAdd, g.src.span(), g.cur.Load(x, g.src.span()), one))
		case 4:
			g.cur.Store(g.others[len(g.others)-1], g.src.span(), g.read())
		case 5:
			g.call()
		}
	}
}

// call writes a call, which in a try body may throw to the innermost catch.
func (g *generator) call() {
	g.cur.Emit(ssa.OpCall, "", g.src.span(), g.read())
	if len(g.handlers) == 0 {
		return
	}
	next := g.newBlock("call")
	g.cur.MaybeThrow(next, g.handlers[len(g.handlers)-1]).Span = g.src.span()
	g.cur = next
}

func (g *generator) ifElse(depth int) {
	then, join := g.newBlock("then"), g.newBlock("join")
	els := join
	if g.rng.IntN(2) == 0 {
		els = g.newBlock("else")
	}
	g.cur.If(g.read(), then, els).Span = g.src.span()
	g.cur = then
	g.statements(depth + 1)
	g.goTo(join)
	if els != join {
		g.cur = els
		g.statements(depth + 1)
		g.goTo(join)
	}
	join.Anchor = g.src.span()
	g.cur = join
}

func (g *generator) while(depth int) {
	head, body, exit := g.newBlock("loop"), g.newBlock("body"), g.newBlock("exit")
	g.goTo(head)
	head.Anchor = g.src.span()
	g.cur = head
	head.If(g.read(), body, exit).Span = g.src.span()
	g.loopBody(body, exit, head, depth)
	g.goTo(head)
	g.cur = exit
}

func (g *generator) doWhile(depth int) {
	body, test, exit := g.newBlock("body"), g.newBlock("test"), g.newBlock("exit")
	g.goTo(body)
	body.Anchor = g.src.span()
	g.loopBody(body, exit, test, depth)
	g.goTo(test)
	g.cur = test
	test.If(g.read(), body, exit).Span = g.src.span()
	g.cur = exit
}

// loopBody writes the statements of a loop body starting in body, with break and continue
// targets.
func (g *generator) loopBody(body, brk, cont *ssa.Block, depth int) {
	g.breaks = append(g.breaks, brk)
	g.continues = append(g.continues, cont)
	g.cur = body
	g.statements(depth + 1)
	g.breaks = g.breaks[:len(g.breaks)-1]
	g.continues = g.continues[:len(g.continues)-1]
}

func (g *generator) switchCases(depth int) {
	n := 1 + g.rng.IntN(3)
	exit := g.newBlock("exit")
	targets := make([]*ssa.Block, n+1)
	cases := make([]ssa.Temp, n)
	for i := range targets {
		targets[i] = g.newBlock("case")
	}
	if g.rng.IntN(2) == 0 {
		targets[n] = exit // no default clause
	}
	for i := range cases {
		cases[i] = g.cur.Emit(ssa.OpConst, fmt.Sprint(i), g.src.span())
	}
	g.cur.Switch(g.read(), cases, targets).Span = g.src.span()
	g.breaks = append(g.breaks, exit)
	for i, t := range targets {
		if t == exit {
			break
		}
		g.cur = t
		g.statements(depth + 1)
		if i+1 < len(targets) && g.rng.IntN(3) == 0 {
			g.goTo(targets[i+1]) // fall through
		} else {
			g.goTo(exit)
		}
	}
	g.breaks = g.breaks[:len(g.breaks)-1]
	exit.Anchor = g.src.span()
	g.cur = exit
}

func (g *generator) tryCatch(depth int) {
	handler, join := g.newBlock("catch"), g.newBlock("join")
	g.handlers = append(g.handlers, handler)
	g.call() // so that the catch is reachable
	g.statements(depth + 1)
	g.handlers = g.handlers[:len(g.handlers)-1]
	g.goTo(join)
	g.cur = handler
	g.statements(depth + 1)
	g.goTo(join)
	join.Anchor = g.src.span()
	g.cur = join
}

// twoEntryLoop writes the irreducible loop of Braun et al. Fig. 4: two blocks that jump to each
// other, each entered from before the loop.
func (g *generator) twoEntryLoop() {
	a, b, exit := g.newBlock("a"), g.newBlock("b"), g.newBlock("exit")
	g.cur.If(g.read(), a, b).Span = g.src.span()
	for _, blk := range []struct{ from, to *ssa.Block }{{a, b}, {b, a}} {
		g.cur = blk.from
		blk.from.Anchor = g.src.span()
		g.simple()
		g.cur.If(g.read(), blk.to, exit).Span = g.src.span()
	}
	g.cur = exit
}

// jump ends the sequence with a break, continue, return or throw (to the innermost catch, if
// any).
func (g *generator) jump() {
	switch r := g.rng.IntN(4); {
	case r == 0 && len(g.breaks) > 0:
		g.cur.Goto(g.breaks[g.rng.IntN(len(g.breaks))]).Span = g.src.span()
	case r == 1 && len(g.continues) > 0:
		g.cur.Goto(g.continues[g.rng.IntN(len(g.continues))]).Span = g.src.span()
	case r == 2:
		var handler *ssa.Block
		if len(g.handlers) > 0 {
			handler = g.handlers[len(g.handlers)-1]
		}
		g.cur.Throw(g.read(), handler).Span = g.src.span()
	default:
		g.cur.Return(g.read()).Span = g.src.span()
	}
	g.cur = nil
}

// addJumps turns a few gotos into branches with a second target anywhere but the entry. Jumps
// into the middle of loops and other constructs make their CFGs irreducible.
func (g *generator) addJumps() {
	var gotos []*ssa.Block
	for _, b := range g.blocks {
		if b.Term.Kind == ssa.TermGoto {
			gotos = append(gotos, b)
		}
	}
	if len(gotos) == 0 || len(g.blocks) < 2 {
		return
	}
	for n := 1 + g.rng.IntN(3); n > 0; n-- {
		b := gotos[g.rng.IntN(len(gotos))]
		if b.Term.Kind != ssa.TermGoto {
			continue
		}
		target := g.blocks[1+g.rng.IntN(len(g.blocks)-1)]
		cond := b.Emit(ssa.OpConst, "jump", g.src.span())
		b.Term = ssa.Terminal{Kind: ssa.TermIf, Arg: cond, Succs: []*ssa.Block{b.Term.Succs[0], target}, Span: b.Term.Span}
	}
}
