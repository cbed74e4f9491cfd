package analysis

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

type pos struct{ line, col uint32 }

func p(line, col uint32) pos { return pos{line, col} }

func position(x *Lines, off int32, enc Encoding) pos {
	line, col := x.Position(off, enc)
	return pos{line, col}
}

func TestLines(t *testing.T) {
	// Line 0: "a😀b" then CRLF; line 1: an invalid byte between x and y; line 2: "é" then the
	// end of the file.
	text := "a😀b\r\nx\xffy\né"
	x := NewLines([]byte(text))
	tests := []struct {
		off         int32
		utf16, utf8 pos
	}{
		{0, p(0, 0), p(0, 0)},
		{1, p(0, 1), p(0, 1)},  // before 😀
		{5, p(0, 3), p(0, 5)},  // after 😀: two UTF-16 units, four bytes
		{6, p(0, 4), p(0, 6)},  // end of line 0, before \r
		{7, p(0, 4), p(0, 6)},  // between \r and \n: the line end
		{8, p(1, 0), p(1, 0)},  // start of line 1
		{10, p(1, 2), p(1, 2)}, // after the invalid byte, one unit
		{12, p(2, 0), p(2, 0)},
		{14, p(2, 1), p(2, 2)}, // end of file
		{99, p(2, 1), p(2, 2)}, // past the end
		{3, p(0, 1), p(0, 3)},  // inside 😀: its start in UTF-16
	}
	for _, tt := range tests {
		if got := position(x, tt.off, UTF16); got != tt.utf16 {
			t.Errorf("utf-16 position(%d) = %v, want %v", tt.off, got, tt.utf16)
		}
		if got := position(x, tt.off, UTF8); got != tt.utf8 {
			t.Errorf("utf-8 position(%d) = %v, want %v", tt.off, got, tt.utf8)
		}
	}
	offsets := []struct {
		p           pos
		utf16, utf8 int32
	}{
		{p(0, 3), 5, 3},
		{p(0, 2), 1, 2}, // inside 😀's surrogate pair: before it
		{p(0, 4), 6, 4},
		{p(0, 40), 6, 6},  // past the end of line 0: before \r\n
		{p(1, 2), 10, 10}, // after the invalid byte
		{p(1, 9), 11, 11}, // past the end of line 1
		{p(2, 1), 14, 13}, // after é in UTF-16; inside it in UTF-8 (a client error, kept)
		{p(3, 0), 14, 14}, // past the last line: the end of the file
		{p(900, 7), 14, 14},
	}
	for _, tt := range offsets {
		if got := x.Offset(tt.p.line, tt.p.col, UTF16); got != tt.utf16 {
			t.Errorf("utf-16 offset(%v) = %d, want %d", tt.p, got, tt.utf16)
		}
		if got := x.Offset(tt.p.line, tt.p.col, UTF8); got != tt.utf8 {
			t.Errorf("utf-8 offset(%v) = %d, want %d", tt.p, got, tt.utf8)
		}
	}
}

// TestLinesLoneCR: a lone "\r" ends a line, as in JavaScript and the LSP (issue 13, defect 4:
// hints were placed on lines the client did not have).
func TestLinesLoneCR(t *testing.T) {
	x := NewLines([]byte("ab\rc\r\r\nd\re"))
	if got := x.Count(); got != 5 {
		t.Errorf("%d lines, want 5", got)
	}
	for off, want := range []pos{p(0, 0), p(0, 1), p(0, 2), p(1, 0), p(1, 1), p(2, 0), p(2, 0), p(3, 0), p(3, 1), p(4, 0), p(4, 1)} {
		if got := position(x, int32(off), UTF16); got != want {
			t.Errorf("position(%d) = %v, want %v", off, got, want)
		}
	}
	if got := x.Offset(3, 0, UTF16); got != 7 {
		t.Errorf("offset(3:0) = %d, want 7", got)
	}
}

// TestEndOfLine checks the line ends the index gives the lowering (lower.Lines), where loops
// show their φs, at every offset of a text with every kind of line end: "ab\rc\r\r\nd\re" has
// the lines "ab", "c", "", "d" and "e", which end at 2, 4, 5, 8 and 10.
func TestEndOfLine(t *testing.T) {
	x := NewLines([]byte("ab\rc\r\r\nd\re"))
	for off, want := range []int32{2, 2, 2, 4, 4, 5, 5, 8, 8, 10, 10} {
		if off == 6 {
			continue // between "\r" and "\n", where no position points
		}
		if got := x.EndOfLine(int32(off)); got != want {
			t.Errorf("EndOfLine(%d) = %d, want %d", off, got, want)
		}
	}
}

// TestLineIndexRoundTrip converts every character boundary of texts mixing ASCII, BMP and
// astral characters, CRLF and invalid bytes to a position and back.
func TestLinesRoundTrip(t *testing.T) {
	long := strings.Repeat("é😀ab\xff", 200) // a long line with marks
	for _, text := range []string{"", "\n", "\r\n\r\n", "abc", "x😀\r\n\xf0\x9f\n€😀€\n\xffz", strings.Repeat("日本😀\r\n", 50), "a\rb\r\r\nc\r", "\r",
		long, "x\n" + long + "\r\n" + long} {
		x := NewLines([]byte(text))
		for off := 0; off <= len(text); {
			for _, enc := range []Encoding{UTF16, UTF8} {
				line, col := x.Position(int32(off), enc)
				if want := uint32(columns(text[x.Start(int(line)):min(off, int(x.contentEnd(int(line))))], enc)); col != want {
					t.Errorf("%.20q %d: offset %d at column %d, want %d", text, enc, off, col, want)
				}
				if back := x.Offset(line, col, enc); back != int32(off) && !(off > 0 && text[off-1] == '\r' && off < len(text) && text[off] == '\n') {
					t.Errorf("%q %d: offset %d → %d:%d → %d", text, enc, off, line, col, back)
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

// columns counts the columns of text in enc, from scratch.
func columns(text string, enc Encoding) int {
	if enc == UTF8 {
		return len(text)
	}
	n := 0
	for _, r := range text {
		n += utf16Len(r)
	}
	return n
}

// TestLineIndexEdited edits texts with CRLF, multi-byte characters and empty lines at random
// and checks that updating the index gives the index of the new text.
func TestLinesEdited(t *testing.T) {
	pieces := []string{"\n", "\r\n", "a", "é", "😀", "let x = 1;", "", "\n\n", "\r", "\r\r"}
	rng := rand.New(rand.NewPCG(1, 1))
	text := []byte("first line\nsecond é line\r\n\n" + strings.Repeat("é😀x", 100) + "\nlast")
	x := NewLines(text)
	for range 2000 {
		start := rng.IntN(len(text) + 1)
		end := min(len(text), start+rng.IntN(6))
		insert := pieces[rng.IntN(len(pieces))] + pieces[rng.IntN(len(pieces))]
		next := slices.Concat(text[:start], []byte(insert), text[end:])
		got := x.Edited(next, Edit{StartByte: uint32(start), OldEndByte: uint32(end), NewEndByte: uint32(start + len(insert))})
		want := NewLines(next)
		if !slices.Equal(got.starts, want.starts) || !slices.Equal(got.wide, want.wide) || !reflect.DeepEqual(got.marks, want.marks) {
			t.Fatalf("after replacing %q by %q at %d in %q:\nstarts %v\nwant   %v\nwide %v\nwant %v",
				text[start:end], insert, start, text, got.starts, want.starts, got.wide, want.wide)
		}
		text, x = next, got
	}
}
