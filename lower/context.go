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
// Only live code counts: a function is read once Finish has dropped its dead blocks, so a
// function copied from a previous version (reuse.go) counts exactly as a lowered one.
//
// The rule is applied as the lowering goes (captureResolver): a function's instructions are
// read when it is finished, and its own variables are settled then, since the functions nested
// in it, the only ones that can use them, are finished before it. A function can then be built
// while the rest of the file is still being lowered (LowerFrom's ready).

// captured records how the functions nested in a binding's owner use it: the first of them (in
// the order of File.Funcs, which their indices give) that assigns it and the first that reads
// it, with where.
type captured struct {
	assignedIn, readIn   *ssa.Function
	assignedAt, readAt   ssa.Span
	assignedIdx, readIdx int
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

// captureResolver applies the rule above to the functions of a file as they are finished.
type captureResolver struct {
	uses    map[*ssa.Binding]*captured
	defs    map[*ssa.Binding]definitions
	created map[*ssa.Function]site
	reads   []capturedRead // kept aside until every definition is counted
	// path holds the functions being lowered (or adopted), outermost first, and depth the
	// index in it of each function entered so far: a read's closure is found in one step.
	path  []*ssa.Function
	depth map[*ssa.Function]int
}

func newCaptureResolver() *captureResolver {
	return &captureResolver{uses: make(map[*ssa.Binding]*captured), defs: make(map[*ssa.Binding]definitions),
		created: make(map[*ssa.Function]site), depth: make(map[*ssa.Function]int)}
}

// enter notes that fn, nested in the function entered last and not left, is being lowered.
func (cr *captureResolver) enter(fn *ssa.Function) {
	cr.depth[fn] = len(cr.path)
	cr.path = append(cr.path, fn)
}

// leave notes that the function entered last is finished.
func (cr *captureResolver) leave() { cr.path = cr.path[:len(cr.path)-1] }

// read records the uses fn, the function of index index in File.Funcs, makes of the
// variables of enclosing functions, the definitions of its own, and the closures it creates.
// fn is the function entered last and not left.
func (cr *captureResolver) read(fn *ssa.Function, index int) {
	for _, blk := range fn.Blocks {
		for i := range blk.Instrs {
			in := &blk.Instrs[i]
			if in.Op == ssa.OpFunction {
				cr.created[in.Func] = site{blk, i}
			}
			b := in.Place.Binding
			switch {
			case b == nil || b.Owner == nil:
			case b.Owner != fn:
				c := cr.uses[b]
				if c == nil {
					c = &captured{assignedIdx: -1, readIdx: -1}
					cr.uses[b] = c
				}
				c.record(fn, index, in)
				// The closure through which fn comes to exist is created in the owner.
				if d, ok := cr.depth[b.Owner]; ok && in.Reads() && fn.Analyzed() && d+1 < len(cr.path) && cr.path[d] == b.Owner {
					cr.reads = append(cr.reads, capturedRead{&in.Place, cr.path[d+1]})
				}
			case in.Defines():
				d := cr.defs[b]
				cr.defs[b] = definitions{d.count + 1, site{blk, i}}
			}
		}
	}
}

// settle marks the context variables among fn's own, and those a nested function reads, once
// every function nested in fn was read.
func (cr *captureResolver) settle(fn *ssa.Function) {
	for _, b := range fn.Bindings {
		c := cr.uses[b]
		b.ReadNested = c != nil && c.readIn != nil
		switch {
		case c == nil || b.Context():
		case c.assignedIn != nil:
			b.Why = ssa.Reason{Kind: ssa.AssignedInNestedFunction, At: c.assignedAt, Name: c.assignedIn.Name}
		case cr.defs[b].count > 1:
			b.Why = ssa.Reason{Kind: ssa.ReassignedAndReadInNestedFunction, At: c.readAt, Name: c.readIn.Name}
		}
	}
}

// finish fills f.Single and f.Captures, once every function was read and settled.
func (cr *captureResolver) finish(f *File) {
	f.Single = make(map[*ssa.Binding]*ssa.Place)
	for b, d := range cr.defs {
		if d.count == 1 {
			f.Single[b] = &d.last.block.Instrs[d.last.index].Place
		}
	}
	f.Captures = make(map[*ssa.Place]*ssa.Place)
	doms := make(map[*ssa.Function]*ssa.DomTree)
	for _, r := range cr.reads {
		b := r.place.Binding
		if d := cr.defs[b]; !b.Context() && b.Owner.Analyzed() && d.count == 1 && definedBefore(d.last, r.through, b.Owner, cr.created, doms) {
			f.Captures[r.place] = f.Single[b]
		}
	}
}

// record notes the use of the binding by in, an instruction of fn, the function of index
// index in File.Funcs. Functions are read in the order they are finished, nested ones first,
// so the first use in File.Funcs is the one of least index; in one function, the first read.
func (c *captured) record(fn *ssa.Function, index int, in *ssa.Instr) {
	switch {
	case in.Defines() && (c.assignedIdx < 0 || index < c.assignedIdx):
		c.assignedIn, c.assignedAt, c.assignedIdx = fn, in.Place.Span, index
	case !in.Defines() && (c.readIdx < 0 || index < c.readIdx):
		c.readIn, c.readAt, c.readIdx = fn, in.Place.Span, index
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
