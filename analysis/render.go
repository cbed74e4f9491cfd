package analysis

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ssalens/ssalens/ssa"
)

// The one renderer of values, φs and edges: every feature that names a value, says where it
// is defined or shows a φ with its operands (hover, inlay hints, annotate, dump) goes through
// these functions, so that they say the same thing the same way.

// Subscript renders n with Unicode subscript digits.
func Subscript(n int32) string {
	var sb strings.Builder
	for _, d := range strconv.Itoa(int(n)) {
		sb.WriteRune('₀' + (d - '0'))
	}
	return sb.String()
}

// name renders a value as its variable with the version as a subscript: x₂.
func name(v *ssa.Value) string { return v.Binding.Name + Subscript(v.Version) }

// DefinedAt returns where v is defined: its place for a parameter or definition, its join for
// a φ, its binding's declaration for an initial value.
func (r *Result) DefinedAt(v *ssa.Value) Span { return r.span(definedSpan(v)) }

// origin says in a few words where v comes from: the φ on line 3, the parameter, defined on
// line 4 (with the source line if source is set), or what version 0 holds.
func (r *Result) origin(v *ssa.Value, source bool) string {
	switch {
	case v.Kind == ssa.ValuePhi:
		return fmt.Sprintf("the φ on line %d", r.line(v.Block.Anchor.End))
	case v.Uninitialized():
		return initialMeaning(v)
	case v.Kind == ssa.ValueParam && !source:
		return "the parameter"
	case source:
		return fmt.Sprintf("defined on line %d, %s", r.line(v.Def().Span.Start), r.quotedLine(v.Def().Span))
	}
	return fmt.Sprintf("defined on line %d", r.line(v.Def().Span.Start))
}

// describe names v and says where it comes from: x₂, defined on line 4.
func (r *Result) describe(v *ssa.Value) string { return name(v) + ", " + r.origin(v, false) }

// initialMeaning says what version 0 of a binding, v, holds.
func initialMeaning(v *ssa.Value) string {
	switch {
	case v.Kind == ssa.ValueUninit:
		return "uninitialized again (the loop entered its block anew: a new temporal dead zone)"
	case v.Binding.Kind == ssa.Let || v.Binding.Kind == ssa.Const || v.Binding.Kind == ssa.Class:
		return "uninitialized (the temporal dead zone before its declaration)"
	}
	return "undefined (the value before any assignment)"
}

// edgeFrom describes the predecessor edge j of b, where a φ operand comes from: from the
// loop's back edge (line 7).
func (r *Result) edgeFrom(b *ssa.Block, j int) string {
	return fmt.Sprintf("from %s (line %d)", r.edgeName(b, j), r.line(b.Preds[j].Term.Span.Start))
}

// edgeName names the predecessor edge j of b. An edge into a loop header from a block the
// header dominates is a back edge. An exception goes to a catch block from its try block, and
// to a finally block from its try block or its catch block: "before the finally block" says
// both. A jump names its statement; an edge that only goes on names the construct it ends.
func (r *Result) edgeName(b *ssa.Block, j int) string {
	p := b.Preds[j]
	switch {
	case b.LoopHeader && r.dominators(b.Func).Dominates(b, p):
		return "the loop's back edge"
	case b.LoopHeader:
		return "the loop entry"
	}
	switch p.Term.Kind {
	case ssa.TermIf:
		switch {
		case p.Label == "for-in" || p.Label == "for-of":
			if p.Term.Succs[0] == b {
				return "the next iteration"
			}
			return "the end of the iteration"
		case p.Term.Succs[0] == b:
			return "the branch where the condition holds"
		}
		return "the branch where the condition fails"
	case ssa.TermMaybeThrow:
		switch {
		case p.Term.Succs[1] != b:
		case b.Label == "finally":
			return "an exception before the finally block"
		default:
			return "an exception in the try block"
		}
	case ssa.TermThrow:
		return "the throw"
	case ssa.TermSwitch:
		return "the switch dispatch"
	case ssa.TermGoto:
		if jump := r.jumpAt(p.Term.Span.Start); jump != "" {
			return "the " + jump // plain: a hint's tooltip is plain text
		}
		if p.Label == "completion" {
			return "a jump out of the try statement, after the finally block"
		}
	}
	return r.construct(p)
}

