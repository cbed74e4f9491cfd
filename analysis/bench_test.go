package analysis_test

import (
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// BenchmarkAnalyze measures the whole pipeline on each JavaScript corpus file, and on each
// package of the TypeScript corpus (ts-zod, …): parse, lower, build, index.
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
