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
		cp := fn.NewCopy(100, func(b *ssa.Binding) *ssa.Binding { return b }, nil)
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
