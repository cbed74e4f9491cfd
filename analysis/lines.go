package analysis

import "sort"

// Lines maps byte offsets to lines and columns.
type Lines struct {
	starts []int32 // offset of the first byte of each line
}

// NewLines indexes the line starts of src. A line ends at "\n"; a "\r" before it belongs to
// the line.
func NewLines(src []byte) *Lines {
	starts := []int32{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, int32(i+1))
		}
	}
	return &Lines{starts: starts}
}

// Position returns the 0-based line and byte column of off.
func (l *Lines) Position(off int32) (line, col int) {
	line = sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	return line, int(off - l.starts[line])
}

// Line returns the 1-based line of off.
func (l *Lines) Line(off int32) int {
	line, _ := l.Position(off)
	return line + 1
}

// Start returns the offset of the first byte of 0-based line, clamped to the last line.
func (l *Lines) Start(line int) int32 {
	if line >= len(l.starts) {
		line = len(l.starts) - 1
	}
	return l.starts[line]
}

// Count returns the number of lines.
func (l *Lines) Count() int { return len(l.starts) }
