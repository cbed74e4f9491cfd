package server

import (
	"slices"

	"go.lsp.dev/protocol"
)

// initializeParams are the parts of the initialize request the server reads. It is decoded
// from the raw message because protocol v0.12.0 (LSP 3.15) lacks the 3.17 fields.
type initializeParams struct {
	Capabilities struct {
		General   generalClientCapabilities `json:"general"`
		Workspace struct {
			InlayHint struct {
				RefreshSupport bool `json:"refreshSupport"`
			} `json:"inlayHint"`
		} `json:"workspace"`
		Window struct {
			WorkDoneProgress bool `json:"workDoneProgress"`
		} `json:"window"`
	} `json:"capabilities"`
	InitializationOptions any `json:"initializationOptions"`
}

type generalClientCapabilities struct {
	PositionEncodings []positionEncoding `json:"positionEncodings"`
}

// encoding picks UTF-8 when the client offers it (no conversion at all), else the mandatory
// UTF-16.
func (g generalClientCapabilities) encoding() positionEncoding {
	if slices.Contains(g.PositionEncodings, utf8Encoding) {
		return utf8Encoding
	}
	return utf16Encoding
}

// clientCapabilities is what the server needs to know about the client.
type clientCapabilities struct {
	inlayHintRefresh bool // it accepts workspace/inlayHint/refresh
	workDoneProgress bool // it takes $/progress reports of tokens the server creates
}

type initializeResult struct {
	Capabilities serverCapabilities  `json:"capabilities"`
	ServerInfo   protocol.ServerInfo `json:"serverInfo"`
}

// serverCapabilities adds the LSP 3.17 fields to protocol's.
type serverCapabilities struct {
	protocol.ServerCapabilities
	PositionEncoding  positionEncoding `json:"positionEncoding"`
	InlayHintProvider bool             `json:"inlayHintProvider"`
}

// showSSACommand is the workspace/executeCommand form of ssalens/showSSA.
const showSSACommand = "ssalens.showSSA"

func capabilities(enc positionEncoding) serverCapabilities {
	return serverCapabilities{
		ServerCapabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{IncludeText: true},
			},
			HoverProvider:             true,
			DefinitionProvider:        true,
			DeclarationProvider:       true,
			ReferencesProvider:        true,
			DocumentHighlightProvider: true,
			CodeLensProvider:          &protocol.CodeLensOptions{},
			ExecuteCommandProvider:    &protocol.ExecuteCommandOptions{Commands: []string{showSSACommand}},
		},
		PositionEncoding:  enc,
		InlayHintProvider: true,
	}
}
