package ssa_test

import (
	"math/rand/v2"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// TestClone copies built random functions with a shift: each copy passes the verifier and the
// oracle, prints like the original, has every span shifted, and shares no block, value or
// binding with it.
func TestClone(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		fn := ssatest.RandomFunction(rng, ssatest.RandomOptions(rng, 30))
		if err := ssa.Build(fn); err != nil {
			t.Fatal(err)
		}
		setSingles(fn)
		cp := fn.NewCopy(100, func(b *ssa.Binding) *ssa.Binding { return b }, nil, false)
		if cp == nil {
			t.Fatalf("seed %d: no copy", seed)
		}
		cp.Make()
		c := cp.Func()
		ssatest.Check(t, c)
		if c.String() != fn.String() {
			t.Fatalf("seed %d: the copy prints differently:\n%s\nwant\n%s", seed, c, fn)
		}
		for i, b := range c.Blocks {
			if b == fn.Blocks[i] || b.Anchor.Start != fn.Blocks[i].Anchor.Start+100 {
				t.Fatalf("seed %d: block %d shared or not shifted", seed, i)
			}
			for j := range b.Instrs {
				in, old := &b.Instrs[j], &fn.Blocks[i].Instrs[j]
				if in.Place.Binding != nil && in.Place.Binding.Owner == fn {
					t.Fatalf("seed %d: a place of the copy names a binding of the original", seed)
				}
				if in.Place.Binding != nil && in.Place.Span.Start != old.Place.Span.Start+100 {
					t.Fatalf("seed %d: place span not shifted", seed)
				}
			}
		}
		for i, v := range c.Values {
			if v == fn.Values[i] {
				t.Fatalf("seed %d: value %s shared", seed, v)
			}
		}
	}
}

// TestCopyNotAnalyzed copies random functions that are not analyzed, and have no SSA form: the
// single definitions of their bindings must be the copy's own. A copy that pointed into the
// original kept the whole previous version of a file alive.
func TestCopyNotAnalyzed(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 7))
		fn := ssatest.RandomFunction(rng, ssatest.RandomOptions(rng, 30))
		fn.NotAnalyzed = ssa.Reason{Kind: ssa.SyntaxError}
		if setSingles(fn) == 0 {
			continue
		}
		cp := fn.NewCopy(100, func(b *ssa.Binding) *ssa.Binding { return b }, nil, false)
		cp.Make()
		if err := ssa.Verify(cp.Func()); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// setSingles sets the Single of each of fn's bindings that one instruction defines, as the
// lowering does, and returns how many it set.
func setSingles(fn *ssa.Function) int {
	defs := make(map[*ssa.Binding][]*ssa.Place)
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			if in := &b.Instrs[i]; in.Defines() {
				defs[in.Place.Binding] = append(defs[in.Place.Binding], &in.Place)
			}
		}
	}
	n := 0
	for b, places := range defs {
		if len(places) == 1 && b.Owner == fn {
			b.Single = places[0]
			n++
		}
	}
	return n
}