// jumpAt returns the keyword of the jump statement at offset at of the analyzed text, if one
// starts there: a jump's edge leaves from its statement's start. Answers moved through edits
// (moved.go) read the text there if no edit touched it.
func (r *Result) jumpAt(at int32) string {
	for _, jump := range []string{"break", "continue", "return"} {
		if s, ok := r.inSrc(Span{Start: at, End: at + int32(len(jump))}); ok && string(r.Src[s.Start:s.End]) == jump &&
			(int(s.End) == len(r.Src) || !isIdentByte(r.Src[s.End])) {
			return jump
		}
	}
	return ""
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// construct names the end of the code p belongs to: the nearest block that dominates p and
// starts a construct's code, past the blocks where the control flow of an expression or a
// statement inside it joins.
func (r *Result) construct(p *ssa.Block) string {
	joins := func(b *ssa.Block) bool {
		return b.Label == "join" || b.Label == "chain" || b.Label == "short" || b.Label == "rhs"
	}
	b := p
	if joins(b) { // the hints of a function whose φs need no dominators do not compute them
		doms := r.dominators(p.Func)
		for joins(b) && doms.Idom(b) != nil {
			b = doms.Idom(b)
		}
	}
	switch b.Label {
	case "after":
		return "the code after the try statement"
	case "body", "do": // a do loop's header is its body
		return "the end of the loop body"
	case "default":
		return "the end of the default value"
	case "case":
		return "the end of the case"
	}
	return "the end of the " + b.Label + " block"
}

// A φ hint shows one φ: `x₃ ← φ(₁,₂)`, the value it defines, then the versions of the same
// variable it merges, each once, in the order of the edges they come in by. The arrow keeps it
// apart from the code's own `=`; the operands are subscripts alone because they are versions of
// the φ's own variable, which keeps every hint short enough for an editor's hint width. Each part
// links to the definition of the value it names; the tooltip has the full form, one line per
// operand with the edges it comes from.
//
// Where φs of one variable chain at one point, as an else-if chain's joins do, the inner φ is
// shown folded into the outer one: `x₅ ← φ(₁,₂,₃)` rather than `x₄ ← φ(₂,₃)` and `x₅ ← φ(₁,₄)`.
//
// In φ-only mode, when no version hints are shown, a φ hint names the lines where its operands
// are defined instead: `x ← φ(L2,L3)`, with ⊥ for the value before any definition.

// phiOperand is a value a φ hint shows, with the edges it flows in by.
type phiOperand struct {
	v     *ssa.Value
	edges []string
}

// foldedInto returns the φ that p is shown folded into, or nil: a φ of the same variable at the
// same point that is p's only user. The same point is where p's block, which does nothing else,
// goes on to q's, and both are shown: a loop's header on one line with its exit is not.
func (r *Result) foldedInto(p *ssa.Phi) *ssa.Phi {
	v := p.Value
	// v.Uses are all of a φ's readers: a closure reads only a single definition, never a φ.
	if len(v.Uses) == 0 {
		return nil
	}
	q := v.Uses[0].Phi
	if b := p.Block; q == nil || len(b.Instrs) > 0 || b.Term.Kind != ssa.TermGoto || b.Term.Succs[0] != q.Block || q.Block.Anchor.End != b.Anchor.End {
		return nil
	}
	for _, u := range v.Uses {
		if u.Phi != q {
			return nil
		}
	}
	return q
}

// phiOperands returns the values the hint of p shows: its operands, those of the φs folded
// into it in their place, each value once.
func (r *Result) phiOperands(p *ssa.Phi) []phiOperand {
	var out []phiOperand
	index := make(map[*ssa.Value]int)
	type edge struct {
		v    *ssa.Value
		name string
	}
	named := make(map[edge]bool) // edges that read alike are named once
	var walk func(p *ssa.Phi)
	walk = func(p *ssa.Phi) {
		for j, op := range p.Operands {
			if op.Kind == ssa.ValuePhi && op.Phi != p && r.foldedInto(op.Phi) == p {
				walk(op.Phi)
				continue
			}
			i, seen := index[op]
			if !seen {
				i = len(out)
				index[op] = i
				out = append(out, phiOperand{v: op})
			}
			if e := (edge{op, r.edgeFrom(p.Block, j)}); !named[e] {
				named[e] = true
				out[i].edges = append(out[i].edges, e.name)
			}
		}
	}
	walk(p)
	return out
}

// MaxHintWidth is the longest φ hint label, in characters: VS Code cuts inlay hints at its
// default editor.inlayHints.maximumLength, 43.
const MaxHintWidth = 43

// phiHint renders the hint of the φ p; versions tells whether version hints are shown beside.
// A label longer than MaxHintWidth shows runs of operands as their first and last (₂…₂₄), and
// if that is not enough, as many operands as fit and how many more there are (…+5); every
// operand is in the tooltip.
func (r *Result) phiHint(p *ssa.Phi, versions bool) []HintPart {
	v := p.Value
	ops := r.phiOperands(p)
	def := r.DefinedAt(v)
	head := shorten(v.Binding.Name, MaxHintWidth-utf8.RuneCountInString("₁₂ ← φ(₁,₂)"))
	if versions {
		head += Subscript(v.Version)
	}
	texts := make([]string, len(ops))
	keys := make([]int, len(ops)) // consecutive keys make a run
	for i, op := range ops {
		texts[i], keys[i] = Subscript(op.v.Version), int(op.v.Version)
		if !versions {
			texts[i], keys[i] = "⊥", -1
			if !op.v.Uninitialized() {
				line := r.Lines.Line(r.DefinedAt(op.v).Start)
				texts[i], keys[i] = fmt.Sprintf("L%d", line), line
			}
		}
	}
	groups := operandGroups(head, texts, keys)
	parts := []HintPart{{Text: head, Def: &def, Tooltip: r.phiTooltip(v, ops)}, {Text: " ← φ("}}
	for i, g := range groups {
		if i > 0 {
			parts = append(parts, HintPart{Text: ","})
		}
		if g.more {
			var lines []string
			for _, op := range ops[g.first:] {
				lines = append(lines, r.phiOperandText(op))
			}
			parts = append(parts, HintPart{Text: g.label(texts), Tooltip: strings.Join(lines, "\n")})
			break
		}
		opDef := r.DefinedAt(ops[g.first].v)
		part := HintPart{Text: g.label(texts), Def: &opDef, Tooltip: r.phiOperandText(ops[g.first])}
		if g.last > g.first {
			var lines []string
			for _, op := range ops[g.first : g.last+1] {
				lines = append(lines, r.phiOperandText(op))
			}
			part.Tooltip = strings.Join(lines, "\n")
		}
		parts = append(parts, part)
	}
	return append(parts, HintPart{Text: ")"})
}

// shorten cuts name to n characters, the last an ellipsis, if it is longer.
func shorten(name string, n int) string {
	if utf8.RuneCountInString(name) <= n {
		return name
	}
	return string([]rune(name)[:n-1]) + "…"
}

// operandGroup is one shown piece of a φ's operand list: the operands first to last (a run when
// last > first), or, with more, that first and the operands after it are left out.
type operandGroup struct {
	first, last int
	more        bool
}

// label is how g shows the operands whose texts are texts.
func (g operandGroup) label(texts []string) string {
	switch {
	case g.more:
		return fmt.Sprintf("…+%d", len(texts)-g.first)
	case g.last > g.first:
		return texts[g.first] + "…" + texts[g.last]
	}
	return texts[g.first]
}

// operandGroups splits the operand texts of a φ hint that starts with head into what is shown:
// each operand alone if the label fits MaxHintWidth; else runs of three or more consecutive
// keys shown as their ends; else as many pieces as fit before a count of the rest.
func operandGroups(head string, texts []string, keys []int) []operandGroup {
	width := func(gs []operandGroup) int {
		n := utf8.RuneCountInString(head + " ← φ()")
		for i, g := range gs {
			if i > 0 {
				n++
			}
			n += utf8.RuneCountInString(texts[g.first])
			if g.last > g.first {
				n += 1 + utf8.RuneCountInString(texts[g.last])
			}
		}
		return n
	}
	groups := make([]operandGroup, len(texts))
	for i := range texts {
		groups[i] = operandGroup{first: i, last: i}
	}
	if width(groups) <= MaxHintWidth {
		return groups
	}
	groups = groups[:0]
	for i := 0; i < len(texts); {
		j := i
		for j+1 < len(texts) && keys[j] >= 0 && keys[j+1] == keys[j]+1 {
			j++
		}
		if j-i < 2 {
			j = i
		}
		groups = append(groups, operandGroup{first: i, last: j})
		i = j + 1
	}
	more := len(" …+99") // the count of the rest, after a comma
	for i := range groups {
		if width(groups[:i+1])+more > MaxHintWidth && i+1 < len(groups) {
			return append(groups[:i:i], operandGroup{first: groups[i].first, more: true})
		}
	}
	return groups
}

// phiOperandText says where an operand of a φ comes from and where it is defined.
func (r *Result) phiOperandText(op phiOperand) string {
	return fmt.Sprintf("%s: %s, %s", name(op.v), strings.Join(op.edges, " and "), r.origin(op.v, false))
}

// phiTooltip is the full form of a φ hint: the φ and each operand.
func (r *Result) phiTooltip(v *ssa.Value, ops []phiOperand) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s = φ of %s where control flow joins:", name(v), plural(len(ops), "value"))
	for _, op := range ops {
		sb.WriteString("\n" + r.phiOperandText(op))
	}
	return sb.String()
}

