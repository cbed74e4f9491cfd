package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

const focusSource = `let top = 1;
top = top + 1;
function f(c) {
  let x = 1;
  if (c) { x = 2; }
  const g = () => c;
  return x;
}
function count(n, m) {
  let i = 0, j = 0;
  while (i < n) { i++; j = j + m; }
  return i + j;
}
`

// hintsOn renders hints as line:label, one after another.
func hintsOn(r *analysis.Result, hints []analysis.Hint) string {
	var out []string
	for _, h := range hints {
		out = append(out, fmt.Sprintf("%d:%s", r.Lines.Line(h.At), h.Label()))
	}
	return strings.Join(out, " ")
}

func TestFocus(t *testing.T) {
	r, err := analysis.Analyze([]byte(focusSource), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// cursor returns the offset of the nth (from 1) occurrence of sub.
	cursor := func(sub string, nth int) int32 {
		off := -1
		for range nth {
			i := strings.Index(focusSource[off+1:], sub)
			if i < 0 {
				t.Fatalf("%q is not in the source %d times", sub, nth)
			}
			off += 1 + i
		}
		return int32(off)
	}
	all := analysis.HintOptions{Versions: true, Phis: true}
	with := func(scope analysis.Scope, at int32) analysis.HintOptions {
		o := all
		o.Scope, o.Cursor = scope, at
		return o
	}
	for _, tt := range []struct {
		name string
		o    analysis.HintOptions
		want string
	}{
		{"the whole file", all,
			"1:₁ 2:₂ 2:₁ 3:₁ 4:₁ 5:₁ 5:₂ 5:x₃ ← φ(₁,₂) 6:₁ 6:₁ 7:₃ 9:₁ 9:₁ 10:₁ 10:₁ 11:₂ 11:₁ 11:₂→₃ 11:₃ 11:₂ 11:₁ 11:i₂ ← φ(₁,₃) 11:j₂ ← φ(₁,₃) 12:₂ 12:₂"},
		{"a function: its own code and the functions nested in it", with(analysis.ScopeFunction, cursor("x = 2", 1)),
			"3:₁ 4:₁ 5:₁ 5:₂ 5:x₃ ← φ(₁,₂) 6:₁ 6:₁ 7:₃"},
		{"the innermost function", with(analysis.ScopeFunction, cursor("c;", 1)),
			"6:₁"},
		{"another function", with(analysis.ScopeFunction, cursor("return i", 1)),
			"9:₁ 9:₁ 10:₁ 10:₁ 11:₂ 11:₁ 11:₂→₃ 11:₃ 11:₂ 11:₁ 11:i₂ ← φ(₁,₃) 11:j₂ ← φ(₁,₃) 12:₂ 12:₂"},
		{"the top level: its own code, not the functions in it", with(analysis.ScopeFunction, cursor("top + 1", 1)),
			"1:₁ 2:₂ 2:₁"},
		{"a variable: the φ web of i", with(analysis.ScopeVariable, cursor("i + j", 1)),
			"10:₁ 11:₂ 11:₂→₃ 11:i₂ ← φ(₁,₃) 12:₂"},
		{"a variable: from its first definition", with(analysis.ScopeVariable, cursor("j = 0", 1)),
			"10:₁ 11:₃ 11:₂ 11:j₂ ← φ(₁,₃) 12:₂"},
		{"a variable read in a nested function", with(analysis.ScopeVariable, cursor("c)", 1)),
			"3:₁ 5:₁ 6:₁"},
		{"a web without φs: one value and its uses", with(analysis.ScopeVariable, cursor("top = 1", 1)),
			"1:₁ 2:₁"},
		{"no variable at the cursor", with(analysis.ScopeVariable, cursor("function count", 1)),
			""},
		{"at most 3 a line: φs first, the last version hint counts the rest",
			analysis.HintOptions{Versions: true, Phis: true, MaxPerLine: 3},
			"1:₁ 2:₂ 2:₁ 3:₁ 4:₁ 5:₁ 5:₂ 5:x₃ ← φ(₁,₂) 6:₁ 6:₁ 7:₃ 9:₁ 9:₁ 10:₁ 10:₁ 11:₂ …+5 11:i₂ ← φ(₁,₃) 11:j₂ ← φ(₁,₃) 12:₂ 12:₂"},
		{"at most 1 a line: a φ counts the rest when no version hint is shown",
			analysis.HintOptions{Versions: true, Phis: true, MaxPerLine: 1},
			"1:₁ 2:₂ …+1 3:₁ 4:₁ 5:x₃ ← φ(₁,₂) …+2 6:₁ …+1 7:₃ 9:₁ …+1 10:₁ …+1 11:i₂ ← φ(₁,₃) …+7 12:₂ …+1"},
		{"φs only: labelled by lines, no version hints",
			analysis.HintOptions{Versions: true, Phis: false, PhiOnly: true},
			"5:x ← φ(L4,L5) 11:i ← φ(L10,L11) 11:j ← φ(L10,L11)"},
		{"φs only in a function", analysis.HintOptions{PhiOnly: true, Scope: analysis.ScopeFunction, Cursor: cursor("x = 2", 1)},
			"5:x ← φ(L4,L5)"},
	} {
		if got := hintsOn(r, r.InlayHints(0, int32(len(focusSource)), tt.o)); got != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// TestFocusCapTooltip checks that the hint counting the hidden ones lists them, and that a range
// that starts inside a line shows what the whole line shows there.
func TestFocusCapTooltip(t *testing.T) {
	r, err := analysis.Analyze([]byte(focusSource), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := analysis.HintOptions{Versions: true, Phis: true, MaxPerLine: 3}
	hints := r.InlayHints(0, int32(len(focusSource)), o)
	var marker *analysis.HintPart
	for _, h := range hints {
		if last := &h.Parts[len(h.Parts)-1]; strings.HasPrefix(last.Text, " …+") {
			marker = last
		}
	}
	if marker == nil {
		t.Fatal("no hint counts the hidden ones")
	}
	want := "5 more hints on this line hidden (ssalens.inlayHints.maxPerLine is 3):\n" +
		"reads n₁, the parameter\nreads i₂, the φ on line 11; defines i₃\ndefines j₃\nreads j₂, the φ on line 11\nreads m₁, the parameter"
	if marker.Tooltip != want {
		t.Errorf("tooltip:\n%s\nwant:\n%s", marker.Tooltip, want)
	}
	from := int32(strings.Index(focusSource, "i++"))
	to := int32(strings.Index(focusSource, "\n  return i"))
	if got, want := hintsOn(r, r.InlayHints(from, to, o)), "11:i₂ ← φ(₁,₃) 11:j₂ ← φ(₁,₃)"; got != want {
		t.Errorf("the end of line 11: %s, want %s", got, want)
	}
}

func TestFocusEqual(t *testing.T) {
	r, err := analysis.Analyze([]byte(focusSource), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(sub string) int32 { return int32(strings.Index(focusSource, sub)) }
	for _, tt := range []struct {
		scope analysis.Scope
		a, b  string
		equal bool
	}{
		{analysis.ScopeFile, "top = 1", "i + j", true},
		{analysis.ScopeFunction, "let x", "return x", true},
		{analysis.ScopeFunction, "let x", "c;", false},
		{analysis.ScopeFunction, "let x", "let i", false},
		{analysis.ScopeVariable, "i = 0", "i + j", true},
		{analysis.ScopeVariable, "i = 0", "j = 0", false},
		{analysis.ScopeVariable, "top = 1", "top + 1", true},
		{analysis.ScopeVariable, "top = 1", "top = top", false},
	} {
		if got := r.FocusAt(tt.scope, at(tt.a)).Equal(r.FocusAt(tt.scope, at(tt.b))); got != tt.equal {
			t.Errorf("%s scope at %q and at %q: equal %v, want %v", tt.scope, tt.a, tt.b, got, tt.equal)
		}
	}
	if !r.FocusAt(analysis.ScopeVariable, at("function count")).Empty() || r.FocusAt(analysis.ScopeVariable, at("i + j")).Empty() {
		t.Error("a variable focus is empty exactly when the cursor is on no renamed variable")
	}
}
