package treesitter

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

func TestCorpus(t *testing.T) {
	for _, f := range corpus.Fetch(t) {
		t.Run(f.Name, func(t *testing.T) {
			start := time.Now()
			tree, err := Parse(JavaScript, f.Src)
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			t.Logf("%d bytes, %d nodes, %v", len(f.Src), len(tree.Nodes), time.Since(start))
			checkInvariants(t, tree)
			for i, n := range tree.Nodes {
				if n.Flags&(IsError|Missing) != 0 {
					t.Errorf("%s at byte %d: %v node (flags %b): %.60q", f.Path, n.Start, n.Kind, n.Flags, tree.Text(int32(i)))
				}
			}
			compareWithGoTreeSitter(t, tree)
		})
	}
}

// TestCorpusTypeScript parses the TypeScript corpus with the grammars of its files'
// extensions. tree-sitter-typescript 0.23.2 rejects the variance annotations (`<in T>`) of
// four zod files; every other file parses without error.
func TestCorpusTypeScript(t *testing.T) {
	withErrors := map[string]bool{"zod/v4/classic/schemas.ts": true, "zod/v4/core/checks.ts": true,
		"zod/v4/core/schemas.ts": true, "zod/v4/mini/schemas.ts": true}
	for _, f := range corpus.FetchTypeScript(t) {
		t.Run(f.Name, func(t *testing.T) {
			tree, err := Parse(grammarOf(f.Lang), f.Src)
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			checkInvariants(t, tree)
			compareWithGoTreeSitter(t, tree)
			if got := tree.Nodes[0].Flags&HasError != 0; got != withErrors[f.Name] {
				t.Errorf("%s: has errors %v, want %v", f.Name, got, withErrors[f.Name])
			}
		})
	}
}

// grammarOf returns the grammar of a corpus file's language.
func grammarOf(lang corpus.Lang) *Grammar {
	switch lang {
	case corpus.TypeScript:
		return TypeScript
	case corpus.TSX:
		return TSX
	}
	return JavaScript
}

// BenchmarkParse measures tree-sitter's parse of each JavaScript corpus file, and of each
// package of the TypeScript corpus (ts-zod, …), without the flat copy: the baseline of the
// lower, build and analysis benchmarks.
func BenchmarkParse(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(f.Src)))
			for b.Loop() {
				ts, err := parseC(JavaScript, f.Src, nil, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				ts.Close()
			}
		})
	}
	for _, pkg := range corpus.Packages(corpus.FetchTypeScript(b)) {
		b.Run("ts-"+pkg.Name, func(b *testing.B) {
			b.SetBytes(pkg.Size)
			for b.Loop() {
				for _, f := range pkg.Files {
					ts, err := parseC(grammarOf(f.Lang), f.Src, nil, nil, nil)
					if err != nil {
						b.Fatal(err)
					}
					ts.Close()
				}
			}
		})
	}
}

func BenchmarkFlatten(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			ts, err := parseC(JavaScript, f.Src, nil, nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer ts.Close()
			b.SetBytes(int64(len(f.Src)))
			var nodes []Node
			for b.Loop() {
				if nodes, err = flatten(ts, JavaScript); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(nodes)), "ns/node")
			b.ReportMetric(float64(len(nodes)), "nodes")
		})
	}
}

// BenchmarkReparse measures the keystroke of the keystroke benchmarks (a space typed at the
// start of the middle line, corpus.MiddleLine) as the analysis sees it: Reparse of each file,
// which parses the statements around the edit alone where it can (splice.go), flat copy
// included, which every answer after the keystroke waits for. BenchmarkReparseByTreeSitter is
// its baseline: tree-sitter's incremental re-parse of the same keystroke. Each reports the
// median and the 99th percentile.
func BenchmarkReparse(b *testing.B) {
	benchmarkKeystrokeParse(b, (*Tree).Reparse)
}

func BenchmarkReparseByTreeSitter(b *testing.B) {
	benchmarkKeystrokeParse(b, (*Tree).reparseByTreeSitter)
}

// reparseByTreeSitter is Reparse without the splice: tree-sitter's incremental parse.
func (t *Tree) reparseByTreeSitter(edit Edit, newSrc []byte) (*Tree, error) {
	ie, err := makeInputEdit(t.Src, newSrc, edit)
	if err != nil {
		return nil, err
	}
	return t.reparseC(edit, newSrc, ie)
}

