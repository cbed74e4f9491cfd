package analysis

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// value returns the SSA value an occurrence stands for in navigation: the one it reads, or
// the one it defines.
func (o *Occurrence) value() *ssa.Value {
	if o.Read != nil {
		return o.Read
	}
	return o.Write
}

// occurrenceAt returns the occurrence at off, or nil.
func (r *Result) occurrenceAt(off int32) *Occurrence {
	if i := r.At(off); i >= 0 {
		return &r.Occurrences[i]
	}
	return nil
}

// Definition returns the definitions of the value at off: its own definition, or for a φ
// every non-φ definition that reaches it through the φ web. At a join point it answers for the
// join's φs. For a variable that is not renamed it returns the declaration.
func (r *Result) Definition(off int32) []ssa.Span {
	o := r.occurrenceAt(off)
	if o == nil {
		var spans []ssa.Span
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
		return []ssa.Span{o.Binding.Decl}
	}
	return r.reachingDefinitions(v)
}

// reachingDefinitions returns the definition sites of the non-φ values that reach v through
// φs, in source order.
func (r *Result) reachingDefinitions(v *ssa.Value) []ssa.Span {
	var spans []ssa.Span
	for _, d := range ssa.Sources(v) {
		spans = append(spans, r.DefinedAt(d))
	}
	sortSpans(spans)
	return spans
}

// Declaration returns the declaration of the variable at off.
func (r *Result) Declaration(off int32) (ssa.Span, bool) {
	o := r.occurrenceAt(off)
	if o == nil || o.Binding.Kind == ssa.Global {
		return ssa.Span{}, false
	}
	return o.Binding.Decl, true
}

// Highlight is one occurrence to highlight: the definition (Write) or a use.
type Highlight struct {
	Span  ssa.Span
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
		for i := range r.Occurrences {
			if x := &r.Occurrences[i]; x.Binding == o.Binding {
				hs = append(hs, Highlight{Span: x.Span, Write: x.Assigns})
			}
		}
		return hs
	}
	var hs []Highlight
	if d := v.Def(); d != nil {
		hs = append(hs, Highlight{Span: d.Span, Write: true})
	}
	for _, p := range r.Uses(v) {
		if len(hs) > 0 && hs[0].Span == p.Span {
			continue // x += 1 reads and writes one occurrence
		}
		hs = append(hs, Highlight{Span: p.Span})
	}
	return hs
}

// References returns the uses of the value at off, and its definition if includeDef; for a
// variable that is not renamed, every occurrence of it.
func (r *Result) References(off int32, includeDef bool) []ssa.Span {
	var spans []ssa.Span
	for _, h := range r.Highlights(off) {
		if !h.Write || includeDef {
			spans = append(spans, h.Span)
		}
	}
	return spans
}

