package analysis

import (
	"encoding/binary"
	"math"
	"sort"
	"unicode/utf8"

	"github.com/ssalens/ssalens/lower"
)

// Encoding is how a column counts: in bytes of UTF-8 (the command line, LSP clients that offer
// utf-8) or in UTF-16 code units (the LSP default).
type Encoding uint8

const (
	UTF8 Encoding = iota
	UTF16
)

// Lines converts between byte offsets into one version of a text and (line, column) positions,
// for the command line and the language server alike. A line ends at "\n", "\r\n" or a lone
// "\r", as in JavaScript and the LSP (lower.LineEnd); no position points between "\r" and "\n". Positions past the end of a
// line or of the text are clamped; text that is not valid UTF-8 counts one UTF-16 unit per
// invalid byte (the U+FFFD a client decoding it would show).
type Lines struct {
	text   []byte
	starts []int32 // offset of the first byte of each line
	// wide marks the lines holding a non-ASCII byte, the only ones where UTF-16 units and
	// bytes differ.
	wide []bool
	// marks index the wide lines longer than markEvery bytes, in line order, so that a
	// conversion on a long line (a minified file) decodes at most markEvery bytes of it, not
	// the line up to the position: a file's inlay hints on one 200 KB line took 14 s.
	marks []lineMarks
}

// lineMarks are character boundaries of one long wide line, about every markEvery bytes,
// with the UTF-16 units before each; relative to the line's start, so that an edit before
// the line only renumbers it.
type lineMarks struct {
	line  int
	offs  []int32 // from the line's start, increasing
	units []int32 // UTF-16 units from the line's start to each of offs
}

const markEvery = 256

// NewLines indexes the lines of text.
func NewLines(text []byte) *Lines {
	l := &Lines{text: text, starts: make([]int32, 0, len(text)/32+1), wide: make([]bool, 0, len(text)/32+1)}
	l.scan(0, len(text))
	return l
}

// scan indexes the lines of l.text from the line starting at start through the one holding
// offset through; it reports whether it reached the end of the text.
func (l *Lines) scan(start, through int) bool {
	for {
		end, next := lower.LineEnd(l.text, start)
		wide := !isASCII(l.text[start:end])
		if wide && end-start > markEvery {
			l.marks = append(l.marks, markLine(len(l.starts), l.text[start:end]))
		}
		l.starts = append(l.starts, int32(start))
		l.wide = append(l.wide, wide)
		if next < 0 {
			return true
		}
		if start = next; start > through {
			return false
		}
	}
}

// Edited returns the index of text, which is l's text changed by e: the lines e touches are
// scanned again, the others are l's, moved.
func (l *Lines) Edited(text []byte, e Edit) *Lines {
	first, last := l.lineOf(int32(e.StartByte)), l.lineOf(int32(e.OldEndByte))
	if first > 0 && l.starts[first] == int32(e.StartByte) && l.text[e.StartByte-1] == '\r' {
		first-- // a "\n" inserted after a lone "\r" joins it in one line end
	}
	n := &Lines{text: text, starts: make([]int32, first, len(l.starts)+8), wide: make([]bool, first, len(l.wide)+8)}
	copy(n.starts, l.starts[:first])
	copy(n.wide, l.wide[:first])
	n.marks = append(n.marks, l.marks[:l.marksFrom(first)]...)
	if n.scan(int(l.starts[first]), int(e.NewEndByte)) {
		return n
	}
	delta := int32(e.NewEndByte) - int32(e.OldEndByte)
	for _, s := range l.starts[last+1:] {
		n.starts = append(n.starts, s+delta)
	}
	n.wide = append(n.wide, l.wide[last+1:]...)
	shift := len(n.starts) - len(l.starts)
	for _, m := range l.marks[l.marksFrom(last+1):] {
		m.line += shift
		n.marks = append(n.marks, m)
	}
	return n
}

// marksFrom returns the index in l.marks of the first line at or after line.
func (l *Lines) marksFrom(line int) int {
	return sort.Search(len(l.marks), func(i int) bool { return l.marks[i].line >= line })
}

