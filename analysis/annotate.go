package analysis

import (
	"sort"
	"strings"
)

// Annotate returns the source with a version after each occurrence and the φs at each join.
func (r *Result) Annotate() string {
	type insert struct {
		at   int32
		text string
	}
	var ins []insert
	x := r.indexed()
	for i := range x.occurrences {
		o := &x.occurrences[i]
		if l := r.Label(o); l != "" {
			ins = append(ins, insert{o.Span.End, l})
		}
	}
	// The φs at one point follow the code after a space (three after a loop's first line), and
	// each other after two.
	shown := int32(-1)
	for _, j := range x.joins {
		for _, parts := range r.phiHints(j.Block, true, Focus{}.showsPhi) {
			prefix := "  "
			switch {
			case j.At == shown:
			case j.Loop:
				prefix = "   "
			default:
				prefix = " "
			}
			shown = j.At
			ins = append(ins, insert{j.At, prefix + label(parts)})
		}
	}
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at < ins[j].at })
	var sb strings.Builder
	last := int32(0)
	for _, in := range ins {
		sb.Write(r.Src[last:in.at])
		sb.WriteString(in.text)
		last = in.at
	}
	sb.Write(r.Src[last:])
	return sb.String()
}
