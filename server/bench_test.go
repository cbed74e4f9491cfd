package server

import (
	"runtime/metrics"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
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
	benchmarkEditThenHints(b, refreshSupport(true))
}

// The BenchmarkEditThenFresh benchmarks time a keystroke until one answer of the edited
// version is back, for a client without inlay hint refresh support, so that every answer
// waits for the fresh analysis: a space typed at the start of the middle line of a corpus
// file (deleted again by the next iteration), then the hints of the 100 lines around it, the
// hover, definition or references of the first local variable after it, or the diagnostics
// published for the version. Each reports the median and the 99th percentile.

func BenchmarkEditThenFreshHints(b *testing.B) {
	benchmarkEditThen(b, nil, nil, hintsAround)
}

// BenchmarkTypeThenFreshHints is BenchmarkEditThenFreshHints for a user typing 80 words a
// minute: 150 ms pass, untimed, between an answer and the next keystroke.
func BenchmarkTypeThenFreshHints(b *testing.B) {
	benchmarkEditThen(b, nil, func(*Server) { time.Sleep(150 * time.Millisecond) }, hintsAround)
}

// BenchmarkPauseThenFreshHints is BenchmarkEditThenFreshHints for a user who pauses before
// each keystroke: the server first does what its idle timer does after a pause (Server.idle),
// untimed, then the keystroke is timed until its hints are back.
func BenchmarkPauseThenFreshHints(b *testing.B) {
	benchmarkEditThen(b, nil, (*Server).idle, hintsAround)
}

func BenchmarkEditThenFreshHover(b *testing.B) {
	benchmarkEditThen(b, nil, nil, func(c *testClient, k keystroke) {
		c.mustCallDiscarding("textDocument/hover", at(k.uri, k.use.Line, k.use.Character))
	})
}

func BenchmarkEditThenFreshDefinition(b *testing.B) {
	benchmarkEditThen(b, nil, nil, func(c *testClient, k keystroke) {
		c.mustCallDiscarding("textDocument/definition", at(k.uri, k.use.Line, k.use.Character))
	})
}

func BenchmarkEditThenFreshReferences(b *testing.B) {
	benchmarkEditThen(b, nil, nil, func(c *testClient, k keystroke) {
		params := at(k.uri, k.use.Line, k.use.Character)
		params["context"] = map[string]any{"includeDeclaration": true}
		c.mustCallDiscarding("textDocument/references", params)
	})
}

func BenchmarkEditThenFreshDiagnostics(b *testing.B) {
	benchmarkEditThen(b, nil, nil, func(c *testClient, k keystroke) {
		c.diagnosticsAfter(k.received, k.uri, k.version)
	})
}

// BenchmarkEditInBodyThenFreshHints is BenchmarkEditThenFreshHints with the space typed in
// the body of a function, as most typing is, rather than on the middle line, which in lodash,
// three.core and typescript.js is code of runInContext, of the top level or of a factory that
// holds hundreds of functions: at the start of the second line of the first function at or
// after the middle line that holds no other function and spans three lines or more.
func BenchmarkEditInBodyThenFreshHints(b *testing.B) {
	benchmarkEditAt(b, lineInBody, " ", nil, nil, hintsAround)
}

// BenchmarkTypeWordThenFreshHints is BenchmarkTypeThenFreshHints for a word typed where
// BenchmarkEditInBodyThenFreshHints types its space, `let abc = x; `, then deleted, a character
// at a time: before the statement the line held, it leaves the text broken by a syntax error
// at most keystrokes, as typing does, and the version answers from the last one that parsed
// (analysis/moved.go).
func BenchmarkTypeWordThenFreshHints(b *testing.B) {
	benchmarkEditAt(b, lineInBody, "let abc = x; ", nil, func(*Server) { time.Sleep(150 * time.Millisecond) }, hintsAround)
}

// middleLine returns the middle line of src (corpus.MiddleLine).
func middleLine(b *testing.B, src []byte) uint32 {
	line, _ := corpus.MiddleLine(src)
	return uint32(line)
}

// lineInBody returns the second line of the first function of src at or after its middle
// line that holds no other function and spans three lines or more.
func lineInBody(b *testing.B, src []byte) uint32 {
	r, err := analysis.Analyze(src, analysis.Options{})
	if err != nil {
		b.Fatal(err)
	}
	mid := middleLine(b, src)
	for _, fn := range r.Funcs {
		first, _ := r.Lines.Position(fn.Span.Start, analysis.UTF16)
		last, _ := r.Lines.Position(fn.Span.End, analysis.UTF16)
		if len(fn.Children) == 0 && fn.Parent != nil && first >= mid && last >= first+2 {
			return first + 1
		}
	}
	b.Fatalf("no function of three lines after line %d", mid)
	return 0
}

