package lower

import (
	"flag"
	"testing"

	"github.com/ssalens/ssalens/internal/pathological"
)

var pathologicalSize = flag.Int("n", 5000, "the smaller `size` of TestLinearWork's inputs (nesting levels or repetitions); 50000 takes nesting to MaxNesting")

// TestLinearWork lowers every pathological family at a size n and at 2n and counts the
// statements, expressions and patterns visited and the instructions and blocks made: each
// count must grow linearly, count(2n) ≤ 2.2·count(n) + c. Every function stays within its work
// budget by construction; this checks it too. `-args -n=50000` takes nesting to 100,000
// levels, the most the lowering follows (MaxNesting).
func TestLinearWork(t *testing.T) {
	for _, in := range pathological.Inputs {
		t.Run(in.Name, func(t *testing.T) {
			n := *pathologicalSize
			visited1, made1 := lowerWork(t, in.Text(n))
			visited2, made2 := lowerWork(t, in.Text(2*n))
			for _, c := range []struct {
				what   string
				at1    int
				at2    int
				margin int
			}{{"nodes visited", visited1, visited2, 64}, {"instructions and blocks", made1, made2, 1024}} {
				if float64(c.at2) > 2.2*float64(c.at1)+float64(c.margin) {
					t.Errorf("%s: %d at n=%d, %d at n=%d: not linear", c.what, c.at1, n, c.at2, 2*n)
				}
			}
		})
	}
}

// lowerWork lowers src and returns the nodes visited and the instructions and blocks made,
// checking each function against its budget.
func lowerWork(t *testing.T, src string) (visited, made int) {
	t.Helper()
	tree := mustParse(t, src)
	file := Lower(tree)
	for _, fn := range file.Funcs {
		made += fn.Made()
	}
	if limit := WorkPerNode*len(tree.Nodes) + WorkBase*len(file.Funcs); made > limit {
		t.Errorf("%d instructions and blocks for %d syntax nodes in %d functions, more than the budgets allow (%d)",
			made, len(tree.Nodes), len(file.Funcs), limit)
	}
	return file.visited, made
}
