package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// hover describes the SSA value at the position in Markdown.
func (s *Server) hover(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	f, off, err := st.position(params)
	if err != nil {
		return nil, err
	}
	md, span, ok := f.result().Hover(off)
	if !ok {
		return nil, nil
	}
	r := rangeOf(f.lines(), span, st.encoding)
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}, nil
}
