package lower

import (
	ts "github.com/ssalens/ssalens/treesitter"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// benchmarkCorpus runs bench on the parsed tree of each corpus file, reporting MB/s.
func benchmarkCorpus(b *testing.B, bench func(*testing.B, *ts.Tree)) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			tree, err := ts.Parse(ts.JavaScript, f.Src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
			b.SetBytes(int64(len(f.Src)))
			b.ReportAllocs()
			bench(b, tree)
		})
	}
}

// BenchmarkLower measures the lowering of a parsed, flattened corpus file to HIR, scope
// resolution included. Compare with BenchmarkParse on the same file.
func BenchmarkLower(b *testing.B) {
	benchmarkCorpus(b, func(b *testing.B, tree *ts.Tree) {
		for b.Loop() {
			Lower(tree)
		}
	})
}

// BenchmarkBuildSSA measures ssa.Build on every analyzable function of a corpus file.
func BenchmarkBuildSSA(b *testing.B) {
	benchmarkCorpus(b, func(b *testing.B, tree *ts.Tree) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			file := Lower(tree)
			b.StartTimer()
			for _, fn := range file.Funcs {
				if fn.Analyzed() {
					if err := ssa.Build(fn); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
}
