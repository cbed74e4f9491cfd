package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// ssalens/functionGraph {textDocument, position}: the SSA form of the innermost function at the
// position as data, for the live Show SSA view, which draws the control-flow graph and links each
// line back to its source. null when no function is there.

type graphResult struct {
	Name     string         `json:"name"`
	Range    protocol.Range `json:"range"`
	Analyzed bool           `json:"analyzed"`
	Reason   string         `json:"reason,omitempty"`
	Kept     string         `json:"kept,omitempty"` // the graph is of the last version that parsed: why
	Blocks   []graphBlock   `json:"blocks"`
	Edges    []graphEdge    `json:"edges"`
}

type graphBlock struct {
	ID    int32          `json:"id"`
	Label string         `json:"label"`
	Loop  bool           `json:"loop,omitempty"`
	Range protocol.Range `json:"range"`
	Lines []graphLine    `json:"lines"`
}

type graphLine struct {
	Kind    string         `json:"kind"` // phi, instr, term
	Text    string         `json:"text"`
	Range   protocol.Range `json:"range"`
	Tooltip string         `json:"tooltip,omitempty"`
}

type graphEdge struct {
	From  int32  `json:"from"`
	To    int32  `json:"to"`
	Label string `json:"label,omitempty"`
	Back  bool   `json:"back,omitempty"`
}

func (s *Server) functionGraph(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	f, off, err := st.position(params)
	if err != nil {
		return nil, err
	}
	g, ok := f.result().FunctionGraph(off)
	if !ok {
		return nil, nil
	}
	return toGraphResult(f, g, st.encoding), nil
}

func toGraphResult(f *file, g analysis.Graph, enc positionEncoding) graphResult {
	out := graphResult{Name: g.Name, Range: rangeOf(f.lines(), g.Span, enc), Analyzed: g.Analyzed, Reason: g.Reason, Kept: g.Kept,
		Blocks: make([]graphBlock, len(g.Blocks)), Edges: make([]graphEdge, len(g.Edges))}
	for i, b := range g.Blocks {
		gb := graphBlock{ID: b.ID, Label: b.Label, Loop: b.Loop, Range: rangeOf(f.lines(), b.Span, enc), Lines: make([]graphLine, len(b.Lines))}
		for j, l := range b.Lines {
			gb.Lines[j] = graphLine{Kind: l.Kind.String(), Text: l.Text, Range: rangeOf(f.lines(), l.Span, enc), Tooltip: l.Tooltip}
		}
		out.Blocks[i] = gb
	}
	for i, e := range g.Edges {
		out.Edges[i] = graphEdge{From: e.From, To: e.To, Label: e.Label, Back: e.Back}
	}
	return out
}
