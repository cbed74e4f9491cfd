package treesitter

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestRecycledNodes re-parses a file three times, recycling the tree before the last at each
// step, as a Document does: the next flat tree is written into its array, and is the same as a
// fresh parse's. A much smaller file does not take it.
func TestRecycledNodes(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "var a%d = b%d + 1;\n", i, i)
	}
	tree := mustParse(t, b.String())
	var old *Tree
	for step := range 3 {
		at := uint32(len(tree.Src) / 2)
		at += uint32(strings.IndexByte(string(tree.Src[at:]), '\n') + 1)
		src := slices.Concat(tree.Src[:at], []byte("x = 1;\n"), tree.Src[at:])
		var spare *Node
		var spareSize int
		if old != nil {
			spare, spareSize = &old.Nodes[0], cap(old.Nodes) // keeps the array from the collector, which may free a spare
			old.Recycle()
		}
		next, err := tree.Reparse(Edit{StartByte: at, OldEndByte: at, NewEndByte: at + 7}, src)
		if err != nil {
			t.Fatal(err)
		}
		tree.Close()
		if spare != nil && &next.Nodes[0] != spare {
			t.Errorf("step %d: the re-parse made a new array, with a spare one of %d nodes for its %d", step, spareSize, len(next.Nodes))
		}
		if fresh := mustParse(t, string(src)); !slices.Equal(next.Nodes, fresh.Nodes) {
			t.Fatalf("step %d: the tree written into a spare array differs from a fresh parse", step)
		}
		old, tree = tree, next
	}
	spare, spareSize := &old.Nodes[0], cap(old.Nodes)
	old.Recycle()
	if small := mustParse(t, strings.Repeat("var a = b + 1;\n", 2500)); &small.Nodes[0] == spare {
		t.Errorf("a tree of %d nodes took a spare array of %d", len(small.Nodes), spareSize)
	}
}

// TestFreedSpareHidesNoOther gives back two arrays of one size, of which the collector frees
// the older: the next array of that size is the younger, not a new one.
func TestFreedSpareHidesNoOther(t *testing.T) {
	const count = flatParallel * 2
	recycle(make([]Node, count))
	kept := make([]Node, count)
	recycle(kept)
	runtime.GC()
	got := newNodes(count)
	if &got[0] != &kept[0] {
		t.Error("a freed spare array hid one that was not freed: a new array was made")
	}
	runtime.KeepAlive(kept)
}

// TestCollectKeepingSpares checks that a collection between two edits keeps a spare array
// that nothing else holds, and that a plain collection frees it. The test knows the array by
// its address alone, which does not hold it; the parses of earlier tests that still run may
// give back arrays of their own.
func TestCollectKeepingSpares(t *testing.T) {
	for _, keep := range []bool{true, false} {
		nodes := make([]Node, flatParallel*2)
		given := uintptr(unsafe.Pointer(&nodes[0]))
		recycle(nodes)
		if keep {
			CollectKeepingSpares()
		} else {
			runtime.GC()
		}
		spares.Lock()
		kept := slices.ContainsFunc(spares.nodes, func(s spare) bool { return uintptr(unsafe.Pointer(s.first.Value())) == given })
		spares.Unlock()
		if kept != keep {
			t.Errorf("keep %v: the spare array is still there: %v", keep, kept)
		}
	}
}
