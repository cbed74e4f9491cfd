package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// progressInterval is the least time between two drawings of the progress line: a terminal
// that redraws for every small file slows the run and flickers.
const progressInterval = 100 * time.Millisecond

// progress is the line that check keeps at the bottom of the terminal while it works, such
// as "[3/7] lib/three.core.js": the files done, all files, and the file the longest at work.
// Its methods do nothing on a nil progress, which is what check has when stderr is no
// terminal.
type progress struct {
	w            io.Writer // the terminal
	columns      int       // its width
	total, done  int
	running      []string // the files at work, the first started first
	shown, dirty bool     // a line is on the terminal; it is not the current state
}

// begin sets the number of files to check.
func (p *progress) begin(total int) {
	if p != nil {
		p.total = total
	}
}

func (p *progress) start(path string) {
	if p != nil {
		p.running = append(p.running, path)
		p.dirty = true
	}
}

func (p *progress) finish(path string) {
	if p != nil {
		p.running = slices.DeleteFunc(p.running, func(s string) bool { return s == path })
		p.done++
		p.dirty = true
	}
}

// line returns the progress line, cut to the terminal's width less one column (a character in
// the last one may wrap the line, and \r would not take it back): the start of a long path
// gives way to "…".
func (p *progress) line() string {
	line := fmt.Sprintf("[%d/%d]", p.done, p.total)
	if len(p.running) == 0 {
		return line
	}
	path := p.running[0]
	room := p.columns - 1 - len(line) - 1
	if n := utf8.RuneCountInString(path); n > room {
		if room < 2 {
			return line
		}
		for ; n > room-1; n-- {
			_, size := utf8.DecodeRuneInString(path)
			path = path[size:]
		}
		path = "…" + path
	}
	return line + " " + path
}

// draw shows the current state if the line does not; it reports whether it drew.
func (p *progress) draw() bool {
	if p == nil || !p.dirty {
		return false
	}
	io.WriteString(p.w, "\r\x1b[K"+p.line())
	p.shown, p.dirty = true, false
	return true
}

// clear takes the line off the terminal.
func (p *progress) clear() {
	if p != nil && p.shown {
		io.WriteString(p.w, "\r\x1b[K")
		p.shown, p.dirty = false, true
	}
}

// interrupting returns a writer that clears the line before writing to w, for the output
// that goes to the same terminal; the next draw shows the line again, below that output.
func (p *progress) interrupting(w io.Writer) io.Writer {
	return writerFunc(func(b []byte) (int, error) {
		p.clear()
		return w.Write(b)
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// terminalColumns returns the width of the terminal that w is, or 0 if w is not a terminal.
func terminalColumns(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	if columns, _, err := term.GetSize(int(f.Fd())); err == nil && columns > 0 {
		return columns
	}
	return 80
}