func benchmarkKeystrokeParse(b *testing.B, reparse func(*Tree, Edit, []byte) (*Tree, error)) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			tree, err := Parse(JavaScript, f.Src)
			if err != nil {
				b.Fatal(err)
			}
			defer tree.Close()
			_, mid := corpus.MiddleLine(f.Src)
			src := slices.Concat(f.Src[:mid], []byte(" "), f.Src[mid:])
			edit := Edit{StartByte: uint32(mid), OldEndByte: uint32(mid), NewEndByte: uint32(mid + 1)}
			var durations []time.Duration
			for b.Loop() {
				start := time.Now()
				next, err := reparse(tree, edit, src)
				if err != nil {
					b.Fatal(err)
				}
				durations = append(durations, time.Since(start))
				next.Close()
				next.Recycle() // as the server does once the next version is lowered
			}
			corpus.ReportLatency(b, durations)
		})
	}
}

// TestReparseCopiesOnlyUnchanged checks the flat copy of tree-sitter's incremental parses
// (reparseC): after each of a few hundred random edits of corpus files (keystrokes, deleted
// spans, pasted text, broken syntax), the nodes it copied from the previous version equal a
// full walk of the same C tree.
func TestReparseCopiesOnlyUnchanged(t *testing.T) {
	snippets := []string{"{", "}", "(", ")", "x", " ", "\n", "if (a) ", "function g() {", "`${", "/*", "'", "return;", "=>", ",", ";", "var v = 1;\n", ""}
	for _, f := range corpus.Fetch(t) {
		if len(f.Src) > 2<<20 {
			continue // the full walk each step is the oracle's cost, not the test's subject
		}
		t.Run(f.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(f.Src)), 1))
			tree, err := Parse(JavaScript, f.Src)
			if err != nil {
				t.Fatal(err)
			}
			for step := range 60 {
				src := tree.Src
				start := rng.IntN(len(src) + 1)
				end := min(len(src), start+[]int{0, 0, 1, 3, 40, 400}[rng.IntN(6)])
				insert := snippets[rng.IntN(len(snippets))]
				if rng.IntN(4) == 0 { // paste a piece of the file
					from := rng.IntN(len(src))
					insert = string(src[from:min(len(src), from+rng.IntN(300))])
				}
				next := slices.Concat(src[:start], []byte(insert), src[end:])
				edit := Edit{StartByte: uint32(start), OldEndByte: uint32(end), NewEndByte: uint32(start + len(insert))}
				nextTree, err := tree.reparseByTreeSitter(edit, next)
				if err != nil {
					t.Fatal(err)
				}
				tree.Close()
				prev := tree
				tree = nextTree
				full, err := flatten(tree.ts, JavaScript)
				if err != nil {
					t.Fatal(err)
				}
				if i := firstDifference(tree.Nodes, full); i >= 0 {
					t.Fatalf("after replacing [%d,%d) by %.40q: node %d differs from a full walk: copied %+v, walked %+v", start, end, insert, i, tree.Nodes[i], full[i])
				}
				for range 100 {
					if b := rng.Int32N(int32(len(tree.Nodes))); !copiedRight(prev, tree, b) {
						t.Fatalf("after replacing [%d,%d) by %.40q: node %d is no copy of node %d of the tree before", start, end, insert, b, tree.CopiedFrom(prev, b))
					}
				}
				if step%6 == 0 { // the trees of error recovery, against tree-sitter's own cursor
					compareWithGoTreeSitter(t, tree)
				}
			}
			tree.Close()
		})
	}
}

// copiedRight reports whether, if CopiedFrom says node b of next is a copy of a node of prev,
// the nodes below the two are the same, at the same offsets from them.
func copiedRight(prev, next *Tree, b int32) bool {
	a := next.CopiedFrom(prev, b)
	if a < 0 {
		return true
	}
	size := next.SubtreeEnd(b) - b
	if prev.SubtreeEnd(a)-a != size || prev.Nodes[a].Kind != next.Nodes[b].Kind {
		return false
	}
	for i := int32(1); i < size; i++ {
		x, y := prev.Nodes[a+i], next.Nodes[b+i]
		if x.Kind != y.Kind || x.Field != y.Field || x.Flags != y.Flags || x.ChildCount != y.ChildCount ||
			x.Start-prev.Nodes[a].Start != y.Start-next.Nodes[b].Start || x.End-x.Start != y.End-y.Start ||
			x.Parent-a != y.Parent-b {
			return false
		}
	}
	return true
}

// firstDifference returns the first index where a and b differ, or -1.
func firstDifference(a, b []Node) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// BenchmarkParseInPieces measures ParseInPieces, with its flat copy, on each JavaScript corpus
// file; BenchmarkParseWhole measures Parse the same way, for the ratio.
func BenchmarkParseInPieces(b *testing.B) {
	benchmarkParse(b, ParseInPieces)
}

func BenchmarkParseWhole(b *testing.B) {
	benchmarkParse(b, Parse)
}

func benchmarkParse(b *testing.B, parse func(*Grammar, []byte) (*Tree, error)) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(f.Src)))
			for b.Loop() {
				tree, err := parse(JavaScript, f.Src)
				if err != nil {
					b.Fatal(err)
				}
				tree.Close()
			}
		})
	}
}
