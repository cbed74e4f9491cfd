package server

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// emojiText has its second variable after two astral characters, and edits happen after them.
const emojiText = "let e = \"😀😀\", a = 1; a = a + 1;\n"

func TestUTF16PositionsAfterEmoji(t *testing.T) {
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///emoji.js")
	c.open(uri, emojiText)
	// In UTF-16, 😀 is two units: a ends at 9 + 4 + 3 + 1 = 17.
	wantJSON(t, "hints", c.inlayHints(uri), `[
		{"kind":1,"label":"₁","position":{"line":0,"character":5},"tooltip":"defines e₁"},
		{"kind":1,"label":"₁","position":{"line":0,"character":17},"tooltip":"defines a₁"},
		{"kind":1,"label":"₂","position":{"line":0,"character":24},"tooltip":"defines a₂"},
		{"kind":1,"label":"₁","position":{"line":0,"character":28},"tooltip":"reads a₁, defined on line 1"}
	]`)
	wantJSON(t, "hover after the emoji", c.mustCall("textDocument/hover", at(uri, 0, 27)), hoverJSON(
		"**a₁** — version 1 of `a` (let)\n\nDefined on line 1: `let e = \"😀😀\", a = 1; a = a + 1;`\n\nValue: `1`\n\n1 use (line 1).",
		span(0, 27, 0, 28)))
	// Replace the second 😀 (units 11–13) by "ab", as long in UTF-16.
	c.change(uri, 2, contentChange{Range: span(0, 11, 0, 13), Text: "ab"})
	wantJSON(t, "hover after the edit", c.mustCall("textDocument/hover", at(uri, 0, 27)), hoverJSON(
		"**a₁** — version 1 of `a` (let)\n\nDefined on line 1: `let e = \"😀ab\", a = 1; a = a + 1;`\n\nValue: `1`\n\n1 use (line 1).",
		span(0, 27, 0, 28)))
}

func TestUTF8Negotiation(t *testing.T) {
	for _, tt := range []struct {
		offered []string
		want    string
	}{
		{[]string{"utf-8", "utf-16"}, "utf-8"},
		{[]string{"utf-32", "utf-16"}, "utf-16"},
		{nil, "utf-16"},
	} {
		c := startServer(t)
		result := c.initialize(map[string]any{"general": map[string]any{"positionEncodings": tt.offered}}, nil)
		var got struct {
			Capabilities struct {
				PositionEncoding string `json:"positionEncoding"`
			} `json:"capabilities"`
		}
		if err := decodeParams(result, &got); err != nil || got.Capabilities.PositionEncoding != tt.want {
			t.Errorf("offered %v: positionEncoding %q (%v), want %q", tt.offered, got.Capabilities.PositionEncoding, err, tt.want)
		}
	}

	c := startInitialized(t, map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8"}}}, nil)
	uri := protocol.DocumentURI("file:///emoji.js")
	c.open(uri, emojiText)
	// In bytes, 😀 is four: a ends at 9 + 8 + 3 + 1 = 21.
	wantJSON(t, "hints in bytes", c.inlayHints(uri), `[
		{"kind":1,"label":"₁","position":{"line":0,"character":5},"tooltip":"defines e₁"},
		{"kind":1,"label":"₁","position":{"line":0,"character":21},"tooltip":"defines a₁"},
		{"kind":1,"label":"₂","position":{"line":0,"character":28},"tooltip":"defines a₂"},
		{"kind":1,"label":"₁","position":{"line":0,"character":32},"tooltip":"reads a₁, defined on line 1"}
	]`)
	c.change(uri, 2, contentChange{Range: span(0, 13, 0, 17), Text: "ab"})
	wantJSON(t, "definition after a byte-addressed edit", c.mustCall("textDocument/definition", at(uri, 0, 29)), `[
		{"uri": "file:///emoji.js", "range": {"start": {"line": 0, "character": 18}, "end": {"line": 0, "character": 19}}}
	]`)
}

func TestCRLF(t *testing.T) {
	c := startInitialized(t, nil, nil)
	uri := protocol.DocumentURI("file:///crlf.js")
	c.open(uri, strings.ReplaceAll(fixture, "\n", "\r\n"))
	// Positions are the same as with LF line ends: a \r is part of the line end.
	wantJSON(t, "hints", c.inlayHints(uri), strings.ReplaceAll(fixtureHints, string(fixtureURI), string(uri)))
	// Typing at a character past the end of line 2 appends before its \r\n.
	c.change(uri, 2, contentChange{Range: span(2, 40, 2, 40), Text: " x"})
	c.change(uri, 3, contentChange{Range: span(2, 99, 2, 99), Text: ";"})
	got := c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": span(2, 0, 3, 0)})
	wantJSON(t, "hints after typing past the line end", got, `[
		{"kind":1,"label":"₁","position":{"line":2,"character":7},"tooltip":"reads c₁, the parameter"},
		{"kind":1,"label":"₂","position":{"line":2,"character":12},"tooltip":"defines x₂"},
		{"label":[
			{"location":{"range":{"end":{"character":19,"line":2},"start":{"character":19,"line":2}},"uri":"file:///crlf.js"},"tooltip":"x₃ = φ of 2 values where control flow joins:\nx₁: from the branch where the condition fails (line 3), defined on line 2\nx₂: from the end of the then block (line 3), defined on line 3","value":"x₃"},
		{"value":" ← φ("},
		{"location":{"range":{"end":{"character":7,"line":1},"start":{"character":6,"line":1}},"uri":"file:///crlf.js"},"tooltip":"x₁: from the branch where the condition fails (line 3), defined on line 2","value":"₁"},
		{"value":","},
		{"location":{"range":{"end":{"character":12,"line":2},"start":{"character":11,"line":2}},"uri":"file:///crlf.js"},"tooltip":"x₂: from the end of the then block (line 3), defined on line 3","value":"₂"},
		{"value":")"}
		],"paddingLeft":true,"position":{"character":19,"line":2}},
		{"kind":1,"label":"₃","position":{"line":2,"character":21},"tooltip":"reads x₃, the φ on line 3"}
	]`)
}
