// Package cytron computes SSA form the classic way, as in Cytron, Ferrante, Rosen, Wegman and
// Zadeck, "Efficiently Computing Static Single Assignment Form and the Control Dependence Graph"
// (TOPLAS 1991), pruned by liveness. It is an independent reference for ssa.Build, which follows
// Braun et al.: tests compare the two on every function they build (the φs placed and the
// definitions each read can see), and benchmarks measure one against the other.
//
// Build never modifies the function. It reads only the CFG (terminals and predecessor lists)
// and the instructions' places, so it gives the same answer on a function before and after
// ssa.Build. The algorithm:
//
//  1. Dominator tree (ssa.Dominators), and dominance frontiers by the "runner" method of Cooper,
//     Harvey and Kennedy: from each predecessor of a join block, walk up the tree until the
//     join's immediate dominator, adding the join to the frontier of every block passed.
//  2. For each renamed binding: its definition blocks (a Param or StoreLocal of it, and the entry,
//     which defines the initial value, version 0), and the blocks where it is live on entry, by a
//     backward worklist over the CFG from the blocks that read it before defining it.
//  3. φ placement: the iterated dominance frontier of the definition blocks, by a worklist; a φ
//     is placed only where the binding is live on entry (pruned SSA).
//  4. Renaming: a walk of the dominator tree with an explicit stack, keeping a stack of reaching
//     definitions per binding; each read takes the top of its binding's stack, and each φ
//     operand the top at the end of its predecessor.
//
// Nothing recurses on the Go stack, so deep CFGs are fine.
package cytron

import (
	"github.com/ssalens/ssalens/ssa"
)

// Def is a definition a read or φ operand can see: the Param or StoreLocal instruction Instr,
// the φ Phi, or, when both are nil, the binding's initial value.
type Def struct {
	Instr *ssa.Instr
	Phi   *Phi
}

// Initial reports whether d is the initial value of its binding.
func (d Def) Initial() bool { return d.Instr == nil && d.Phi == nil }

// Phi is a φ of Binding at the start of Block; Operands[i] flows in from Block.Preds[i].
type Phi struct {
	Binding  *ssa.Binding
	Block    *ssa.Block
	Operands []Def
}

// Result is the SSA form Build computed, kept beside the function.
type Result struct {
	Phis map[*ssa.Binding]int // the number of φs placed, by binding

	blockPhis  [][]*Phi // by block ID
	instrStart []int32  // by block ID: the index in reads of the block's first instruction
	reads      []Def    // by instruction: what a read of a renamed binding sees
}

// PhisIn returns the φs placed at the start of b.
func (r *Result) PhisIn(b *ssa.Block) []*Phi { return r.blockPhis[b.ID] }

// Read returns the definition that the LoadLocal b.Instrs[i] sees. It is only meaningful for a
// read of a binding that the function renames.
func (r *Result) Read(b *ssa.Block, i int) Def { return r.reads[r.instrStart[b.ID]+int32(i)] }

// Sources returns the definitions other than φs that reach d through the φ web: d itself if it
// is not a φ, else the sources of all of the φ's operands, each once.
func (r *Result) Sources(d Def) []Def {
	if d.Phi == nil {
		return []Def{d}
	}
	var out []Def
	seenPhi := map[*Phi]bool{d.Phi: true}
	seen := make(map[Def]bool)
	work := []*Phi{d.Phi}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		for _, op := range p.Operands {
			switch {
			case op.Phi != nil:
				if !seenPhi[op.Phi] {
					seenPhi[op.Phi] = true
					work = append(work, op.Phi)
				}
			case !seen[op]:
				seen[op] = true
				out = append(out, op)
			}
		}
	}
	return out
}

// Build computes the pruned SSA form of fn, which must be finished (ssa.Function.Finish) and may
// already be built.
func Build(fn *ssa.Function) *Result {
	n := len(fn.Blocks)
	bd := &builder{
		fn:     fn,
		dom:    ssa.Dominators(fn),
		idom:   make([]int32, n),
		phiAt:  make([]int32, n),
		liveAt: make([]int32, n),
		defAt:  make([]int32, n),
		queued: make([]int32, n),
		res: &Result{
			Phis:       make(map[*ssa.Binding]int),
			blockPhis:  make([][]*Phi, n),
			instrStart: make([]int32, n+1),
		},
	}
	bd.scan()
	bd.frontiers()
	for id, binding := range bd.fn.Bindings {
		if len(bd.upwardUses[id]) > 0 {
			bd.place(binding)
		}
	}
	bd.rename()
	return bd.res
}

