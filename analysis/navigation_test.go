package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

const navigationSource = `function f(c) {
  let x = 1;
  if (c) { x = 2; }
  x += g;
  return x;
}
function h() {
  var y;
  let z = 1;
  const k = () => z;
  z = 2;
  return y;
}
`

func TestNavigationLists(t *testing.T) {
	r, err := analysis.Analyze([]byte(navigationSource), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(sub string) int32 {
		i := strings.Index(navigationSource, sub)
		if i < 0 {
			t.Fatalf("%q is not in the source", sub)
		}
		return int32(i)
	}
	render := func(ls []analysis.Located) string {
		var out []string
		for _, l := range ls {
			line, col := r.Lines.Position(l.Span.Start, analysis.UTF8)
			out = append(out, fmt.Sprintf("%d:%d %s | %s", line+1, col+1, l.Label, l.Detail))
		}
		return strings.Join(out, "\n")
	}
	for _, tt := range []struct {
		name string
		list func(int32) []analysis.Located
		at   string
		want string
	}{
		{"the definitions reaching a φ", r.ReachingDefinitions, "x += g", `
2:7 x₁ — defined on line 2 | let x = 1;
3:12 x₂ — defined on line 3 | if (c) { x = 2; }`},
		{"a parameter", r.ReachingDefinitions, "c) {", `
1:12 c₁ — parameter on line 1 | function f(c) {`},
		{"version 0", r.ReachingDefinitions, "y;\n}", `
8:7 y₀ — undefined (the value before any assignment) | var y;`},
		{"a context variable: every store that may reach the read", r.ReachingDefinitions, "z;", `
9:7 z — declared on line 9 | let z = 1;
11:3 z — assigned on line 11 | z = 2;`},
		{"a global: nothing", r.ReachingDefinitions, "g;", ``},
		{"the uses of a φ, its join first", r.ValueReferences, "x += g", `
3:20 x₃ ← φ(₁,₂) — φ on line 3 | if (c) { x = 2; }
4:3 x₃ — read on line 4 | x += g;`},
		{"a value read and written in one place: its definition, its use", r.ValueReferences, "x;\n}", `
4:3 x₄ — defined on line 4 | x += g;
5:10 x₄ — read on line 5 | return x;`},
		{"a context variable: every occurrence", r.ValueReferences, "z;", `
9:7 z — assigned on line 9 | let z = 1;
10:19 z — read on line 10 | const k = () => z;
11:3 z — assigned on line 11 | z = 2;`},
	} {
		if got := render(tt.list(at(tt.at))); got != strings.TrimPrefix(tt.want, "\n") {
			t.Errorf("%s:\ngot:\n%s\nwant:%s", tt.name, got, tt.want)
		}
	}
}