// phiHints returns the hints of the φs of b that are not folded into another and that shown
// reports true for.
func (r *Result) phiHints(b *ssa.Block, versions bool, shown func(*ssa.Phi) bool) [][]HintPart {
	var hints [][]HintPart
	for _, p := range b.Phis {
		if r.foldedInto(p) == nil && shown(p) {
			hints = append(hints, r.phiHint(p, versions))
		}
	}
	return hints
}

// sourceLine returns the trimmed source line holding off, an offset of the analyzed text,
// shortened if long.
func (r *Result) sourceLine(off int32) string {
	return r.lineText(r.span(Span{Start: off, End: off}).Start)
}

// quotedLine quotes the line of Src that holds s, a span of the analyzed text. In a moved
// Result whose edits touched s, it says so instead: the line holds other text now.
func (r *Result) quotedLine(s Span) string {
	at, ok := r.inSrc(s)
	if !ok {
		return "edited since the last version that parsed"
	}
	return "`" + r.lineText(at.Start) + "`"
}

// lineText returns the trimmed line of Src holding off; a long one is shortened to the part
// around off (at character boundaries, and without copying the rest of the line), so that
// what off points at shows on a minified line too.
func (r *Result) lineText(off int32) string {
	line, _ := r.Lines.Position(off, UTF8)
	start := r.Lines.Start(int(line))
	end := int32(len(r.Src))
	if int(line)+1 < r.Lines.Count() {
		end = r.Lines.Start(int(line) + 1)
	}
	lead := int32(len(r.Src[start:end]) - len(bytes.TrimLeftFunc(r.Src[start:end], unicode.IsSpace)))
	text := bytes.TrimSpace(r.Src[start:end])
	prefix, suffix := "", ""
	if len(text) > maxLineText {
		from, to := 0, len(text)
		if at := int(off - start - lead); at > maxLineText/3 {
			from = min(at-maxLineText/3, len(text)-(maxLineText-3))
			for from < len(text) && !utf8.RuneStart(text[from]) {
				from++
			}
			prefix = "..."
		}
		if to-from > maxLineText-len(prefix) {
			to = from + maxLineText - len(prefix) - 3
			for to > from && !utf8.RuneStart(text[to]) {
				to--
			}
			suffix = "..."
		}
		text = text[from:to]
	}
	return prefix + strings.ReplaceAll(string(text), "`", "'") + suffix
}

