package analysis

import (
	"slices"

	"github.com/ssalens/ssalens/ssa"
)

// site is the position of an instruction.
type site struct {
	block *ssa.Block
	index int
}

// deadZoneAsk gathers questions about a function: whether a let, const or class binding of
// its own may be uninitialized just before an instruction. Most it answers at once, without
// the data flow: "is" if the instruction comes before the declaration in the text, since the
// code before a declaration in its scope runs before it whenever the scope is entered; none if
// the declaration dominates the instruction, since the scope is entered again only through
// the declaration's block. The others, as in a switch case after the one that declares the
// binding, wait for flow (deadZoneAnswers).
type deadZoneAsk struct {
	r       *Result
	fn      *ssa.Function
	decls   map[*ssa.Binding]site // the first store of each binding at its Decl, in block order
	queries []deadZoneQuery
	answers []func(certainty string)
}

func (r *Result) deadZoneAsker(fn *ssa.Function) *deadZoneAsk {
	a := &deadZoneAsk{r: r, fn: fn, decls: make(map[*ssa.Binding]site)}
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			if p := &b.Instrs[i].Place; b.Instrs[i].Op == ssa.OpStoreLocal && p.Binding != nil && p.Span == p.Binding.Decl && a.decls[p.Binding].block == nil {
				a.decls[p.Binding] = site{b, i}
			}
		}
	}
	return a
}

// ask asks about binding before instruction i of block b, and calls answer with "is" or
// "may be" if it may be uninitialized there, now or in flow.
func (a *deadZoneAsk) ask(binding *ssa.Binding, b *ssa.Block, i int, answer func(certainty string)) {
	d := a.decls[binding]
	switch {
	case b.Instrs[i].Span.Start < binding.Decl.Start:
		answer("is")
	case d.block == b && d.index < i, d.block != nil && d.block != b && a.r.dominators(a.fn).Dominates(d.block, b):
	default:
		a.queries = append(a.queries, deadZoneQuery{b, i, binding})
		a.answers = append(a.answers, answer)
	}
}

// flow answers the questions left by the data flow.
func (a *deadZoneAsk) flow() {
	for k, certainty := range deadZoneAnswers(a.fn, a.queries) {
		if certainty != "" {
			a.answers[k](certainty)
		}
	}
}

// maxDeadZoneBindings bounds the bindings deadZoneAnswers follows in one function. No function
// of the corpora asks about more than a few: only code that runs where it is made, and
// assignments no declaration dominates, ask (deadZoneReadsOnCreation, deadZoneAssignments).
const maxDeadZoneBindings = 16 * 64

// A deadZoneQuery asks whether binding, a let, const or class of the function, may be
// uninitialized just before instruction index of block.
type deadZoneQuery struct {
	block   *ssa.Block
	index   int
	binding *ssa.Binding
}

// deadZoneAnswers answers each query about fn: "is" if the binding is uninitialized there on
// every path from fn's entry, "may be" if on some, "" if on none. A forward data flow finds
// it: at the entry every binding is uninitialized, a definition initializes it, and an Uninit
// takes it back into its dead zone (a loop entering its block again). The SSA form cannot
// answer where fn itself reads nothing. The flow follows 64 bindings at a time, in one word
// a block, so that its memory stays that of the function's blocks however many bindings are
// asked about; its work is the blocks and the instructions that define them, once for every
// 64 bindings (and once more for each loop nested in another). So that it stays within a few
// times the function's size, it follows the first maxDeadZoneBindings bindings asked about,
// and leaves the queries about others unanswered ("").
func deadZoneAnswers(fn *ssa.Function, queries []deadZoneQuery) []string {
	answers := make([]string, len(queries))
	number := make(map[*ssa.Binding]int32)
	var asked []int // the queries about the bindings followed
	for k, q := range queries {
		if _, ok := number[q.binding]; !ok && len(number) < maxDeadZoneBindings {
			number[q.binding] = int32(len(number))
		}
		if _, ok := number[q.binding]; ok {
			asked = append(asked, k)
		}
	}
	if len(asked) == 0 {
		return answers
	}
	// changes are the instructions that change the bindings asked about, block by block.
	type change struct {
		index, n int32
		init     bool
	}
	changes := make([][]change, len(fn.Blocks))
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if n, ok := number[in.Place.Binding]; ok && (in.Defines() || in.Op == ssa.OpUninit) {
				changes[b.ID] = append(changes[b.ID], change{int32(i), n, in.Defines()})
			}
		}
	}
	// The queries, 64 bindings at a time, each group's in the order of blocks and instructions.
	order := asked
	slices.SortFunc(order, func(a, b int) int {
		qa, qb := &queries[a], &queries[b]
		if ga, gb := number[qa.binding]/64, number[qb.binding]/64; ga != gb {
			return int(ga - gb)
		}
		if qa.block != qb.block {
			return int(qa.block.ID - qb.block.ID)
		}
		return qa.index - qb.index
	})
	uninitialized, initialized := make([]uint64, len(fn.Blocks)), make([]uint64, len(fn.Blocks))
	reached := make([]bool, len(fn.Blocks))
	for start := 0; start < len(order); {
		group := number[queries[order[start]].binding] / 64
		end := start
		for end < len(order) && number[queries[order[end]].binding]/64 == group {
			end++
		}
		// apply takes u and d, the group's states in block b before its change next, through
		// the changes before instruction to, and returns them with the first change left.
		apply := func(b *ssa.Block, next, to int, u, d uint64) (int, uint64, uint64) {
			cs := changes[b.ID]
			for ; next < len(cs) && int(cs[next].index) < to; next++ {
				if c := cs[next]; c.n/64 == group {
					bit := uint64(1) << (c.n % 64)
					if c.init {
						u, d = u&^bit, d|bit
					} else {
						u, d = u|bit, d&^bit
					}
				}
			}
			return next, u, d
		}
		clear(uninitialized)
		clear(initialized)
		clear(reached)
		entry := fn.Blocks[0].ID
		uninitialized[entry], reached[entry] = ^uint64(0), true
		for changed := true; changed; { // blocks in reverse postorder: a pass, and one per loop
			changed = false
			for _, b := range fn.Blocks {
				if !reached[b.ID] {
					continue
				}
				_, u, d := apply(b, 0, len(b.Instrs), uninitialized[b.ID], initialized[b.ID])
				for _, s := range b.Term.Succs {
					if nu, nd := uninitialized[s.ID]|u, initialized[s.ID]|d; !reached[s.ID] || nu != uninitialized[s.ID] || nd != initialized[s.ID] {
						uninitialized[s.ID], initialized[s.ID], reached[s.ID] = nu, nd, true
						changed = true
					}
				}
			}
		}
		// One sweep through each block answers its queries in order.
		var at *ssa.Block
		var next int
		var u, d uint64
		for _, k := range order[start:end] {
			q := &queries[k]
			if q.block != at {
				at, next, u, d = q.block, 0, uninitialized[q.block.ID], initialized[q.block.ID]
			}
			next, u, d = apply(at, next, q.index, u, d)
			bit := uint64(1) << (number[q.binding] % 64)
			switch {
			case !reached[at.ID] || u&bit == 0:
			case d&bit != 0:
				answers[k] = "may be"
			default:
				answers[k] = "is"
			}
		}
		start = end
	}
	return answers
}
