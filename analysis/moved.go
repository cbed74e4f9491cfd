package analysis

import (
	"cmp"
	"slices"
	"sync"

	"github.com/ssalens/ssalens/ssa"
)

// Answering for a text from the analysis of an earlier one.
//
// While a line is being typed the file often does not parse, and tree-sitter's error recovery
// reshapes the tree around the error: a `{` not yet closed swallows the rest of a function, and
// sometimes of the file. A fresh analysis then loses whole functions the edit never touched. So
// when a version's fresh analysis finds a function broken by a syntax error that the last good
// analysis did not have, the version answers from that last good analysis instead, moved
// through the edits made since: every position shifts with the text, and what an edit touched
// (the statement being typed) is left out. Once the text parses as well as it did, the fresh
// analysis answers again. Hover says when a function's answers come from an older text.

// moving is what a Result that answers for a later text than it analyzed needs.
type moving struct {
	// edits turn the text the functions were analyzed in into Src, in order.
	edits []Edit
	// broken are the analyzed functions that a syntax error in Src breaks, with the error;
	// reshaped are those that Src parses otherwise (error recovery gave them another extent or
	// another enclosing function), with an error of Src.
	broken, reshaped map[*ssa.Function]Span
	// regions are the spans of Src where the answers differ from what Src's own analysis would
	// say: the own code of the broken functions, the code an error swallowed, and the whole of
	// the reshaped functions. kept adds the places of the variables that differ elsewhere,
	// made when asked (Result.Kept).
	regions []Span
	// fresh is Src's own analysis, which Kept compares with; the document holds it as well, to
	// lower the next version from.
	fresh    *Result
	kept     []Span
	keptOnce sync.Once
}

// forwardSpan moves a span of the text before edits to the text after them. A span an edit
// touches (one that overlaps or borders the replaced text) becomes the point where the edit
// starts, and ok is false.
func forwardSpan(s Span, edits []Edit) (moved Span, ok bool) {
	ok = true
	for _, e := range edits {
		switch {
		case uint32(s.End) >= e.StartByte && uint32(s.Start) <= e.OldEndByte:
			s, ok = Span{Start: int32(e.StartByte), End: int32(e.StartByte)}, false
		case uint32(s.Start) > e.OldEndByte:
			d := int32(e.NewEndByte) - int32(e.OldEndByte)
			s = Span{Start: s.Start + d, End: s.End + d}
		}
	}
	return s, ok
}

// forward moves an offset of the text before edits to the text after them; false if an edit
// touched it.
func forward(off int32, edits []Edit) (int32, bool) {
	s, ok := forwardSpan(Span{Start: off, End: off}, edits)
	return s.Start, ok
}

// Backward moves an offset of the text after edits to the text before them; an offset in
// inserted text moves to where the insertion starts.
func Backward(off int32, edits []Edit) int32 {
	for _, e := range slices.Backward(edits) {
		switch {
		case uint32(off) < e.StartByte:
		case uint32(off) >= e.NewEndByte:
			off -= int32(e.NewEndByte) - int32(e.OldEndByte)
		default:
			off = int32(e.StartByte)
		}
	}
	return off
}

// span moves a span of the analyzed text to Src; a span an edit touched becomes the point where
// the edit is.
func (r *Result) span(s Span) Span {
	if r.moving != nil {
		s, _ = forwardSpan(s, r.moving.edits)
	}
	return s
}

// kept reports whether s, a span of the analyzed text, is still in Src: no edit touched it.
func (r *Result) kept(s Span) bool {
	if r.moving == nil {
		return true
	}
	_, ok := forwardSpan(s, r.moving.edits)
	return ok
}

// inSrc returns where s, a span of the analyzed text, lies in Src, and false if an edit touched
// it or it does not lie within Src: where an answer reads the text of an analyzed place.
func (r *Result) inSrc(s Span) (Span, bool) {
	ok := true
	if r.moving != nil {
		s, ok = forwardSpan(s, r.moving.edits)
	}
	return s, ok && 0 <= s.Start && s.Start <= s.End && int(s.End) <= len(r.Src)
}

