package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

func TestUnrenamed(t *testing.T) {
	for _, tt := range []struct {
		name, src, summary, details, items string
	}{
		{"every variable renamed", "function f(a) { let x = a; return x; }\n", "", "", ""},
		{"globals, context variables and functions not analyzed", `function f() {
  let n = 0;
  const inc = () => { n++; };
  inc();
  console.log(n, window, console);
}
function g(o) { with (o) { x = 1; } }
`, "2 globals, 1 context variable, 1 function not analyzed", `2 globals:
  console — a global: no declaration in this file
  window — a global: no declaration in this file
1 context variable:
  n — a context variable: it is assigned in the nested function inc
1 function not analyzed:
  function g — not analyzed: contains a with statement at 7:17`, `
5:3 console — a global: no declaration in this file | console.log(n, window, console);
5:18 window — a global: no declaration in this file | console.log(n, window, console);
2:7 n — a context variable: it is assigned in the nested function inc | let n = 0;
7:17 function g — not analyzed: contains a with statement at 7:17 | function g(o) { with (o) { x = 1; } }`},
		{"a long list is cut in the details", "a; b; c; d; e; f; g;\n", "7 globals", `7 globals:
  a — a global: no declaration in this file
  b — a global: no declaration in this file
  c — a global: no declaration in this file
  d — a global: no declaration in this file
  e — a global: no declaration in this file
  and 2 more`, ""},
	} {
		r, err := analysis.Analyze([]byte(tt.src), analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		u := r.Unrenamed()
		if u.Summary != tt.summary || u.Details != tt.details {
			t.Errorf("%s:\nsummary %q, want %q\ndetails:\n%s\nwant:\n%s", tt.name, u.Summary, tt.summary, u.Details, tt.details)
		}
		if tt.items == "" {
			continue
		}
		var items []string
		for _, it := range u.Items {
			line, col := r.Lines.Position(it.Span.Start, analysis.UTF8)
			items = append(items, fmt.Sprintf("%d:%d %s | %s", line+1, col+1, it.Label, it.Detail))
		}
		if got := strings.Join(items, "\n"); got != strings.TrimPrefix(tt.items, "\n") {
			t.Errorf("%s: items:\n%s\nwant:%s", tt.name, got, tt.items)
		}
	}
}
