package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// showSSAResult is the printed HIR+SSA of one function.
type showSSAResult struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// showSSA answers ssalens/showSSA: the innermost function at the position, printed.
func (s *Server) showSSA(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	var p protocol.TextDocumentPositionParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	return st.printSSA(p)
}

func (st *snapshot) printSSA(p protocol.TextDocumentPositionParams) (any, error) {
	f, off, err := st.offset(p)
	if err != nil {
		return nil, err
	}
	name, text, ok := f.result().ShowSSA(off)
	if !ok {
		return nil, nil
	}
	return showSSAResult{Name: name, Text: text}, nil
}

type executeCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

// executeCommand runs ssalens.showSSA, whose arguments are [{textDocument, position}] or
// [uri, position].
func (s *Server) executeCommand(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	var p executeCommandParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Command != showSSACommand {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", p.Command)
	}
	var pos protocol.TextDocumentPositionParams
	switch len(p.Arguments) {
	case 1:
		if err := decodeParams(p.Arguments[0], &pos); err != nil {
			return nil, err
		}
	case 2:
		if err := decodeParams(p.Arguments[0], &pos.TextDocument.URI); err != nil {
			return nil, err
		}
		if err := decodeParams(p.Arguments[1], &pos.Position); err != nil {
			return nil, err
		}
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes [{textDocument, position}] or [uri, position], got %d arguments", showSSACommand, len(p.Arguments))
	}
	return st.printSSA(pos)
}