// funcSpan returns where fn's text lies in Src. An edit inside a function grows or shrinks it
// (moveFuncSpan), where span would make it the edit's point.
func (r *Result) funcSpan(fn *ssa.Function) Span {
	if r.moving == nil {
		return fn.Span
	}
	s, _ := moveFuncSpan(fn.Span, r.moving.edits)
	return s
}

// line returns the 1-based line of Src that holds the offset off of the analyzed text.
func (r *Result) line(off int32) int { return r.Lines.Line(r.span(Span{Start: off, End: off}).Start) }

// Moved returns r answering for text, r's text changed by edits in order, whose line index is
// lines and whose fresh analysis is fresh: occurrences and joins move with the text and those
// an edit touched are left out (movedIndex); every span r reports moves the same way. The
// syntax errors are fresh's, and hover says which functions it finds broken.
func (r *Result) Moved(text []byte, lines *Lines, edits []Edit, fresh *Result) *Result {
	m := &Result{Src: text, Lines: lines, File: r.File, Funcs: r.Funcs, instrs: r.instrs, moving: &moving{}, analyzed: r}
	if r.moving != nil {
		m.moving.edits = slices.Clone(r.moving.edits)
		m.analyzed = r.analyzed
	}
	for _, e := range edits {
		m.moving.edits = appendEdit(m.moving.edits, e)
	}
	m.goodBroken = moveStarts(r.goodBroken, edits)
	m.markKept(fresh)
	m.brokenInText = fresh.brokenAfter(m.moving.edits)
	return m
}

// movedIndex returns the occurrences and joins of the analysis m's functions come from whose
// spans overlap [start, end] once moved to m's text: those of that analysis's text between the
// offsets start and end move back to (Backward), moved on, less those an edit touched. Found
// there for each answer, until they have cost what moving the whole index does, rather than
// moved all at every keystroke (typescript.js: 30 ms); then the whole index, moved once.
func (m *Result) movedIndex(start, end int32) ([]Occurrence, []Join) {
	edits := m.moving.edits
	from, to := Backward(max(start, 0), edits), Backward(min(end, int32(len(m.Src))), edits)
	occurrences, joins := m.analyzed.indexOver(from, to)
	x := index{occurrences: make([]Occurrence, 0, len(occurrences))}
	for _, o := range occurrences {
		if s, ok := forwardSpan(o.Span, edits); ok && s.End >= start && s.Start <= end {
			o.Span = s
			x.occurrences = append(x.occurrences, o)
		}
	}
	for _, j := range joins {
		if at, ok := forward(j.At, edits); ok && at >= start && at <= end {
			j.At = at
			x.joins = append(x.joins, j)
		}
	}
	return x.occurrences, x.joins
}

// markKept finds, for a moved Result m, the functions whose answers come from the old text
// where fresh, the analysis of m's text, would say otherwise: those a syntax error breaks in
// fresh, and those fresh parses otherwise. A function fresh has at the same place, in the same
// enclosing function, answers as fresh does, apart from the variables broken functions declare
// or use (Kept).
func (m *Result) markKept(fresh *Result) {
	broken := fresh.brokenFuncs()
	brokenAt := make(map[int32]*ssa.Function, len(broken))
	var firstError Span // what the hover of a reshaped function points at
	for _, fn := range slices.Backward(broken) {
		brokenAt[fn.Span.Start] = fn
		firstError = errorAt(m.Src, fn, m.moving.edits)
	}
	freshAt := make(map[Span]*ssa.Function, len(fresh.Funcs))
	for _, fn := range fresh.Funcs {
		freshAt[fn.Span] = fn
	}
	m.moving.fresh = fresh
	m.moving.broken = make(map[*ssa.Function]Span)
	m.moving.reshaped = make(map[*ssa.Function]Span)
	now := make(map[*ssa.Function]Span, len(m.Funcs)) // each function's span in Src
	for _, fn := range m.Funcs {                      // parents first
		s, same := moveFuncSpan(fn.Span, m.moving.edits)
		now[fn] = s
		if f, isBroken := brokenAt[s.Start]; isBroken {
			m.moving.broken[fn] = errorAt(m.Src, f, m.moving.edits)
			m.moving.regions = append(m.moving.regions, ownCode(s, fn, m.moving.edits)...)
			if f.Span.End > s.End { // the error swallowed the code after it
				m.moving.regions = append(m.moving.regions, Span{Start: s.End, End: f.Span.End})
			}
			continue
		}
		f := freshAt[s]
		_, parentReshaped := m.moving.reshaped[fn.Parent]
		if !same || f == nil || parentReshaped || (fn.Parent == nil) != (f.Parent == nil) ||
			(f.Parent != nil && now[fn.Parent] != f.Parent.Span) {
			m.moving.reshaped[fn] = firstError
			m.moving.regions = append(m.moving.regions, s)
		}
	}
}

