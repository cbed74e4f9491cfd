package analysis

import (
	"sort"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// HintKind tells a version hint from a φ hint.
type HintKind uint8

const (
	HintVersion HintKind = iota // after an occurrence: ₂ or ₂→₃
	HintPhi                     // at a join, one per φ: x₃ ← φ(₁,₂)
)

// Hint is an inlay hint. Parts concatenated give the label; a part with a Def links to where
// that value is defined.
type Hint struct {
	At    int32
	Kind  HintKind
	Parts []HintPart
}

// HintPart is one piece of a hint's label.
type HintPart struct {
	Text    string
	Def     *Span // the definition of the value the part names, if any
	Tooltip string
}

// Label returns the whole text of the hint.
func (h *Hint) Label() string { return label(h.Parts) }

func label(parts []HintPart) string {
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p.Text)
	}
	return sb.String()
}

// HintOptions choose which inlay hints to show.
type HintOptions struct {
	Versions bool // a version after each occurrence
	Phis     bool // the φs of each join
	// PhiOnly shows the φs alone, labelled so that they need no version hints elsewhere.
	PhiOnly bool
	// Scope narrows the hints to the function or the variable at Cursor (focus.go).
	Scope  Scope
	Cursor int32
	// MaxPerLine caps the hints of a line (0: no cap); the last one shown counts the rest.
	MaxPerLine int
}

// InlayHints returns the hints whose position lies in [start, end], in order, as o chooses.
func (r *Result) InlayHints(start, end int32, o HintOptions) []Hint {
	hints := r.uncappedHints(start, end, o, nil)
	return r.capPerLine(hints, o.MaxPerLine, start, end)
}

// uncappedHints returns the hints InlayHints caps per line: those of [start, end], or of their
// whole lines if there is a cap. With shown, only the hints of the bindings it reports;
// the positions of the others go to left out.
func (r *Result) uncappedHints(start, end int32, o HintOptions, shown *shownBindings) []Hint {
	focus := r.FocusAt(o.Scope, o.Cursor)
	start, end = r.hintRange(start, end, o, focus)
	versions := o.Versions && !o.PhiOnly
	var hints []Hint
	occurrences, joins := r.indexOver(start, end)
	if versions {
		for i := range occurrences {
			o := &occurrences[i]
			if o.Span.End > end {
				break // it begins in the range and ends after it
			}
			if l := r.Label(o); l != "" && focus.showsOccurrence(o) && shown.shows(o.Binding, o.Span.End) {
				hints = append(hints, Hint{At: o.Span.End, Kind: HintVersion, Parts: []HintPart{{Text: l, Tooltip: r.valueSummary(o)}}})
			}
		}
	}
	if o.Phis || o.PhiOnly {
		for _, j := range joins {
			inFocus := func(p *ssa.Phi) bool { return focus.showsPhi(p) && shown.shows(p.Value.Binding, j.At) }
			for _, parts := range r.phiHints(j.Block, versions, inFocus) {
				hints = append(hints, Hint{At: j.At, Kind: HintPhi, Parts: parts})
			}
		}
	}
	sort.SliceStable(hints, func(i, j int) bool { return hints[i].At < hints[j].At })
	return hints
}

// valueSummary is the short tooltip of a version hint.
func (r *Result) valueSummary(o *Occurrence) string {
	var parts []string
	if o.Read != nil {
		parts = append(parts, "reads "+r.describe(o.Read))
	}
	if o.Write != nil {
		parts = append(parts, "defines "+name(o.Write))
	}
	return strings.Join(parts, "; ")
}

// Label returns the version suffix shown after an occurrence: ₂ for a read or a write, ₂→₃ for
// an occurrence that does both, "" for one that shows no version.
func (r *Result) Label(o *Occurrence) string {
	if r.quiet(o) {
		return ""
	}
	switch {
	case o.Read != nil && o.Write != nil && o.Read != o.Write: // a parameter property reads its parameter at its definition
		return Subscript(o.Read.Version) + "→" + Subscript(o.Write.Version)
	case o.Write != nil:
		return Subscript(o.Write.Version)
	case o.Read != nil:
		return Subscript(o.Read.Version)
	}
	return ""
}

// quiet reports whether an occurrence shows no version: a function, class, import, enum or
// namespace binding that is never reassigned is a constant, and a subscript on each of its uses
// is noise; a read that can see it uninitialized still shows x₀.
func (r *Result) quiet(o *Occurrence) bool {
	switch o.Binding.Kind {
	case ssa.FunctionDecl, ssa.Class, ssa.Import, ssa.Enum, ssa.Namespace:
		single := r.single(o.Binding)
		return single != nil && (o.Read == nil || o.Read == single) && (o.Write == nil || o.Write == single)
	}
	return false
}
