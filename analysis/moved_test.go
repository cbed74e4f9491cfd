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
