package lower

import (
	"slices"

	"github.com/ssalens/ssalens/ssa"
)

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
	use     outerUse
	through *ssa.Function
}

// outerUse is an instruction that uses a global or a variable of an enclosing function: one of
// a function lowered, with its place, or one of a copy (ssa.Copy.OuterUses), whose places
// may not be made yet.
type outerUse struct {
	binding        *ssa.Binding
	span           ssa.Span
	defines, reads bool
	place          *ssa.Place
	copy           *ssa.Copy
	copied         ssa.OuterUse
}

// captureResolver applies the rule above to the functions of a file as they are finished.
// What it gathers about a function's variables lives with the function while it is open, in
// arrays indexed by binding ID that serve one function after another: a file has hundreds of
// thousands of variables, and maps of them took a tenth of the lowering.
type captureResolver struct {
	// path holds the functions being lowered (or adopted), outermost first: the owners of the
	// variables the function read last can use, besides globals.
	path     []*opened
	free     []*opened                 // opened states of functions left, for the next ones
	captures map[*ssa.Place]*ssa.Place // File.Captures
	// usesArguments are the functions read whose own code uses arguments undeclared: their
	// own arguments object, or an arrow function's, that of a function around it
	// (selfContained's concern).
	usesArguments map[*ssa.Function]bool
}

// opened is what the functions nested in fn, read so far, do with fn's variables.
type opened struct {
	fn    *ssa.Function
	uses  []captured     // by binding ID; assignedIdx < 0 and readIdx < 0 if unused
	reads []capturedRead // the reads that may see a single definition
	defs  []definitions  // by binding ID, once fn itself is read
	// created is where fn creates the closures of its nested functions, once fn is read,
	// if reads has any: the reads see a definition that runs before.
	created map[*ssa.Function]site
}

func newCaptureResolver() *captureResolver {
	return &captureResolver{captures: make(map[*ssa.Place]*ssa.Place), usesArguments: make(map[*ssa.Function]bool)}
}

// enter notes that fn, nested in the function entered last and not left, is being lowered.
func (cr *captureResolver) enter(fn *ssa.Function) {
	var o *opened
	if n := len(cr.free); n > 0 {
		o, cr.free = cr.free[n-1], cr.free[:n-1]
		o.reset()
	} else {
		o = new(opened)
	}
	o.fn = fn
	cr.path = append(cr.path, o)
}

// spare returns the opened states of the functions left, emptied so that they keep nothing of
// the version read, for a later lowering.
func (cr *captureResolver) spare() []*opened {
	for _, o := range cr.free {
		clear(o.uses[:cap(o.uses)])
		clear(o.defs[:cap(o.defs)])
		o.reset()
	}
	return cr.free
}

// reset empties o for another function, keeping its arrays.
func (o *opened) reset() { *o = opened{uses: o.uses[:0], reads: o.reads[:0], defs: o.defs[:0]} }

// leave notes that the function entered last is finished.
func (cr *captureResolver) leave() {
	o := cr.path[len(cr.path)-1]
	clear(o.reads) // they point into this version; what lies past them was cleared before
	cr.free = append(cr.free, o)
	cr.path = cr.path[:len(cr.path)-1]
}

// read records the uses fn, the function of index index in File.Funcs, makes of the
// variables of enclosing functions, the definitions of its own, and, if they read its own, the
// closures it creates. fn is the function entered last and not left, and the functions nested
// in it are read already.
func (cr *captureResolver) read(fn *ssa.Function, index int) {
	o := cr.path[len(cr.path)-1]
	o.defs = slices.Grow(o.defs[:0], len(fn.Bindings))[:len(fn.Bindings)]
	clear(o.defs)
	if len(o.reads) > 0 {
		o.created = make(map[*ssa.Function]site, len(fn.Children))
	}
	for _, blk := range fn.Blocks {
		for i := range blk.Instrs {
			in := &blk.Instrs[i]
			if in.Op == ssa.OpFunction && o.created != nil {
				o.created[in.Func] = site{blk, i}
			}
			switch b := in.Place.Binding; {
			case b == nil:
			case b.Owner != fn:
				cr.readOuter(fn, index, outerUse{binding: b, span: in.Place.Span, defines: in.Defines(), reads: in.Reads(), place: &in.Place}, nil)
			case in.Defines():
				d := &o.defs[b.ID]
				*d = definitions{d.count + 1, site{blk, i}}
			}
		}
	}
}

// readOuter records the use u, an instruction of fn, the function of index index in
// File.Funcs, makes of a global or of a variable of an enclosing function. If fn is not the
// function entered last, it is a function of a copy whose root is copied, whose functions are
// not entered (adopt), and which the function entered last encloses.
func (cr *captureResolver) readOuter(fn *ssa.Function, index int, u outerUse, copied *ssa.Function) {
	b := u.binding
	if b.Owner == nil {
		if b.Kind == ssa.Global && b.Name == "arguments" {
			cr.usesArguments[fn] = true
		}
		return
	}
	top := len(cr.path) - 1 // the owner is among the functions fn is nested in
	if copied == nil {
		top-- // fn itself, entered last
	}
	d := top
	for d >= 0 && cr.path[d].fn != b.Owner {
		d--
	}
	if d < 0 {
		return
	}
	cr.path[d].use(b).record(fn, index, u)
	// The closure through which fn comes to exist is created in the owner.
	if u.reads && fn.Analyzed() {
		through := copied
		if d < len(cr.path)-1 {
			through = cr.path[d+1].fn
		}
		cr.path[d].reads = append(cr.path[d].reads, capturedRead{u, through})
	}
}

