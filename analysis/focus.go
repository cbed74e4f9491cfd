package analysis

import (
	"fmt"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// Focus: showing fewer hints. On real code every line carries versions and φs; a reader
// working on one function, or following one variable, wants the rest quiet. The scope narrows
// the hints to what the cursor is in, and a cap per line keeps a busy line readable.

// Scope says which part of a file shows inlay hints.
type Scope uint8

const (
	ScopeFile     Scope = iota // every hint of the file
	ScopeFunction              // the innermost function at the cursor, with the functions nested in it
	ScopeVariable              // the SSA web of the variable at the cursor
)

var scopeNames = [...]string{"file", "function", "variable"}

func (s Scope) String() string { return scopeNames[s] }

// ParseScope returns the scope named name: file, function or variable.
func ParseScope(name string) (Scope, bool) {
	for i, n := range scopeNames {
		if n == name {
			return Scope(i), true
		}
	}
	return ScopeFile, false
}

// Focus is what a scope narrows the hints of a file to, at one cursor position. Two positions
// with Equal foci show the same hints.
type Focus struct {
	scope Scope
	// fn is the function of ScopeFunction. At the top level only the top-level code is in
	// focus: the top level holds the whole file.
	fn *ssa.Function
	// web is the SSA web of ScopeVariable: the values of one variable that φs connect, found
	// by following φ operands and φ users from the values at the cursor. Empty when the cursor
	// is on no renamed variable.
	web map[*ssa.Value]bool
	// first names the web: its lowest version.
	first *ssa.Value
}

// Equal reports whether f and g, foci in one Result, show the same hints.
func (f Focus) Equal(g Focus) bool { return f.scope == g.scope && f.fn == g.fn && f.first == g.first }

// Empty reports whether f shows no hints: a variable scope on no renamed variable.
func (f Focus) Empty() bool { return f.scope == ScopeVariable && f.first == nil }

// FocusAt returns what scope narrows the hints to with the cursor at off.
func (r *Result) FocusAt(scope Scope, off int32) Focus {
	f := Focus{scope: scope}
	switch scope {
	case ScopeFunction:
		f.fn = r.innermostFunc(off)
	case ScopeVariable:
		if o := r.occurrenceAt(off); o != nil {
			f.web = web(o.Read, o.Write)
			for v := range f.web {
				if f.first == nil || v.Version < f.first.Version {
					f.first = v
				}
			}
		}
	}
	return f
}

// innermostFunc returns the innermost function whose text holds off, or nil.
func (r *Result) innermostFunc(off int32) *ssa.Function {
	var best *ssa.Function
	var bestSpan Span
	for _, fn := range r.Funcs {
		s := r.funcSpan(fn)
		if s.Start <= off && off <= s.End && (best == nil || s.End-s.Start <= bestSpan.End-bestSpan.Start) {
			best, bestSpan = fn, s
		}
	}
	return best
}

// web returns the values connected to from (nil entries skipped) through φs, in both
// directions.
func web(from ...*ssa.Value) map[*ssa.Value]bool {
	seen := make(map[*ssa.Value]bool)
	var work []*ssa.Value
	add := func(v *ssa.Value) {
		if v != nil && !seen[v] {
			seen[v] = true
			work = append(work, v)
		}
	}
	for _, v := range from {
		add(v)
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if v.Kind == ssa.ValuePhi {
			for _, op := range v.Phi.Operands {
				add(op)
			}
		}
		for _, u := range v.Uses {
			if u.Phi != nil {
				add(u.Phi.Value)
			}
		}
	}
	return seen
}

// within returns the part of the text the focus lies in, to narrow the range hints are looked
// for in: the function's text, the text of the function that owns the web's variable.
func (f Focus) within(r *Result) (Span, bool) {
	switch {
	case f.fn != nil && f.fn.Parent != nil:
		return r.funcSpan(f.fn), true
	case f.first != nil:
		return r.funcSpan(f.first.Binding.Owner), true
	}
	return Span{}, false
}

// inFunction reports whether code of fn is in a function focus.
func (f Focus) inFunction(fn *ssa.Function) bool {
	if f.fn.Parent == nil {
		return fn == f.fn
	}
	for ; fn != nil; fn = fn.Parent {
		if fn == f.fn {
			return true
		}
	}
	return false
}

// showsOccurrence reports whether the version hint of o is in focus.
func (f Focus) showsOccurrence(o *Occurrence) bool {
	switch f.scope {
	case ScopeFunction:
		return f.fn != nil && f.inFunction(o.Func)
	case ScopeVariable:
		return f.web[o.Read] || f.web[o.Write]
	}
	return true
}

// showsPhi reports whether the hint of p is in focus.
func (f Focus) showsPhi(p *ssa.Phi) bool {
	switch f.scope {
	case ScopeFunction:
		return f.fn != nil && f.inFunction(p.Block.Func)
	case ScopeVariable:
		return f.web[p.Value]
	}
	return true
}

// hintRange returns the range [start, end] to look for hints in when o narrows them: within
// the focus, and, under a cap per line, widened to whole lines, since what a cap hides depends
// on the whole line.
func (r *Result) hintRange(start, end int32, o HintOptions, f Focus) (int32, int32) {
	if s, ok := f.within(r); ok {
		start, end = max(start, s.Start), min(end, s.End)
	}
	if o.MaxPerLine > 0 {
		start = r.Lines.Start(r.Lines.Line(start) - 1)
		if next := r.Lines.Line(end); next < r.Lines.Count() {
			end = r.Lines.Start(next) - 1
		} else {
			end = int32(len(r.Src))
		}
	}
	return start, end
}

// capPerLine keeps at most max hints on each line of hints (sorted by position), and only those
// in [start, end]. φ hints go first, then version hints in source order; the last version hint
// kept (or the last φ hint, if none is) says how many are hidden, with them in its tooltip.
func (r *Result) capPerLine(hints []Hint, max int, start, end int32) []Hint {
	if max <= 0 {
		return hints
	}
	var out []Hint
	for i := 0; i < len(hints); {
		j := i
		line := r.Lines.Line(hints[i].At)
		for j < len(hints) && r.Lines.Line(hints[j].At) == line {
			j++
		}
		out = append(out, capLine(hints[i:j], max)...)
		i = j
	}
	kept := out[:0]
	for _, h := range out {
		if start <= h.At && h.At <= end {
			kept = append(kept, h)
		}
	}
	return kept
}

// capLine caps the hints of one line, as capPerLine says.
func capLine(line []Hint, max int) []Hint {
	if len(line) <= max {
		return line
	}
	keep := make([]bool, len(line))
	n := 0
	for _, kind := range []HintKind{HintPhi, HintVersion} {
		for i, h := range line {
			if h.Kind == kind && n < max {
				keep[i] = true
				n++
			}
		}
	}
	var out, hidden []Hint
	marker := -1
	for i, h := range line {
		if !keep[i] {
			hidden = append(hidden, h)
			continue
		}
		if h.Kind == HintVersion || marker < 0 || out[marker].Kind == HintPhi {
			marker = len(out)
		}
		out = append(out, h)
	}
	var tip strings.Builder
	fmt.Fprintf(&tip, "%s on this line hidden (ssalens.inlayHints.maxPerLine is %d):", plural(len(hidden), "more hint"), max)
	for _, h := range hidden {
		what := h.Label()
		if len(h.Parts) == 1 && h.Parts[0].Tooltip != "" {
			what = h.Parts[0].Tooltip
		}
		tip.WriteString("\n" + what)
	}
	m := &out[marker]
	m.Parts = append(m.Parts[:len(m.Parts):len(m.Parts)], HintPart{Text: fmt.Sprintf(" …+%d", len(hidden)), Tooltip: tip.String()})
	return out
}
