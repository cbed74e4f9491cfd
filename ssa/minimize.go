package ssa

// reducible reports whether every retreating edge of fn (its blocks are in reverse postorder)
// enters a block that dominates the edge's source, as a natural loop's back edge does. On a
// reducible CFG, removing trivial φs leaves no redundant φ set (Braun et al. §3.2), and the
// SCC pass, quadratic on deeply nested loops, can be skipped.
func reducible(fn *Function) bool {
	var dom *DomTree
	for _, b := range fn.Blocks {
		for _, s := range b.Term.Succs {
			if s.ID > b.ID {
				continue
			}
			if dom == nil {
				dom = Dominators(fn)
			}
			if !dom.Dominates(s, b) {
				return false
			}
		}
	}
	return true
}

// removeRedundantPhis replaces every redundant φ set by the single value it stands for.
func (bd *builder) removeRedundantPhis() {
	var phis []*Phi
	for _, b := range bd.fn.Blocks {
		for _, p := range b.Phis {
			if p.Value.replacedBy == nil {
				phis = append(phis, p)
			}
		}
	}
	findRedundantPhiSets(phis, len(bd.values), func(set []*Phi, v *Value) bool {
		for _, p := range set {
			bd.replace(p, v)
		}
		// Components are visited operands first, so a user of set is examined after it.
		bd.trivial = bd.trivial[:0]
		return true
	})
}

// findRedundantPhiSets looks for sets of φs whose operands from outside the set are one single
// value (Braun et al. §3.2; Wagner's thesis, Fig. 4.2). It visits the strongly connected
// components of the φ graph (φ → φ operand) operands first; a component with a single outer
// operand is redundant, and in one with several, the inner φs (those whose operands are all
// inside the component) are examined again the same way. A singleton component is examined too:
// replacing an earlier set can leave a φ trivial. For each set found, found is called with the
// set and its value; it must replace the set (or stop the search by returning false). Values
// are indexed by ID, all below numValues.
func findRedundantPhiSets(phis []*Phi, numValues int, found func(set []*Phi, v *Value) bool) {
	sf := sccFinder{
		member:  make([]int32, numValues),
		index:   make([]int32, numValues),
		low:     make([]int32, numValues),
		inStack: make([]bool, numValues),
	}
	type level struct {
		sccs [][]*Phi
		next int
	}
	levels := []level{{sccs: sf.components(phis)}}
	inSCC := make([]int32, numValues)
	stamp := int32(0)
	for len(levels) > 0 {
		top := &levels[len(levels)-1]
		if top.next == len(top.sccs) {
			levels = levels[:len(levels)-1]
			continue
		}
		scc := top.sccs[top.next]
		top.next++
		stamp++
		for _, p := range scc {
			inSCC[p.Value.ID] = stamp
		}
		var outer *Value
		several := false
		var inner []*Phi
		for _, p := range scc {
			isInner := true
			for _, op := range p.Operands {
				if inSCC[op.ID] == stamp {
					continue
				}
				isInner = false
				if outer == nil {
					outer = op
				} else if op != outer {
					several = true
				}
			}
			if isInner {
				inner = append(inner, p)
			}
		}
		switch {
		case outer != nil && !several:
			if !found(scc, outer) {
				return
			}
		case several && len(inner) > 0:
			levels = append(levels, level{sccs: sf.components(inner)})
		}
	}
}

// sccFinder runs Tarjan's algorithm with an explicit stack over the φ graph restricted to a set.
type sccFinder struct {
	set        int32
	member     []int32 // by value ID: the set a φ belongs to
	index, low []int32 // by value ID: Tarjan's numbers, 0 = not yet visited
	inStack    []bool
	counter    int32
	stack      []*Phi
}

// components returns the strongly connected components of phis in reverse topological order:
// a component comes after every component it has operands in.
func (sf *sccFinder) components(phis []*Phi) [][]*Phi {
	sf.set++
	for _, p := range phis {
		id := p.Value.ID
		sf.member[id] = sf.set
		sf.index[id] = 0
	}
	type frame struct {
		p    *Phi
		next int
	}
	var sccs [][]*Phi
	var frames []frame
	for _, root := range phis {
		if sf.index[root.Value.ID] != 0 {
			continue
		}
		sf.visit(root)
		frames = append(frames[:0], frame{p: root})
		for len(frames) > 0 {
			top := &frames[len(frames)-1]
			id := top.p.Value.ID
			if top.next < len(top.p.Operands) {
				op := top.p.Operands[top.next]
				top.next++
				if op.Kind != ValuePhi || sf.member[op.ID] != sf.set {
					continue
				}
				if sf.index[op.ID] == 0 {
					sf.visit(op.Phi)
					frames = append(frames, frame{p: op.Phi})
				} else if sf.inStack[op.ID] {
					sf.low[id] = min(sf.low[id], sf.index[op.ID])
				}
				continue
			}
			p := top.p
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				parent := frames[len(frames)-1].p.Value.ID
				sf.low[parent] = min(sf.low[parent], sf.low[id])
			}
			if sf.low[id] == sf.index[id] {
				i := len(sf.stack) - 1
				for sf.stack[i] != p {
					i--
				}
				scc := append([]*Phi(nil), sf.stack[i:]...)
				for _, p := range scc {
					sf.inStack[p.Value.ID] = false
				}
				sf.stack = sf.stack[:i]
				sccs = append(sccs, scc)
			}
		}
	}
	return sccs
}

func (sf *sccFinder) visit(p *Phi) {
	sf.counter++
	id := p.Value.ID
	sf.index[id] = sf.counter
	sf.low[id] = sf.counter
	sf.inStack[id] = true
	sf.stack = append(sf.stack, p)
}
