package analysis

// References returns the uses of the value at off, and its definition if includeDef; for a
// variable that is not renamed, every occurrence of it.
func (r *Result) References(off int32, includeDef bool) []Span {
	var spans []Span
	for _, h := range r.Highlights(off) {
		if !h.Write || includeDef {
			spans = append(spans, h.Span)
		}
	}
	return spans
}
