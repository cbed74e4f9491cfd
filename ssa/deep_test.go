package ssa_test

import (
	"fmt"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// nestedIfs builds `if (c) { x = …; if (c) { x = …; … } use(x) } use(x)` nested depth deep.
func nestedIfs(depth int) (*ssa.Function, *ssa.Binding) {
	fn := ssa.NewFunction("nested", ssa.Span{})
	x := fn.NewBinding("x", ssa.Let, ssa.Span{})
	b := fn.Blocks[0]
	b.Store(x, ssa.Span{}, b.Emit(ssa.OpConst, "0", ssa.Span{}))
	joins := make([]*ssa.Block, depth)
	for i := range joins {
		then := fn.NewBlock("then")
		joins[i] = fn.NewBlock("join")
		b.If(b.Emit(ssa.OpConst, "c", ssa.Span{}), then, joins[i])
		then.Store(x, ssa.Span{}, then.Emit(ssa.OpConst, fmt.Sprint(i), ssa.Span{}))
		b = then
	}
	b.Goto(joins[depth-1])
	for i := depth - 1; i >= 0; i-- {
		joins[i].Load(x, ssa.Span{})
		if i > 0 {
			joins[i].Goto(joins[i-1])
		} else {
			joins[i].Return(ssa.NoTemp)
		}
	}
	return fn, x
}

func TestDeepNesting(t *testing.T) {
	fn, _ := nestedIfs(10000)
	if err := fn.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := ssa.Build(fn); err != nil {
		t.Fatal(err)
	}
	ssatest.Check(t, fn)
	phis := 0
	for _, b := range fn.Blocks {
		phis += len(b.Phis)
	}
	if phis != 10000 {
		t.Errorf("%d φs, want one per join (10000)", phis)
	}
}

func TestLongChain(t *testing.T) {
	const n = 100000
	fn := ssa.NewFunction("chain", ssa.Span{})
	x := fn.NewBinding("x", ssa.Let, ssa.Span{})
	b := fn.Blocks[0]
	b.Store(x, ssa.Span{}, b.Emit(ssa.OpConst, "0", ssa.Span{}))
	for i := 0; i < n; i++ {
		next := fn.NewBlock("next")
		b.Goto(next)
		b = next
	}
	b.Return(b.Load(x, ssa.Span{}))
	if err := fn.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := ssa.Build(fn); err != nil {
		t.Fatal(err)
	}
	ssatest.Check(t, fn)
	if v := b.Instrs[0].Place.Value; v == nil || v.Version != 1 {
		t.Errorf("read at the end of the chain sees %v, want x$1", v)
	}
}
