package ssatest_test

import (
	"math/rand/v2"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

func TestRandomCFGs(t *testing.T) {
	const functions = 5000
	var blocks, phis, irreducible int
	for seed := range uint64(functions) {
		rng := rand.New(rand.NewPCG(seed, 0))
		opts := ssatest.RandomOptions(rng, 40)
		fn := ssatest.RandomFunction(rng, opts)
		if err := ssa.Build(fn); err != nil {
			t.Fatalf("seed %d (%+v): %v\n%s", seed, opts, err, fn)
		}
		if err := ssatest.Validate(fn); err != nil {
			t.Fatalf("seed %d (%+v):\n%v\n%s", seed, opts, err, fn)
		}
		blocks += len(fn.Blocks)
		for _, b := range fn.Blocks {
			phis += len(b.Phis)
		}
		if isIrreducible(fn) {
			irreducible++
		}
	}
	t.Logf("%d functions, %d irreducible, %d blocks, %d φs", functions, irreducible, blocks, phis)
}

// The benchmark families, built and checked, have the φs their comments promise.
func TestFamilies(t *testing.T) {
	tests := []struct {
		fn   *ssa.Function
		phis int
	}{
		{ssatest.IfChain(1), 1},
		{ssatest.IfChain(100), 100},
		{ssatest.NestedLoops(0), 0},
		{ssatest.NestedLoops(1), 1},
		{ssatest.NestedLoops(30), 30},
		{ssatest.MinimizeWorstCase(1), 2},
		{ssatest.MinimizeWorstCase(2), 2},
		{ssatest.MinimizeWorstCase(40), 40},
	}
	for _, tt := range tests {
		if err := ssa.Build(tt.fn); err != nil {
			t.Fatal(err)
		}
		ssatest.Check(t, tt.fn)
		phis := 0
		for _, b := range tt.fn.Blocks {
			phis += len(b.Phis)
		}
		if phis != tt.phis {
			t.Errorf("%s: %d φs, want %d\n%s", tt.fn.Name, phis, tt.phis, tt.fn)
		}
	}
}

// Validate catches a read that sees a definition that dominates it but does not reach it.
func TestValidateWrongReach(t *testing.T) {
	fn := ssa.NewFunction("f", ssa.Span{})
	x := fn.NewBinding("x", ssa.Let, ssa.Span{})
	e := fn.Entry()
	e.Store(x, ssa.Span{Start: 1}, e.Emit(ssa.OpConst, "1", ssa.Span{}))
	e.Store(x, ssa.Span{Start: 2}, e.Emit(ssa.OpConst, "2", ssa.Span{}))
	e.Return(e.Load(x, ssa.Span{Start: 3}))
	if err := fn.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := ssa.Build(fn); err != nil {
		t.Fatal(err)
	}
	read, first, second := &e.Instrs[4].Place, e.Instrs[1].Place.Value, e.Instrs[3].Place.Value
	second.Uses = nil
	read.Value = first
	first.Uses = append(first.Uses, ssa.Use{Place: read})
	if err := ssa.Verify(fn); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	err := ssatest.Validate(fn)
	const want = "f: bb0: a read of x sees x$1; in Cytron's SSA, x$2\n\tthrough φs, {x$1}; in Cytron's SSA, {x$2}"
	if err == nil || err.Error() != want {
		t.Errorf("Validate: %v\nwant %s", err, want)
	}
}

// isIrreducible reports whether some edge goes back in reverse postorder to a block that does
// not dominate its source: a loop with more than one entry.
func isIrreducible(fn *ssa.Function) bool {
	dom := ssa.Dominators(fn)
	for _, b := range fn.Blocks {
		for _, s := range b.Term.Succs {
			if s.ID <= b.ID && !dom.Dominates(s, b) {
				return true
			}
		}
	}
	return false
}

// Verify must report on any corruption of a built function, never panic. Each function gets a
// few random corruptions of the fields Build fills.
func TestVerifyCorruptionsDoNotPanic(t *testing.T) {
	for seed := range uint64(2000) {
		rng := rand.New(rand.NewPCG(seed, 1))
		fn := ssatest.RandomFunction(rng, ssatest.RandomOptions(rng, 20))
		if err := ssa.Build(fn); err != nil {
			t.Fatal(err)
		}
		var done []string
		for n := 1 + rng.IntN(3); n > 0; n-- {
			done = append(done, corrupt(rng, fn))
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("seed %d: Verify panicked after %v: %v", seed, done, r)
				}
			}()
			ssa.Verify(fn)
		}()
	}
}

