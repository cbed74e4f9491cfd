package analysis

import "github.com/ssalens/ssalens/ssa"

// Definition returns where the definitions that reach the value at off are (see
// ReachingDefinitions).
func (r *Result) Definition(off int32) []Span {
	var spans []Span
	for _, d := range r.ReachingDefinitions(off) {
		spans = append(spans, d.Span)
	}
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
