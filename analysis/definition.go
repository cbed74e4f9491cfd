package analysis

import "github.com/ssalens/ssalens/ssa"

// Definition returns the definitions of the value at off: its own definition, or for a φ
// every non-φ definition that reaches it through the φ web. At a join point it answers for the
// join's φs. For a variable that is not renamed it returns the declaration.
func (r *Result) Definition(off int32) []Span {
	o := r.occurrenceAt(off)
	if o == nil {
		var spans []Span
		for _, j := range r.Joins {
			if j.At == off {
				for _, p := range j.Block.Phis {
					spans = append(spans, r.reachingDefinitions(p.Value)...)
				}
			}
		}
		return spans
	}
	v := o.value()
	if v == nil {
		if o.Binding.Kind == ssa.Global {
			return nil
		}
		return []Span{r.span(o.Binding.Decl)}
	}
	return r.reachingDefinitions(v)
}

// reachingDefinitions returns the definition sites of the non-φ values that reach v through
// φs, in source order.
func (r *Result) reachingDefinitions(v *ssa.Value) []Span {
	var spans []Span
	for _, d := range ssa.Sources(v) {
		spans = append(spans, r.DefinedAt(d))
	}
	sortSpans(spans)
	return spans
}

// Declaration returns the declaration of the variable at off.
func (r *Result) Declaration(off int32) (Span, bool) {
	o := r.occurrenceAt(off)
	if o == nil || o.Binding.Kind == ssa.Global {
		return Span{}, false
	}
	return r.span(o.Binding.Decl), true
}
