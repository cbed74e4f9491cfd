package server

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/treesitter"
)

func TestLineIndex(t *testing.T) {
	// Line 0: "a😀b" then CRLF; line 1: an invalid byte between x and y; line 2: "é" then the
	// end of the file.
	text := "a😀b\r\nx\xffy\né"
	x := newLineIndex([]byte(text))
	tests := []struct {
		off         int32
		utf16, utf8 protocol.Position
	}{
		{0, pos(0, 0), pos(0, 0)},
		{1, pos(0, 1), pos(0, 1)},  // before 😀
		{5, pos(0, 3), pos(0, 5)},  // after 😀: two UTF-16 units, four bytes
		{6, pos(0, 4), pos(0, 6)},  // end of line 0, before \r
		{7, pos(0, 4), pos(0, 6)},  // between \r and \n: the line end
		{8, pos(1, 0), pos(1, 0)},  // start of line 1
		{10, pos(1, 2), pos(1, 2)}, // after the invalid byte, one unit
		{12, pos(2, 0), pos(2, 0)},
		{14, pos(2, 1), pos(2, 2)}, // end of file
		{99, pos(2, 1), pos(2, 2)}, // past the end
		{3, pos(0, 1), pos(0, 3)},  // inside 😀: its start in UTF-16
	}
	for _, tt := range tests {
		if got := x.position(tt.off, utf16Encoding); got != tt.utf16 {
			t.Errorf("utf-16 position(%d) = %v, want %v", tt.off, got, tt.utf16)
		}
		if got := x.position(tt.off, utf8Encoding); got != tt.utf8 {
			t.Errorf("utf-8 position(%d) = %v, want %v", tt.off, got, tt.utf8)
		}
	}
	offsets := []struct {
		p           protocol.Position
		utf16, utf8 int32
	}{
		{pos(0, 3), 5, 3},
		{pos(0, 2), 1, 2}, // inside 😀's surrogate pair: before it
		{pos(0, 4), 6, 4},
		{pos(0, 40), 6, 6},  // past the end of line 0: before \r\n
		{pos(1, 2), 10, 10}, // after the invalid byte
		{pos(1, 9), 11, 11}, // past the end of line 1
		{pos(2, 1), 14, 13}, // after é in UTF-16; inside it in UTF-8 (a client error, kept)
		{pos(3, 0), 14, 14}, // past the last line: the end of the file
		{pos(900, 7), 14, 14},
	}
	for _, tt := range offsets {
		if got := x.offset(tt.p, utf16Encoding); got != tt.utf16 {
			t.Errorf("utf-16 offset(%v) = %d, want %d", tt.p, got, tt.utf16)
		}
		if got := x.offset(tt.p, utf8Encoding); got != tt.utf8 {
			t.Errorf("utf-8 offset(%v) = %d, want %d", tt.p, got, tt.utf8)
		}
	}
}

// TestLineIndexRoundTrip converts every character boundary of texts mixing ASCII, BMP and
// astral characters, CRLF and invalid bytes to a position and back.
func TestLineIndexRoundTrip(t *testing.T) {
	for _, text := range []string{"", "\n", "\r\n\r\n", "abc", "x😀\r\n\xf0\x9f\n€😀€\n\xffz", strings.Repeat("日本😀\r\n", 50)} {
		x := newLineIndex([]byte(text))
		for off := 0; off <= len(text); {
			for _, enc := range []positionEncoding{utf16Encoding, utf8Encoding} {
				p := x.position(int32(off), enc)
				if back := x.offset(p, enc); back != int32(off) && !(off > 0 && text[off-1] == '\r' && off < len(text) && text[off] == '\n') {
					t.Errorf("%q %s: offset %d → %v → %d", text, enc, off, p, back)
				}
			}
			if off == len(text) {
				break
			}
			_, size := utf8.DecodeRuneInString(text[off:])
			off += size
		}
	}
}

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
			{"value":"φ "},
			{"location":{"range":{"end":{"character":19,"line":2},"start":{"character":19,"line":2}},"uri":"file:///crlf.js"},"tooltip":"x₃ merges 2 values where control flow joins","value":"x₃"},
			{"value":" = ("},
			{"location":{"range":{"end":{"character":7,"line":1},"start":{"character":6,"line":1}},"uri":"file:///crlf.js"},"tooltip":"from the branch where the condition fails (line 3), defined on line 2","value":"x₁"},
			{"value":", "},
			{"location":{"range":{"end":{"character":12,"line":2},"start":{"character":11,"line":2}},"uri":"file:///crlf.js"},"tooltip":"from the end of the then block (line 3), defined on line 3","value":"x₂"},
			{"value":")"}
		],"paddingLeft":true,"position":{"character":19,"line":2}},
		{"kind":1,"label":"₃","position":{"line":2,"character":21},"tooltip":"reads x₃, the φ on line 3"}
	]`)
}

// TestLineIndexEdited edits texts with CRLF, multi-byte characters and empty lines at random
// and checks that updating the index gives the index of the new text.
func TestLineIndexEdited(t *testing.T) {
	pieces := []string{"\n", "\r\n", "a", "é", "😀", "let x = 1;", "", "\n\n"}
	rng := rand.New(rand.NewPCG(1, 1))
	text := []byte("first line\nsecond é line\r\n\nlast")
	x := newLineIndex(text)
	for range 2000 {
		start := rng.IntN(len(text) + 1)
		end := min(len(text), start+rng.IntN(6))
		insert := pieces[rng.IntN(len(pieces))] + pieces[rng.IntN(len(pieces))]
		next := slices.Concat(text[:start], []byte(insert), text[end:])
		got := x.edited(next, treesitter.Edit{StartByte: uint32(start), OldEndByte: uint32(end), NewEndByte: uint32(start + len(insert))})
		want := newLineIndex(next)
		if !slices.Equal(got.starts, want.starts) || !slices.Equal(got.wide, want.wide) {
			t.Fatalf("after replacing %q by %q at %d in %q:\nstarts %v\nwant   %v\nwide %v\nwant %v",
				text[start:end], insert, start, text, got.starts, want.starts, got.wide, want.wide)
		}
		text, x = next, got
	}
}
