package ssatest

import (
	"testing"

	"github.com/ssalens/ssalens/ssa"
)

// BenchmarkPerBlock runs run on a fresh function from make in each iteration, making it with
// the timer stopped, and reports the time per block. ssa.Build and the Cytron reference are
// measured this way alike, so that their times compare.
func BenchmarkPerBlock(b *testing.B, make func() *ssa.Function, run func(*ssa.Function)) {
	b.ReportAllocs()
	blocks := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		fn := make()
		blocks = len(fn.Blocks)
		b.StartTimer()
		run(fn)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(blocks), "ns/block")
}
