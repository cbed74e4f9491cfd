package ssa

// DomTree is the dominator tree of a function's CFG.
//
// Immediate dominators are computed with the iterative algorithm of Cooper, Harvey and Kennedy,
// "A Simple, Fast Dominance Algorithm" (2001). Each block is then numbered in preorder and
// postorder of the tree, so that Dominates is two comparisons.
//
// The tree is computed from the terminals' successors and the blocks' predecessor lists; it
// numbers the blocks in reverse postorder itself rather than trusting the order of fn.Blocks, so
// a Function whose blocks were reordered or corrupted still gets an answer (a wrong one if the
// predecessor lists disagree with the successors, but never a hang). Blocks that the entry does
// not reach have no immediate dominator and dominate nothing, not even themselves.
type DomTree struct {
	fn         *Function
	idom       []*Block // by block ID; nil for the entry and unreachable blocks
	pre, post  []int32  // by block ID: numbers in the tree; -1 if unreachable
	childStart []int32  // the children of block i are children[childStart[i]:childStart[i+1]]
	children   []*Block
}

// Dominators computes the dominator tree of fn, which must be finished: Block.ID is the index
// in fn.Blocks and Blocks[0] is the entry.
func Dominators(fn *Function) *DomTree {
	n := len(fn.Blocks)
	d := &DomTree{
		fn:         fn,
		idom:       make([]*Block, n),
		pre:        make([]int32, n),
		post:       make([]int32, n),
		childStart: make([]int32, n+1),
	}
	if n == 0 {
		return d
	}
	order, rpo, parent := d.reversePostorder()
	doms := immediateDominators(d, order, rpo, parent)
	for i := 1; i < len(order); i++ {
		d.idom[order[i].ID] = order[doms[i]]
	}
	d.linkChildren(order)
	d.number()
	return d
}

// contains reports whether b is one of the function's blocks, so that a dangling pointer in a
// corrupt CFG cannot index out of range.
func (d *DomTree) contains(b *Block) bool {
	return b != nil && b.ID >= 0 && int(b.ID) < len(d.fn.Blocks) && d.fn.Blocks[b.ID] == b
}

// reversePostorder numbers the blocks reachable from the entry in reverse postorder of a
// depth-first search over the successors, with an explicit stack. It returns the blocks in that
// order, the number of each block by ID (-1 if unreachable) and each block's DFS parent by ID.
func (d *DomTree) reversePostorder() (order []*Block, rpo []int32, parent []*Block) {
	type frame struct {
		b    *Block
		next int // index of the next successor to visit
	}
	n := len(d.fn.Blocks)
	rpo = make([]int32, n)
	for i := range rpo {
		rpo[i] = -1
	}
	parent = make([]*Block, n)
	seen := make([]bool, n)
	entry := d.fn.Blocks[0]
	seen[entry.ID] = true
	post := make([]*Block, 0, n)
	stack := []frame{{b: entry}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(top.b.Term.Succs) {
			s := top.b.Term.Succs[top.next]
			top.next++
			if d.contains(s) && !seen[s.ID] {
				seen[s.ID] = true
				parent[s.ID] = top.b
				stack = append(stack, frame{b: s})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	order = make([]*Block, len(post))
	for i, b := range post {
		j := len(post) - 1 - i
		order[j] = b
		rpo[b.ID] = int32(j)
	}
	return order, rpo, parent
}

// immediateDominators runs the Cooper–Harvey–Kennedy iteration over the reachable blocks and
// returns the immediate dominator of each as a reverse postorder number (doms[0] = 0 for the
// entry).
//
// Every block's candidate starts at its DFS parent, which precedes it in reverse postorder and
// has been processed; intersecting only with processed predecessors then keeps doms[i] < i for
// every i > 0, so the walks up the tree in intersect always end, whatever the predecessor lists
// say.
func immediateDominators(d *DomTree, order []*Block, rpo []int32, parent []*Block) []int32 {
	doms := make([]int32, len(order))
	for i := range doms {
		doms[i] = -1
	}
	doms[0] = 0
	for changed := true; changed; {
		changed = false
		for i := 1; i < len(order); i++ {
			b := order[i]
			idom := rpo[parent[b.ID].ID]
			for _, p := range b.Preds {
				if !d.contains(p) || rpo[p.ID] < 0 || doms[rpo[p.ID]] < 0 {
					continue
				}
				idom = intersect(doms, rpo[p.ID], idom)
			}
			if doms[i] != idom {
				doms[i] = idom
				changed = true
			}
		}
	}
	return doms
}

// intersect returns the nearest common ancestor of a and b in the tree doms, all in reverse
// postorder numbers.
func intersect(doms []int32, a, b int32) int32 {
	for a != b {
		for a > b {
			a = doms[a]
		}
		for b > a {
			b = doms[b]
		}
	}
	return a
}

// linkChildren lays the children lists out in one slice, each in reverse postorder.
func (d *DomTree) linkChildren(order []*Block) {
	for _, b := range order[1:] {
		d.childStart[d.idom[b.ID].ID+1]++
	}
	for i := 1; i < len(d.childStart); i++ {
		d.childStart[i] += d.childStart[i-1]
	}
	d.children = make([]*Block, len(order)-1)
	next := append([]int32(nil), d.childStart[:len(d.childStart)-1]...)
	for _, b := range order[1:] {
		p := d.idom[b.ID].ID
		d.children[next[p]] = b
		next[p]++
	}
}

// number gives each reachable block its preorder and postorder number in the tree, walking it
// with an explicit stack.
func (d *DomTree) number() {
	for i := range d.pre {
		d.pre[i], d.post[i] = -1, -1
	}
	type frame struct {
		b    *Block
		next int32 // index in d.children of the next child to visit
	}
	entry := d.fn.Blocks[0]
	var pre, post int32
	d.pre[entry.ID] = pre
	pre++
	stack := []frame{{b: entry, next: d.childStart[entry.ID]}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < d.childStart[top.b.ID+1] {
			c := d.children[top.next]
			top.next++
			d.pre[c.ID] = pre
			pre++
			stack = append(stack, frame{b: c, next: d.childStart[c.ID]})
			continue
		}
		d.post[top.b.ID] = post
		post++
		stack = stack[:len(stack)-1]
	}
}

// Idom returns the immediate dominator of b, or nil for the entry and for blocks the entry does
// not reach.
func (d *DomTree) Idom(b *Block) *Block {
	if !d.contains(b) {
		return nil
	}
	return d.idom[b.ID]
}

// Dominates reports whether every path from the entry to b passes through a. A block dominates
// itself.
func (d *DomTree) Dominates(a, b *Block) bool {
	if !d.contains(a) || !d.contains(b) || d.pre[a.ID] < 0 || d.pre[b.ID] < 0 {
		return false
	}
	return d.pre[a.ID] <= d.pre[b.ID] && d.post[b.ID] <= d.post[a.ID]
}

// Children returns the blocks b immediately dominates, in reverse postorder. The slice is shared
// with the tree and must not be modified.
func (d *DomTree) Children(b *Block) []*Block {
	if !d.contains(b) {
		return nil
	}
	return d.children[d.childStart[b.ID]:d.childStart[b.ID+1]:d.childStart[b.ID+1]]
}
