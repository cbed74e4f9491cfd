package server

import (
	"fmt"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/internal/pathological"
)

// TestPathologicalInputsServer opens every pathological family (internal/pathological) in one
// server, at 2,000 levels of nesting or repetitions: its diagnostics are published, and the
// inlay hints of the whole text and a hover come within 10 s each.
func TestPathologicalInputsServer(t *testing.T) {
	skipUnderRace(t)
	c := startInitialized(t, refreshCapable, nil)
	for i, in := range pathological.Inputs {
		uri := protocol.DocumentURI(fmt.Sprintf("file:///pathological%d.js", i))
		c.open(uri, in.Text(2000))
		c.diagnostics(uri, 1)
		c.answer("textDocument/inlayHint", hintsParams(uri, 0, 1<<30))
		c.answer("textDocument/hover", at(uri, 0, 12))
		c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
}