// markLine indexes the long wide line text, line number line.
func markLine(line int, text []byte) lineMarks {
	m := lineMarks{line: line}
	units, next := int32(0), 0
	for off := 0; off < len(text); {
		if off >= next {
			m.offs = append(m.offs, int32(off))
			m.units = append(m.units, units)
			next = off + markEvery
		}
		r, size := utf8.DecodeRune(text[off:])
		units += int32(utf16Len(r))
		off += size
	}
	return m
}

// from returns where decoding of line may start to reach the character at byte off (byUnits
// false) or at UTF-16 unit off (byUnits true) of the line: a character boundary at or before
// it and the UTF-16 units before that boundary, both from the line's start.
func (l *Lines) from(line int, off int32, byUnits bool) (at, units int32) {
	i := l.marksFrom(line)
	if i == len(l.marks) || l.marks[i].line != line {
		return 0, 0
	}
	m := &l.marks[i]
	keys := m.offs
	if byUnits {
		keys = m.units
	}
	j := sort.Search(len(keys), func(j int) bool { return keys[j] > off }) - 1
	if j < 0 {
		return 0, 0
	}
	return m.offs[j], m.units[j]
}

// lineOf returns the 0-based line holding offset off.
func (l *Lines) lineOf(off int32) int {
	return sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
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

// Count returns the number of lines.
func (l *Lines) Count() int { return len(l.starts) }

// Start returns the offset of the first byte of 0-based line, clamped to the last line.
func (l *Lines) Start(line int) int32 {
	if line >= len(l.starts) {
		line = len(l.starts) - 1
	}
	return l.starts[line]
}

// Line returns the 1-based line of off.
func (l *Lines) Line(off int32) int { return l.lineOf(off) + 1 }

// EndOfLine returns the offset where the line holding off ends (lower.Lines).
func (l *Lines) EndOfLine(off int32) int32 { return l.contentEnd(l.lineOf(off)) }

// contentEnd returns the offset where the text of line ends, before "\n" or "\r\n".
func (l *Lines) contentEnd(line int) int32 {
	if line+1 == len(l.starts) {
		return int32(len(l.text))
	}
	end := l.starts[line+1] - 1
	if end > l.starts[line] && l.text[end-1] == '\r' {
		end--
	}
	return end
}

// Offset returns the byte offset of the 0-based line and column, the column counted in enc.
func (l *Lines) Offset(line, col uint32, enc Encoding) int32 {
	if int(line) >= len(l.starts) {
		return int32(len(l.text))
	}
	start, end := l.starts[line], l.contentEnd(int(line))
	if enc == UTF8 || !l.wide[line] {
		return start + int32(min(int64(col), int64(end-start)))
	}
	at, before := l.from(int(line), int32(min(col, math.MaxInt32)), true)
	units, off := uint32(before), start+at
	for off < end {
		r, size := utf8.DecodeRune(l.text[off:end])
		n := uint32(utf16Len(r))
		if units+n > col {
			break // the position is past this character or inside its surrogate pair
		}
		units += n
		off += int32(size)
	}
	return off
}

// Position returns the 0-based line and column of off, the column counted in enc.
func (l *Lines) Position(off int32, enc Encoding) (line, col uint32) {
	off = max(0, min(off, int32(len(l.text))))
	i := l.lineOf(off)
	start, end := l.starts[i], l.contentEnd(i)
	off = min(off, end)
	if enc == UTF8 || !l.wide[i] {
		return uint32(i), uint32(off - start)
	}
	from, before := l.from(i, off-start, false)
	units := int(before)
	for at := start + from; at < off; {
		r, size := utf8.DecodeRune(l.text[at:end])
		if at+int32(size) > off {
			break // off is inside a character: count up to its start
		}
		units += utf16Len(r)
		at += int32(size)
	}
	return uint32(i), uint32(units)
}

// utf16Len is the number of UTF-16 code units of r; an invalid byte decodes to U+FFFD, one
// unit.
func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
