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
// with the Cytron reference, and Check must find what the analysis does. It reports, per file, the functions, how many are analyzed, why
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
			checkAgrees(t, f.Src, analysis.Options{}, r)
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

// TestCorpusTypeScript analyzes the TypeScript corpus (zod, rxjs, TanStack Query): every
// function must lower, build, verify and agree with the Cytron reference, Check must find what
// the analysis does, and at least 99.5% of them must be analyzed. It lists every function that
// is not, with why.
func TestCorpusTypeScript(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped in -short mode")
	}
	total, analyzed := 0, 0
	var notAnalyzed []string
	for _, f := range corpus.FetchTypeScript(t) {
		t.Run(f.Name, func(t *testing.T) {
			lang, _ := analysis.LanguageOfFile(f.Name)
			opts := analysis.Options{Language: lang, Verify: true}
			r, err := analysis.Analyze(f.Src, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, r)
			checkAgrees(t, f.Src, opts, r)
			for _, fn := range r.Funcs {
				total++
				if fn.Analyzed() {
					analyzed++
					continue
				}
				line := r.Lines.Line(fn.Span.Start)
				notAnalyzed = append(notAnalyzed, fmt.Sprintf("%s:%d: %s: %s", f.Name, line, fn.Name, fn.NotAnalyzed.Kind))
				if fn.NotAnalyzed.Kind == ssa.InternalError {
					t.Errorf("%s:%d: %s: %s", f.Name, line, fn.Name, fn.NotAnalyzed.Name)
				}
			}
		})
	}
	share := 100 * float64(analyzed) / float64(max(total, 1))
	t.Logf("%d functions, %d analyzed (%.2f%%); not analyzed:\n%s", total, analyzed, share, strings.Join(notAnalyzed, "\n"))
	if share < 99.5 {
		t.Errorf("%.2f%% of the functions analyzed, want at least 99.5%%", share)
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
