package lower

import (
	"strings"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
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
			tree, err := ts.Parse(ts.JavaScript, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			file := Lower(tree)
			top := file.Funcs[0]
			if top.Analyzed() != tt.analyzed {
				t.Errorf("top level analyzed: %v (%v), want %v", top.Analyzed(), top.NotAnalyzed, tt.analyzed)
			}
			if !tt.analyzed && top.NotAnalyzed.Kind != ssa.TooDeep {
				t.Errorf("reason %v", top.NotAnalyzed)
			}
			if f := file.Funcs[len(file.Funcs)-1]; f.Name != "f" || !f.Analyzed() {
				t.Errorf("the function after the deep code: %s, %v", f.Name, f.NotAnalyzed)
			}
		})
	}
}

// TestInvalidTargetsLinear lowers updates and compound assignments whose left-hand side is
// not a target, which tree-sitter's error recovery nests (`a -- -- 1`): each level used to
// evaluate its operand twice, so a 65-byte file built 2⁶⁰ instructions and the server ran out
// of memory. The instructions built must stay within a constant per syntax node.
func TestInvalidTargetsLinear(t *testing.T) {
	const perNode = 3
	for _, tt := range []struct {
		name string
		src  func(n int) string
	}{
		{"dash run", func(n int) string { return "a;" + strings.Repeat("-", n) + "a;\n" }},
		{"decrements", func(n int) string {
			return "function f(a){ var x = a " + strings.Repeat("-- ", n) + "1; return x; }"
		}},
		{"increments", func(n int) string { return "a" + strings.Repeat("++ ", n) }},
		{"compound assignments", func(n int) string { return "(a" + strings.Repeat(" += 1)", n) }},
		{"prefix and postfix", func(n int) string { return strings.Repeat("--", n) + "a" + strings.Repeat("--", n) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{16, 60, 1000} {
				tree := mustParse(t, tt.src(n))
				instrs := 0
				for _, fn := range Lower(tree).Funcs {
					for _, b := range fn.Blocks {
						instrs += len(b.Instrs)
					}
				}
				if instrs > perNode*len(tree.Nodes) {
					t.Fatalf("n=%d: %d instructions for %d syntax nodes", n, instrs, len(tree.Nodes))
				}
			}
		})
	}
}

func mustParse(t testing.TB, src string) *ts.Tree {
	t.Helper()
	tree, err := ts.Parse(ts.JavaScript, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return tree
}
