package analysis

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ssalens/ssalens/ssa"
)

// Hover returns Markdown describing the value at off and the span it describes.
func (r *Result) Hover(off int32) (string, Span, bool) {
	o := r.occurrenceAt(off)
	if o == nil {
		return "", Span{}, false
	}
	var sb strings.Builder
	b := o.Binding
	switch {
	case isArgumentsObjectName(o):
		sb.WriteString("`arguments` is the arguments object of the function it is in, made at each call: no declaration, so it is not renamed.")
	case b.Kind == ssa.Global:
		fmt.Fprintf(&sb, "`%s` is a global: it resolves to no declaration in this file, so it is not renamed.", b.Name)
	case !o.Func.Analyzed():
		fmt.Fprintf(&sb, "`%s` (%s) is in `%s`, which is not analyzed: %s.", r.declared(b), b.Kind, o.Func.Name, r.notAnalyzed(o.Func))
	case b.Context():
		fmt.Fprintf(&sb, "`%s` (%s) is a context variable: %s. A call may change it, so it is not renamed.", r.declared(b), b.Kind, notRenamed(b))
	case o.value() == nil && !b.Owner.Analyzed():
		fmt.Fprintf(&sb, "`%s` (%s) is declared in `%s`, which is not analyzed: %s.", r.declared(b), b.Kind, b.Owner.Name, r.notAnalyzed(b.Owner))
	case o.value() == nil:
		fmt.Fprintf(&sb, "`%s` (%s) is captured from `%s`, and this function can run before `%s` is assigned there (its closure is created first), so the read has no single version.", r.declared(b), b.Kind, b.Owner.Name, b.Name)
	default:
		if o.Read != nil {
			r.hoverValue(&sb, o.Read, o.Func)
		}
		if o.Write != nil && o.Write != o.Read {
			if o.Read != nil {
				sb.WriteString("\n\n---\n\n")
			}
			r.hoverValue(&sb, o.Write, o.Func)
		}
	}
	if k, ok := r.keptNow(o); ok {
		fmt.Fprintf(&sb, "\n\n*%s*", k.note(r))
	}
	return sb.String(), o.Span, true
}

// keptFunc is a function whose answers a moved Result keeps from its last good analysis.
type keptFunc struct {
	fn       *ssa.Function
	at       Span // the syntax error
	reshaped bool // parsed otherwise now, not broken
}

// keptNow returns the function whose answers at o a moved Result keeps from the text it
// analyzed though its own text now says otherwise: o's function, broken or parsed otherwise
// now, or the broken function that declares o's variable.
func (r *Result) keptNow(o *Occurrence) (keptFunc, bool) {
	if k, ok := r.keptFunc(o.Func); ok || r.moving == nil {
		return k, ok
	}
	at, ok := r.moving.broken[o.Binding.Owner]
	return keptFunc{fn: o.Binding.Owner, at: at}, ok
}

// keptFunc returns fn as a function whose answers a moved Result keeps from the text it
// analyzed though its own text now says otherwise: broken or parsed otherwise now.
func (r *Result) keptFunc(fn *ssa.Function) (keptFunc, bool) {
	if r.moving == nil {
		return keptFunc{}, false
	}
	if at, ok := r.moving.reshaped[fn]; ok {
		return keptFunc{fn: fn, at: at, reshaped: true}, true
	}
	at, ok := r.moving.broken[fn]
	return keptFunc{fn: fn, at: at}, ok
}

// note says where k's answers come from, and why.
func (k keptFunc) note(r *Result) string {
	if k.reshaped {
		return fmt.Sprintf("From the last version that parsed: the syntax error at %s makes %s parse otherwise now.", r.positionInSrc(k.at.Start), describeFunc(k.fn))
	}
	return fmt.Sprintf("From the last version that parsed: %s has a syntax error now, at %s.", describeFunc(k.fn), r.positionInSrc(k.at.Start))
}

