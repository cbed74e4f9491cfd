package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

const graphSource = `function count(n) {
  let i = 0;
  while (i < n) {
    i = i + 1;
  }
  return i;
}
function g(o) { with (o) {} }
`

// TestFunctionGraph checks the graph of the function at a position: each line's text and the
// source it links to, the block's span and the edges, a back edge marked.
func TestFunctionGraph(t *testing.T) {
	r, err := analysis.Analyze([]byte(graphSource), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, ok := r.FunctionGraph(int32(strings.Index(graphSource, "i + 1")))
	if !ok {
		t.Fatal("no function at i + 1")
	}
	src := func(s analysis.Span) string {
		line, _ := r.Lines.Position(s.Start, analysis.UTF8)
		return fmt.Sprintf("%d %q", line+1, graphSource[s.Start:s.End])
	}
	var got []string
	for _, b := range g.Blocks {
		got = append(got, fmt.Sprintf("bb%d %s loop=%v @ %s", b.ID, b.Label, b.Loop, src(b.Span)))
		for _, l := range b.Lines {
			got = append(got, fmt.Sprintf("  %s %s @ %s", l.Kind, l.Text, src(l.Span)))
			if l.Tooltip != "" {
				got = append(got, "    "+strings.ReplaceAll(l.Tooltip, "\n", "\n    "))
			}
		}
	}
	for _, e := range g.Edges {
		got = append(got, fmt.Sprintf("bb%d -> bb%d %q back=%v", e.From, e.To, e.Label, e.Back))
	}
	want := `bb0 entry loop=false @ 1 "n) {\n  let i = 0;\n  "
  instr Param n₁ @ 1 "n"
  instr $0 = Const 0 @ 2 "0"
  instr StoreLocal i₁ = $0 @ 2 "i"
  term Goto bb1 @ 3 ""
bb1 while loop=true @ 3 "(i < n)"
  phi i₂ ← φ(₁,₃) @ 3 ""
    i₁ from bb0, from the loop entry (line 3)
    i₃ from bb2, from the loop's back edge (line 5)
  instr $1 = LoadLocal i₂ @ 3 "i"
  instr $2 = LoadLocal n₁ @ 3 "n"
  instr $3 = Binary $1 < $2 @ 3 "i < n"
  term If $3 then bb2 else bb3 @ 3 "(i < n)"
bb2 body loop=false @ 4 "i = i + 1;\n  }"
  instr $4 = LoadLocal i₂ @ 4 "i"
  instr $5 = Const 1 @ 4 "1"
  instr $6 = Binary $4 + $5 @ 4 "i + 1"
  instr StoreLocal i₃ = $6 @ 4 "i"
  term Goto bb1 @ 5 ""
bb3 exit loop=false @ 6 "return i"
  instr $7 = LoadLocal i₂ @ 6 "i"
  term Return $7 @ 6 ""
bb0 -> bb1 "" back=false
bb1 -> bb2 "then" back=false
bb1 -> bb3 "else" back=false
bb2 -> bb1 "" back=true`
	if strings.Join(got, "\n") != want {
		t.Errorf("graph:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}

	g, _ = r.FunctionGraph(int32(strings.Index(graphSource, "with")))
	if g.Name != "g" || g.Analyzed || g.Reason != "contains a with statement at 8:17" || len(g.Blocks) != 0 {
		t.Errorf("a function not analyzed: %+v", g)
	}
	var dot strings.Builder
	if err := g.WriteDot(&dot); err != nil || dot.String() != "digraph \"g\" {\n\tlabel=\"g is not analyzed: contains a with statement at 8:17\";\n}\n" {
		t.Errorf("dot of a function not analyzed: %q, %v", dot.String(), err)
	}
}
