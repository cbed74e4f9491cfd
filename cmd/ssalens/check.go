package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ssalens/ssalens/analysis"
)

// checkFormats are the values of check's --format, each a function that prints the reports
// of the sources once all are done; text prints each file's as soon as it can instead.
var checkFormats = map[string]func(w io.Writer, sources []source, reports []fileReport) error{
	"text":  nil,
	"json":  writeJSON,
	"sarif": writeSARIF,
}

// fileReport is what check found in one source.
type fileReport struct {
	findings []finding
	err      error
}

// finding is one diagnostic and its place.
type finding struct {
	severity      analysis.Severity
	code, message string
	start, end    place
}

// place is a position in a file: line and column from 1, the column in bytes and in UTF-16
// code units.
type place struct{ line, col, col16 int }

// placesOf returns the places of the offsets into c's source. The UTF-16 column of an offset
// counts from the previous offset on its line, so that many findings on one long line cost
// the line's length once, not once each.
// The columns of the first line count from after a byte order mark, as editors, tsc and ESLint
// count them: an editor hides the mark, and a terminal link to the place lands on it.
func placesOf(c *analysis.Checked, offs []int32) map[int32]place {
	slices.Sort(offs)
	places := make(map[int32]place, len(offs))
	var prev place
	prevOff := int32(-1)
	bom := bytes.HasPrefix(c.Src, []byte(byteOrderMark))
	for _, off := range slices.Compact(offs) {
		line, col := c.Lines.Position(off, analysis.UTF8)
		p := place{line: int(line) + 1, col: int(col) + 1}
		if prevOff >= 0 && p.line == prev.line {
			p.col16 = prev.col16 + utf16Units(c.Src[prevOff:off])
		} else {
			_, col16 := c.Lines.Position(off, analysis.UTF16)
			p.col16 = int(col16) + 1
			if p.line == 1 && bom {
				p.col16 = max(1, p.col16-utf16Units([]byte(byteOrderMark)))
			}
		}
		if p.line == 1 && bom {
			p.col = max(1, p.col-len(byteOrderMark))
		}
		places[off], prev, prevOff = p, p, off
	}
	return places
}

const byteOrderMark = "\uFEFF"

// utf16Units returns the length of b in UTF-16 code units, an invalid byte one unit as
// analysis.Lines counts it.
func utf16Units(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += utf16.RuneLen(r)
		b = b[size:]
	}
	return n
}

// check checks the files that the operands name (see collectSources), each in the language
// lang says, on jobs workers and prints what it found in format; it returns the exit status.
func check(c *call, opts analysis.Options, lang *langFlag, format string, jobs int) int {
	if len(c.args) == 0 {
		return c.usageError("no files given")
	}
	write, ok := checkFormats[format]
	if !ok {
		return c.usageError("unknown format %q: text, json or sarif", format)
	}
	if jobs < 1 {
		return c.usageError("--jobs must be at least 1, not %d", jobs)
	}
	sources := collectSources(c.args)
	var p *progress
	if c.stderrColumns > 0 {
		p = &progress{w: c.stderr, columns: c.stderrColumns}
		c.stdout, c.stderr = p.interrupting(c.stdout), p.interrupting(c.stderr)
	}
	reports := checkSources(sources, opts, lang, jobs, p, func(i int, r *fileReport) {
		if r.err != nil {
			c.fail(r.err)
		} else if write == nil {
			writeText(c.stdout, sources[i].path, r.findings)
		}
	})
	status := exitOK
	for _, r := range reports {
		if r.err != nil {
			status = exitError
		}
		for _, f := range r.findings {
			if f.severity <= analysis.SeverityWarning {
				status = max(status, exitFindings)
			}
		}
	}
	if write != nil {
		if err := write(c.stdout, sources, reports); err != nil {
			return c.fail(err)
		}
	}
	return status
}

