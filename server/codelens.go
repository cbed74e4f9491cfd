package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// Once a file, a code lens on its first line says why some of its variables show no versions
// (globals, context variables, functions not analyzed). Its command, ssalens.showUnrenamed,
// is the client's: it asks ssalens/unrenamed for the list and shows it.

const showUnrenamedCommand = "ssalens.showUnrenamed"

type codeLensParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
}

type codeLens struct {
	Range   protocol.Range `json:"range"`
	Command lensCommand    `json:"command"`
}

// lensCommand is an LSP Command with the tooltip of LSP 3.18.
type lensCommand struct {
	Title     string `json:"title"`
	Command   string `json:"command"`
	Tooltip   string `json:"tooltip,omitempty"`
	Arguments []any  `json:"arguments"`
}

// unrenamedArgument is the argument of ssalens.showUnrenamed: the document, and the summary and
// reasons, for a client that shows them without asking again.
type unrenamedArgument struct {
	URI     protocol.DocumentURI `json:"uri"`
	Summary string               `json:"summary"`
	Details string               `json:"details"`
}

// codeLens returns the lens that counts the variables without versions, or none when every
// variable of the file is renamed.
func (s *Server) codeLens(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	var p codeLensParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	f, err := st.file(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	u := f.result().Unrenamed()
	if u.Summary == "" {
		return []codeLens{}, nil
	}
	return []codeLens{{Command: lensCommand{
		Title:     "ssalens: no versions for " + u.Summary,
		Command:   showUnrenamedCommand,
		Tooltip:   u.Details,
		Arguments: []any{unrenamedArgument{URI: f.uri, Summary: u.Summary, Details: u.Details}},
	}}}, nil
}

type unrenamedResult struct {
	Summary string        `json:"summary"`
	Details string        `json:"details"`
	Items   []locatedItem `json:"items"`
}

// unrenamed answers ssalens/unrenamed {textDocument}: why variables of the file show no
// versions, each global, context variable and function not analyzed with its reason.
func (s *Server) unrenamed(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	var p codeLensParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	f, err := st.file(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	u := f.result().Unrenamed()
	items := f.locatedItems(u.Items, st.encoding)
	if items == nil {
		items = []locatedItem{}
	}
	return unrenamedResult{Summary: u.Summary, Details: u.Details, Items: items}, nil
}