// hoverValue describes v, read or defined in the function from: its definition (each operand
// of a φ with its edge and its own definition), its constant value, its uses.
func (r *Result) hoverValue(sb *strings.Builder, v *ssa.Value, from *ssa.Function) {
	fmt.Fprintf(sb, "**%s** — version %d of `%s` (%s)", name(v), v.Version, r.declared(v.Binding), v.Binding.Kind)
	if v.Binding.Owner != from {
		fmt.Fprintf(sb, ", captured from `%s`", v.Binding.Owner.Name)
	}
	sb.WriteString("\n\n")
	switch v.Kind {
	case ssa.ValuePhi:
		// The rows are the hint's operands, with the φs folded into it (phiOperands).
		fmt.Fprintf(sb, "`%s` on line %d, where control flow joins:\n\n", label(r.phiHint(v.Phi, true)), r.line(v.Block.Anchor.End))
		for _, op := range r.phiOperands(v.Phi) {
			fmt.Fprintf(sb, "- `%s` %s: %s\n", name(op.v), strings.Join(op.edges, " and "), r.origin(op.v, true))
		}
	case ssa.ValueInitial, ssa.ValueUninit:
		fmt.Fprintf(sb, "The value before any definition: %s.\n", initialMeaning(v))
	case ssa.ValueParam:
		fmt.Fprintf(sb, "Parameter, defined on entry to `%s` (line %d).\n", v.Block.Func.Name, r.line(v.Def().Span.Start))
	default:
		fmt.Fprintf(sb, "Defined on line %d: %s\n", r.line(v.Def().Span.Start), r.quotedLine(v.Def().Span))
		if c := r.constant(v); c != nil {
			fmt.Fprintf(sb, "\nValue: `%s`\n", literal(c))
		}
	}
	uses := r.Uses(v)
	phiUses := 0
	for _, u := range v.Uses {
		if u.Phi != nil {
			phiUses++
		}
	}
	switch {
	case len(uses) == 0 && phiUses == 0:
		sb.WriteString("\nNever read.")
	default:
		lines := make([]string, 0, len(uses))
		for _, p := range uses {
			lines = append(lines, fmt.Sprint(r.line(p.Span.Start)))
		}
		fmt.Fprintf(sb, "\n%s", plural(len(uses), "use"))
		if len(lines) > 0 {
			fmt.Fprintf(sb, " (line %s)", strings.Join(lines, ", "))
		}
		if phiUses > 0 {
			fmt.Fprintf(sb, "; flows into %s", plural(phiUses, "φ"))
		}
		sb.WriteString(".")
	}
}

// Uses returns the places that read v, in its function and in nested functions, in source
// order; in a moved Result, those no edit touched.
func (r *Result) Uses(v *ssa.Value) []*ssa.Place {
	var ps []*ssa.Place
	for _, u := range v.Uses {
		if u.Place != nil && r.kept(u.Place.Span) {
			ps = append(ps, u.Place)
		}
	}
	for _, p := range r.capturedReadsOf(v) {
		if r.kept(p.Span) {
			ps = append(ps, p)
		}
	}
	sortPlaces(ps)
	return ps
}

// maxTypeText bounds the type annotation hover shows after a name.
const maxTypeText = 80

// declared returns the name of b with the type its TypeScript declaration gives it, on one
// line: `x: number`; the name alone if it has none.
func (r *Result) declared(b *ssa.Binding) string {
	at, ok := r.inSrc(b.Type)
	if b.Type.End <= b.Type.Start || !ok {
		return b.Name
	}
	typ := strings.Join(strings.Fields(string(r.Src[at.Start:at.End])), " ")
	if n := utf8.RuneCountInString(typ); n > maxTypeText {
		typ = string([]rune(typ)[:maxTypeText-1]) + "…"
	}
	return b.Name + ": " + strings.ReplaceAll(typ, "`", "'")
}
