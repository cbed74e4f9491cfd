package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// hintLabels renders inlay hints compactly: line:character label, one after another.
func hintLabels(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var hints []struct {
		Position protocol.Position `json:"position"`
		Label    json.RawMessage   `json:"label"`
	}
	if err := json.Unmarshal(raw, &hints); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hints {
		var label string
		if json.Unmarshal(h.Label, &label) != nil {
			var parts []inlayHintLabelPart
			if err := json.Unmarshal(h.Label, &parts); err != nil {
				t.Fatal(err)
			}
			for _, p := range parts {
				label += p.Value
			}
		}
		out = append(out, fmt.Sprintf("%d:%d %s", h.Position.Line, h.Position.Character, label))
	}
	return strings.Join(out, ", ")
}

// moveCursor sends ssalens/didChangeCursor.
func (c *testClient) moveCursor(uri protocol.DocumentURI, line, char uint32) {
	c.t.Helper()
	c.notify(didChangeCursorMethod, at(uri, line, char))
}

// waitForHints asks for the hints of uri until they are want, as a client does after a refresh.
func (c *testClient) waitForHints(uri protocol.DocumentURI, want string) {
	c.t.Helper()
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got = hintLabels(c.t.(*testing.T), c.inlayHints(uri)); got == want {
			return
		}
	}
	c.t.Errorf("hints:\ngot  %s\nwant %s", got, want)
}

const (
	hintsOfF     = "0:12 ₁, 1:7 ₁, 2:7 ₁, 2:12 ₂, 2:19 x₃ ← φ(₁,₂), 3:10 ₃"
	hintsOfCount = "5:16 ₁, 6:7 ₁, 7:10 ₂, 7:14 ₁, 7:17 i₂ ← φ(₁,₃), 8:5 ₃, 8:9 ₂, 10:10 ₂"
	hintsOfG     = "13:7 ₁, 14:3 ₂, 15:10 ₂, 15:14 ₀"
)

func refreshSupport(on bool) map[string]any {
	return map[string]any{"workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": on}}}
}

