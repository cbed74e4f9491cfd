package ssa_test

import (
	"fmt"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// build is ssa.Build for ssatest.BenchmarkPerBlock.
func build(b *testing.B) func(*ssa.Function) {
	return func(fn *ssa.Function) {
		if err := ssa.Build(fn); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildIfChain is the seed paper's family: n sequential `if (c) x = …`, then a read.
// The time per block stays flat as n grows: construction is linear.
func BenchmarkBuildIfChain(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ssatest.BenchmarkPerBlock(b, func() *ssa.Function { return ssatest.IfChain(n) }, build(b))
		})
	}
}

func BenchmarkBuildNestedLoops(b *testing.B) {
	for _, depth := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			ssatest.BenchmarkPerBlock(b, func() *ssa.Function { return ssatest.NestedLoops(depth) }, build(b))
		})
	}
}

// BenchmarkMinimizeWorstCase builds the nested redundant φ SCCs of Wagner's thesis (Fig. 4.3),
// where each round of the SCC pass peels one level: quadratic in the number of φs.
func BenchmarkMinimizeWorstCase(b *testing.B) {
	for _, phis := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("phis=%d", phis), func(b *testing.B) {
			ssatest.BenchmarkPerBlock(b, func() *ssa.Function { return ssatest.MinimizeWorstCase(phis) }, build(b))
		})
	}
}
