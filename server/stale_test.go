package server

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

func TestMoveOffsets(t *testing.T) {
	// "abcdef": replace "cd" (2–4) by "XYZ", then insert "!" at 0.
	edits := []analysis.Edit{{StartByte: 2, OldEndByte: 4, NewEndByte: 5}, {StartByte: 0, OldEndByte: 0, NewEndByte: 1}}
	for _, tt := range []struct {
		old, new int32
		ok       bool
	}{{1, 2, true}, {2, 0, false}, {3, 0, false}, {4, 0, false}, {5, 7, true}, {6, 8, true}, {0, 0, false}} {
		if got, ok := forward(tt.old, edits); ok != tt.ok || ok && got != tt.new {
			t.Errorf("forward(%d) = %d, %v; want %d, %v", tt.old, got, ok, tt.new, tt.ok)
		}
	}
	for _, tt := range []struct{ new, old int32 }{{0, 0}, {1, 0}, {2, 1}, {3, 2}, {5, 2}, {6, 4}, {7, 5}, {8, 6}} {
		if got := backward(tt.new, edits); got != tt.old {
			t.Errorf("backward(%d) = %d, want %d", tt.new, got, tt.old)
		}
	}
}

func TestMoveHints(t *testing.T) {
	def := func(s, e int32) *analysis.Span { return &analysis.Span{Start: s, End: e} }
	hints := []analysis.Hint{
		{At: 1, Parts: []analysis.HintPart{{Text: "₁"}}},
		{At: 3, Parts: []analysis.HintPart{{Text: "₂"}}}, // in the replaced text
		{At: 9, Parts: []analysis.HintPart{{Text: "x₃", Def: def(0, 1)}, {Text: "x₁", Def: def(2, 3)}}},
	}
	got := moveHints(hints, []analysis.Edit{{StartByte: 2, OldEndByte: 4, NewEndByte: 6}})
	if len(got) != 2 || got[0].At != 1 || got[1].At != 11 {
		t.Fatalf("moved hints %+v", got)
	}
	if d := got[1].Parts[0].Def; d == nil || *d != (analysis.Span{Start: 0, End: 1}) {
		t.Errorf("link before the edit moved to %v", d)
	}
	if d := got[1].Parts[1].Def; d != nil {
		t.Errorf("link into edited text kept: %v", d)
	}
}

// TestStaleHintsThenRefresh edits a file whose analysis takes a while and asks for hints at
// once: the answer comes from the previous analysis, moved through the edit, and a refresh
// follows once the new version is analyzed. The edit (a space at the start of a line) changes
// no hint, so the stale answer must equal the fresh one exactly.
func TestStaleHintsThenRefresh(t *testing.T) {
	var sb strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&sb, "function f%d(a, b) {\n  let x = a;\n  if (b) { x = %d; }\n  while (x < b) x++;\n  return x;\n}\n", i, i)
	}
	text := sb.String()
	c := startInitialized(t, map[string]any{"workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": true}}}, nil)
	c.open(fixtureURI, text)
	c.diagnostics(fixtureURI, 1)
	before := c.count("")
	mid := uint32(strings.Count(text, "\n") / 2)
	c.change(fixtureURI, 2, contentChange{Range: span(mid, 0, mid, 0), Text: " "})
	params := hintsParams(fixtureURI, mid-50, mid+50)
	stale := c.mustCall("textDocument/inlayHint", params)
	c.waitFor(before, "workspace/inlayHint/refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	fresh := c.mustCall("textDocument/inlayHint", params)
	if len(fresh) < 1000 || !slices.Equal(stale, fresh) {
		t.Errorf("the stale answer differs from the fresh one:\n%.300s\n%.300s", stale, fresh)
	}
}
