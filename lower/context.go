package lower

import "github.com/ssalens/ssalens/ssa"

// Context variables and captured reads.
//
// A variable declared in one function and used in a nested one is captured. Whether SSA can
// rename it follows React Compiler's rule (FindContextIdentifiers):
//
//   - assigned in a nested function: a call may change it at any moment, so it is a context
//     variable and is not renamed;
//   - assigned more than once in its own function and read in a nested one: the read may see
//     any of its values, so it is a context variable too;
//   - otherwise it has one definition, and is renamed. A read in a nested function sees that
//     value if the definition runs before the closure holding the read is created, on every
//     path (it dominates the creation); else the closure may run while the variable is still
//     unset, and the read has no single value.
//
// Lowering itself makes three more kinds of context variables, where it meets them: those a
// direct eval can see, the parameters an arguments object aliases in sloppy code, and those
// used inside a with statement, whose object may shadow them.
//
// Only live code counts: Finish has dropped the dead blocks before resolveCaptures runs, so a
// function copied from a previous version (reuse.go) counts exactly as a lowered one.

// captured records how the functions nested in a binding's owner use it: the first of them (in
// the order of File.Funcs) that assigns it and the first that reads it, with where.
type captured struct {
	assignedIn, readIn *ssa.Function
	assignedAt, readAt ssa.Span
}

// site is the position of an instruction: a definition or a closure's creation.
type site struct {
	block *ssa.Block
	index int
}

// definitions counts the definitions of a binding in live code of its owner, with the last.
type definitions struct {
	count int
	last  site
}

// capturedRead is a read, in a nested function, of a binding of an enclosing function, and the
// function nested directly in that one through whose closure the read comes to run.
type capturedRead struct {
	place   *ssa.Place
	through *ssa.Function
}

// resolveCaptures applies the rule above to every function of f: it marks the context
// variables and fills f.Single and f.Captures. It reads every instruction once: the reads that
// may see a single definition are kept aside until every definition is counted.
func (f *File) resolveCaptures() {
	uses := make(map[*ssa.Binding]*captured)
	defs := make(map[*ssa.Binding]definitions)
	created := make(map[*ssa.Function]site)
	var reads []capturedRead
	// path holds the functions enclosing the current one, outermost first: Funcs lists parents
	// before their nested functions, each function's nested ones before its next sibling.
	depth := make(map[*ssa.Function]int)
	var path []*ssa.Function
	for _, fn := range f.Funcs {
		if fn.Parent != nil {
			depth[fn] = depth[fn.Parent] + 1
		}
		path = append(path[:depth[fn]], fn)
		for _, blk := range fn.Blocks {
			for i := range blk.Instrs {
				in := &blk.Instrs[i]
				if in.Op == ssa.OpFunction {
					created[in.Func] = site{blk, i}
				}
				b := in.Place.Binding
				switch {
				case b == nil || b.Owner == nil:
				case b.Owner != fn:
					c := uses[b]
					if c == nil {
						c = &captured{}
						uses[b] = c
					}
					c.record(fn, in)
					// The closure through which fn comes to exist is created in the owner.
					if d := depth[b.Owner] + 1; in.Reads() && fn.Analyzed() && d < len(path) && path[d].Parent == b.Owner {
						reads = append(reads, capturedRead{&in.Place, path[d]})
					}
				case in.Defines():
					d := defs[b]
					defs[b] = definitions{d.count + 1, site{blk, i}}
				}
			}
		}
	}
	for b, c := range uses {
		switch {
		case b.Context():
		case c.assignedIn != nil:
			b.Why = ssa.Reason{Kind: ssa.AssignedInNestedFunction, At: c.assignedAt, Name: c.assignedIn.Name}
		case defs[b].count > 1:
			b.Why = ssa.Reason{Kind: ssa.ReassignedAndReadInNestedFunction, At: c.readAt, Name: c.readIn.Name}
		}
	}
	f.Single = make(map[*ssa.Binding]*ssa.Place)
	for b, d := range defs {
		if d.count == 1 {
			f.Single[b] = &d.last.block.Instrs[d.last.index].Place
		}
	}
	f.Captures = make(map[*ssa.Place]*ssa.Place)
	doms := make(map[*ssa.Function]*ssa.DomTree)
	for _, r := range reads {
		b := r.place.Binding
		if d := defs[b]; !b.Context() && b.Owner.Analyzed() && d.count == 1 && definedBefore(d.last, r.through, b.Owner, created, doms) {
			f.Captures[r.place] = f.Single[b]
		}
	}
}

// record notes the use of the binding by in, an instruction of fn.
func (c *captured) record(fn *ssa.Function, in *ssa.Instr) {
	switch {
	case in.Defines() && c.assignedIn == nil:
		c.assignedIn, c.assignedAt = fn, in.Place.Span
	case !in.Defines() && c.readIn == nil:
		c.readIn, c.readAt = fn, in.Place.Span
	}
}

// definedBefore reports whether the definition at def, in owner, runs before the closure of
// child, a function nested in owner, is created, on every path: def dominates the creation.
func definedBefore(def site, child, owner *ssa.Function, created map[*ssa.Function]site, doms map[*ssa.Function]*ssa.DomTree) bool {
	at, ok := created[child]
	if !ok {
		return false // the closure is created in dead code
	}
	if def.block != at.block {
		dom := doms[owner]
		if dom == nil {
			dom = ssa.Dominators(owner)
			doms[owner] = dom
		}
		return dom.Dominates(def.block, at.block)
	}
	return def.index < at.index
}

// markUsedInWith makes b, used inside a with statement of fs's function, a context variable:
// the with statement's object may have a property of its name.
func (fs *funcState) markUsedInWith(b *ssa.Binding, at ssa.Span) {
	if !b.Context() {
		b.Why = ssa.Reason{Kind: ssa.AssignedThroughWith, At: at, Name: fs.fn.Name}
	}
}

// argumentsUsed handles a use of the arguments object: in sloppy code, the elements of the
// arguments of a function with simple parameters are the parameters themselves, so writing
// one assigns the other. Its parameters, all declared before any code of the function is
// lowered, are then not renamed; the first use marks them.
func (fs *funcState) argumentsUsed(at ssa.Span) {
	f := fs
	for f.arrow && f.outer != nil {
		f = f.outer
	}
	if f.arrow || f.strict || !f.simpleParams || f.argumentsSeen {
		return
	}
	f.argumentsSeen = true
	for _, b := range f.funcScope.names {
		if b.Kind == ssa.Param && !b.Context() {
			b.Why = ssa.Reason{Kind: ssa.AliasedByArguments, At: at, Name: f.fn.Name}
		}
	}
}

// directEval marks the function as not analyzed and every binding visible at the call as a
// context variable: a direct eval can read and assign any of them. The walk up the open scopes
// stops at one that an earlier eval saw whole: that eval saw the scopes around it too, which
// declare nothing new while a scope inside them is open.
func (fs *funcState) directEval(call int32) {
	at := fs.span(call)
	fs.refuse(ssa.DirectEval, at, "")
	for s := fs.scope; s != nil && s.evalSeen != len(s.names)+1; s = s.parent {
		for _, b := range s.names {
			if !b.Context() {
				b.Why = ssa.Reason{Kind: ssa.VisibleToDirectEval, At: at, Name: fs.fn.Name}
			}
		}
		s.evalSeen = len(s.names) + 1
	}
}
