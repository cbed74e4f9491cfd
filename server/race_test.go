package server

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/internal/race"
)

// TestConcurrentEditingWithRequestsInFlight edits several documents at once, each from its own
// goroutine with random insertions and deletions, several changes per notification at times,
// while other goroutines send requests about them that they leave in flight, half of them
// cancelled, change the settings (which asks the client to refresh its hints) and open and
// close a scratch document. Each editor ends with a valid text, sent whole, in a last version:
// each document must end in the analysis of that text. It is
// the server's test under the race detector (go test -race ./server/..., in .ci/run), kept to
// a second or two.
func TestConcurrentEditingWithRequestsInFlight(t *testing.T) {
	const docs, edits = 4, 60
	c := startInitialized(t, refreshCapable, nil)
	uris := make([]protocol.DocumentURI, docs)
	for i := range uris {
		uris[i] = protocol.DocumentURI(fmt.Sprintf("file:///race%d.js", i))
		c.open(uris[i], fixture)
	}
	inserts := []string{"x", "\n", "let q = 1;", "q = q + 1;", "if (q) ", "{", "}", "(", ")", "é", "😀", "while (q) q--;"}
	finals := make([]string, docs)
	var editors, others sync.WaitGroup
	done := make(chan struct{})
	for i, uri := range uris {
		editors.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			text := []byte(fixture)
			for v := int32(2); v < 2+edits; v++ {
				var changes []contentChange
				for range 1 + rng.IntN(3) {
					start := rng.IntN(len(text) + 1)
					for start > 0 && start < len(text) && text[start]&0xc0 == 0x80 {
						start--
					}
					end := start
					if rng.IntN(3) == 0 {
						end = min(len(text), start+rng.IntN(6))
						for end < len(text) && text[end]&0xc0 == 0x80 {
							end++
						}
					}
					insert := inserts[rng.IntN(len(inserts))]
					lines := analysis.NewLines(text)
					r := protocol.Range{Start: position(lines, int32(start), utf16Encoding), End: position(lines, int32(end), utf16Encoding)}
					changes = append(changes, contentChange{Range: &r, Text: insert})
					text = []byte(string(text[:start]) + insert + string(text[end:]))
				}
				c.change(uri, v, changes...)
			}
			finals[i] = fmt.Sprintf("%s\nfunction last%d(a) { let b = a; if (a) b = %d; return b; }\n", fixture, i, len(text))
			c.change(uri, 2+edits, contentChange{Text: finals[i]})
		})
		others.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				p := at(uri, uint32(n%20), uint32(n%12))
				method := []string{"textDocument/hover", "textDocument/definition", "textDocument/documentHighlight", "ssalens/showSSA"}[n%4]
				id, _ := c.conn.Call(&afterSend{Context: context.Background()}, method, p, nil)
				if n%2 == 0 {
					c.notify("$/cancelRequest", map[string]any{"id": &id})
				}
				c.answer("textDocument/inlayHint", hintsParams(uri, 0, 100))
			}
		})
	}
	others.Go(func() {
		for n := 0; ; n++ {
			select {
			case <-done:
				return
			default:
			}
			c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"ssalens": map[string]any{
				"inlayHints": map[string]any{"phis": n%2 == 0}}}})
			scratch := protocol.DocumentURI(fmt.Sprintf("file:///scratch%d.js", n))
			c.open(scratch, fixture)
			c.answer("textDocument/hover", at(scratch, 1, 6))
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": scratch}})
		}
	})
	editors.Wait()
	close(done)
	others.Wait()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"ssalens": map[string]any{
		"inlayHints": map[string]any{"phis": true}}}})
	for i, uri := range uris {
		c.diagnostics(uri, 2+edits) // analyzed: its hints are no longer answered from an older version
		sameAnalysis(t, c, uri, 2+edits, 0, finals[i])
	}
	if strings.Contains(c.stderr.String(), "panic") {
		t.Errorf("server log:\n%s", c.stderr)
	}
}

// skipUnderRace skips a heavy test of one goroutine's work under the race detector, which makes
// it ten times slower and has nothing to look at in it; go test ./... runs it.
func skipUnderRace(t *testing.T) {
	if race.Enabled {
		t.Skip("a sequential test, skipped under the race detector")
	}
}
