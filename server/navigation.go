package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// definition returns where the value at the position is defined; for a φ, every definition
// that reaches it through φs. With ssalens.navigation.standardRequests off it answers null,
// leaving the answer to the editor's own language support.
func (s *Server) definition(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	f, off, err := st.position(params)
	if err != nil || !st.settings.standardRequests {
		return nil, err
	}
	return f.locations(f.result().Definition(off), st.encoding), nil
}

// declaration returns the declaration of the variable at the position.
func (s *Server) declaration(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	f, off, err := st.position(params)
	if err != nil {
		return nil, err
	}
	span, ok := f.result().Declaration(off)
	if !ok {
		return nil, nil
	}
	return f.locations([]analysis.Span{span}, st.encoding), nil
}

// references returns the uses of the value at the position, and its definition when asked;
// null with ssalens.navigation.standardRequests off.
func (s *Server) references(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	var p protocol.ReferenceParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	f, off, err := st.offset(p.TextDocumentPositionParams)
	if err != nil || !st.settings.standardRequests {
		return nil, err
	}
	return f.locations(f.result().References(off, p.Context.IncludeDeclaration), st.encoding), nil
}

// documentHighlight marks the definition of the value at the position (Write) and its uses
// (Read).
func (s *Server) documentHighlight(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	f, off, err := st.position(params)
	if err != nil {
		return nil, err
	}
	var out []protocol.DocumentHighlight
	for _, h := range f.result().Highlights(off) {
		kind := protocol.DocumentHighlightKindRead
		if h.Write {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: rangeOf(f.lines(), h.Span, st.encoding), Kind: kind})
	}
	return out, nil
}

// locations turns spans of f into locations; none is null, the LSP's "no result".
func (f *file) locations(spans []analysis.Span, enc positionEncoding) []protocol.Location {
	var out []protocol.Location
	for _, sp := range spans {
		out = append(out, protocol.Location{URI: f.uri, Range: rangeOf(f.lines(), sp, enc)})
	}
	return out
}

// locatedItem is a place in a list of ssalens' own: where, and what the value is there.
type locatedItem struct {
	URI    protocol.DocumentURI `json:"uri"`
	Range  protocol.Range       `json:"range"`
	Label  string               `json:"label"`
	Detail string               `json:"detail,omitempty"`
}

// reachingDefinitions answers ssalens/reachingDefinitions: the definitions textDocument/definition
// gives, each labelled (x₂ — defined on line 4) with its source line, whatever the settings say
// about the standard requests.
func (s *Server) reachingDefinitions(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	f, off, err := st.position(params)
	if err != nil {
		return nil, err
	}
	return f.locatedItems(f.result().ReachingDefinitions(off), st.encoding), nil
}

// valueReferences answers ssalens/valueReferences: the definition and uses of the value at the
// position, each labelled.
func (s *Server) valueReferences(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	f, off, err := st.position(params)
	if err != nil {
		return nil, err
	}
	return f.locatedItems(f.result().ValueReferences(off), st.encoding), nil
}

// locatedItems turns labelled places of f into list items; none is null.
func (f *file) locatedItems(ls []analysis.Located, enc positionEncoding) []locatedItem {
	var out []locatedItem
	for _, l := range ls {
		out = append(out, locatedItem{URI: f.uri, Range: rangeOf(f.lines(), l.Span, enc), Label: l.Label, Detail: l.Detail})
	}
	return out
}
