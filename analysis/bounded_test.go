package analysis_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/internal/pathological"
	"github.com/ssalens/ssalens/ssa"
)

// TestPathologicalInputsLinear analyzes every pathological family at a size n and at 2n and
// answers every question about the whole text (inlay hints, diagnostics, a hover at every
// 97th byte): the values and φs built and the answers must grow linearly, count(2n) ≤
// 2.2·count(n) + c, and so must the bytes allocated for it all, within 3·count(n) + c: a slice
// grown by doubling allocates between one and two times its final size, so a linear count of
// bytes may still double twice, where a quadratic one quadruples. Bytes allocated are not a
// time, and they catch work that revisits what it built (the dead-zone check once walked
// every φ web again for each read: 120 GB allocated for 40,000 joins). The families whose SSA form or dispatch
// blocks would grow faster than the text must end as too complex, with the hover saying so.
func TestPathologicalInputsLinear(t *testing.T) {
	const n = 2000
	for _, in := range pathological.Inputs {
		t.Run(in.Name, func(t *testing.T) {
			small, large := analyzeAll(t, in.Text(n)), analyzeAll(t, in.Text(2*n))
			for i, what := range []string{"values and φs", "answers", "bytes allocated"} {
				factor, margin := [...]float64{2.2, 2.2, 3}[i], [...]float64{64, 64, 1 << 20}[i]
				if float64(large.counts[i]) > factor*float64(small.counts[i])+margin {
					t.Errorf("%s: %d at n=%d, %d at n=%d: not linear", what, small.counts[i], n, large.counts[i], 2*n)
				}
			}
			if in.TooComplex != (large.tooComplex != "") || strings.HasPrefix(large.tooComplex, noHover) {
				t.Errorf("too complex: %q, want %v (with a hover that says so)", large.tooComplex, in.TooComplex)
			}
		})
	}
}

const noHover = "(no hover) "

type analyzed struct {
	counts [3]int // values and φs, answers, bytes allocated
	// tooComplex is the hover of a variable in a function left out as too complex, if any.
	tooComplex string
}

func analyzeAll(t *testing.T, src string) analyzed {
	t.Helper()
	// A sync.Pool is emptied by two collections: the arrays pooled by an earlier analysis
	// (ssa's tables, lower's scratch) would spare this one allocations the other size makes.
	runtime.GC()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := analysis.Analyze([]byte(src), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var a analyzed
	hints := r.InlayHints(0, int32(len(src)), analysis.HintOptions{Versions: true, Phis: true})
	diags := r.Diagnostics(true)
	a.counts[1] = len(hints) + len(diags)
	for off := int32(0); off < int32(len(src)); off += 97 {
		if md, _, ok := r.Hover(off); ok {
			a.counts[1]++
			if strings.Contains(md, "too complex") && a.tooComplex == "" {
				a.tooComplex = md
			}
		}
	}
	runtime.ReadMemStats(&after)
	a.counts[2] = int(after.TotalAlloc - before.TotalAlloc)
	for _, fn := range r.Funcs {
		a.counts[0] += len(fn.Values)
		if fn.NotAnalyzed.Kind == ssa.TooComplex && a.tooComplex == "" {
			a.tooComplex = noHover + fn.Name
		}
	}
	return a
}
