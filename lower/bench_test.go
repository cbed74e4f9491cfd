package lower

import (
	"runtime"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// benchmarkCorpus runs bench on the parsed trees of each JavaScript corpus file, and of each
// package of the TypeScript corpus (ts-zod, …), reporting MB/s.
func benchmarkCorpus(b *testing.B, bench func(*testing.B, []*ts.Tree)) {
	run := func(name string, files []corpus.File) {
		b.Run(name, func(b *testing.B) {
			var trees []*ts.Tree
			var size int64
			for _, f := range files {
				tree, err := ts.Parse(grammarOf(f.Name), f.Src)
				if err != nil {
					b.Fatal(err)
				}
				tree.Close()
				trees = append(trees, tree)
				size += int64(len(f.Src))
			}
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer() // the parse above is BenchmarkParse's
			bench(b, trees)
		})
	}
	for _, f := range corpus.Fetch(b) {
		run(f.Name, []corpus.File{f})
	}
	for _, pkg := range corpus.Packages(corpus.FetchTypeScript(b)) {
		run("ts-"+pkg.Name, pkg.Files)
	}
}

// BenchmarkLower measures the lowering of parsed, flattened corpus files to HIR, scope
// resolution included. Compare with BenchmarkParse on the same files.
func BenchmarkLower(b *testing.B) {
	benchmarkCorpus(b, func(b *testing.B, trees []*ts.Tree) {
		for b.Loop() {
			for _, tree := range trees {
				Lower(tree)
			}
		}
	})
}

// BenchmarkBuildSSA measures ssa.Build on every analyzable function of corpus files, lowered
// (and their garbage collected) outside the timed part.
func BenchmarkBuildSSA(b *testing.B) {
	benchmarkCorpus(b, func(b *testing.B, trees []*ts.Tree) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			files := make([]*File, len(trees))
			for j, tree := range trees {
				files[j] = Lower(tree)
			}
			runtime.GC() // the lowering's garbage, which would be collected in the timed part
			b.StartTimer()
			for _, file := range files {
				for _, fn := range file.Funcs {
					if fn.Analyzed() {
						if err := ssa.Build(fn); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		}
	})
}
