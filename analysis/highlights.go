package analysis

// Highlight is one occurrence to highlight: the definition (Write) or a use.
type Highlight struct {
	Span  Span
	Write bool
}

// Highlights returns the definition and the uses of the value at off; for a variable that is
// not renamed, every occurrence of it.
func (r *Result) Highlights(off int32) []Highlight {
	o := r.occurrenceAt(off)
	if o == nil {
		return nil
	}
	v := o.value()
	if v == nil {
		var hs []Highlight
		occurrences := r.Occurrences()
		for i := range occurrences {
			if x := &occurrences[i]; x.Binding == o.Binding {
				hs = append(hs, Highlight{Span: x.Span, Write: x.Assigns})
			}
		}
		return hs
	}
	var hs []Highlight
	if d := v.Def(); d != nil && r.kept(d.Span) {
		hs = append(hs, Highlight{Span: r.span(d.Span), Write: true})
	}
	for _, p := range r.Uses(v) {
		if len(hs) > 0 && hs[0].Span == r.span(p.Span) {
			continue // x += 1 reads and writes one occurrence
		}
		hs = append(hs, Highlight{Span: r.span(p.Span)})
	}
	return hs
}