// use returns the record of how nested functions use b, one of o's function's variables.
func (o *opened) use(b *ssa.Binding) *captured {
	if n := int(b.ID) + 1; n > len(o.uses) {
		k := len(o.uses)
		o.uses = slices.Grow(o.uses, n-k)[:n]
		for i := k; i < n; i++ {
			o.uses[i] = captured{assignedIdx: -1, readIdx: -1}
		}
	}
	return &o.uses[b.ID]
}

// settle marks the context variables among fn's own, and those a nested function reads, once
// every function nested in fn was read, and then resolves them (see resolve).
func (cr *captureResolver) settle(fn *ssa.Function) {
	o := cr.path[len(cr.path)-1]
	for _, b := range fn.Bindings {
		if int(b.ID) >= len(o.uses) {
			b.ReadNested = false
			continue
		}
		c := &o.uses[b.ID]
		b.ReadNested = c.readIdx >= 0
		switch {
		case c.assignedIdx < 0 && c.readIdx < 0 || b.Context():
		case c.assignedIn != nil:
			b.Why = ssa.Reason{Kind: ssa.AssignedInNestedFunction, At: c.assignedAt, Name: c.assignedIn.Name}
		case o.defs[b.ID].count > 1:
			b.Why = ssa.Reason{Kind: ssa.ReassignedAndReadInNestedFunction, At: c.readAt, Name: c.readIn.Name}
		}
	}
	cr.resolve(fn)
}

// resolve sets the Single definition of fn's variables and enters in File.Captures the reads
// of them in nested functions that see it, once fn and the functions nested in it were read
// and fn's variables settled: by settle for a function lowered, as they were in the previous
// version for one copied from it.
func (cr *captureResolver) resolve(fn *ssa.Function) {
	o := cr.path[len(cr.path)-1]
	for id, d := range o.defs {
		b := fn.Bindings[id]
		b.Single = nil
		if d.count == 1 {
			b.Single = &d.last.block.Instrs[d.last.index].Place
		}
	}
	if len(o.reads) == 0 || !fn.Analyzed() {
		return
	}
	var dom *ssa.DomTree
	for _, r := range o.reads {
		b := r.use.binding
		if d := o.defs[b.ID]; !b.Context() && d.count == 1 && definedBefore(d.last, r.through, fn, o.created, &dom) {
			if r.use.place != nil {
				cr.captures[r.use.place] = b.Single
			} else {
				r.use.copy.AddCapture(r.use.copied)
			}
		}
	}
}

// finish gives f the captured reads resolved, once every function was, and the functions that
// use arguments.
func (cr *captureResolver) finish(f *File) {
	f.Captures, f.usesArguments = cr.captures, cr.usesArguments
}

// record notes the use u of the binding by an instruction of fn, the function of index index
// in File.Funcs. Functions are read in the order they are finished, nested ones first, so the
// first use in File.Funcs is the one of least index; in one function, the first read.
func (c *captured) record(fn *ssa.Function, index int, u outerUse) {
	switch {
	case u.defines && (c.assignedIdx < 0 || index < c.assignedIdx):
		c.assignedIn, c.assignedAt, c.assignedIdx = fn, u.span, index
	case !u.defines && (c.readIdx < 0 || index < c.readIdx):
		c.readIn, c.readAt, c.readIdx = fn, u.span, index
	}
}

// definedBefore reports whether the definition at def, in owner, runs before the closure of
// child, a function nested in owner, is created, on every path: def dominates the creation.
// *dom is owner's dominator tree, computed the first time it is needed.
func definedBefore(def site, child, owner *ssa.Function, created map[*ssa.Function]site, dom **ssa.DomTree) bool {
	at, ok := created[child]
	if !ok {
		return false // the closure is created in dead code
	}
	if def.block != at.block {
		if *dom == nil {
			*dom = ssa.Dominators(owner)
		}
		return (*dom).Dominates(def.block, at.block)
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

// argumentsVar handles a var named arguments in a function that is not an arrow function: it
// is the binding of the function's arguments object, and holds the object until assigned (a
// parameter, a function declaration or a lexical declaration of the name would replace the
// object, and are no var). So it is defined on entry, and in sloppy code the elements of the
// object it holds are the parameters (argumentsUsed).
func (fs *funcState) argumentsVar() {
	b := fs.scope.names["arguments"]
	if fs.arrow || b == nil || b.Kind != ssa.Var {
		return
	}
	fs.cur.Store(b, b.Decl, fs.cur.Intrinsic(ssa.IntrinsicArguments, "", b.Decl))
	fs.argumentsUsed(b.Decl)
}

// directEval marks the function as not analyzed and every binding visible at the call as a
// context variable: a direct eval can read and assign any of them. The walk up the open scopes
// stops at one that an earlier eval saw whole: that eval saw the scopes around it too, which
// declare nothing new while a scope inside them is open.
func (fs *funcState) directEval(call int32) {
	at := fs.span(call)
	fs.refuse(ssa.DirectEval, at, "")
	fs.lw.scopesOpened = true
	for s := fs.scope; s != nil && s.evalSeen != len(s.names)+1; s = s.parent {
		for _, b := range s.names {
			if !b.Context() {
				b.Why = ssa.Reason{Kind: ssa.VisibleToDirectEval, At: at, Name: fs.fn.Name}
			}
		}
		s.evalSeen = len(s.names) + 1
	}
}
