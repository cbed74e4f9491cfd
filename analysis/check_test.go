package analysis_test

import (
	"reflect"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// checkResult runs the SSA oracles on every analyzed function of r, and checks that its
// occurrences are sorted by offset, as looking them up by place needs, and that the functions
// around a range hold what the index of the whole file lists there.
func checkResult(t *testing.T, r *analysis.Result) {
	t.Helper()
	analysis.Materialize(r)
	for _, fn := range r.Funcs {
		if fn.Analyzed() {
			ssatest.Check(t, fn)
		}
	}
	occurrences := r.Occurrences()
	for i := 1; i < len(occurrences); i++ {
		if a, b := occurrences[i-1].Span, occurrences[i].Span; a.Start > b.Start {
			t.Fatalf("occurrence %d at %v before occurrence %d at %v", i-1, a, i, b)
		}
	}
	// Ranges and places across the file, empty, a line, a screen; and places at occurrences.
	n := int32(len(r.Src))
	for k := range int32(indexSamples) {
		at := n * k / indexSamples
		for _, width := range []int32{0, 40, 4000} {
			if err := analysis.IndexAroundAgrees(r, at, at+width); err != nil {
				t.Fatal(err)
			}
		}
		if len(occurrences) > 0 {
			o := occurrences[len(occurrences)*int(k)/indexSamples]
			for _, at := range []int32{o.Span.Start, o.Span.End} {
				if err := analysis.IndexAroundAgrees(r, at, at); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// indexSamples is how many points of a file checkResult looks up the occurrences at.
const indexSamples = 40

// checkAgrees asserts that Check, which lets each function go once its findings are out, finds
// in src what r, the analysis of src with opts, does.
func checkAgrees(t *testing.T, src []byte, opts analysis.Options, r *analysis.Result) {
	t.Helper()
	c, err := analysis.Check(src, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := r.Diagnostics(true); !reflect.DeepEqual(c.Diagnostics, want) {
		t.Errorf("Check finds\n\t%v\nthe analysis\n\t%v", c.Diagnostics, want)
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