// builder holds the state of one Build. Per-block marks hold a stamp, the current binding's ID
// plus one, so that they need no clearing between bindings.
type builder struct {
	fn   *ssa.Function
	dom  *ssa.DomTree
	idom []int32   // by block ID; -1 for the entry
	df   [][]int32 // by block ID: the dominance frontier

	defBlocks  [][]int32 // by binding ID: the blocks that define it
	upwardUses [][]int32 // by binding ID: the blocks that read it before any definition there

	phiAt, liveAt, defAt, queued []int32 // by block ID: stamps
	work                         []int32

	res *Result
}

// scan finds each binding's definition blocks and the blocks that read it before defining it,
// and lays out the per-instruction table of reads.
func (bd *builder) scan() {
	nb := len(bd.fn.Bindings)
	bd.defBlocks = make([][]int32, nb)
	bd.upwardUses = make([][]int32, nb)
	lastDef := make([]int32, nb) // block ID + 1 of the last block seen defining the binding
	lastUse := make([]int32, nb) // likewise for upward-exposed reads
	total := int32(0)
	for _, b := range bd.fn.Blocks {
		bd.res.instrStart[b.ID] = total
		total += int32(len(b.Instrs))
		stamp := b.ID + 1
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if in.Place.Binding == nil || !in.Place.Binding.Renamed(bd.fn) {
				continue
			}
			id := in.Place.Binding.ID
			switch {
			case in.Defines() || in.Op == ssa.OpUninit:
				if lastDef[id] != stamp {
					lastDef[id] = stamp
					bd.defBlocks[id] = append(bd.defBlocks[id], b.ID)
				}
			case in.Reads():
				if lastDef[id] != stamp && lastUse[id] != stamp {
					lastUse[id] = stamp
					bd.upwardUses[id] = append(bd.upwardUses[id], b.ID)
				}
			}
		}
	}
	bd.res.instrStart[len(bd.fn.Blocks)] = total
	bd.res.reads = make([]Def, total)
}

// frontiers computes every block's dominance frontier by the runner method. A runner that
// already has the join in its frontier was reached by an earlier walk from the same join, which
// went on up to the join's immediate dominator, so the walk stops there.
func (bd *builder) frontiers() {
	blocks := bd.fn.Blocks
	bd.df = make([][]int32, len(blocks))
	last := make([]int32, len(blocks)) // join block ID + 1 last added to each frontier
	for _, b := range blocks {
		bd.idom[b.ID] = -1
		if d := bd.dom.Idom(b); d != nil {
			bd.idom[b.ID] = d.ID
		}
	}
	for _, b := range blocks {
		if len(b.Preds) < 2 {
			continue
		}
		for _, p := range b.Preds {
			for runner := p.ID; runner != bd.idom[b.ID] && last[runner] != b.ID+1; runner = bd.idom[runner] {
				last[runner] = b.ID + 1
				bd.df[runner] = append(bd.df[runner], b.ID)
			}
		}
	}
}

// place puts the φs of binding: at the iterated dominance frontier of its definition blocks,
// where it is live on entry.
func (bd *builder) place(binding *ssa.Binding) {
	stamp := binding.ID + 1
	for _, b := range bd.defBlocks[binding.ID] {
		bd.defAt[b] = stamp
	}
	bd.liveness(binding)

	// The entry, which defines the initial value, needs no place in the worklist: it
	// dominates every block, so its frontier is empty.
	bd.work = bd.work[:0]
	for _, b := range bd.defBlocks[binding.ID] {
		if bd.queued[b] != stamp {
			bd.queued[b] = stamp
			bd.work = append(bd.work, b)
		}
	}
	for len(bd.work) > 0 {
		x := bd.work[len(bd.work)-1]
		bd.work = bd.work[:len(bd.work)-1]
		for _, y := range bd.df[x] {
			if bd.phiAt[y] == stamp {
				continue
			}
			// The frontier is iterated whether or not a φ is live here: pruning removes
			// dead φs from minimal SSA and must not change where the live ones are.
			bd.phiAt[y] = stamp
			if bd.liveAt[y] == stamp {
				block := bd.fn.Blocks[y]
				p := &Phi{Binding: binding, Block: block, Operands: make([]Def, len(block.Preds))}
				bd.res.blockPhis[y] = append(bd.res.blockPhis[y], p)
				bd.res.Phis[binding]++
			}
			if bd.queued[y] != stamp {
				bd.queued[y] = stamp
				bd.work = append(bd.work, y)
			}
		}
	}
}

