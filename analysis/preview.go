package analysis

import (
	"math"
	"slices"

	"github.com/ssalens/ssalens/lower"
	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/treesitter"
)

// The first hints of a large file, before its analysis.
//
// An editor that opens a file asks at once for the inlay hints of the lines it shows. A large
// file takes longer to parse alone than a frame (three.core.js, 1.5 MB: about 0.2 s on two
// processors), and its top-level hints depend on all of it: a function at its end may assign a
// variable of the top level, which makes it a context variable, with no versions anywhere.
// Most hints, though, depend on less. A preview analyzes the start of the file, up to a
// statement of the top level past the lines asked for (treesitter.ParsePrefix), as if it
// were all of it, and shows only the hints of these bindings:
//
//   - those declared in a function of the prefix: only that function and the functions
//     nested in it see them, and they are all in the prefix, so no text after it changes
//     their hints;
//   - the top level's consts, unless the text after the prefix has the word eval anywhere (a
//     direct eval sees every variable), a with statement, or brackets that do not balance (a
//     syntax error may leave the top level not analyzed), or looks as if it assigned them
//     (which throws when it runs): see reachedConsts.
//
// The other top-level bindings, and the names that resolve to nothing in the prefix (the rest
// may declare them), show no hints until the analysis of the whole file is there. Whether the
// top level is strict code depends on the whole file too (an export at its end makes it a
// module), and decides how `arguments` aliases parameters and where a function declared in a
// block is visible; unless the prefix settles it, the preview lowers the prefix both ways and
// shows the hints the two agree on. With a cap on the hints of a line, a line that would show
// a hint the preview leaves out shows none, so that the cap counts what the analysis of the
// whole file would.
//
// So a preview's hints are the analysis's, at the same places, with the same labels, tooltips
// and links, and the refresh only adds hints, but for the cases a look at the text cannot rule
// out: a const assigned after the prefix in a way the look misses (by a destructuring
// pattern, `[a, b] = pair`), and a top level that ends up not analyzed for what comes after
// the prefix (a syntax error that balances its brackets, a lowering or SSA form past its work
// budget). Then the analysis gives the const no versions, and the refresh takes its hints
// away. TestPreviewHintsAreFinal checks the rest on the corpora.

// previewMin is the size of the smallest document whose hints are previewed: a smaller one is
// analyzed within a frame or two.
const previewMin = 128 << 10

// previewMax is the longest prefix a preview analyzes: about 30 ms of parsing on the slowest
// machine measured.
const previewMax = 128 << 10

// PreviewHints returns inlay hints of [start, end] for a document whose analysis is not done
// yet: those of a preview (see above), each as InlayHints will give it. ok is false when there
// is none: the document is small or analyzed already, o narrows the hints to the cursor's
// function or variable, or no prefix ending near the range proves its cut.
func (d *Document) PreviewHints(start, end int32, o HintOptions) (hints []Hint, ok bool) {
	if len(d.text) < previewMin || o.Scope != ScopeFile || d.Ready() != nil || mayNotBeAnalyzed(d.text, d.opts) {
		return nil, false
	}
	return previewHints(d.text, d.lines, d.opts, start, end, o)
}

// mayNotBeAnalyzed reports whether text may be too large to be analyzed at all (MaxSize, the
// memory limit), which would give it no hints: a preview must not show any. Real code has at
// most half a syntax node per byte (typescript.js: a quarter); one a byte is taken here.
func mayNotBeAnalyzed(text []byte, opts Options) bool {
	return len(text) > MaxSize || opts.overMemoryLimit(len(text)) != ""
}

// previewHints is PreviewHints for any size of text.
func previewHints(text []byte, lines *Lines, opts Options, start, end int32, o HintOptions) ([]Hint, bool) {
	tree, err := treesitter.ParsePrefix(opts.Language.grammar(), text, uint32(max(end, 0)), previewMax)
	if err != nil || tree == nil {
		return nil, false
	}
	files := []*lower.File{lower.Lower(tree)}
	if !files[0].Strict() {
		files = append(files, lower.LowerStrict(tree))
	}
	shown := &shownBindings{rest: text[len(tree.Src):]}
	var first *Result
	var hints []Hint
	for _, f := range files {
		buildAll(f.Funcs, opts.Verify, nil)
		r := newResult(text, lines, f)
		shown.module = f.Funcs[0]
		found := r.uncappedHints(start, end, o, shown)
		if first == nil {
			first, hints = r, found
		} else {
			hints = agreed(hints, found, shown)
		}
	}
	if o.MaxPerLine > 0 {
		hints = withoutLinesOf(hints, shown.leftOut, lines)
	}
	return first.capPerLine(hints, o.MaxPerLine, start, end), true
}

