package analysis

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// HintKind tells a version hint from a φ hint.
type HintKind uint8

const (
	HintVersion HintKind = iota // after an occurrence: ₂ or ₂→₃
	HintPhi                     // at a join: φ x₃ = (x₁, x₂)
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
	Def     *ssa.Span // the definition of the value the part names, if any
	Tooltip string
}

// Label returns the whole text of the hint.
func (h *Hint) Label() string {
	var sb strings.Builder
	for _, p := range h.Parts {
		sb.WriteString(p.Text)
	}
	return sb.String()
}

// InlayHints returns the hints whose position lies in [start, end], in order: a version after
// each occurrence if versions is set, the φs of each join if phis is set.
func (r *Result) InlayHints(start, end int32, versions, phis bool) []Hint {
	var hints []Hint
	if versions {
		i := sort.Search(len(r.Occurrences), func(i int) bool { return r.Occurrences[i].Span.End >= start })
		for ; i < len(r.Occurrences) && r.Occurrences[i].Span.End <= end; i++ {
			o := &r.Occurrences[i]
			if l := r.Label(o); l != "" {
				hints = append(hints, Hint{At: o.Span.End, Kind: HintVersion, Parts: []HintPart{{Text: l, Tooltip: r.valueSummary(o)}}})
			}
		}
	}
	if phis {
		i := sort.Search(len(r.Joins), func(i int) bool { return r.Joins[i].At >= start })
		for ; i < len(r.Joins) && r.Joins[i].At <= end; i++ {
			hints = append(hints, Hint{At: r.Joins[i].At, Kind: HintPhi, Parts: r.phiParts(r.Joins[i].Block)})
		}
	}
	sort.SliceStable(hints, func(i, j int) bool { return hints[i].At < hints[j].At })
	return hints
}

// phiParts renders the φs of b with each operand a part linked to its definition.
func (r *Result) phiParts(b *ssa.Block) []HintPart {
	var parts []HintPart
	for i, p := range b.Phis {
		head := "φ "
		if i > 0 {
			head = ", φ "
		}
		def := r.DefinedAt(p.Value)
		parts = append(parts, HintPart{Text: head}, HintPart{Text: name(p.Value), Def: &def, Tooltip: r.phiTooltip(p)}, HintPart{Text: " = ("})
		for j, op := range p.Operands {
			if j > 0 {
				parts = append(parts, HintPart{Text: ", "})
			}
			opDef := r.DefinedAt(op)
			parts = append(parts, HintPart{Text: name(op), Def: &opDef,
				Tooltip: fmt.Sprintf("from %s (line %d), defined on line %d", r.edgeName(b, j), r.Lines.Line(b.Preds[j].Term.Span.Start), r.Lines.Line(opDef.Start))})
		}
		parts = append(parts, HintPart{Text: ")"})
	}
	return parts
}

func name(v *ssa.Value) string { return v.Binding.Name + Subscript(v.Version) }

// edgeName describes the predecessor edge j of b for the user.
func (r *Result) edgeName(b *ssa.Block, j int) string {
	p := b.Preds[j]
	switch {
	case b.LoopHeader && p.Term.Span.Start >= b.Anchor.Start:
		return "the loop's back edge"
	case b.LoopHeader:
		return "the loop entry"
	}
	switch p.Term.Kind {
	case ssa.TermIf:
		if p.Term.Succs[0] == b {
			return "the branch where the condition holds"
		}
		return "the branch where the condition fails"
	case ssa.TermMaybeThrow:
		if p.Term.Succs[1] == b {
			return "an exception in the try block"
		}
	case ssa.TermThrow:
		return "the throw"
	case ssa.TermSwitch:
		return "the switch dispatch"
	}
	return "the end of the " + p.Label + " block"
}

func (r *Result) phiTooltip(p *ssa.Phi) string {
	return fmt.Sprintf("%s merges %d values where control flow joins", name(p.Value), len(p.Operands))
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

// describe says what kind of value v is and where it comes from, in a few words.
func (r *Result) describe(v *ssa.Value) string {
	switch v.Kind {
	case ssa.ValuePhi:
		return fmt.Sprintf("%s, the φ on line %d", name(v), r.Lines.Line(v.Block.Anchor.End))
	case ssa.ValueInitial, ssa.ValueUninit:
		return fmt.Sprintf("%s, %s", name(v), initialMeaning(v))
	case ssa.ValueParam:
		return fmt.Sprintf("%s, the parameter", name(v))
	}
	return fmt.Sprintf("%s, defined on line %d", name(v), r.Lines.Line(v.Def().Span.Start))
}

// initialMeaning says what version 0 of a binding, v, holds.
func initialMeaning(v *ssa.Value) string {
	switch {
	case v.Kind == ssa.ValueUninit:
		return "uninitialized again (the loop entered its block anew: a new temporal dead zone)"
	case v.Binding.Kind == ssa.Let || v.Binding.Kind == ssa.Const || v.Binding.Kind == ssa.Class:
		return "uninitialized (the temporal dead zone before its declaration)"
	}
	return "undefined (the value before any assignment)"
}