// maxLineText is how many bytes of a source line lineText shows at most, with its ellipses.
const maxLineText = 80

// constant returns the instruction of the literal a definition stores, when it stores one
// directly, or nil.
func (r *Result) constant(v *ssa.Value) *ssa.Instr {
	in := v.Instr
	if in == nil || in.Op != ssa.OpStoreLocal {
		return nil
	}
	return r.literals(v.Block.Func)[in.Args[0]]
}

// literals maps the temporaries of fn that hold a literal to the instruction that makes it (a
// literal's temporary is assigned once), computed once for all callers: finding it by a scan
// of the block for each definition would cost the block's length each.
func (r *Result) literals(fn *ssa.Function) map[ssa.Temp]*ssa.Instr {
	if m, ok := r.literalTemps.Load(fn); ok {
		return m.(map[ssa.Temp]*ssa.Instr)
	}
	m := make(map[ssa.Temp]*ssa.Instr)
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			if d := &b.Instrs[i]; d.Op == ssa.OpConst || d.Op == ssa.OpUndefined {
				m[d.Dest] = d
			}
		}
	}
	actual, _ := r.literalTemps.LoadOrStore(fn, m)
	return actual.(map[ssa.Temp]*ssa.Instr)
}

// literal renders the value of a constant instruction.
func literal(c *ssa.Instr) string {
	if c.Op == ssa.OpUndefined {
		return "undefined"
	}
	return c.Text
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// position renders off, an offset of the analyzed text, as line:column, both from 1, the
// column in bytes.
func (r *Result) position(off int32) string {
	return r.positionInSrc(r.span(Span{Start: off, End: off}).Start)
}

// positionInSrc renders off, an offset of Src, as position does.
func (r *Result) positionInSrc(off int32) string {
	p := r.place(off)
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}
