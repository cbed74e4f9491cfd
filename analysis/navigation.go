package analysis

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ssalens/ssalens/ssa"
)

// Navigation lists that name what each place is: an editor's own definition and references
// lists show only the source line, and mix our answers with its own.

// Located is a place in Src with the words a list shows for it.
type Located struct {
	Span   Span
	Label  string // the value and what happens to it there: x₂ — defined on line 4
	Detail string // the source line
}

// ReachingDefinitions returns the definitions that reach the value at off, labelled: its own
// definition, or for a φ every definition other than a φ that reaches it through φs, in source
// order. At a join point it answers for the join's φs. For a variable that is not renamed it
// returns every store that may reach the read (see stores), and for a global nothing.
func (r *Result) ReachingDefinitions(off int32) []Located {
	var values []*ssa.Value
	o := r.occurrenceAt(off)
	switch {
	case o == nil:
		_, joins := r.indexOver(off, off)
		for _, j := range joins {
			for _, p := range j.Block.Phis {
				values = append(values, ssa.Sources(p.Value)...)
			}
		}
	case o.value() == nil && o.Binding.Kind == ssa.Global:
		return nil
	case o.value() == nil:
		return r.stores(o.Binding)
	default:
		values = ssa.Sources(o.value())
	}
	out := make([]Located, 0, len(values))
	for _, v := range values {
		// In a moved Result, a definition an edit touched is not in the text any more.
		if at, ok := r.inSrc(definedSpan(v)); ok {
			out = append(out, Located{Span: at, Label: name(v) + " — " + r.definedWhere(v), Detail: r.lineText(at.Start)})
		}
	}
	sortLocated(out)
	// A var's version 0 is defined at a declaration that may also assign it: list it once.
	return slices.CompactFunc(out, func(a, b Located) bool { return a.Span == b.Span })
}

// stores lists, for a variable that is not renamed where it is read (a context variable, or one
// a closure reads that may run before or after an assignment), every store that may reach the
// read: its declaration and every assignment, in its function and in its closures.
func (r *Result) stores(b *ssa.Binding) []Located {
	var out []Located
	decl, declKept := r.inSrc(b.Decl)
	if declKept {
		out = append(out, Located{Span: decl, Label: fmt.Sprintf("%s — declared on line %d", b.Name, r.Lines.Line(decl.Start)),
			Detail: r.lineText(decl.Start)})
	}
	occurrences := r.Occurrences()
	for i := range occurrences { // their spans are in Src already, moved or not
		if o := &occurrences[i]; o.Binding == b && o.Assigns && o.Span != decl {
			out = append(out, Located{Span: o.Span, Label: fmt.Sprintf("%s — assigned on line %d", b.Name, r.Lines.Line(o.Span.Start)),
				Detail: r.lineText(o.Span.Start)})
		}
	}
	sortLocated(out)
	return out
}

// definedWhere says where v is defined, for a list: defined on line 4, parameter on line 1.
func (r *Result) definedWhere(v *ssa.Value) string {
	switch {
	case v.Kind == ssa.ValuePhi:
		return fmt.Sprintf("φ on line %d", r.line(definedSpan(v).Start))
	case v.Uninitialized():
		return initialMeaning(v)
	case v.Kind == ssa.ValueParam:
		return fmt.Sprintf("parameter on line %d", r.line(definedSpan(v).Start))
	}
	return fmt.Sprintf("defined on line %d", r.line(definedSpan(v).Start))
}

// definedSpan returns where v is defined in the analyzed text, as DefinedAt does in Src.
func definedSpan(v *ssa.Value) Span {
	switch v.Kind {
	case ssa.ValuePhi:
		return Span{Start: v.Block.Anchor.End, End: v.Block.Anchor.End}
	case ssa.ValueInitial:
		return v.Binding.Decl
	}
	return v.Def().Span
}

// ValueReferences returns the definition and the uses of the value at off, labelled, a φ's
// join first; for a variable that is not renamed, every occurrence of it.
func (r *Result) ValueReferences(off int32) []Located {
	o := r.occurrenceAt(off)
	if o == nil {
		return nil
	}
	v := o.value()
	var out []Located
	if v != nil && v.Kind == ssa.ValuePhi {
		if at, ok := r.inSrc(definedSpan(v)); ok {
			out = append(out, Located{Span: at, Label: fmt.Sprintf("%s — φ on line %d", label(r.phiHint(v.Phi, true)), r.Lines.Line(at.Start)),
				Detail: r.lineText(at.Start)})
		}
	}
	for _, h := range r.Highlights(off) {
		what, verb := o.Binding.Name, "read"
		switch {
		case v != nil && h.Write:
			what, verb = name(v), "defined"
		case v != nil:
			what = name(v)
		case h.Write:
			verb = "assigned"
		}
		out = append(out, Located{Span: h.Span, Label: fmt.Sprintf("%s — %s on line %d", what, verb, r.Lines.Line(h.Span.Start)),
			Detail: r.lineText(h.Span.Start)})
	}
	return out
}

func sortLocated(ls []Located) {
	slices.SortStableFunc(ls, func(a, b Located) int { return cmp.Compare(a.Span.Start, b.Span.Start) })
}