// keystroke is what an answer after one edit asks about.
type keystroke struct {
	uri      protocol.DocumentURI
	version  int32
	mid      uint32            // the edited line
	use      protocol.Position // a local variable after it
	received int               // messages from the server before the edit
}

func benchmarkEditThenHints(b *testing.B, capabilities any) {
	benchmarkEditThen(b, capabilities, nil, hintsAround)
}

// hintsAround asks for the hints of the 100 lines around the edited line.
func hintsAround(c *testClient, k keystroke) {
	c.mustCallDiscarding("textDocument/inlayHint", hintsParams(k.uri, k.mid-min(k.mid, 50), k.mid+50))
}

// benchmarkEditThen times keystrokes on the middle line until answer is back, each after pause
// if it is not nil.
func benchmarkEditThen(b *testing.B, capabilities any, pause func(*Server), answer func(*testClient, keystroke)) {
	benchmarkEditAt(b, middleLine, " ", capabilities, pause, answer)
}

// benchmarkEditAt is benchmarkEditThen for keystrokes at the start of line(source) that type
// word a character at a time, then delete it from its end, over and over.
func benchmarkEditAt(b *testing.B, line func(*testing.B, []byte) uint32, word string, capabilities any, pause func(*Server), answer func(*testClient, keystroke)) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			c, uri := openCorpusFile(b, f, capabilities)
			k := keystroke{uri: uri, version: 1, mid: line(b, f.Src)}
			k.use = firstLocalAfter(b, f.Src, k.mid+1)
			var durations []time.Duration
			gcBefore := gcSeconds()
			for b.Loop() {
				if pause != nil {
					b.StopTimer()
					pause(c.server)
					b.StartTimer()
				}
				start := time.Now()
				k.version++
				k.received = c.count("")
				c.change(uri, k.version, typeThenDelete(word, k.mid, int(k.version-2)))
				answer(c, k)
				durations = append(durations, time.Since(start))
			}
			corpus.ReportLatency(b, durations)
			b.ReportMetric((gcSeconds()-gcBefore)*1000/float64(b.N), "gc-cpu-ms/op")
		})
	}
}

// gcSeconds returns the processor time the garbage collector took so far, as the runtime
// estimates it, pauses included: the keystrokes' collections, and those the server starts
// between them.
func gcSeconds() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	return s[0].Value.Float64()
}

// typeThenDelete returns keystroke i of typing word at the start of line, a character at a
// time, then deleting it from its end, over and over.
func typeThenDelete(word string, line uint32, i int) contentChange {
	n := len(word)
	k := i % (2 * n)
	if k < n {
		return contentChange{Range: span(line, uint32(k), line, uint32(k)), Text: word[k : k+1]}
	}
	at := uint32(2*n - 1 - k)
	return contentChange{Range: span(line, at, line, at+1), Text: ""}
}

// BenchmarkOpenThenHints opens a corpus file and asks for the hints of its first 60 lines, as
// an editor does when it shows a file: the time until they are back, then the file is closed
// again. Each reports the median and the 99th percentile. The client accepts a refresh, as
// VS Code does, so the first answer may come from a preview of the file's first lines;
// BenchmarkOpenThenAllHints measures the answer of the analysis of the whole file.
func BenchmarkOpenThenHints(b *testing.B) { benchmarkOpenThenHints(b, refreshSupport(true)) }

// BenchmarkOpenThenAllHints is BenchmarkOpenThenHints for a client that does not accept a
// refresh, which waits for the analysis of the whole file.
func BenchmarkOpenThenAllHints(b *testing.B) { benchmarkOpenThenHints(b, refreshSupport(false)) }

func benchmarkOpenThenHints(b *testing.B, capabilities map[string]any) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			c := startInitialized(b, capabilities, nil)
			uri := protocol.DocumentURI("file:///" + f.Name + ".js")
			var durations []time.Duration
			for b.Loop() {
				start := time.Now()
				c.open(uri, string(f.Src))
				c.mustCallDiscarding("textDocument/inlayHint", hintsParams(uri, 0, 60))
				durations = append(durations, time.Since(start))
				c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
			}
			corpus.ReportLatency(b, durations)
		})
	}
}

// firstLocalAfter returns the position of the first occurrence of a renamed variable on
// line or after it.
func firstLocalAfter(b *testing.B, src []byte, line uint32) protocol.Position {
	r, err := analysis.Analyze(src, analysis.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, o := range r.Occurrences() {
		if o.Read != nil || o.Write != nil {
			if l, c := r.Lines.Position(o.Span.Start, analysis.UTF16); l >= line {
				return protocol.Position{Line: l, Character: c}
			}
		}
	}
	b.Fatalf("no local variable after line %d", line)
	return protocol.Position{}
}
