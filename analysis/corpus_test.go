package analysis_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// TestCorpus analyzes real npm packages: every function must lower, build, verify and agree
// with the Cytron reference. It reports, per file, the functions, how many are analyzed, why
// the others are not, and the φs and values built.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped in -short mode")
	}
	for _, f := range corpus.Fetch(t) {
		t.Run(f.Name, func(t *testing.T) {
			r, err := analysis.Analyze(f.Src, analysis.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, r)
			analyzed, phis, values := 0, 0, 0
			reasons := map[string]int{}
			for _, fn := range r.Funcs {
				if !fn.Analyzed() {
					reasons[fn.NotAnalyzed.Kind.String()]++
					continue
				}
				analyzed++
				values += len(fn.Values)
				for _, v := range fn.Values {
					if v.Kind == ssa.ValuePhi {
						phis++
					}
				}
			}
			t.Logf("%s: %d functions, %d analyzed, not analyzed: %s; %d φs, %d values",
				f.Name, len(r.Funcs), analyzed, formatReasons(reasons), phis, values)
		})
	}
}

func formatReasons(reasons map[string]int) string {
	if len(reasons) == 0 {
		return "none"
	}
	var parts []string
	for r, n := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
