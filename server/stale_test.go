package server

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

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
