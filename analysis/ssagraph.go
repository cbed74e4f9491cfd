package analysis

import (
	"fmt"
	"io"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// Graph is the SSA form of one function as data: its blocks with their φs, instructions and
// terminal, each with the source it comes from, and the edges between the blocks. The Show SSA
// view draws it and `ssalens dump --dot` prints it for Graphviz. Values are named as the hints
// name them (x₂), and a φ reads x₃ ← φ(₁,₂), one operand per predecessor, in their order.
type Graph struct {
	Name     string
	Span     Span
	Analyzed bool
	Reason   string // why the function is not analyzed, when it is not
	// Kept says why the graph is of the last version of the text that parsed, when it is (a
	// syntax error breaks the function now: see moved.go).
	Kept   string
	Blocks []GraphBlock
	Edges  []GraphEdge
}

// GraphBlock is one basic block.
type GraphBlock struct {
	ID    int32
	Label string // what the block is for: entry, then, while, join, …
	Loop  bool   // the header of a source loop
	// Span covers the source of the block's lines; a block with none is at its φs.
	Span  Span
	Lines []GraphLine // φs, then instructions, then the terminal
}

// GraphLineKind tells the lines of a block apart.
type GraphLineKind uint8

const (
	LinePhi GraphLineKind = iota
	LineInstr
	LineTerm
)

var lineKindNames = [...]string{"phi", "instr", "term"}

func (k GraphLineKind) String() string { return lineKindNames[k] }

// GraphLine is a φ, an instruction or a terminal, and the source it comes from.
type GraphLine struct {
	Kind    GraphLineKind
	Text    string
	Span    Span
	Tooltip string // a φ's operands, each with the edge it comes by
}

// GraphEdge is a control-flow edge.
type GraphEdge struct {
	From, To int32
	Label    string // then, else, case, default, exception, throw; "" for the only way on
	Back     bool   // a loop's back edge: the loop header dominates where it leaves
}

// FunctionGraph returns the graph of the innermost function at off.
func (r *Result) FunctionGraph(off int32) (Graph, bool) {
	fn := r.innermostFunc(off)
	if fn == nil {
		return Graph{}, false
	}
	return r.graph(fn), true
}

func (r *Result) graph(fn *ssa.Function) Graph {
	g := Graph{Name: fn.Name, Span: r.funcSpan(fn), Analyzed: fn.Analyzed()}
	if k, ok := r.keptFunc(fn); ok {
		g.Kept = k.note(r)
	}
	if !g.Analyzed {
		g.Reason = r.notAnalyzed(fn)
		return g
	}
	fn.Materialize()
	for _, b := range fn.Blocks {
		gb := GraphBlock{ID: b.ID, Label: b.Label, Loop: b.LoopHeader}
		for _, p := range b.Phis {
			gb.Lines = append(gb.Lines, GraphLine{Kind: LinePhi, Text: phiText(p), Span: r.span(pointAt(b.Anchor.End)), Tooltip: r.phiEdges(p)})
		}
		for i := range b.Instrs {
			in := &b.Instrs[i]
			gb.Lines = append(gb.Lines, GraphLine{Kind: LineInstr, Text: fn.InstrText(in, name), Span: r.span(in.Span)})
		}
		gb.Lines = append(gb.Lines, GraphLine{Kind: LineTerm, Text: b.Term.String(), Span: r.span(b.Term.Span)})
		gb.Span = blockSpan(gb.Lines)
		g.Blocks = append(g.Blocks, gb)
		for i, s := range b.Term.Succs {
			g.Edges = append(g.Edges, GraphEdge{From: b.ID, To: s.ID, Label: edgeLabel(&b.Term, i),
				Back: s.LoopHeader && r.dominators(fn).Dominates(s, b)})
		}
	}
	return g
}

func pointAt(off int32) Span { return Span{Start: off, End: off} }

// blockSpan covers the spans of lines, the φs' point if nothing else has a span.
func blockSpan(lines []GraphLine) Span {
	var s Span
	found := false
	for _, l := range lines {
		if l.Span.End == 0 || l.Kind == LinePhi {
			continue
		}
		if !found {
			s, found = l.Span, true
		}
		s = Span{Start: min(s.Start, l.Span.Start), End: max(s.End, l.Span.End)}
	}
	if !found && len(lines) > 0 {
		s = lines[0].Span
	}
	return s
}

// phiText renders a φ for the graph: x₃ ← φ(₁,₂), an operand per predecessor, in order.
func phiText(p *ssa.Phi) string {
	ops := make([]string, len(p.Operands))
	for i, op := range p.Operands {
		ops[i] = Subscript(op.Version)
	}
	return fmt.Sprintf("%s ← φ(%s)", name(p.Value), strings.Join(ops, ","))
}

// phiEdges lists the operands of p, each with the block and the edge it comes by.
func (r *Result) phiEdges(p *ssa.Phi) string {
	lines := make([]string, len(p.Operands))
	for i, op := range p.Operands {
		lines[i] = fmt.Sprintf("%s from bb%d, %s", name(op), p.Block.Preds[i].ID, r.edgeFrom(p.Block, i))
	}
	return strings.Join(lines, "\n")
}

// edgeLabel names the way out of a block through its terminal's successor i.
func edgeLabel(t *ssa.Terminal, i int) string {
	switch t.Kind {
	case ssa.TermIf:
		return [...]string{"then", "else"}[i]
	case ssa.TermSwitch:
		if i == len(t.Succs)-1 {
			return "default"
		}
		return "case"
	case ssa.TermMaybeThrow:
		if i == 1 {
			return "exception"
		}
	case ssa.TermThrow:
		return "throw"
	}
	return ""
}

// DumpDot writes the graph of every function named name ("": all) in Graphviz's DOT language,
// one digraph each.
func (r *Result) DumpDot(w io.Writer, name string) error {
	found := false
	for _, fn := range r.Funcs {
		if name != "" && fn.Name != name {
			continue
		}
		found = true
		if err := r.graph(fn).WriteDot(w); err != nil {
			return err
		}
	}
	if !found {
		return fmt.Errorf("no function named %q", name)
	}
	return nil
}

// WriteDot writes g as a Graphviz digraph: a box per block with its lines, left-aligned, and
// an edge per control-flow edge, labelled, back edges dashed.
func (g Graph) WriteDot(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "digraph %s {\n", dotQuote(g.Name))
	if !g.Analyzed {
		fmt.Fprintf(&sb, "\tlabel=%s;\n}\n", dotQuote(g.Name+" is not analyzed: "+g.Reason))
		_, err := io.WriteString(w, sb.String())
		return err
	}
	sb.WriteString("\tnode [shape=box, fontname=\"monospace\"];\n")
	for _, b := range g.Blocks {
		var label strings.Builder
		fmt.Fprintf(&label, "bb%d (%s)\n", b.ID, b.Label)
		for _, l := range b.Lines {
			label.WriteString("  " + l.Text + "\n")
		}
		fmt.Fprintf(&sb, "\tbb%d [label=%s];\n", b.ID, dotQuote(label.String()))
	}
	for _, e := range g.Edges {
		var attrs []string
		if e.Label != "" {
			attrs = append(attrs, "label="+dotQuote(e.Label))
		}
		if e.Back {
			attrs = append(attrs, "style=dashed")
		}
		fmt.Fprintf(&sb, "\tbb%d -> bb%d", e.From, e.To)
		if len(attrs) > 0 {
			fmt.Fprintf(&sb, " [%s]", strings.Join(attrs, ", "))
		}
		sb.WriteString(";\n")
	}
	sb.WriteString("}\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// dotQuote quotes s as a DOT string whose lines end left-aligned (\l).
func dotQuote(s string) string {
	s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\l`).Replace(s)
	return `"` + s + `"`
}
