package main

import (
	"runtime/debug"
	"sync"
)

// memoryBudget keeps check's memory within what it promises: 16 MB and 25 times the size of
// the files it analyzes at once. Go's collector runs when the heap has doubled since the last
// collection, so a file's peak could be twice what its analysis keeps live; told the budget,
// the collector runs earlier instead when the heap nears it, and only then.
//
// The budget cannot be less than what tree-sitter took to parse: the C tree of typescript.js
// (9 MB) alone takes 210 MB of its budget of 245 MB. Once a tree is parsed and freed, the
// heap may grow to the process's peak so far; holding it lower would make the collector run
// without end and gain nothing.
type memoryBudget struct {
	mu       sync.Mutex
	analyzed int64 // bytes of the files under analysis
	parsed   int64 // the most memory the process took so far, less outsideHeap
}

const (
	bytesPerSourceByte = 25
	fixedBudget        = 16 << 20
	// outsideHeap is what the process takes besides Go's heap: its code, the C allocator that
	// parses, the runtime (`ssalens check` of an empty file takes 8.5 MB).
	outsideHeap = 8 << 20
)

// start counts size more bytes under analysis; finish counts them out again.
func (m *memoryBudget) start(size int64)  { m.update(size) }
func (m *memoryBudget) finish(size int64) { m.update(-size) }

// treeFreed takes the parse that just ended into account (analysis.Check's parsed).
func (m *memoryBudget) treeFreed() { m.update(0) }

func (m *memoryBudget) update(size int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.analyzed += size
	m.parsed = max(m.parsed, peakRSS()-outsideHeap)
	debug.SetMemoryLimit(max(fixedBudget-outsideHeap+bytesPerSourceByte*m.analyzed, m.parsed))
}