// TestScopeFunction: with the scope function, the hints are those of the function at the cursor,
// the client is asked to refresh when the cursor moves to another function and not when it moves
// inside one, and a document whose cursor is unknown shows all its hints.
func TestScopeFunction(t *testing.T) {
	c := startInitialized(t, refreshSupport(true), map[string]any{"ssalens.inlayHints.scope": "function"})
	c.open(fixtureURI, fixture)
	c.waitForHints(fixtureURI, hintsOfF+", "+hintsOfCount+", "+hintsOfG)

	c.moveCursor(fixtureURI, 8, 4) // in count
	c.waitFor(0, "a refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	wantJSON(t, "the hints of count", c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}, "range": span(5, 0, 6, 100)}), `[
		{"kind":1,"label":"₁","position":{"character":16,"line":5},"tooltip":"defines n₁"},
		{"kind":1,"label":"₁","position":{"character":7,"line":6},"tooltip":"defines i₁"}
	]`)
	c.waitForHints(fixtureURI, hintsOfCount)

	c.moveCursor(fixtureURI, 10, 2) // still in count
	c.moveCursor(fixtureURI, 1, 3)  // in f
	c.waitForHints(fixtureURI, hintsOfF)
	i, _ := c.waitFor(0, "a refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	c.waitFor(i+1, "a second refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	if n := c.count("workspace/inlayHint/refresh"); n != 2 {
		t.Errorf("%d refreshes after moves into count, inside count and into f, want 2", n)
	}
}

// TestScopeVariable: the hints of the φ web at the cursor; they stay while the cursor is on no
// variable, and a client without refreshSupport is sent no refresh but gets the focused hints.
func TestScopeVariable(t *testing.T) {
	for _, refresh := range []bool{true, false} {
		c := startInitialized(t, refreshSupport(refresh), map[string]any{"ssalens": map[string]any{"inlayHints": map[string]any{"scope": "variable"}}})
		c.open(fixtureURI, fixture)
		c.moveCursor(fixtureURI, 10, 9) // the i of return i
		c.waitForHints(fixtureURI, "6:7 ₁, 7:10 ₂, 7:17 i₂ ← φ(₁,₃), 8:5 ₃, 8:9 ₂, 10:10 ₂")
		isRefresh := func(m message) bool { return m.Method == "workspace/inlayHint/refresh" }
		first := 0
		if refresh {
			first, _ = c.waitFor(0, "a refresh", isRefresh)
		}
		c.moveCursor(fixtureURI, 9, 0) // no variable: i's web stays
		c.waitForHints(fixtureURI, "6:7 ₁, 7:10 ₂, 7:17 i₂ ← φ(₁,₃), 8:5 ₃, 8:9 ₂, 10:10 ₂")
		c.moveCursor(fixtureURI, 14, 2)
		c.waitForHints(fixtureURI, "14:3 ₂, 15:10 ₂")
		if refresh {
			c.waitFor(first+1, "a second refresh", isRefresh)
		}
		if n, want := c.count("workspace/inlayHint/refresh"), map[bool]int{true: 2}[refresh]; n != want {
			t.Errorf("refreshSupport %v: %d refreshes, want %d", refresh, n, want)
		}
	}
}

// TestFocusMovesWithEdits: a line added above the focused variable moves the focus with it,
// while the cursor is on no variable, by a change or by a save whose text re-synchronizes the
// document.
func TestFocusMovesWithEdits(t *testing.T) {
	c := startInitialized(t, refreshSupport(true), map[string]any{"ssalens.inlayHints.scope": "variable"})
	c.open(fixtureURI, fixture)
	c.moveCursor(fixtureURI, 10, 9) // the i of return i
	c.waitForHints(fixtureURI, "6:7 ₁, 7:10 ₂, 7:17 i₂ ← φ(₁,₃), 8:5 ₃, 8:9 ₂, 10:10 ₂")
	c.moveCursor(fixtureURI, 0, 0) // no variable: i's web stays
	c.change(fixtureURI, 2, contentChange{Range: span(0, 0, 0, 0), Text: "// a comment\n"})
	c.waitForHints(fixtureURI, "7:7 ₁, 8:10 ₂, 8:17 i₂ ← φ(₁,₃), 9:5 ₃, 9:9 ₂, 11:10 ₂")
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": fixtureURI},
		"text": "// another\n// a comment\n" + fixture})
	c.waitForHints(fixtureURI, "8:7 ₁, 9:10 ₂, 9:17 i₂ ← φ(₁,₃), 10:5 ₃, 10:9 ₂, 12:10 ₂")
}

// TestLateRefocus: the focus a cursor move asks for is set on a goroutine once the analysis
// says what the cursor is on, and under load that came after a later move, which found no
// variable, and an edit: the late refocus took the later move's position, moved by the edit,
// for its own, and the hints of i's web were gone for good (TestFocusMovesWithEdits failed in
// CI). The late refocus is played here by hand: the first move's is undone and run again after
// the second move and the edit.
func TestLateRefocus(t *testing.T) {
	c := startInitialized(t, refreshSupport(true), map[string]any{"ssalens.inlayHints.scope": "variable"})
	c.open(fixtureURI, fixture)
	c.moveCursor(fixtureURI, 10, 9) // the i of return i
	c.waitForHints(fixtureURI, "6:7 ₁, 7:10 ₂, 7:17 i₂ ← φ(₁,₃), 8:5 ₃, 8:9 ₂, 10:10 ₂")
	c.server.update(func(st *snapshot) {
		late := st.cursors[fixtureURI]
		late.hasFocus, late.focused, late.unfocused = false, 0, []cursorMove{{late.moves, late.at}}
		st.setCursor(fixtureURI, &late)
	})
	first := c.server.snapshot().cursors[fixtureURI].moves
	c.moveCursor(fixtureURI, 0, 0) // no variable
	c.change(fixtureURI, 2, contentChange{Range: span(0, 0, 0, 0), Text: "// a comment\n"})
	for c.server.snapshot().files[fixtureURI].version != 2 {
		time.Sleep(time.Millisecond)
	}
	c.server.refocus(fixtureURI, first)
	c.waitForHints(fixtureURI, "7:7 ₁, 8:10 ₂, 8:17 i₂ ← φ(₁,₃), 9:5 ₃, 9:9 ₂, 11:10 ₂")
}

// TestCursorWithoutScope: under the default scope the cursor changes nothing, and a cursor in a
// document that is not open is an error the server logs.
func TestCursorWithoutScope(t *testing.T) {
	c := startInitialized(t, refreshSupport(true), nil)
	c.open(fixtureURI, fixture)
	c.moveCursor(fixtureURI, 8, 4)
	c.waitForHints(fixtureURI, hintsOfF+", "+hintsOfCount+", "+hintsOfG)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"ssalens": map[string]any{"inlayHints": map[string]any{"scope": "function"}}}})
	c.waitForHints(fixtureURI, hintsOfCount)
	c.waitFor(0, "the refresh after the settings' change", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
	c.moveCursor("file:///nowhere.js", 0, 0)
	c.waitFor(0, "the error logged", func(m message) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "file:///nowhere.js is not open")
	})
	if n := c.count("workspace/inlayHint/refresh"); n != 1 {
		t.Errorf("%d refreshes, want 1 (the settings' change)", n)
	}
}

// TestMaxPerLineAndPhiOnly: the cap and the φ-only mode reach the hints.
func TestMaxPerLineAndPhiOnly(t *testing.T) {
	c := startInitialized(t, nil, map[string]any{"ssalens": map[string]any{"inlayHints": map[string]any{"maxPerLine": 1}}})
	c.open(fixtureURI, fixture)
	got := c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}, "range": span(15, 0, 15, 100)})
	wantJSON(t, "one hint on line 16, counting the other", got, `[
		{"kind":1,"label":[
			{"value":"₂","tooltip":"reads y₂, defined on line 15"},
			{"value":" …+1","tooltip":"1 more hint on this line hidden (ssalens.inlayHints.maxPerLine is 1):\nreads z₀, uninitialized (the temporal dead zone before its declaration)"}
		],"position":{"character":10,"line":15}}
	]`)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"ssalens": map[string]any{"inlayHints": map[string]any{"maxPerLine": 0, "phiOnly": true}}}})
	c.waitForHints(fixtureURI, "2:19 x ← φ(L2,L3), 7:17 i ← φ(L7,L9)")
}
