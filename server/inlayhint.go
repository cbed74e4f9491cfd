package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// The LSP 3.17 inlay hint types, which protocol v0.12.0 lacks.

type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        *protocol.Range                 `json:"range"` // required
}

type inlayHint struct {
	Position protocol.Position `json:"position"`
	// Label is a string, or an []inlayHintLabelPart when parts link to definitions.
	Label       any           `json:"label"`
	Kind        inlayHintKind `json:"kind,omitempty"`
	Tooltip     string        `json:"tooltip,omitempty"`
	PaddingLeft bool          `json:"paddingLeft,omitempty"`
}

type inlayHintLabelPart struct {
	Value    string             `json:"value"`
	Tooltip  string             `json:"tooltip,omitempty"`
	Location *protocol.Location `json:"location,omitempty"`
}

type inlayHintKind int

// inlayHintType is the kind for hints that annotate a variable, as a type would.
const inlayHintType inlayHintKind = 1

// inlayHint returns the version and φ hints of the requested range, as the settings ask and
// focused where the cursor is (cursor.go): from the analysis of the current version, or, while
// it is computed, from an older one or a preview (stale.go).
func (s *Server) inlayHint(_ context.Context, st *snapshot, params json.RawMessage) (any, error) {
	var p inlayHintParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Range == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: textDocument/inlayHint needs a range")
	}
	f, err := st.file(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	start, end := offset(f.lines(), p.Range.Start, st.encoding), offset(f.lines(), p.Range.End, st.encoding)
	o := st.hintOptions(f)
	hints, early := s.earlyHints(f, start, end, o)
	if !early {
		hints = f.result().InlayHints(start, end, o)
	}
	out := make([]inlayHint, len(hints))
	for i, h := range hints {
		out[i] = toInlayHint(f, h, st.encoding)
	}
	return out, nil
}

// toInlayHint gives a hint of one plain part a string label with the part's tooltip, and a
// hint with linked parts a label of parts.
func toInlayHint(f *file, h analysis.Hint, enc positionEncoding) inlayHint {
	ih := inlayHint{Position: position(f.lines(), h.At, enc)}
	if h.Kind == analysis.HintVersion {
		ih.Kind = inlayHintType
	} else {
		ih.PaddingLeft = true
	}
	if len(h.Parts) == 1 && h.Parts[0].Def == nil {
		ih.Label, ih.Tooltip = h.Parts[0].Text, h.Parts[0].Tooltip
		return ih
	}
	parts := make([]inlayHintLabelPart, len(h.Parts))
	for i, part := range h.Parts {
		parts[i] = inlayHintLabelPart{Value: part.Text, Tooltip: part.Tooltip}
		if part.Def != nil {
			parts[i].Location = &protocol.Location{URI: f.uri, Range: rangeOf(f.lines(), *part.Def, enc)}
		}
	}
	ih.Label = parts
	return ih
}
