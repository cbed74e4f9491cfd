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
	for i := range r.Occurrences {
		o := &r.Occurrences[i]
		if l := r.Label(o); l != "" {
			ins = append(ins, insert{o.Span.End, l})
		}
	}
	for _, j := range r.Joins {
		prefix := " "
		if j.Loop {
			prefix = "   "
		}
		ins = append(ins, insert{j.At, prefix + label(r.phiParts(j.Block))})
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
