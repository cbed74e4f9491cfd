package analysis_test

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

var (
	typingRounds = flag.Int("typing.rounds", 2, "rounds of the typing scenarios per corpus file in TestTypingKeepsHints")
	typingLarge  = flag.Bool("typing.large", false, "TestTypingKeepsHints also on the corpus files over 600 kB")
)

// TestTypingKeepsHints replays typing in corpus files, keystroke by keystroke, and checks at
// every keystroke that the hints stay: in a random function, it deletes a statement and types
// it again, deletes a closing brace and types it again, types a new `if (` line, and pastes
// half of another function then deletes it. Every hint of the analysis before the edit whose
// line no edit touched must be shown again, exactly: all of those outside the edited function,
// and at least 95% of those in it. Outside, only a keystroke that leaves a text that parses and
// means something else may change them (typing `if` passes through `i;`, a read of a variable
// that can make it a context variable), and answers for a text that parses are those of the
// text: at least 99.9% must stay.
func TestTypingKeepsHints(t *testing.T) {
	files := corpus.Fetch(t)
	for _, f := range files {
		if len(f.Src) > 600<<10 && !*typingLarge {
			continue // each keystroke analyzes the file again: seconds a scenario
		}
		t.Run(f.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(f.Src)), 5))
			var outside, inside share
			for i := range *typingRounds * len(scenarios) {
				s := scenarios[i%len(scenarios)]
				o, in := replay(t, f.Src, files[rng.IntN(len(files))].Src, s, rng)
				if testing.Verbose() {
					t.Logf("%s: outside %s, inside %s", s.name, o, in)
				}
				outside.add(o)
				inside.add(in)
			}
			t.Logf("%s: hints outside the edited function kept %s; in it, on untouched lines, %s", f.Name, outside, inside)
			if outside.percent() < 99.9 {
				t.Errorf("%s: %d hints outside the edited function changed", f.Name, outside.all-outside.kept)
			}
			if inside.percent() < 95 {
				t.Errorf("%s: only %s of the edited function's hints kept", f.Name, inside)
			}
		})
	}
}

// share counts hints kept of all that should be, over every keystroke.
type share struct{ kept, all int }

func (s *share) add(o share) { s.kept, s.all = s.kept+o.kept, s.all+o.all }

func (s share) percent() float64 { return 100 * float64(s.kept) / float64(max(s.all, 1)) }

func (s share) String() string { return fmt.Sprintf("%.2f%% (%d of %d)", s.percent(), s.kept, s.all) }

// A scenario makes the keystrokes of one kind of edit in the function spanning fn of src:
// each keystroke an edit of the text the previous ones made.
type scenario struct {
	name  string
	edits func(src []byte, fn analysis.Span, paste []byte, rng *rand.Rand) []edit
}

type edit struct {
	at, end int
	text    string
}

var scenarios = []scenario{
	{"retype a statement", func(src []byte, fn analysis.Span, _ []byte, rng *rand.Rand) []edit {
		start, end, ok := statementLine(src, fn, rng)
		if !ok {
			return nil
		}
		stmt := string(src[start:end])
		return append([]edit{{start, end, ""}}, typeText(start, stmt)...)
	}},
	{"delete a closing brace and type it again", func(src []byte, fn analysis.Span, _ []byte, rng *rand.Rand) []edit {
		var braces []int
		for i := fn.Start + 1; i < fn.End-1; i++ {
			if src[i] == '}' {
				braces = append(braces, int(i))
			}
		}
		if len(braces) == 0 {
			return nil
		}
		b := braces[rng.IntN(len(braces))]
		return []edit{{b, b + 1, ""}, {b, b, "}"}}
	}},
	{"type a new if line", func(src []byte, fn analysis.Span, _ []byte, rng *rand.Rand) []edit {
		_, end, ok := statementLine(src, fn, rng)
		if !ok {
			return nil
		}
		return typeText(end, "\nif (a) {")
	}},
	{"paste half a function and delete it", func(src []byte, fn analysis.Span, paste []byte, rng *rand.Rand) []edit {
		start, _, ok := statementLine(src, fn, rng)
		if !ok {
			return nil
		}
		i := bytes.Index(paste, []byte("function "))
		if i < 0 {
			return nil
		}
		half := paste[i:min(len(paste), i+200+rng.IntN(400))]
		return []edit{{start, start, string(half)}, {start, start + len(half), ""}}
	}},
}

