package treesitter

import (
	"strings"
	"testing"
)

// TestNestingLimit lowers code nested deeper than the goroutine stack could follow: the
// function is not analyzed, with the reason, and the others are; 10,000 nested ifs are fine.
func TestNestingLimit(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		analyzed  bool
	}{
		{"parentheses", "x = " + strings.Repeat("(", 150_000) + "1" + strings.Repeat(")", 150_000) + ";\nfunction f(a) { return a; }", false},
		{"ifs", strings.Repeat("if (a) {", 10_000) + "x = 1;" + strings.Repeat("}", 10_000) + "\nfunction f(a) { return a; }", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tree, err := Parse([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			file := Lower(tree)
			top := file.Funcs[0]
			if analyzed := top.NotAnalyzed == ""; analyzed != tt.analyzed {
				t.Errorf("top level analyzed: %v (%q), want %v", analyzed, top.NotAnalyzed, tt.analyzed)
			}
			if !tt.analyzed && !strings.Contains(top.NotAnalyzed, "nested more than 100000 levels deep") {
				t.Errorf("reason %q", top.NotAnalyzed)
			}
			if f := file.Funcs[len(file.Funcs)-1]; f.Name != "f" || f.NotAnalyzed != "" {
				t.Errorf("the function after the deep code: %s, %q", f.Name, f.NotAnalyzed)
			}
		})
	}
}
