package analysis

import (
	"fmt"
	"strings"
	"testing"
)

func TestMoveOffsets(t *testing.T) {
	// "abcdef": replace "cd" (2–4) by "XYZ", then insert "!" at 0.
	edits := []Edit{{StartByte: 2, OldEndByte: 4, NewEndByte: 5}, {StartByte: 0, OldEndByte: 0, NewEndByte: 1}}
	for _, tt := range []struct {
		old, new int32
		ok       bool
	}{{1, 2, true}, {2, 0, false}, {3, 0, false}, {4, 0, false}, {5, 7, true}, {6, 8, true}, {0, 0, false}} {
		if got, ok := forward(tt.old, edits); ok != tt.ok || ok && got != tt.new {
			t.Errorf("forward(%d) = %d, %v; want %d, %v", tt.old, got, ok, tt.new, tt.ok)
		}
	}
	for _, tt := range []struct{ new, old int32 }{{0, 0}, {1, 0}, {2, 1}, {3, 2}, {5, 2}, {6, 4}, {7, 5}, {8, 6}} {
		if got := Backward(tt.new, edits); got != tt.old {
			t.Errorf("Backward(%d) = %d, want %d", tt.new, got, tt.old)
		}
	}
}

// TestInlayHintsAfter answers hints for a text edited after its analysis: hints move with the
// text, the ones an edit touches are left out, and so are links into edited text.
func TestInlayHintsAfter(t *testing.T) {
	src := []byte("let x = 1;\nif (c) x = 2;\nx;\n")
	r, err := Analyze(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Replace the `2` of line 2 by `20`, and put a line before everything.
	edits := []Edit{{StartByte: 22, OldEndByte: 23, NewEndByte: 24}, {StartByte: 0, OldEndByte: 0, NewEndByte: 3}}
	var got []string
	for _, h := range r.InlayHintsAfter(edits, 0, 100, HintOptions{Versions: true, Phis: true}) {
		var links []string
		for _, p := range h.Parts {
			if p.Def != nil {
				links = append(links, fmt.Sprintf("%s@%d", p.Text, p.Def.Start))
			}
		}
		got = append(got, fmt.Sprintf("%d %s %v", h.At, h.Label(), links))
	}
	want := []string{
		"8 ₁ []",  // x of line 1, after the new line
		"22 ₂ []", // x of `x = 20`: its own text is untouched
		"28 x₃ ← φ(₁,₂) [x₃@28 ₁@7 ₂@21]",
		"30 ₃ []",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMovedIndexOverRanges checks that a moved Result's occurrences and joins over a range,
// found in the analyzed text between the offsets the range moves back to, are those of its
// whole index, moved, over the range: for every range of a few lines, and ranges that start
// or end at an edit.
func TestMovedIndexOverRanges(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "function f%d(a) {\n  let x = a;\n  for (let i = 0; i < a; i++) { if (i) x = x + i; }\n  return x;\n}\n", i)
	}
	src := b.String()
	r, err := Analyze([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := src
	var edits []Edit
	edit := func(at int, old, new string) {
		at += strings.Index(text[at:], old)
		text = text[:at] + new + text[at+len(old):]
		edits = append(edits, Edit{StartByte: uint32(at), OldEndByte: uint32(at + len(old)), NewEndByte: uint32(at + len(new))})
	}
	edit(strings.Index(text, "function f3"), "let x = a;\n", "let x = a;\n  let q = 1;\n")
	edit(strings.Index(text, "function f10"), "x + i", "x+ i")
	edit(0, "function f20(a) {\n", "")
	fresh, err := Analyze([]byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := r.Moved([]byte(text), NewLines([]byte(text)), edits, fresh)
	var ranges [][2]int32
	for start := int32(0); start < int32(len(text)); start += 37 {
		ranges = append(ranges, [2]int32{start, start + 150})
	}
	for _, e := range edits {
		ranges = append(ranges, [2]int32{int32(e.StartByte) - 20, int32(e.NewEndByte)}, [2]int32{int32(e.NewEndByte), int32(e.NewEndByte) + 20})
	}
	for _, rg := range ranges {
		occurrences, joins := m.movedIndex(rg[0], rg[1])
		wantOccurrences, wantJoins := m.indexed().over(rg[0], rg[1])
		if fmt.Sprint(occurrences) != fmt.Sprint(wantOccurrences) || fmt.Sprint(joins) != fmt.Sprint(wantJoins) {
			t.Errorf("[%d, %d]: %d occurrences and %d joins, want %d and %d", rg[0], rg[1], len(occurrences), len(joins), len(wantOccurrences), len(wantJoins))
		}
	}
	if len(m.indexed().occurrences) == 0 || len(m.indexed().joins) == 0 {
		t.Error("no occurrences or no joins")
	}
}
