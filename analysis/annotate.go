package analysis

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// Subscript renders n with Unicode subscript digits.
func Subscript(n int32) string {
	var sb strings.Builder
	for _, d := range strconv.Itoa(int(n)) {
		sb.WriteRune('₀' + (d - '0'))
	}
	return sb.String()
}

// Label returns the version suffix shown after an occurrence: ₂ for a read or a write, ₂→₃ for
// an occurrence that does both, "" for one that shows no version.
func (r *Result) Label(o *Occurrence) string {
	if r.quiet(o) {
		return ""
	}
	switch {
	case o.Read != nil && o.Write != nil:
		return Subscript(o.Read.Version) + "→" + Subscript(o.Write.Version)
	case o.Write != nil:
		return Subscript(o.Write.Version)
	case o.Read != nil:
		return Subscript(o.Read.Version)
	}
	return ""
}

// quiet reports whether an occurrence shows no version: a function, class or import binding
// that is never reassigned is a constant, and a subscript on each of its uses is noise; a read
// that can see it uninitialized still shows x₀.
func (r *Result) quiet(o *Occurrence) bool {
	switch o.Binding.Kind {
	case ssa.FunctionDecl, ssa.Class, ssa.Import:
		single := r.single[o.Binding]
		return single != nil && (o.Read == nil || o.Read == single) && (o.Write == nil || o.Write == single)
	}
	return false
}

// PhiText renders the φs of a join: `φ x₃ = (x₁, x₂)`, several separated by commas.
func PhiText(b *ssa.Block) string {
	parts := make([]string, len(b.Phis))
	for i, p := range b.Phis {
		ops := make([]string, len(p.Operands))
		for j, op := range p.Operands {
			ops[j] = op.Binding.Name + Subscript(op.Version)
		}
		parts[i] = "φ " + p.Value.Binding.Name + Subscript(p.Value.Version) + " = (" + strings.Join(ops, ", ") + ")"
	}
	return strings.Join(parts, ", ")
}

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
		ins = append(ins, insert{j.At, prefix + PhiText(j.Block)})
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
