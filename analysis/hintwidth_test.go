package analysis_test

import (
	"testing"
	"unicode/utf8"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// TestPhiHintsFit measures, on the corpus, the share of φ hints whose label fits VS Code's
// default hint width, with version hints and without; at least 98% must fit.
func TestPhiHintsFit(t *testing.T) {
	for _, f := range corpus.Fetch(t) {
		r, err := analysis.Analyze(f.Src, analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, versions := range []bool{true, false} {
			all, fit, longest := 0, 0, ""
			for _, h := range r.InlayHints(0, int32(len(f.Src)), analysis.HintOptions{Versions: versions, Phis: true}) {
				if h.Kind != analysis.HintPhi {
					continue
				}
				all++
				l := h.Label()
				if utf8.RuneCountInString(l) <= analysis.MaxHintWidth {
					fit++
				} else if utf8.RuneCountInString(l) > utf8.RuneCountInString(longest) {
					longest = l
				}
			}
			share := 100 * float64(fit) / float64(max(all, 1))
			t.Logf("%s (versions %v): %d of %d φ hints fit in %d characters (%.2f%%); longest: %s", f.Name, versions, fit, all, analysis.MaxHintWidth, share, longest)
			if share < 98 {
				t.Errorf("%s: only %.2f%% of φ hints fit", f.Name, share)
			}
		}
	}
}