// corrupt changes one random field that Build sets, and says which.
func corrupt(rng *rand.Rand, fn *ssa.Function) string {
	// Earlier corruptions may have left nils behind; the picks skip them.
	pickBlock := func() *ssa.Block {
		for {
			if b := fn.Blocks[rng.IntN(len(fn.Blocks))]; b != nil {
				return b
			}
		}
	}
	pickValue := func() *ssa.Value {
		switch {
		case rng.IntN(4) == 0:
			return nil
		case rng.IntN(3) == 0 || len(fn.Values) == 0:
			return &ssa.Value{ID: int32(rng.IntN(100)), Kind: ssa.ValueKind(rng.IntN(5)), Block: pickBlock()}
		}
		return fn.Values[rng.IntN(len(fn.Values))]
	}
	var phis []*ssa.Phi
	var places []*ssa.Place
	for _, b := range fn.Blocks {
		if b == nil {
			continue
		}
		for _, p := range b.Phis {
			if p != nil {
				phis = append(phis, p)
			}
		}
		for i := range b.Instrs {
			if b.Instrs[i].Place.Binding != nil {
				places = append(places, &b.Instrs[i].Place)
			}
		}
	}
	b := pickBlock()
	switch rng.IntN(14) {
	case 0:
		if len(places) > 0 {
			places[rng.IntN(len(places))].Value = pickValue()
			return "place value"
		}
	case 1:
		if len(phis) > 0 {
			p := phis[rng.IntN(len(phis))]
			if len(p.Operands) > 0 {
				p.Operands[rng.IntN(len(p.Operands))] = pickValue()
			}
			return "φ operand"
		}
	case 2:
		if len(phis) > 0 {
			p := phis[rng.IntN(len(phis))]
			p.Operands = p.Operands[:rng.IntN(len(p.Operands)+1)]
			return "φ arity"
		}
	case 3:
		if len(b.Phis) > 0 {
			b.Phis = b.Phis[1:]
			return "φ removed"
		}
	case 4:
		b.Phis = append(b.Phis, nil)
		return "nil φ"
	case 5:
		if v := pickValue(); v != nil {
			v.ID = int32(rng.IntN(len(fn.Values) + 2))
			return "value ID"
		}
	case 6:
		if v := pickValue(); v != nil {
			v.Kind = ssa.ValueKind(rng.IntN(6))
			return "value kind"
		}
	case 7:
		if v := pickValue(); v != nil {
			v.Block, v.Phi, v.Instr = nil, nil, nil
			if rng.IntN(2) == 0 {
				v.Block = pickBlock()
			}
			if len(phis) > 0 && rng.IntN(2) == 0 {
				v.Phi = phis[rng.IntN(len(phis))]
			}
			return "value definition"
		}
	case 8:
		if v := pickValue(); v != nil {
			v.Binding = nil
			if len(fn.Bindings) > 0 && rng.IntN(2) == 0 {
				v.Binding = fn.Bindings[rng.IntN(len(fn.Bindings))]
			}
			return "value binding"
		}
	case 9:
		if v := pickValue(); v != nil {
			v.Uses = append(v.Uses, ssa.Use{}, ssa.Use{Phi: &ssa.Phi{}, Index: 3})
			if len(phis) > 0 {
				v.Uses = append(v.Uses, ssa.Use{Phi: phis[0], Index: int32(rng.IntN(5))})
			}
			return "uses"
		}
	case 10:
		switch rng.IntN(3) {
		case 0:
			b.Preds = append(b.Preds, nil)
		case 1:
			b.Preds = append(b.Preds, pickBlock())
		default:
			b.Preds = nil
		}
		return "preds"
	case 11:
		if len(b.Term.Succs) > 0 {
			b.Term.Succs[rng.IntN(len(b.Term.Succs))] = []*ssa.Block{nil, ssa.NewFunction("other", ssa.Span{}).Entry(), pickBlock()}[rng.IntN(3)]
			return "succ"
		}
	case 12:
		b.ID = int32(rng.IntN(len(fn.Blocks) + 2))
		return "block ID"
	case 13:
		switch rng.IntN(3) {
		case 0:
			fn.Values = append(fn.Values, nil)
		case 1:
			if len(fn.Values) > 0 {
				fn.Values = fn.Values[:len(fn.Values)-1]
			}
		default:
			fn.Blocks = append(fn.Blocks, nil)
		}
		return "slices"
	}
	return "nothing"
}
