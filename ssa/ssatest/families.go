package ssatest

import (
	"fmt"
	"strconv"

	"github.com/ssalens/ssalens/ssa"
)

// source hands out increasing source positions, so that predecessors and versions are ordered
// as they would be for code written in the order the generator emits it.
type source struct{ pos int32 }

func (s *source) span() ssa.Span {
	s.pos++
	return ssa.Span{Start: s.pos, End: s.pos + 1}
}

func mustFinish(fn *ssa.Function) *ssa.Function {
	if err := fn.Finish(); err != nil {
		panic("ssatest: " + err.Error())
	}
	return fn
}

// IfChain returns the finished (not built) function
//
//	function ifChainN(c) { let x = 0; if (c) { x = 1; } … if (c) { x = n; } return x; }
//
// with n ifs in sequence: 2n+1 blocks and, in SSA form, one φ of x after each if.
func IfChain(n int) *ssa.Function {
	var src source
	fn := ssa.NewFunction(fmt.Sprintf("ifChain%d", n), src.span())
	c := fn.NewBinding("c", ssa.Param, src.span())
	x := fn.NewBinding("x", ssa.Let, src.span())
	b := fn.Entry()
	b.Param(c, c.Decl)
	b.Store(x, x.Decl, b.Emit(ssa.OpConst, "0", src.span()))
	for i := range n {
		then, join := fn.NewBlock("then"), fn.NewBlock("join")
		b.If(b.Load(c, src.span()), then, join).Span = src.span()
		then.Store(x, src.span(), then.Emit(ssa.OpConst, strconv.Itoa(i+1), src.span()))
		then.Goto(join).Span = src.span()
		join.Anchor = src.span()
		b = join
	}
	b.Return(b.Load(x, src.span()))
	return mustFinish(fn)
}

// NestedLoops returns the finished (not built) function
//
//	function nestedN(c) { let x = 0; while (c) { while (c) { … x = 1; … } x; } x; return x; }
//
// with depth nested while loops, x assigned in the innermost body and read after each loop:
// 3·depth+1 blocks and, in SSA form, one φ of x at each loop header.
func NestedLoops(depth int) *ssa.Function {
	var src source
	fn := ssa.NewFunction(fmt.Sprintf("nested%d", depth), src.span())
	c := fn.NewBinding("c", ssa.Param, src.span())
	x := fn.NewBinding("x", ssa.Let, src.span())
	b := fn.Entry()
	b.Param(c, c.Decl)
	b.Store(x, x.Decl, b.Emit(ssa.OpConst, "0", src.span()))
	heads := make([]*ssa.Block, depth)
	exits := make([]*ssa.Block, depth)
	for k := range depth {
		head, body, exit := fn.NewBlock("loop"), fn.NewBlock("body"), fn.NewBlock("exit")
		b.Goto(head).Span = src.span()
		head.Anchor = src.span()
		head.If(head.Load(c, src.span()), body, exit).Span = src.span()
		heads[k], exits[k] = head, exit
		b = body
	}
	b.Store(x, src.span(), b.Emit(ssa.OpConst, "1", src.span()))
	if depth > 0 {
		b.Goto(heads[depth-1]).Span = src.span()
		b = exits[depth-1]
	}
	for k := depth - 1; k > 0; k-- {
		b.Load(x, src.span())
		b.Goto(heads[k-1]).Span = src.span() // the back edge of the enclosing loop
		b = exits[k-1]
	}
	b.Return(b.Load(x, src.span()))
	return mustFinish(fn)
}

// MinimizeWorstCase returns a finished (not built) irreducible function on which the removal of
// redundant φ sets does quadratic work, in the manner of the nested SCCs of Wagner's thesis
// (Fig. 4.3): the φ graph is one strongly connected component that has to be peeled a level at
// a time.
//
// x is assigned 1 on one path and 2 on another, which enter a two-block loop A1 ⇄ B1 at A1 and
// at B1 respectively; A1 alone leaves it, to the exit. Level j's loop Aj ⇄ Bj is entered from
// level j-1 at both blocks and returns to it from both, down to level L = ⌈phis/2⌉, from which
// an innermost loop C ⇄ D is entered at both blocks, from AL alone. x is read in C and at the
// exit.
//
// Every Aj and Bj needs its φ (both assignments reach it, by different paths), so phis φs
// (rounded up to even) survive; C and D get a redundant pair that only stands for AL's φ. All
// of them form one SCC, whose outer operands are x1 and x2. Only A1 and B1 have operands from
// outside, so the search examines the rest again, whose outer operands are A1's and B1's φs, and
// so on: level j costs O(L-j), O(L²) in all, before the pair C, D is found redundant.
func MinimizeWorstCase(phis int) *ssa.Function {
	levels := max(1, (phis+1)/2)
	var src source
	fn := ssa.NewFunction(fmt.Sprintf("nestedSCCs%d", phis), src.span())
	c := fn.NewBinding("c", ssa.Param, src.span())
	x := fn.NewBinding("x", ssa.Var, src.span())
	entry := fn.Entry()
	entry.Param(c, c.Decl)
	left, right := fn.NewBlock("left"), fn.NewBlock("right")
	a := make([]*ssa.Block, levels)
	b := make([]*ssa.Block, levels)
	for j := range levels {
		a[j], b[j] = fn.NewBlock(fmt.Sprintf("a%d", j+1)), fn.NewBlock(fmt.Sprintf("b%d", j+1))
		a[j].Anchor, b[j].Anchor = src.span(), src.span()
	}
	inner1, inner2, exit := fn.NewBlock("c"), fn.NewBlock("d"), fn.NewBlock("exit")
	inner1.Anchor, inner2.Anchor = src.span(), src.span()

	entry.If(entry.Load(c, src.span()), left, right).Span = src.span()
	left.Store(x, src.span(), left.Emit(ssa.OpConst, "1", src.span()))
	left.Goto(a[0]).Span = src.span()
	right.Store(x, src.span(), right.Emit(ssa.OpConst, "2", src.span()))
	right.Goto(b[0]).Span = src.span()
	// switchOn ends blk with a switch on c, one case per target but the last, the default.
	switchOn := func(blk *ssa.Block, targets ...*ssa.Block) {
		cases := make([]ssa.Temp, len(targets)-1)
		for i := range cases {
			cases[i] = blk.Emit(ssa.OpConst, strconv.Itoa(i), src.span())
		}
		blk.Switch(blk.Load(c, src.span()), cases, targets).Span = src.span()
	}
	for j := range levels {
		toA, toB := []*ssa.Block{b[j]}, []*ssa.Block{a[j]}
		if j < levels-1 {
			toA, toB = append(toA, a[j+1]), append(toB, b[j+1])
		} else {
			toA = append(toA, inner1, inner2)
		}
		if j > 0 {
			toA, toB = append(toA, a[j-1]), append(toB, b[j-1])
		} else {
			toA = append(toA, exit)
		}
		switchOn(a[j], toA...)
		switchOn(b[j], toB...)
	}
	last := a[levels-1]
	inner1.Load(x, src.span())
	inner1.If(inner1.Load(c, src.span()), inner2, last).Span = src.span()
	inner2.If(inner2.Load(c, src.span()), inner1, last).Span = src.span()
	exit.Return(exit.Load(x, src.span()))
	return mustFinish(fn)
}