// Kept returns the spans of the text where the answers come from the last good analysis and
// differ from what the text's own analysis says: the own code of the functions a syntax error
// breaks now, the places of their variables and of the variables around them they use, and
// the functions error recovery parses otherwise. Hover says so in the functions. The places
// are found the first time they are asked for, since no answer needs them: they take a scan
// of the whole index (typescript.js: 60 ms at the first keystroke that breaks the text, to
// index the analysis answered from).
func (r *Result) Kept() []Span {
	if r.moving == nil {
		return nil
	}
	r.moving.keptOnce.Do(func() { r.moving.kept = append(slices.Clone(r.moving.regions), r.keptPlaces()...) })
	return r.moving.kept
}

// keptPlaces returns the places, in Src, of the variables whose answers differ outside the
// regions of a moved Result. The variables a broken function declares, or whose declaration
// an error swallowed, have no versions in fresh, wherever they are used. Those of enclosing
// functions that the code an error swallowed uses may have another status in fresh (a
// closure's read or assignment decides whether they are context variables), wherever they
// are used too; and so may those that the broken code uses only now, where error recovery made
// a declaration of its own into an assignment (`var a, ilet q = 1;nsert = s, i = 0` assigns the
// i of the function around).
func (m *Result) keptPlaces() []Span {
	regions := union(m.moving.regions)
	usedInside := make(map[*ssa.Binding]bool)
	for _, fns := range []map[*ssa.Function]Span{m.moving.broken, m.moving.reshaped} {
		for fn := range fns {
			fn.Materialize()
			for _, b := range fn.Blocks {
				for i := range b.Instrs {
					if p := &b.Instrs[i].Place; p.Binding != nil && p.Binding.Owner != nil && p.Binding.Owner != fn {
						usedInside[p.Binding] = true
					}
				}
			}
		}
	}
	for b := range m.usedByBrokenNow(regions) {
		usedInside[b] = true
	}
	var places []Span
	for _, o := range m.analyzed.Occurrences() {
		_, ownerBroken := m.moving.broken[o.Binding.Owner]
		if ownerBroken || usedInside[o.Binding] || (o.Binding.Kind != ssa.Global && inAny(regions, m.span(o.Binding.Decl).Start)) {
			if s, ok := forwardSpan(o.Span, m.moving.edits); ok {
				places = append(places, s)
			}
		}
	}
	return places
}

// usedByBrokenNow returns the variables of the analyzed functions that Src's broken code uses
// from around it, as fresh resolves its names: the uses in the fresh functions a syntax error
// breaks or that lie in regions, nested ones included. A variable is found by its name and the
// span in Src of the function that owns it, as markKept pairs the functions of the analyses.
func (m *Result) usedByBrokenNow(regions []Span) map[*ssa.Binding]bool {
	names := make(map[Span]map[string]bool) // by the span of the function that owns them
	seen := make(map[*ssa.Function]bool)
	for _, f := range m.moving.fresh.Funcs { // parents first
		if seen[f.Parent] || (!f.NotAnalyzed.IsSyntax() && !inAny(regions, f.Span.Start)) {
			seen[f] = seen[f.Parent]
			continue
		}
		seen[f] = true
		f.EachOuterUse(func(_ *ssa.Function, b *ssa.Binding, _ Span, _, _ bool) {
			if b.Owner == nil {
				return
			}
			if names[b.Owner.Span] == nil {
				names[b.Owner.Span] = make(map[string]bool)
			}
			names[b.Owner.Span][b.Name] = true
		})
	}
	used := make(map[*ssa.Binding]bool)
	for _, fn := range m.Funcs {
		if owned := names[m.funcSpan(fn)]; owned != nil {
			fn.Materialize()
			for _, b := range fn.Bindings {
				if owned[b.Name] {
					used[b] = true
				}
			}
		}
	}
	return used
}

