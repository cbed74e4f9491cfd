package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
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

// TestPreviewHintsThenRefresh opens a large file and asks for the hints of its first lines at
// once: the answer may come from a preview of those lines, which must leave out the hint of a
// top-level let that the last function assigns, and then a refresh follows once the file is
// analyzed. Either way the first answer has no hint the last does not.
func TestPreviewHintsThenRefresh(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("let top = 0;\n")
	for i := range 40 {
		fmt.Fprintf(&sb, "const k%d = %d;\n", i, i)
	}
	for i := range 4000 {
		fmt.Fprintf(&sb, "function f%d(a, b) {\n  let x = a;\n  if (b) { x = %d; }\n  while (x < b) x++;\n  return x + top;\n}\n", i, i)
	}
	sb.WriteString("function setTop() { top = 1; }\n")
	text := sb.String()
	c := startInitialized(t, refreshSupport(true), nil)
	before := c.count("")
	c.open(fixtureURI, text)
	params := hintsParams(fixtureURI, 0, 60)
	var first, last []inlayHint
	if err := json.Unmarshal(c.mustCall("textDocument/inlayHint", params), &first); err != nil {
		t.Fatal(err)
	}
	c.diagnostics(fixtureURI, 1)
	if err := json.Unmarshal(c.mustCall("textDocument/inlayHint", params), &last); err != nil {
		t.Fatal(err)
	}
	if len(last) < 60 || last[0].Label != "₁" || last[0].Position != (protocol.Position{Line: 1, Character: 8}) {
		t.Fatalf("the analysis's hints of the first lines: %d, the first %+v", len(last), last[0])
	}
	for _, h := range first {
		if !slices.ContainsFunc(last, func(g inlayHint) bool { return fmt.Sprint(g) == fmt.Sprint(h) }) {
			t.Errorf("the first answer has %+v, which the analysis does not give", h)
		}
	}
	if len(first) == len(last) {
		t.Logf("the analysis was done before the first answer")
		return
	}
	c.waitFor(before, "workspace/inlayHint/refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	if len(first) < 40 {
		t.Errorf("the preview gave %d hints, fewer than the 40 consts'", len(first))
	}
}
