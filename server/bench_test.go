package server

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

// openCorpusFile opens f in a new server for a client with the given capabilities and waits
// for its diagnostics, so that its analysis is done.
func openCorpusFile(b *testing.B, f corpus.File, capabilities any) (*testClient, protocol.DocumentURI) {
	c := startInitialized(b, capabilities, nil)
	uri := protocol.DocumentURI("file:///" + f.Name + ".js")
	c.open(uri, string(f.Src))
	c.diagnostics(uri, 1)
	return c, uri
}

func hintsParams(uri protocol.DocumentURI, from, to uint32) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "range": span(from, 0, to, 0)}
}

// BenchmarkInlayHints asks for the hints of a whole corpus file, analyzed already: the cost
// of selecting the hints, converting positions and encoding and sending the reply.
func BenchmarkInlayHints(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			c, uri := openCorpusFile(b, f, nil)
			params := hintsParams(uri, 0, 1<<30)
			b.SetBytes(int64(len(c.mustCall("textDocument/inlayHint", params))))
			for b.Loop() {
				c.mustCallDiscarding("textDocument/inlayHint", params)
			}
		})
	}
}

// BenchmarkEditThenHints types one character in the middle of a corpus file (a space at the
// start of the middle line, deleted again by the next iteration) and asks for the hints of
// the 100 lines around it, as an editor does after a keystroke: the didChange (text, line
// index, incremental re-parse), then the hints. The client accepts inlay hint refreshes, as
// VS Code does, so the hints may come from the previous analysis while the new one runs.
func BenchmarkEditThenHints(b *testing.B) {
	benchmarkEditThenHints(b, map[string]any{"workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": true}}})
}

// BenchmarkEditThenFreshHints is BenchmarkEditThenHints for a client without refresh
// support: every answer waits for the analysis of the edited version.
func BenchmarkEditThenFreshHints(b *testing.B) {
	benchmarkEditThenHints(b, nil)
}

func benchmarkEditThenHints(b *testing.B, capabilities any) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			c, uri := openCorpusFile(b, f, capabilities)
			mid := uint32(bytes.Count(f.Src, []byte("\n")) / 2)
			params := hintsParams(uri, mid-min(mid, 50), mid+50)
			version := int32(1)
			var durations []time.Duration
			for b.Loop() {
				start := time.Now()
				version++
				if version%2 == 0 {
					c.change(uri, version, contentChange{Range: span(mid, 0, mid, 0), Text: " "})
				} else {
					c.change(uri, version, contentChange{Range: span(mid, 0, mid, 1), Text: ""})
				}
				c.mustCallDiscarding("textDocument/inlayHint", params)
				durations = append(durations, time.Since(start))
			}
			slices.Sort(durations)
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(durations[len(durations)/2]), "median-ms")
			b.ReportMetric(ms(durations[len(durations)*99/100]), "p99-ms")
		})
	}
}
