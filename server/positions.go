package server

import (
	"bytes"
	"encoding/binary"
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/treesitter"
)

// positionEncoding is how the character of an LSP position counts: in UTF-16 code units (the
// LSP default) or in bytes of UTF-8.
type positionEncoding string

const (
	utf16Encoding positionEncoding = "utf-16"
	utf8Encoding  positionEncoding = "utf-8"
)

// lineIndex converts between byte offsets into one version of a document and LSP positions.
// A line ends at "\n"; a "\r" before it belongs to the line end, so no position points between
// them. Positions past the end of a line or of the file are clamped; text that is not valid
// UTF-8 counts one UTF-16 unit per invalid byte (the U+FFFD a client decoding it would show).
type lineIndex struct {
	text   []byte
	starts []int32 // offset of the first byte of each line
	// wide marks the lines holding a non-ASCII byte, the only ones where UTF-16 units and
	// bytes differ.
	wide []bool
}

func newLineIndex(text []byte) *lineIndex {
	x := &lineIndex{text: text, starts: make([]int32, 0, len(text)/32+1), wide: make([]bool, 0, len(text)/32+1)}
	x.scan(0, len(text))
	return x
}

// scan indexes the lines of x.text from the line starting at start through the one holding
// offset through; it reports whether it reached the end of the text.
func (x *lineIndex) scan(start, through int) bool {
	for {
		end := len(x.text)
		if i := bytes.IndexByte(x.text[start:], '\n'); i >= 0 {
			end = start + i
		}
		x.starts = append(x.starts, int32(start))
		x.wide = append(x.wide, !isASCII(x.text[start:end]))
		if end == len(x.text) {
			return true
		}
		if start = end + 1; start > through {
			return false
		}
	}
}

// edited returns the index of text, which is x's text changed by e: the lines e touches are
// scanned again, the others are x's, moved.
func (x *lineIndex) edited(text []byte, e treesitter.Edit) *lineIndex {
	first, last := x.lineOf(int32(e.StartByte)), x.lineOf(int32(e.OldEndByte))
	n := &lineIndex{text: text, starts: make([]int32, first, len(x.starts)+8), wide: make([]bool, first, len(x.wide)+8)}
	copy(n.starts, x.starts[:first])
	copy(n.wide, x.wide[:first])
	if n.scan(int(x.starts[first]), int(e.NewEndByte)) {
		return n
	}
	delta := int32(e.NewEndByte) - int32(e.OldEndByte)
	for _, s := range x.starts[last+1:] {
		n.starts = append(n.starts, s+delta)
	}
	n.wide = append(n.wide, x.wide[last+1:]...)
	return n
}

// lineOf returns the line holding offset off.
func (x *lineIndex) lineOf(off int32) int {
	return sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
}

// isASCII reports whether b holds only ASCII bytes, eight at a time.
func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// contentEnd returns the offset where the text of line ends, before "\n" or "\r\n".
func (x *lineIndex) contentEnd(line int) int32 {
	if line+1 == len(x.starts) {
		return int32(len(x.text))
	}
	end := x.starts[line+1] - 1
	if end > x.starts[line] && x.text[end-1] == '\r' {
		end--
	}
	return end
}

// offset returns the byte offset of p.
func (x *lineIndex) offset(p protocol.Position, enc positionEncoding) int32 {
	if int(p.Line) >= len(x.starts) {
		return int32(len(x.text))
	}
	line := int(p.Line)
	start, end := x.starts[line], x.contentEnd(line)
	if enc == utf8Encoding || !x.wide[line] {
		return start + int32(min(int64(p.Character), int64(end-start)))
	}
	units, off := uint32(0), start
	for off < end {
		r, size := utf8.DecodeRune(x.text[off:end])
		n := uint32(utf16Len(r))
		if units+n > p.Character {
			break // p is past this character or inside its surrogate pair
		}
		units += n
		off += int32(size)
	}
	return off
}

// position returns the LSP position of off.
func (x *lineIndex) position(off int32, enc positionEncoding) protocol.Position {
	off = max(0, min(off, int32(len(x.text))))
	line := x.lineOf(off)
	start, end := x.starts[line], x.contentEnd(line)
	off = min(off, end)
	if enc == utf8Encoding || !x.wide[line] {
		return protocol.Position{Line: uint32(line), Character: uint32(off - start)}
	}
	units := 0
	for i := start; i < off; {
		r, size := utf8.DecodeRune(x.text[i:end])
		if i+int32(size) > off {
			break // off is inside a character: count up to its start
		}
		units += utf16Len(r)
		i += int32(size)
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

func (x *lineIndex) rangeOf(start, end int32, enc positionEncoding) protocol.Range {
	return protocol.Range{Start: x.position(start, enc), End: x.position(end, enc)}
}

// utf16Len is the number of UTF-16 code units of r; an invalid byte decodes to U+FFFD, one
// unit.
func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
