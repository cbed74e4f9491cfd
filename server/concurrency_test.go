package server

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
)

// TestConcurrentRequestsAndEdits types into several documents at once while other goroutines
// send every kind of request about them; each document must end in the analysis of its final
// text. Run with -race.
func TestConcurrentRequestsAndEdits(t *testing.T) {
	const docs = 4
	c := startInitialized(t, nil, nil)
	uris := make([]protocol.DocumentURI, docs)
	for i := range uris {
		uris[i] = protocol.DocumentURI(fmt.Sprintf("file:///concurrent%d.js", i))
		c.open(uris[i], fixture)
	}
	typed := "function t(k) {\n  let v = k;\n  for (let j = 0; j < k; j++) v += j;\n  return v;\n}\n"
	var typists, askers sync.WaitGroup
	done := make(chan struct{})
	for _, uri := range uris {
		typists.Add(1)
		go func() {
			defer typists.Done()
			ty := &typist{c: c, uri: uri, version: 1, line: 18}
			ty.typeText(typed)
		}()
		askers.Add(1)
		go func() {
			defer askers.Done()
			for i := uint32(0); ; i++ {
				select {
				case <-done:
					return
				default:
				}
				p := at(uri, i%24, i%20)
				for _, method := range []string{"textDocument/hover", "textDocument/definition", "textDocument/declaration",
					"textDocument/documentHighlight", "ssalens/showSSA"} {
					c.mustCall(method, p)
				}
				p["context"] = map[string]any{"includeDeclaration": true}
				c.mustCall("textDocument/references", p)
				c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": span(i%24, 0, i%24+10, 0)})
			}
		}()
	}
	typists.Wait()
	close(done)
	askers.Wait()
	version := int32(1 + len(typed))
	for _, uri := range uris {
		sameAnalysis(t, c, uri, version, 0, fixture+typed)
	}
	if strings.Contains(c.stderr.String(), "panic") {
		t.Errorf("server log:\n%s", c.stderr)
	}
}