// shownBindings says which bindings a preview shows the hints of, and collects where it left
// out hints of the others. A nil *shownBindings shows every binding.
type shownBindings struct {
	module *ssa.Function // the prefix's top level
	rest   []byte        // the text after the prefix
	// looked says whether reachedConsts looked at rest, for the first const asked about; all
	// and assigned are what it found.
	looked, all bool
	assigned    map[string]bool
	// leftOut are the positions of the hints left out.
	leftOut []int32
}

// shows reports whether b's hint at the offset at is shown, and records it if not.
func (s *shownBindings) shows(b *ssa.Binding, at int32) bool {
	if s == nil || b.Owner != s.module || b.Kind == ssa.Const && s.constShown(b.Name) {
		return true
	}
	s.leftOut = append(s.leftOut, at)
	return false
}

// constShown reports whether the top-level const name is shown: whether the text after the
// prefix does not reach it (reachedConsts).
func (s *shownBindings) constShown(name string) bool {
	if !s.looked {
		s.all, s.assigned = reachedConsts(s.rest)
		s.looked = true
	}
	return !s.all && !s.assigned[name]
}

// reachedConsts returns what the text after a prefix may do to the top level's consts other
// than read them, as far as a look at its text can tell (treesitter.CodeWords). all, if it
// has the word eval anywhere (a direct eval sees every variable, and `(eval)(s)` is one too)
// or spelled with escapes in its code (`\u0065val`), a with statement (a word with in its
// code), or brackets that do not balance (a syntax error, which may leave the top level not
// analyzed); and assigned, the names it looks as if it assigned, which throws for a const when
// it runs. A const assigned by a destructuring pattern, and a top level not analyzed for other
// reasons (a syntax error that balances its brackets, its work budget), can still make the
// analysis of the whole file give a const no versions where the preview shows them.
func reachedConsts(rest []byte) (all bool, assigned map[string]bool) {
	if treesitter.HasWord(rest, "eval") {
		return true, nil
	}
	assigned = make(map[string]bool)
	reached := false
	balanced := treesitter.CodeWords(rest, func(name []byte, isAssigned bool) bool {
		if isAssigned {
			assigned[string(name)] = true
		}
		reached = string(name) == "with" || string(name) == "eval" // \u0065val is eval
		return !reached
	})
	return reached || !balanced, assigned
}

// agreed returns the hints of a that b has too, equal in every part; the positions of the
// others, of a or b, go to shown's left out. Both are in order of position.
func agreed(a, b []Hint, shown *shownBindings) []Hint {
	var kept []Hint
	for len(a) > 0 || len(b) > 0 {
		at := int32(math.MaxInt32)
		if len(a) > 0 {
			at = a[0].At
		}
		if len(b) > 0 {
			at = min(at, b[0].At)
		}
		here, there := a[:hintsAt(a, at)], b[:hintsAt(b, at)]
		both := 0
		for _, h := range here {
			if slices.ContainsFunc(there, func(g Hint) bool { return sameHint(h, g) }) {
				kept = append(kept, h)
				both++
			}
		}
		if both != len(here) || both != len(there) {
			shown.leftOut = append(shown.leftOut, at)
		}
		a, b = a[len(here):], b[len(there):]
	}
	return kept
}

// hintsAt returns how many hints at the offset at hints starts with.
func hintsAt(hints []Hint, at int32) int {
	n := 0
	for n < len(hints) && hints[n].At == at {
		n++
	}
	return n
}

func sameHint(a, b Hint) bool {
	return a.At == b.At && a.Kind == b.Kind && slices.EqualFunc(a.Parts, b.Parts, samePart)
}

func samePart(p, q HintPart) bool {
	return p.Text == q.Text && p.Tooltip == q.Tooltip && (p.Def == nil) == (q.Def == nil) && (p.Def == nil || *p.Def == *q.Def)
}

// withoutLinesOf returns hints without those on the lines of the offsets leftOut.
func withoutLinesOf(hints []Hint, leftOut []int32, lines *Lines) []Hint {
	dropped := make(map[int]bool, len(leftOut))
	for _, at := range leftOut {
		dropped[lines.Line(at)] = true
	}
	return slices.DeleteFunc(hints, func(h Hint) bool { return dropped[lines.Line(h.At)] })
}
