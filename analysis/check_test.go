package analysis_test

import (
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// checkResult runs the SSA oracles on every analyzed function of r.
func checkResult(t *testing.T, r *analysis.Result) {
	t.Helper()
	for _, fn := range r.Funcs {
		if fn.NotAnalyzed == "" {
			ssatest.Check(t, fn)
		}
	}
}
