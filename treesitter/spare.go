package treesitter

import (
	"runtime"
	"slices"
	"sync"
	"unsafe"
	"weak"
)

// Spare node arrays.
//
// Every keystroke makes a flat tree of the whole file (flattenFrom copies what tree-sitter
// kept), and the version before gives its own up: an array as large, made and dropped at
// every keystroke. It was half of what a keystroke allocated (typescript.js: 70 MB of 150),
// so it set how often the collector ran over a heap of hundreds of megabytes, and Go cleared
// each array before the walk wrote all of it again. So the owner of a tree that no one reads
// any more gives its array back (Recycle), and the next flat tree of about its size is written
// into it. A spare array is held weakly: one that the next parse does not take before the
// collector runs is freed as garbage would have been, and a closed document keeps none; but
// the collections a language server starts between two keystrokes and at a pause keep it, for
// the next keystroke (CollectKeepingSpares).

// spares are the arrays given back, at most maxSpares, each by its first node and its length.
var spares struct {
	sync.Mutex
	nodes []spare
}

type spare struct {
	first weak.Pointer[Node]
	size  int
}

// maxSpares bounds the spare arrays: an editor re-parses one document at a time.
const maxSpares = 2

// spareSlack is the share of room a new array gets past its nodes, so that it can serve the
// next versions as the text grows: one node in 32.
const spareSlack = 32

// newNodes returns an array of count nodes, to be written whole: a spare one if one has room
// and is not much larger, else a new one. The spare given back last is tried first: the
// collector is the likelier to have freed an older one; one it freed is dropped, and the search
// goes on.
func newNodes(count int) []Node {
	spares.Lock()
	defer spares.Unlock()
	for i := len(spares.nodes) - 1; i >= 0; i-- {
		s := spares.nodes[i]
		switch first := s.first.Value(); {
		case first == nil:
			spares.nodes = slices.Delete(spares.nodes, i, i+1)
		case count <= s.size && s.size <= count+count/spareSlack+1:
			spares.nodes = slices.Delete(spares.nodes, i, i+1)
			return unsafe.Slice(first, s.size)[:count]
		}
	}
	return make([]Node, count, count+count/spareSlack+1)
}

// Recycle gives t's node array to the flat trees of later parses. The caller must be the last
// to read t's Nodes: t is not to be used at all afterwards.
func (t *Tree) Recycle() {
	if w := t.whole; w != nil && !w.spliced {
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.ended && w.cancel.Load() == 0 {
			w.recycleNodes = true // for the whole parse under way, which compares them
			return
		}
	}
	recycle(t.Nodes)
	t.Nodes = nil
}

// recycle gives nodes, which no one reads any more, to the flat trees of later parses.
func recycle(nodes []Node) {
	nodes = nodes[:cap(nodes)]
	if len(nodes) < flatParallel { // a small array costs little to make
		return
	}
	spares.Lock()
	defer spares.Unlock()
	if len(spares.nodes) == maxSpares {
		spares.nodes = spares.nodes[1:]
	}
	spares.nodes = append(spares.nodes, spare{weak.Make(&nodes[0]), len(nodes)})
}

// CollectKeepingSpares collects garbage as runtime.GC does, but keeps the spare arrays, which
// the collection would free: for a collection between two versions of a document being
// edited, whose next parse takes one (a new array for typescript.js is 64 MB more garbage,
// which brings the next collection closer).
func CollectKeepingSpares() {
	spares.Lock()
	held := make([]*Node, 0, maxSpares)
	for _, s := range spares.nodes {
		if first := s.first.Value(); first != nil {
			held = append(held, first)
		}
	}
	spares.Unlock()
	runtime.GC()
	runtime.KeepAlive(held)
}