// checkSources analyzes the sources on jobs workers and returns their reports. The largest
// files go first, since the run ends when the last worker does. done is called with each
// report in the order of sources, as soon as it and those before it are there, so that the
// output does not depend on the number of workers. p, if not nil, shows the progress.
func checkSources(sources []source, opts analysis.Options, lang *langFlag, jobs int, p *progress, done func(int, *fileReport)) []fileReport {
	reports := make([]fileReport, len(sources))
	finished := make([]bool, len(sources))
	var work []int
	for i, s := range sources {
		if s.err != nil {
			reports[i].err, finished[i] = s.err, true
		} else {
			work = append(work, i)
		}
	}
	slices.SortStableFunc(work, func(a, b int) int { return cmp.Compare(sources[b].size, sources[a].size) })
	p.begin(len(work))

	type event struct {
		i      int
		report *fileReport // nil when the worker starts on source i
	}
	queue := make(chan int, len(work))
	for _, i := range work {
		queue <- i
	}
	close(queue)
	events := make(chan event)
	var budget memoryBudget
	for range min(jobs, len(work)) {
		go func() {
			for i := range queue {
				events <- event{i: i}
				budget.start(sources[i].size)
				r := checkFile(sources[i], opts, lang, budget.treeFreed)
				budget.finish(sources[i].size)
				events <- event{i: i, report: &r}
			}
		}()
	}

	next := 0
	emit := func() {
		for ; next < len(sources) && finished[next]; next++ {
			done(next, &reports[next])
		}
	}
	emit()
	var tick <-chan time.Time
	for left := len(work); left > 0; {
		select {
		case e := <-events:
			if e.report == nil {
				p.start(sources[e.i].path)
				break
			}
			reports[e.i], finished[e.i] = *e.report, true
			p.finish(sources[e.i].path)
			left--
			emit()
		case <-tick:
			tick = nil
		}
		if tick == nil && p.draw() {
			tick = time.After(progressInterval)
		}
	}
	p.clear()
	return reports
}

// checkFile reads and analyzes one source, calling parsed once the syntax tree's memory is given
// back (see analysis.Check).
func checkFile(s source, opts analysis.Options, lang *langFlag, parsed func()) fileReport {
	c, err := analyzeFile(s.path, opts, lang, func(src []byte, opts analysis.Options) (*analysis.Checked, error) {
		return analysis.Check(src, opts, parsed)
	})
	if err != nil {
		return fileReport{err: err}
	}
	return fileReport{findings: findingsOf(c)}
}

// findingsOf returns the diagnostics of c with their places.
func findingsOf(c *analysis.Checked) []finding {
	ds := c.Diagnostics
	offs := make([]int32, 0, 2*len(ds))
	for _, d := range ds {
		offs = append(offs, d.Span.Start, d.Span.End)
	}
	places := placesOf(c, offs)
	fs := make([]finding, len(ds))
	for i, d := range ds {
		fs[i] = finding{severity: d.Severity, code: d.Code, message: d.Message, start: places[d.Span.Start], end: places[d.Span.End]}
	}
	return fs
}

// writeText prints the findings of one file, one a line, as file:line:col: severity: message.
func writeText(w io.Writer, path string, findings []finding) {
	var b []byte
	for _, f := range findings {
		b = fmt.Appendf(b, "%s:%d:%d: %s: %s\n", path, f.start.line, f.start.col, f.severity, f.message)
	}
	if len(b) > 0 {
		w.Write(b)
	}
}

// jsonReport is the output of --format json.
type jsonReport struct {
	Files []jsonFile `json:"files"`
}

type jsonFile struct {
	Path        string           `json:"path"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Error       string           `json:"error,omitempty"`
}

// jsonDiagnostic is one finding: lines and columns from 1, columns in bytes as in the text
// output, the end just after the span.
type jsonDiagnostic struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"`
	Code      string `json:"code"`
	Message   string `json:"message"`
}

func writeJSON(w io.Writer, sources []source, reports []fileReport) error {
	out := jsonReport{Files: make([]jsonFile, len(sources))}
	for i, r := range reports {
		f := jsonFile{Path: sources[i].path, Diagnostics: make([]jsonDiagnostic, len(r.findings))}
		if r.err != nil {
			f.Error = r.err.Error()
		}
		for j, d := range r.findings {
			f.Diagnostics[j] = jsonDiagnostic{Line: d.start.line, Column: d.start.col, EndLine: d.end.line, EndColumn: d.end.col,
				Severity: d.severity.String(), Code: d.code, Message: d.message}
		}
		out.Files[i] = f
	}
	return encodeJSON(w, out)
}

// encodeJSON prints v indented, with <, > and & as they are.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