// liveness marks the blocks where binding is live on entry: those that read it before defining
// it, and, going backwards, every predecessor of a live block that does not define it.
func (bd *builder) liveness(binding *ssa.Binding) {
	stamp := binding.ID + 1
	bd.work = bd.work[:0]
	for _, b := range bd.upwardUses[binding.ID] {
		bd.liveAt[b] = stamp
		bd.work = append(bd.work, b)
	}
	for len(bd.work) > 0 {
		b := bd.fn.Blocks[bd.work[len(bd.work)-1]]
		bd.work = bd.work[:len(bd.work)-1]
		for _, p := range b.Preds {
			if bd.liveAt[p.ID] != stamp && bd.defAt[p.ID] != stamp {
				bd.liveAt[p.ID] = stamp
				bd.work = append(bd.work, p.ID)
			}
		}
	}
}

// edge is the index-th predecessor edge of block to.
type edge struct {
	to    *ssa.Block
	index int
}

// outEdges lists each block's outgoing edges with their predecessor index at the target, so that
// duplicate edges (both arms of an If to one block) each get their operand. The edges out of
// block b are out[start[b.ID]:start[b.ID+1]].
func outEdges(blocks []*ssa.Block) (start []int32, out []edge) {
	start = make([]int32, len(blocks)+1)
	for _, b := range blocks {
		for _, p := range b.Preds {
			start[p.ID+1]++
		}
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	out = make([]edge, start[len(blocks)])
	next := append([]int32(nil), start[:len(blocks)]...)
	for _, b := range blocks {
		for i, p := range b.Preds {
			out[next[p.ID]] = edge{to: b, index: i}
			next[p.ID]++
		}
	}
	return start, out
}

// renamer keeps, for each binding, the stack of definitions that reach the current point of the
// walk of the dominator tree.
type renamer struct {
	res      *Result
	fn       *ssa.Function
	stacks   [][]Def // by binding ID
	pushed   []int32 // binding IDs, in the order their definitions were pushed
	outStart []int32
	out      []edge
}

// rename walks the dominator tree with an explicit stack and records what every read and φ
// operand sees.
func (bd *builder) rename() {
	rn := renamer{res: bd.res, fn: bd.fn, stacks: make([][]Def, len(bd.fn.Bindings))}
	rn.outStart, rn.out = outEdges(bd.fn.Blocks)
	type frame struct {
		b      *ssa.Block
		child  int // index of the next child to visit
		pushed int // len(rn.pushed) when the block was entered
	}
	entry := bd.fn.Blocks[0]
	rn.enter(entry)
	frames := []frame{{b: entry}}
	for len(frames) > 0 {
		f := &frames[len(frames)-1]
		if children := bd.dom.Children(f.b); f.child < len(children) {
			c := children[f.child]
			f.child++
			frames = append(frames, frame{b: c, pushed: len(rn.pushed)})
			rn.enter(c)
			continue
		}
		rn.popTo(f.pushed)
		frames = frames[:len(frames)-1]
	}
}

func (rn *renamer) push(id int32, d Def) {
	rn.stacks[id] = append(rn.stacks[id], d)
	rn.pushed = append(rn.pushed, id)
}

// popTo pops the definitions pushed since len(rn.pushed) was mark.
func (rn *renamer) popTo(mark int) {
	for _, id := range rn.pushed[mark:] {
		rn.stacks[id] = rn.stacks[id][:len(rn.stacks[id])-1]
	}
	rn.pushed = rn.pushed[:mark]
}

// top returns the definition of binding that reaches the current point: the initial value if
// none does.
func (rn *renamer) top(binding *ssa.Binding) Def {
	if s := rn.stacks[binding.ID]; len(s) > 0 {
		return s[len(s)-1]
	}
	return Def{}
}

// enter renames b's φs and instructions (definitions are pushed, reads take the top), then gives
// the φs at the other end of each edge out of b the definitions that reach the end of b.
func (rn *renamer) enter(b *ssa.Block) {
	for _, p := range rn.res.blockPhis[b.ID] {
		rn.push(p.Binding.ID, Def{Phi: p})
	}
	reads := rn.res.reads[rn.res.instrStart[b.ID]:rn.res.instrStart[b.ID+1]]
	for i := range b.Instrs {
		in := &b.Instrs[i]
		if in.Place.Binding == nil || !in.Place.Binding.Renamed(rn.fn) {
			continue
		}
		switch {
		case in.Defines() || in.Op == ssa.OpUninit:
			rn.push(in.Place.Binding.ID, Def{Instr: in})
		case in.Reads():
			reads[i] = rn.top(in.Place.Binding)
		}
	}
	for _, e := range rn.out[rn.outStart[b.ID]:rn.outStart[b.ID+1]] {
		for _, p := range rn.res.blockPhis[e.to.ID] {
			p.Operands[e.index] = rn.top(p.Binding)
		}
	}
}
