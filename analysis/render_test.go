package analysis

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOperandGroups checks how a φ's operands are shown when they do not all fit: runs of
// consecutive versions (or ascending lines) as their ends, then a count of the rest.
func TestOperandGroups(t *testing.T) {
	for _, tt := range []struct {
		head  string
		keys  []int
		texts []string
		want  string
	}{
		{"x₃", []int{1, 2}, nil, "x₃ ← φ(₁,₂)"},
		{"SyntheticEventCtor₁₇", seq(1, 16), nil, "SyntheticEventCtor₁₇ ← φ(₁…₁₆)"},
		{"needsProgramChange₄₇", append(seq(2, 24), 1), nil, "needsProgramChange₄₇ ← φ(₂…₂₄,₁)"},
		{"x₉₉", []int{1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45}, nil, "x₉₉ ← φ(₁,₅,₉,₁₃,₁₇,₂₁,₂₅,₂₉,₃₃,₃₇,₄₁,₄₅)"},
		{"x₉₉", []int{1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53}, nil, "x₉₉ ← φ(₁,₅,₉,₁₃,₁₇,₂₁,₂₅,₂₉,₃₃,₃₇,…+4)"},
		{"tag", []int{39341, 39344, 39348}, []string{"L39341", "L39344", "L39348"}, "tag ← φ(L39341,L39344,L39348)"},
		{"output", []int{-1, 4157, 4160, 4163, 4166, 4169, 4172}, []string{"⊥", "L4157", "L4160", "L4163", "L4166", "L4169", "L4172"}, "output ← φ(⊥,L4157,L4160,L4163,…+3)"},
	} {
		texts := tt.texts
		if texts == nil {
			for _, k := range tt.keys {
				texts = append(texts, Subscript(int32(k)))
			}
		}
		var labels []string
		for _, g := range operandGroups(tt.head, texts, tt.keys) {
			labels = append(labels, g.label(texts))
		}
		got := tt.head + " ← φ(" + strings.Join(labels, ",") + ")"
		if got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
		if utf8.RuneCountInString(got) > MaxHintWidth {
			t.Errorf("%s is longer than %d", got, MaxHintWidth)
		}
	}
}

func seq(from, to int) []int {
	var s []int
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

// TestLineTextAroundOffset checks the line quoted for a place on a long line, as hover's
// "Defined on line": the part around the place, within the width, whatever the line's length.
func TestLineTextAroundOffset(t *testing.T) {
	src := "  function f(a) { let x = 1; " + strings.Repeat("a = a + 1; ", 60) + "x = 2; return x; }\n"
	r, err := Analyze([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	def := int32(strings.Index(src, "x = 2"))
	hover, _, ok := r.Hover(int32(strings.LastIndex(src, "x;")))
	want := "a = a + 1; x = 2; return x; }`"
	if !ok || !strings.Contains(hover, "Defined on line 1: `...") || !strings.Contains(hover, want) {
		t.Errorf("hover of the last x:\n%s\nwant the definition's part of the line, ending %q", hover, want)
	}
	for _, off := range []int32{0, 3, def, int32(len(src)) - 2} {
		text := r.lineText(off)
		if n := len(text); n > maxLineText {
			t.Errorf("lineText(%d) is %d bytes long: %q", off, n, text)
		}
	}
	if text := r.lineText(3); !strings.HasPrefix(text, "function f(a) { let x = 1;") || !strings.HasSuffix(text, "...") {
		t.Errorf("lineText at the line's start: %q", text)
	}
}