// Hover returns Markdown describing the value at off and the span it describes.
func (r *Result) Hover(off int32) (string, ssa.Span, bool) {
	o := r.occurrenceAt(off)
	if o == nil {
		return "", ssa.Span{}, false
	}
	var sb strings.Builder
	b := o.Binding
	switch {
	case b.Kind == ssa.Global:
		fmt.Fprintf(&sb, "`%s` is a global: it resolves to no declaration in this file, so it is not renamed.", b.Name)
	case o.Func.NotAnalyzed != "":
		fmt.Fprintf(&sb, "`%s` (%s) is in `%s`, which is not analyzed: %s.", b.Name, b.Kind, o.Func.Name, o.Func.NotAnalyzed)
	case b.Context:
		fmt.Fprintf(&sb, "`%s` (%s) is a context variable: %s. A call may change it, so it is not renamed.", b.Name, b.Kind, b.Why)
	case o.value() == nil && b.Owner.NotAnalyzed != "":
		fmt.Fprintf(&sb, "`%s` (%s) is declared in `%s`, which is not analyzed: %s.", b.Name, b.Kind, b.Owner.Name, b.Owner.NotAnalyzed)
	case o.value() == nil:
		fmt.Fprintf(&sb, "`%s` (%s) is captured from `%s`, and this function can run before `%s` is assigned there (its closure is created first), so the read has no single version.", b.Name, b.Kind, b.Owner.Name, b.Name)
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
	return sb.String(), o.Span, true
}

func (r *Result) hoverValue(sb *strings.Builder, v *ssa.Value, from *ssa.Function) {
	fmt.Fprintf(sb, "**%s** — version %d of `%s` (%s)", name(v), v.Version, v.Binding.Name, v.Binding.Kind)
	if v.Binding.Owner != from {
		fmt.Fprintf(sb, ", captured from `%s`", v.Binding.Owner.Name)
	}
	sb.WriteString("\n\n")
	switch v.Kind {
	case ssa.ValuePhi:
		fmt.Fprintf(sb, "φ on line %d, where control flow joins:\n\n", r.Lines.Line(v.Block.Anchor.End))
		for i, op := range v.Phi.Operands {
			fmt.Fprintf(sb, "- `%s` from %s (line %d): %s\n", name(op), r.edgeName(v.Block, i),
				r.Lines.Line(v.Block.Preds[i].Term.Span.Start), r.definitionLine(op))
		}
	case ssa.ValueInitial, ssa.ValueUninit:
		fmt.Fprintf(sb, "The value before any definition: %s.\n", initialMeaning(v))
	case ssa.ValueParam:
		fmt.Fprintf(sb, "Parameter, defined on entry to `%s` (line %d).\n", v.Block.Func.Name, r.Lines.Line(v.Def().Span.Start))
	default:
		fmt.Fprintf(sb, "Defined on line %d: `%s`\n", r.Lines.Line(v.Def().Span.Start), r.sourceLine(v.Def().Span.Start))
		if c, ok := constant(v); ok {
			fmt.Fprintf(sb, "\nValue: `%s`\n", c)
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
			lines = append(lines, fmt.Sprint(r.Lines.Line(p.Span.Start)))
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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// definitionLine says where v is defined, for a φ operand in a hover.
func (r *Result) definitionLine(v *ssa.Value) string {
	switch v.Kind {
	case ssa.ValuePhi:
		return fmt.Sprintf("the φ on line %d", r.Lines.Line(v.Block.Anchor.End))
	case ssa.ValueInitial, ssa.ValueUninit:
		return initialMeaning(v)
	}
	return fmt.Sprintf("defined on line %d, `%s`", r.Lines.Line(v.Def().Span.Start), r.sourceLine(v.Def().Span.Start))
}

// sourceLine returns the trimmed source line holding off, shortened if long.
func (r *Result) sourceLine(off int32) string {
	line, _ := r.Lines.Position(off)
	start := r.Lines.Start(line)
	end := int32(len(r.Src))
	if line+1 < r.Lines.Count() {
		end = r.Lines.Start(line + 1)
	}
	text := string(bytes.TrimSpace(r.Src[start:end]))
	if len(text) > 80 {
		text = text[:77] + "..."
	}
	return strings.ReplaceAll(text, "`", "'")
}

// constant returns the literal a definition stores, when it stores one directly.
func constant(v *ssa.Value) (string, bool) {
	in := v.Instr
	if in == nil || in.Op != ssa.OpStoreLocal {
		return "", false
	}
	for i := range v.Block.Instrs {
		if d := &v.Block.Instrs[i]; d.Dest == in.Args[0] && d.Op == ssa.OpConst {
			return d.Text, true
		}
	}
	return "", false
}

// ShowSSA returns the name and printed HIR+SSA of the innermost function at off.
func (r *Result) ShowSSA(off int32) (string, string, bool) {
	var best *ssa.Function
	for _, fn := range r.Funcs {
		if fn.Span.Start <= off && off <= fn.Span.End && (best == nil || fn.Span.Start >= best.Span.Start) {
			best = fn
		}
	}
	if best == nil {
		return "", "", false
	}
	return best.Name, best.String(), true
}

func sortSpans(spans []ssa.Span) {
	slices.SortFunc(spans, func(a, b ssa.Span) int { return int(a.Start - b.Start) })
}
