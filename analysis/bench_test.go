package analysis_test

import (
	"slices"
	"testing"
	"time"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// BenchmarkAnalyze measures the whole pipeline on each JavaScript corpus file, and on each
// package of the TypeScript corpus (ts-zod, …): parse, lower, build. The occurrences are
// indexed when answers need them (index.go).
func BenchmarkAnalyze(b *testing.B) {
	run := func(name string, files []corpus.File) {
		b.Run(name, func(b *testing.B) {
			opts := make([]analysis.Options, len(files))
			var size int64
			for i, f := range files {
				opts[i].Language, _ = analysis.LanguageOfFile(f.Name)
				size += int64(len(f.Src))
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for i, f := range files {
					if _, err := analysis.Analyze(f.Src, opts[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
	for _, f := range corpus.Fetch(b) {
		run(f.Name, []corpus.File{f})
	}
	for _, pkg := range corpus.Packages(corpus.FetchTypeScript(b)) {
		run("ts-"+pkg.Name, pkg.Files)
	}
}

// BenchmarkKeystroke is the analysis side of a keystroke: a space typed at the start of the
// middle line of a corpus file (corpus.MiddleLine; deleted again by the next iteration), the
// incremental re-parse and analysis of the new version, and the hints of the 100 lines around
// the edit. Each reports the median and the 99th percentile. It runs on one goroutine, so its
// instruction count is the same from run to run (callgrind), and BenchmarkReparse in
// treesitter is its parse floor.
func BenchmarkKeystroke(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			doc := analysis.NewDocument(f.Src, analysis.Options{})
			doc.Result()
			// The first keystroke after the file is opened copies nearly every function
			// (BenchmarkFirstKeystroke). Two keystrokes go untimed, and the text is as it was;
			// then the user pauses (PrepareEdit), and the whole parse of a file parsed in pieces
			// is over: the keystrokes timed run beside nothing else.
			keystroke := typeInMiddle(&doc, f.Src)
			keystroke(0)
			keystroke(1)
			doc.PrepareEdit()
			var durations []time.Duration
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				keystroke(i)
				durations = append(durations, time.Since(start))
			}
			doc.Close()
			corpus.ReportLatency(b, durations)
		})
	}
}

// BenchmarkFirstKeystroke is BenchmarkKeystroke's first keystroke, untimed there: a corpus
// file is opened and analyzed, the user reads it, while the server prepares the next version
// (Document.PrepareEdit, at the first pause), and types a space at the start of its middle line.
// Each reports the median and the 99th percentile.
func BenchmarkFirstKeystroke(b *testing.B) { firstKeystroke(b, true) }

// BenchmarkFirstKeystrokeAtOnce is BenchmarkFirstKeystroke for a user who types as soon as the
// first answers are out, with no pause for PrepareEdit: a file of 128 kB or more was parsed in
// pieces, and its whole parse, which tree-sitter's re-parse of the next version starts from,
// has just begun on another goroutine (treesitter.Tree.ParseWhole).
func BenchmarkFirstKeystrokeAtOnce(b *testing.B) { firstKeystroke(b, false) }

func firstKeystroke(b *testing.B, prepare bool) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			var durations []time.Duration
			for b.Loop() {
				b.StopTimer()
				doc := analysis.NewDocument(f.Src, analysis.Options{})
				doc.Result()
				if prepare {
					doc.PrepareEdit()
				}
				keystroke := typeInMiddle(&doc, f.Src)
				b.StartTimer()
				start := time.Now()
				keystroke(0)
				durations = append(durations, time.Since(start))
				doc.Close()
			}
			corpus.ReportLatency(b, durations)
		})
	}
}

// typeInMiddle returns a keystroke at the start of the middle line of src, the text of *doc:
// the ith types a space there if i is even, and deletes it if i is odd; *doc becomes the new
// version, whose analysis and hints of the 100 lines around the edit it computes.
func typeInMiddle(doc **analysis.Document, src []byte) func(i int) {
	line, mid := corpus.MiddleLine(src)
	from, to := (*doc).Lines().Start(max(0, line-50)), (*doc).Lines().Start(line+50)
	typed := slices.Concat(src[:mid], []byte(" "), src[mid:])
	return func(i int) {
		if i%2 == 0 {
			*doc = (*doc).Edit(typed, analysis.Edit{StartByte: uint32(mid), OldEndByte: uint32(mid), NewEndByte: uint32(mid + 1)})
		} else {
			*doc = (*doc).Edit(src, analysis.Edit{StartByte: uint32(mid), OldEndByte: uint32(mid + 1), NewEndByte: uint32(mid)})
		}
		(*doc).Result().InlayHints(from, to+int32(i%2), analysis.HintOptions{Versions: true, Phis: true})
	}
}

// BenchmarkPreviewHints measures the preview of the first 60 lines of each JavaScript corpus
// file that has one (analysis.Document.PreviewHints): the parse of the start of the file, its
// lowering both ways if the start does not tell whether the file is strict, and the scan of
// the rest for calls of eval.
func BenchmarkPreviewHints(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			doc := analysis.NewDocument(f.Src, analysis.Options{})
			end := doc.Lines().Start(60)
			o := analysis.HintOptions{Versions: true, Phis: true}
			if _, ok := doc.PreviewHints(0, end, o); !ok {
				b.Skip("no preview")
			}
			for b.Loop() {
				doc.PreviewHints(0, end, o)
			}
		})
	}
}