// union returns the union of spans as disjoint spans sorted by start.
func union(spans []Span) []Span {
	sorted := slices.Clone(spans)
	slices.SortFunc(sorted, func(a, b Span) int { return cmp.Compare(a.Start, b.Start) })
	var out []Span
	for _, s := range sorted {
		if n := len(out); n > 0 && s.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}

// inAny reports whether off is in one of spans, disjoint and sorted by start.
func inAny(spans []Span, off int32) bool {
	i, _ := slices.BinarySearchFunc(spans, off, func(s Span, off int32) int { return cmp.Compare(s.Start, off+1) })
	return i > 0 && off <= spans[i-1].End
}

// ownCode returns the parts of s, the span in Src of fn, that are not in its nested functions.
func ownCode(s Span, fn *ssa.Function, edits []Edit) []Span {
	var own []Span
	start := s.Start
	for _, c := range fn.Children {
		cs, _ := moveFuncSpan(c.Span, edits)
		own = append(own, Span{Start: start, End: cs.Start})
		start = cs.End
	}
	return append(own, Span{Start: start, End: s.End})
}

// brokenFuncs returns the functions that a syntax error keeps from being analyzed.
func (r *Result) brokenFuncs() []*ssa.Function {
	var broken []*ssa.Function
	for _, fn := range r.Funcs {
		if fn.NotAnalyzed.IsSyntax() {
			broken = append(broken, fn)
		}
	}
	return broken
}

// appendEdit appends e to edits, merged into the last one if the two touch, as keystrokes
// typed one after another do: the span they touch together is the same, and a Result moved
// through a whole typing session keeps a short list.
func appendEdit(edits []Edit, e Edit) []Edit {
	if n := len(edits); n > 0 {
		if last := edits[n-1]; e.StartByte <= last.NewEndByte && e.OldEndByte >= last.StartByte {
			edits[n-1] = last.Then(e)
			return edits
		}
	}
	return append(edits, e)
}

// moveStarts moves a set of function starts through edits, dropping those edits touched.
func moveStarts(starts map[int32]bool, edits []Edit) map[int32]bool {
	moved := make(map[int32]bool, len(starts))
	for s := range starts {
		if m, ok := forward(s, edits); ok {
			moved[m] = true
		}
	}
	return moved
}

// maxMovedPlaces is how many separate places of the text may have been edited since the last
// good analysis for its answers to be moved on. Typing a line, however long, is one place; a
// file left broken while its user edits in many others has answers of its own that are better
// than an old text's, and holding that old analysis doubles the memory.
const maxMovedPlaces = 32

// breaks reports whether r, moved through edits, answers for fresh's text (r's text changed
// by edits) better than fresh, its analysis, does: fresh finds a function broken by a syntax
// error that the last good analysis r answers from does not, that analysis finds none broken
// that fresh does not (see below), and no edit made since that
// analysis is in a function fresh analyzes as it was, only edited inside: there fresh's answers
// are the text's own, and an old analysis would lose what was edited. A function fresh analyzes
// but error recovery reshaped (a `}` deleted makes it swallow the code after it; a new broken
// function took some of its code, tookCodeOf) does not count.
// A file edited in too many places since has answers of its own better than an old text's.
//
// r may have errors of its own: a version answers with its fresh analysis, errors and all, when
// an edit since the last good analysis is in a function it analyzes as it was. Moved on to a
// text that parses where r did not, r would answer nothing there (TestNoMoveFromAWorseAnalysis).
func (r *Result) breaks(fresh *Result, edits []Edit) bool {
	var since []Edit
	if r.moving != nil {
		since = slices.Clone(r.moving.edits)
	}
	for _, e := range edits {
		since = appendEdit(since, e)
	}
	if len(since) > maxMovedPlaces {
		return false
	}
	good := moveStarts(r.goodBroken, edits)
	broken := fresh.brokenFuncs()
	brokenNow := make(map[int32]bool, len(broken))
	newlyBroken := false
	for _, fn := range broken {
		brokenNow[fn.Span.Start] = true
		newlyBroken = newlyBroken || !good[fn.Span.Start]
	}
	if !newlyBroken {
		return false
	}
	for start := range good {
		if !brokenNow[start] {
			return false
		}
	}
	var kept map[Span]bool     // the spans in fresh's text of r's functions edited only inside
	var existed map[int32]bool // where r's functions start in fresh's text
	written := make([]Span, len(since))
	for i, e := range since {
		written[i], _ = forwardSpan(Span{Start: int32(e.StartByte), End: int32(e.NewEndByte)}, since[i+1:])
	}
	for _, at := range written {
		fn := fresh.innermost(at)
		if fn.NotAnalyzed.IsSyntax() {
			continue
		}
		if kept == nil {
			kept = make(map[Span]bool, len(r.Funcs))
			existed = make(map[int32]bool, len(r.Funcs))
			for _, old := range r.Funcs {
				s, ok := moveFuncSpan(old.Span, since)
				if ok {
					kept[s] = true
				}
				existed[s.Start] = true
			}
		}
		// A function the edit made (`=>` typed into a name) is edited code of the function
		// around it (TestEditMakingAFunction).
		for fn.Parent != nil && !existed[fn.Span.Start] && !fn.Parent.NotAnalyzed.IsSyntax() {
			fn = fn.Parent
		}
		if kept[fn.Span] && !tookCodeOf(fn, broken, existed, written) {
			return false
		}
	}
	return true
}

// tookCodeOf reports whether a function nested in fn that is broken by a syntax error, one of
// broken, and new since the last good analysis (existed holds where that one's functions
// start), spans text that the edits since did not write: error recovery took code of fn into
// it, so fn's analysis lacks that code. Typing `const pick = <U,>(u) =>` before a statement of
// fn in TSX makes an arrow function of that statement, broken, until its body is typed.
func tookCodeOf(fn *ssa.Function, broken []*ssa.Function, existed map[int32]bool, written []Span) bool {
	for _, b := range broken {
		if b == fn || existed[b.Span.Start] || b.Span.Start < fn.Span.Start || fn.Span.End < b.Span.End {
			continue
		}
		if !slices.ContainsFunc(written, func(w Span) bool { return w.Start <= b.Span.Start && b.Span.End <= w.End }) {
			return true
		}
	}
	return false
}

// moveFuncSpan moves the span of a function through edits, growing it with the edits inside
// it; same is false if an edit touches its start or end, which makes it another function (the
// span then covers that edit too).
func moveFuncSpan(s Span, edits []Edit) (moved Span, same bool) {
	same = true
	for _, e := range edits {
		d := int32(e.NewEndByte) - int32(e.OldEndByte)
		switch start, end := uint32(s.Start), uint32(s.End); {
		case e.OldEndByte < start:
			s = Span{Start: s.Start + d, End: s.End + d}
		case e.StartByte > end:
		case e.StartByte > start && e.OldEndByte < end:
			s.End += d
		default:
			same = false
			if e.OldEndByte >= end {
				s.End = int32(e.NewEndByte)
			} else {
				s.End += d
			}
			s.Start = min(s.Start, int32(e.StartByte))
		}
	}
	return s, same
}

// innermost returns the innermost function whose text holds s: the last in r.Funcs, which lists
// parents before children.
func (r *Result) innermost(s Span) *ssa.Function {
	for _, fn := range slices.Backward(r.Funcs) {
		if fn.Span.Start <= s.Start && s.End <= fn.Span.End {
			return fn
		}
	}
	return r.Funcs[0]
}

// InlayHintsAfter returns the hints of r in [start, end] of the text that edits make of r's
// text, moved through the edits: hints an edit touched are left out, and so are links into
// edited text. It answers a client while the newer text is being analyzed.
func (r *Result) InlayHintsAfter(edits []Edit, start, end int32, o HintOptions) []Hint {
	o.Cursor = Backward(o.Cursor, edits)
	hints := r.InlayHints(Backward(start, edits), Backward(end, edits), o)
	out := hints[:0]
	for _, h := range hints {
		at, ok := forward(h.At, edits)
		if !ok {
			continue
		}
		h.At = at
		parts := make([]HintPart, len(h.Parts))
		for i, p := range h.Parts {
			if p.Def != nil {
				d, ok := forwardSpan(*p.Def, edits)
				p.Def = nil
				if ok {
					p.Def = &d
				}
			}
			parts[i] = p
		}
		h.Parts = parts
		out = append(out, h)
	}
	return out
}