// typeText types text at offset at, one character a keystroke.
func typeText(at int, text string) []edit {
	var es []edit
	for _, r := range text {
		es = append(es, edit{at, at, string(r)})
		at += len(string(r))
	}
	return es
}

// statementLine picks a line in the body of the function spanning fn that holds a statement
// ending in a semicolon, and returns its text without the indentation and the line end.
func statementLine(src []byte, fn analysis.Span, rng *rand.Rand) (start, end int, ok bool) {
	var lines [][2]int
	for off := int(fn.Start); off < int(fn.End); {
		nl := bytes.IndexByte(src[off:fn.End], '\n')
		if nl < 0 {
			break
		}
		line := bytes.TrimSpace(src[off : off+nl])
		if off > int(fn.Start) && len(line) > 1 && len(line) < 60 && line[len(line)-1] == ';' {
			s := off + bytes.Index(src[off:off+nl], line)
			lines = append(lines, [2]int{s, s + len(line)})
		}
		off += nl + 1
	}
	if len(lines) == 0 {
		return 0, 0, false
	}
	l := lines[rng.IntN(len(lines))]
	return l[0], l[1], true
}

// replay makes the keystrokes of s in a random function of src and returns, over every
// keystroke, the hints kept outside that function and in it.
func replay(t *testing.T, src, paste []byte, s scenario, rng *rand.Rand) (outside, inside share) {
	doc := analysis.NewDocument(src, analysis.Options{})
	defer doc.Close()
	before := doc.Result()
	fn := pickFunction(before, rng)
	if fn == nil {
		return
	}
	keys := s.edits(src, fn.Span, paste, rng)
	all := analysis.HintOptions{Versions: true, Phis: true}
	lines := analysis.NewLines(src)
	text := slices.Clone(src)
	var edits []analysis.Edit
	touched := map[int]bool{} // the lines of src the edits so far touched
	for _, k := range keys {
		next := slices.Concat(text[:k.at], []byte(k.text), text[k.end:])
		e := analysis.Edit{StartByte: uint32(k.at), OldEndByte: uint32(k.end), NewEndByte: uint32(k.at + len(k.text))}
		doc = doc.Edit(next, e)
		for l := lines.Line(analysis.Backward(int32(k.at), edits)); l <= lines.Line(analysis.Backward(int32(k.end), edits)); l++ {
			touched[l] = true
		}
		text, edits = next, append(edits, e)
		shown := make(map[string]bool)
		for _, h := range doc.Result().InlayHints(0, int32(len(text)), all) {
			shown[hintKey(h)] = true
		}
		for _, h := range before.InlayHintsAfter(edits, 0, int32(len(text)), all) {
			old := analysis.Backward(h.At, edits)
			if touched[lines.Line(old)] {
				continue
			}
			count := &outside
			if old >= fn.Span.Start && old <= fn.Span.End {
				count = &inside
			}
			count.all++
			if shown[hintKey(h)] {
				count.kept++
			} else if count == &outside || testing.Verbose() {
				t.Logf("%s in %s: hint %q at %d lost after %q", s.name, fn.Name, h.Label(), h.At, k.text)
			}
		}
	}
	return outside, inside
}

func hintKey(h analysis.Hint) string { return fmt.Sprintf("%d %s", h.At, h.Label()) }

// pickFunction picks an analyzed function of r that is not the top level and has a body of a
// few lines.
func pickFunction(r *analysis.Result, rng *rand.Rand) *ssa.Function {
	var fns []*ssa.Function
	for _, fn := range r.Funcs[1:] {
		if n := bytes.Count(r.Src[fn.Span.Start:fn.Span.End], []byte("\n")); fn.Analyzed() && n >= 3 && n < 200 {
			fns = append(fns, fn)
		}
	}
	if len(fns) == 0 {
		return nil
	}
	return fns[rng.IntN(len(fns))]
}
