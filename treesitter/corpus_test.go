package treesitter

import (
	"bytes"
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
			// The go-tree-sitter walk is slow; one mid-sized file suffices.
			if f.Name == "jquery" {
				compareWithGoTreeSitter(t, tree)
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(f.Src)))
			for b.Loop() {
				ts, err := parseC(JavaScript, f.Src, nil)
				if err != nil {
					b.Fatal(err)
				}
				ts.Close()
			}
		})
	}
}

func BenchmarkFlatten(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			ts, err := parseC(JavaScript, f.Src, nil)
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

// BenchmarkReparse measures a one-byte insertion in the middle of each file,
// flat copy included.
func BenchmarkReparse(b *testing.B) {
	for _, f := range corpus.Fetch(b) {
		b.Run(f.Name, func(b *testing.B) {
			tree, err := Parse(JavaScript, f.Src)
			if err != nil {
				b.Fatal(err)
			}
			defer tree.Close()
			mid := bytes.IndexByte(f.Src[len(f.Src)/2:], '\n') + len(f.Src)/2
			src := slices.Concat(f.Src[:mid], []byte(" "), f.Src[mid:])
			edit := Edit{StartByte: uint32(mid), OldEndByte: uint32(mid), NewEndByte: uint32(mid + 1)}
			for b.Loop() {
				next, err := tree.Reparse(edit, src)
				if err != nil {
					b.Fatal(err)
				}
				next.Close()
			}
		})
	}
}
