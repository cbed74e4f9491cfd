package ssa_test

import (
	"errors"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// nestedLoops builds n nested loops, variable i defined before loop i and assigned in the
// innermost body, so that each variable needs a φ at the header of every loop inside its own:
// n²/2 φs for a function of size n.
func nestedLoops(n int) *ssa.Function {
	fn := ssa.NewFunction("loops", ssa.Span{})
	vars := make([]*ssa.Binding, n)
	b := fn.Blocks[0]
	headers, exits := make([]*ssa.Block, n), make([]*ssa.Block, n)
	for i := range n {
		vars[i] = fn.NewBinding("v", ssa.Var, ssa.Span{})
		b.Store(vars[i], ssa.Span{}, b.Emit(ssa.OpConst, "0", ssa.Span{}))
		headers[i], exits[i] = fn.NewBlock("while"), fn.NewBlock("exit")
		headers[i].LoopHeader = true
		b.Goto(headers[i])
		body := fn.NewBlock("body")
		headers[i].If(headers[i].Emit(ssa.OpConst, "c", ssa.Span{}), body, exits[i])
		b = body
	}
	for _, v := range vars {
		b.Store(v, ssa.Span{}, b.Load(v, ssa.Span{}))
	}
	for i := n - 1; i >= 0; i-- {
		b.Goto(headers[i])
		b = exits[i]
	}
	b.Return(ssa.NoTemp)
	return fn
}

// TestBuildBudget: a function whose SSA form grows as the square of its size is left out of
// SSA form once Build's work passes its budget, untouched; a smaller one of the same shape is
// built and correct.
func TestBuildBudget(t *testing.T) {
	small := nestedLoops(20)
	if err := small.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := ssa.Build(small); err != nil {
		t.Fatal(err)
	}
	ssatest.Check(t, small)

	large := nestedLoops(2000)
	if err := large.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := ssa.Build(large); !errors.Is(err, ssa.ErrTooComplex) {
		t.Fatalf("Build: %v, want ErrTooComplex", err)
	}
	for _, b := range large.Blocks {
		if len(b.Phis) > 0 {
			t.Fatalf("block %d kept %d φs", b.ID, len(b.Phis))
		}
		for _, in := range b.Instrs {
			if in.Place.Value != nil {
				t.Fatalf("block %d kept a value", b.ID)
			}
		}
	}
}
