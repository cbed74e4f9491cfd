package ssa

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// graph builds and finishes a function whose blocks, in creation order, have the given
// successors: a block with none returns, one is a Goto, two an If, more a Switch. It returns the
// blocks in creation order; Finish drops the unreachable ones from fn.Blocks.
func graph(t testing.TB, succs [][]int) (*Function, []*Block) {
	t.Helper()
	fn := NewFunction("g", Span{})
	blocks := []*Block{fn.Blocks[0]}
	for len(blocks) < len(succs) {
		blocks = append(blocks, fn.NewBlock(fmt.Sprintf("n%d", len(blocks))))
	}
	for i, ss := range succs {
		b := blocks[i]
		targets := make([]*Block, len(ss))
		for k, s := range ss {
			targets[k] = blocks[s]
		}
		switch len(ss) {
		case 0:
			b.Return(NoTemp)
		case 1:
			b.Goto(targets[0])
		case 2:
			b.If(b.Emit(OpConst, "c", Span{}), targets[0], targets[1])
		default:
			cases := make([]Temp, len(ss)-1)
			for k := range cases {
				cases[k] = b.Emit(OpConst, fmt.Sprint(k), Span{})
			}
			b.Switch(b.Emit(OpConst, "d", Span{}), cases, targets)
		}
	}
	if err := fn.Finish(); err != nil {
		t.Fatal(err)
	}
	return fn, blocks
}

// naiveDominates decides dominance by definition: a dominates b if b is a or cannot be reached
// from the entry without passing through a.
func naiveDominates(fn *Function, a, b *Block) bool {
	entry := fn.Blocks[0]
	switch {
	case a == b || a == entry:
		return true
	case b == entry:
		return false
	}
	seen := map[*Block]bool{a: true, entry: true}
	work := []*Block{entry}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range x.Term.Succs {
			if s == b {
				return false
			}
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return true
}

// checkTree compares the tree with naiveDominates on every pair of blocks and checks that Idom
// and Children agree with it.
func checkTree(t *testing.T, fn *Function, d *DomTree) {
	t.Helper()
	for _, a := range fn.Blocks {
		for _, b := range fn.Blocks {
			if got, want := d.Dominates(a, b), naiveDominates(fn, a, b); got != want {
				t.Fatalf("Dominates(bb%d, bb%d) = %v, want %v\n%s", a.ID, b.ID, got, want, fn)
			}
		}
	}
	for _, b := range fn.Blocks {
		idom := d.Idom(b)
		if b == fn.Blocks[0] {
			if idom != nil {
				t.Fatalf("entry has idom bb%d", idom.ID)
			}
			continue
		}
		// The immediate dominator strictly dominates b, and every strict dominator of b
		// dominates it.
		if idom == nil || idom == b || !d.Dominates(idom, b) {
			t.Fatalf("Idom(bb%d) = %v is not a strict dominator\n%s", b.ID, idom, fn)
		}
		for _, a := range fn.Blocks {
			if a != b && d.Dominates(a, b) && !d.Dominates(a, idom) {
				t.Fatalf("bb%d strictly dominates bb%d but not its idom bb%d\n%s", a.ID, b.ID, idom.ID, fn)
			}
		}
	}
	children := 0
	for _, p := range fn.Blocks {
		for _, c := range d.Children(p) {
			children++
			if d.Idom(c) != p {
				t.Fatalf("bb%d is a child of bb%d but its idom is %v", c.ID, p.ID, d.Idom(c))
			}
		}
	}
	if children != len(fn.Blocks)-1 {
		t.Fatalf("%d children in the tree, want %d", children, len(fn.Blocks)-1)
	}
}

func TestDominatorsHandBuilt(t *testing.T) {
	tests := []struct {
		name  string
		succs [][]int
		idoms []int // by creation index; -1 for the entry
	}{
		{"single block", [][]int{{}}, []int{-1}},
		{"diamond", [][]int{{1, 2}, {3}, {3}, {}}, []int{-1, 0, 0, 0}},
		{"if without else", [][]int{{1, 2}, {2}, {}}, []int{-1, 0, 0}},
		{"both edges to one block", [][]int{{1, 1}, {}}, []int{-1, 0}},
		{"self loop", [][]int{{1}, {1, 2}, {}}, []int{-1, 0, 1}},
		{"while loop", [][]int{{1}, {2, 3}, {1}, {}}, []int{-1, 0, 1, 1}},
		{"nested loops with break", [][]int{{1}, {2, 5}, {3, 1}, {2, 4}, {5}, {}}, []int{-1, 0, 1, 2, 3, 1}},
		{"switch with fallthrough", [][]int{{1, 2, 3}, {2}, {3}, {}}, []int{-1, 0, 0, 0}},
		// Braun et al. Fig. 4: a loop entered at both of its blocks.
		{"two-entry loop", [][]int{{1, 2}, {2, 3}, {1}, {}}, []int{-1, 0, 0, 1}},
		// Cooper, Harvey and Kennedy Fig. 4 (their nodes 6..1 are 0..5 here): every block's
		// idom is the entry, which takes the algorithm more than one pass to find.
		{"CHK figure 4", [][]int{{1, 2}, {5}, {3, 4}, {5, 4}, {3}, {3}}, []int{-1, 0, 0, 0, 0, 0}},
		// An irreducible region inside a loop, left through either block.
		{"irreducible in loop", [][]int{{1}, {2, 3}, {3, 4}, {2, 4}, {1, 5}, {}}, []int{-1, 0, 1, 1, 1, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn, blocks := graph(t, tt.succs)
			d := Dominators(fn)
			for i, b := range blocks {
				want := (*Block)(nil)
				if tt.idoms[i] >= 0 {
					want = blocks[tt.idoms[i]]
				}
				if got := d.Idom(b); got != want {
					t.Errorf("Idom(n%d) = %v, want %v", i, label(got), label(want))
				}
			}
			checkTree(t, fn, d)
		})
	}
}

func label(b *Block) string {
	if b == nil {
		return "nil"
	}
	return b.Label
}

func TestDominatorsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 1 + rng.IntN(12)
		succs := make([][]int, n)
		for i := range succs {
			k := rng.IntN(4)
			for range k {
				succs[i] = append(succs[i], 1+rng.IntN(max(n-1, 1)))
			}
			if n == 1 {
				succs[i] = nil
			}
		}
		fn, _ := graph(t, succs)
		checkTree(t, fn, Dominators(fn))
	}
}

