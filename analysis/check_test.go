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
		if fn.Analyzed() {
			ssatest.Check(t, fn)
		}
	}
}

// changed returns the edit that turns old into new: the bytes between their common prefix and
// their common suffix.
func changed(old, new []byte) analysis.Edit {
	n := min(len(old), len(new))
	prefix := 0
	for prefix < n && old[prefix] == new[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < n-prefix && old[len(old)-1-suffix] == new[len(new)-1-suffix] {
		suffix++
	}
	return analysis.Edit{StartByte: uint32(prefix), OldEndByte: uint32(len(old) - suffix), NewEndByte: uint32(len(new) - suffix)}
}
