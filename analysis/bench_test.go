package analysis_test

import (
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// BenchmarkAnalyze measures the whole pipeline on a corpus file: parse, lower, build, index.
func BenchmarkAnalyze(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(f.Src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := analysis.Analyze(f.Src, analysis.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