// The tree does not depend on fn.Blocks being in reverse postorder.
func TestDominatorsAnyBlockOrder(t *testing.T) {
	fn, blocks := graph(t, [][]int{{1, 2}, {5}, {3, 4}, {5, 4}, {3}, {3}, {7, 0}, {}})
	want := Dominators(fn)
	order := fn.Blocks
	for i, j := 1, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	for i, b := range order {
		b.ID = int32(i)
	}
	got := Dominators(fn)
	for _, a := range blocks {
		if got.Idom(a) != want.Idom(a) {
			t.Errorf("Idom(%s) = %s after reordering, want %s", a.Label, label(got.Idom(a)), label(want.Idom(a)))
		}
	}
	checkTree(t, fn, got)
}

func TestDominatorsForeignBlock(t *testing.T) {
	fn, blocks := graph(t, [][]int{{1}, {}})
	other, _ := graph(t, [][]int{{}})
	d := Dominators(fn)
	if d.Dominates(other.Blocks[0], blocks[1]) || d.Dominates(blocks[0], other.Blocks[0]) {
		t.Error("a block of another function dominates or is dominated")
	}
	if d.Idom(other.Blocks[0]) != nil || d.Children(other.Blocks[0]) != nil {
		t.Error("a block of another function has an idom or children")
	}
}

// A CFG as deep as the front end's worst case must not need a deep Go stack.
func TestDominatorsDeep(t *testing.T) {
	const n = 100000
	succs := make([][]int, n)
	for i := range n - 1 {
		succs[i] = []int{i + 1}
	}
	fn, blocks := graph(t, succs)
	d := Dominators(fn)
	if !d.Dominates(blocks[0], blocks[n-1]) || d.Dominates(blocks[n-1], blocks[0]) || d.Idom(blocks[n-1]) != blocks[n-2] {
		t.Error("wrong dominance on a chain")
	}
}
