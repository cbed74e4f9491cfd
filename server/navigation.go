package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// definition returns where the value at the position is defined; for a φ, every definition
// that reaches it through φs.
func (s *Server) definition(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	f, off, err := st.position(params)
	if err != nil {
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

// references returns the uses of the value at the position, and its definition when asked.
func (s *Server) references(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	var p protocol.ReferenceParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	f, off, err := st.offset(p.TextDocumentPositionParams)
	if err != nil {
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
