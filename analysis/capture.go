package analysis

import "github.com/ssalens/ssalens/ssa"

// closureSites answers whether a variable's single definition happens before a nested
// function can run: only then does a read in the nested function see that value and no other.
type closureSites struct {
	// created maps each nested function to the instruction creating its closure.
	created map[*ssa.Function]site
	doms    map[*ssa.Function]*ssa.DomTree
}

type site struct {
	block *ssa.Block
	index int
}

func newClosureSites(funcs []*ssa.Function) *closureSites {
	cs := &closureSites{created: make(map[*ssa.Function]site), doms: make(map[*ssa.Function]*ssa.DomTree)}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for i := range b.Instrs {
				if in := &b.Instrs[i]; in.Op == ssa.OpFunction {
					cs.created[in.Func] = site{b, i}
				}
			}
		}
	}
	return cs
}

// definedBefore reports whether v, defined in its binding's owner, is assigned before the
// closure through which reader (nested in the owner) comes to exist is created, on every
// path: the definition dominates the creation of the owner's child that contains reader.
func (cs *closureSites) definedBefore(v *ssa.Value, reader *ssa.Function) bool {
	owner := v.Binding.Owner
	child := reader
	for child != nil && child.Parent != owner {
		child = child.Parent
	}
	if child == nil {
		return false
	}
	at, ok := cs.created[child]
	if !ok {
		return false // the closure is created in dead code
	}
	if v.Block != at.block {
		dom := cs.doms[owner]
		if dom == nil {
			dom = ssa.Dominators(owner)
			cs.doms[owner] = dom
		}
		return dom.Dominates(v.Block, at.block)
	}
	for i := range at.block.Instrs[:at.index] {
		if &at.block.Instrs[i] == v.Instr {
			return true
		}
	}
	return false
}
