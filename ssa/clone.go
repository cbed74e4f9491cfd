package ssa

import (
	"math"
	"sync"
	"unsafe"
	"weak"
)

// A Copy is a copy of a function and its nested functions, HIR and SSA form alike, for a new
// version of the source in which their text is unchanged but starts some bytes later. After an
// edit, every function the edit does not touch is copied (see package lower), so a keystroke
// would copy nearly the whole file; most of those copies are never read, since an editor asks
// about the lines on screen. So a copy is made in two steps:
//
//   - NewCopy, on the lowering's goroutine, resolves the bindings the functions use from outside
//     them, which only the lowering's scopes know, and returns the copy's functions as shells:
//     their names, spans, nesting and whether they are analyzed, but no body. What the lowering
//     needs of the bodies, the uses they make of bindings from outside (OuterUses), it reads
//     from a summary of the function copied, made once for all its copies.
//   - The bodies are copied once, when something first needs them (Function.Materialize, Make),
//     on whichever goroutine asks first.
//
// A copy of a copy whose bodies are not made yet copies what that one copies, its origin: a
// chain of copies through many versions costs one copy of the bodies, or none. The origin is
// first the function copied, and with it the version it belongs to, until Detach copies the
// origin's bodies, once for all its copies, into a template that no version holds, with a
// stand-in for each binding they use from outside; the chain copies that from then on. The
// functions of a version lowered from scratch, which copied nothing, hold no other version:
// while the user types, they may serve as the template as they are (Detach's all), and the
// first keystroke after a file is opened does not copy the bodies of the whole file.
// A copy made from a template keeps it, and so do the copies of that copy: once detached, a
// function no edit touches has its bodies copied only where something asks for them. Whoever may
// ask for the bodies keeps the Copy: a copied function refers to it weakly. Otherwise a
// version would keep, through an origin's parent and the functions around it, that version's
// copies not made and their origins, and so on back to the first version.
//
// Make allocates by kind, not by object: one array each for a function's bindings, blocks,
// instructions, values, φs and the lists that point into them. Pointers into the origin are
// translated by index: a binding by its owner and ID, a value by its ID, a φ by its value, and
// a place or a defining instruction by its position in the function's packed instructions
// (see packInstrs), which the copy lays out the same way. The copy shares nothing mutable with
// the origin, which must not change meanwhile.
type Copy struct {
	funcs []*Function // the copy's functions in preorder, the root first
	shift int32       // how many bytes later the copy's text starts than its origin's
	// outer are the origin's summary's, whose spans are outerShift bytes before the copy's.
	outer      []OuterUse
	outerShift int32

	mu sync.Mutex
	// origin is what Make copies: the summary of the function copied, which lists its
	// functions. Make drops it, and with it the version they belong to, unless it is detached:
	// the copies of a made copy then copy the same template.
	origin *summary
	made   bool

	once sync.Once
	// pending are the captured reads of variables around the copy, which the lowering resolves
	// (AddCapture) or carries over from the copy it copies (CarryCaptures) before the copy is
	// shared; captures the captured reads inside the copy, made with the bodies, and then those
	// of pending too.
	pending  []pendingCapture
	captures map[*Place]*Place
	capOnce  sync.Once
}

// OuterUse is an instruction of a copied function that uses a binding from outside the copy:
// the Instr-th of the packed instructions of the function of position Order among the copy's,
// in preorder (0 for the root). Use is the binding's index in the list of those the copy uses
// from outside (Binding returns it).
type OuterUse struct {
	Order, Instr, Use int32
	Span              Span
	Defines, Reads    bool
}

// pendingCapture is a captured read in a copy of a variable around it: the place of the
// Instr-th instruction of the copy's function Order sees the single definition of the binding
// the copy uses from outside of index use (Binding.Single). Nothing in it depends on the
// version, so that the copies of a copy share their list (CarryCaptures).
type pendingCapture struct {
	order, instr, use int32
}

// summary is what copies of a function read of it, gathered once: the function and its nested
// functions in preorder, the bindings they use from outside, the instructions that use those,
// the captured reads among them, and how many instructions each has. A copy made from a
// function, not a template, has its origin's summary with its own functions and bindings
// (Make): the rest, plain data, is shared, and the spans of outer are shift bytes before the
// function's.
type summary struct {
	mu sync.Mutex
	// funcs and uses are a version's functions and the bindings they use from outside, until
	// detach replaces them with a template's and its stand-ins, in the same order. whole says
	// that version was lowered from scratch (NewCopy's whole).
	funcs    []*Function
	uses     []*Binding
	detached bool
	whole    bool
	detach   sync.Once
	outer    []OuterUse
	shift    int32
	inner    []innerCapture
	instrs   []int32
}

// bodies returns what copies of the summary copy: the functions and the bindings they use from
// outside, and whether they are a template's.
func (s *summary) bodies() ([]*Function, []*Binding, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.funcs, s.uses, s.detached
}

// makeTemplate copies s's functions into a template, which no version holds: the bindings they
// use from outside become stand-ins, which only Make reads, to resolve them. Copies of s copy
// the template from then on, and s keeps nothing of the version its functions belong to.
func (s *summary) makeTemplate() {
	s.detach.Do(func() {
		funcs, uses, _ := s.bodies()
		standIns := make([]Binding, len(uses))
		stand := make([]*Binding, len(uses))
		for i, b := range uses {
			standIns[i] = Binding{ID: b.ID, Name: b.Name, Kind: b.Kind}
			stand[i] = &standIns[i]
		}
		still := Move{At: math.MinInt32}
		tmpl := shellsOf(funcs, still, weak.Pointer[Copy]{}, s.instrs)
		cloneBodies(funcs, tmpl, still, uses, stand)
		s.mu.Lock()
		s.funcs, s.uses, s.detached = tmpl, stand, true
		s.mu.Unlock()
	})
}

// innerCapture is a captured read inside a copied function: the place of instruction instr
// of function order sees the place of instruction defInstr of function defOrder.
type innerCapture struct {
	order, instr, defOrder, defInstr int32
}

// NewCopy starts a copy of fn, whose text starts shift bytes later in the new version, and
// returns it with its functions as shells (see Copy). Bindings the copied functions own are
// copied; every other binding b they use is replaced by outer(b), which returns nil when b has
// no counterpart, and then NewCopy returns nil. captured returns, for a read in fn's nested
// functions of a variable of a function around it, the place of the single definition it
// sees, or nil (the lowering's File.Capture). whole says that fn's version was lowered from
// scratch, copying nothing: its functions hold no other version, and a copy's chain may keep
// them as they are until the user pauses (see Copy.Detach).
func (fn *Function) NewCopy(shift int32, outer func(*Binding) *Binding, captured func(*Function, *Place) *Place, whole bool) *Copy {
	var sum *summary
	prev := fn.fromOutside
	if c := fn.copied.Value(); c != nil {
		c.mu.Lock()
		if fn == c.funcs[0] && c.origin != nil { // not made, or made from a template
			sum, shift = c.origin, shift+c.shift
		}
		c.mu.Unlock()
		if sum == nil {
			fn.Materialize()
		}
	}
	if sum == nil {
		sum, prev = fn.summarize(captured, whole)
	}
	now := make([]*Binding, len(prev))
	for i, b := range prev {
		if now[i] = outer(b); now[i] == nil {
			return nil
		}
	}
	cp := &Copy{shift: shift, outer: sum.outer, outerShift: sum.shift + shift, origin: sum}
	cp.shells()
	cp.funcs[0].fromOutside = now
	return cp
}

// shells makes the copy's functions, without their bodies.
func (c *Copy) shells() {
	funcs, _, _ := c.origin.bodies()
	c.funcs = shellsOf(funcs, c.move(), weak.Make(c), c.origin.instrs)
}

// shellsOf returns functions that stand for from, a function and its nested functions in
// preorder, moved by m, without their bodies: their names, spans, flags and nesting. They
// belong to the copy copied, if any, and have instrs instructions each.
func shellsOf(from []*Function, m Move, copied weak.Pointer[Copy], instrs []int32) []*Function {
	funcs := make([]Function, len(from))
	shells := make([]*Function, len(from))
	children := 0
	for _, f := range from {
		children += len(f.Children)
	}
	list := make([]*Function, children)
	for i, f := range from {
		nf := &funcs[i]
		*nf = Function{Name: f.Name, Span: m.Span(f.Span), NotAnalyzed: m.Reason(f.NotAnalyzed),
			RunsWhenCreated: f.RunsWhenCreated, Arrow: f.Arrow, temps: f.temps, built: f.built,
			copied: copied, copyInstrs: instrs[i]}
		shells[i] = nf
	}
	// In preorder, the nested functions of function i come right after it, each followed by its
	// own nested functions.
	next := 1
	var nest func(i int)
	nest = func(i int) {
		f, nf := from[i], shells[i]
		nf.Children, list = list[:len(f.Children):len(f.Children)], list[len(f.Children):]
		for k := range f.Children {
			child := next
			next++
			shells[child].Parent = nf
			nf.Children[k] = shells[child]
			nest(child)
		}
	}
	nest(0)
	return shells
}

// Summarize makes ahead what the first copy of fn reads of it (see NewCopy, whose arguments
// captured and whole are), for a caller that expects fn to be copied soon: the first keystroke
// after a file is opened copies nearly every function of it.
func (fn *Function) Summarize(captured func(*Function, *Place) *Place, whole bool) {
	if fn.summary.Load() == nil {
		fn.summarize(captured, whole)
	}
}

// summarize returns fn's summary, made the first time fn is copied or summarized, and the
// bindings fn and its nested functions use from outside, in the order of the summary's.
func (fn *Function) summarize(captured func(*Function, *Place) *Place, whole bool) (*summary, []*Binding) {
	if s := fn.summary.Load(); s != nil {
		if _, uses, detached := s.bodies(); !detached {
			return s, uses
		}
		return s, fn.usedFromOutside() // the summary's are a template's stand-ins now
	}
	s := &summary{whole: whole}
	var order map[*Function]int32
	s.funcs, order = fn.nested()
	for _, f := range s.funcs {
		f.Materialize() // a lowered function may hold copies of its nested functions
	}
	s.uses = fn.usedFromOutside()
	use := make(map[*Binding]int32, len(s.uses))
	for i, b := range s.uses {
		use[b] = int32(i)
	}
	s.instrs = make([]int32, len(s.funcs))
	for i, f := range s.funcs {
		s.instrs[i] = int32(len(f.instrs))
		for k := range f.instrs {
			in := &f.instrs[k]
			b := in.Place.Binding
			if b == nil {
				continue
			}
			owner, inside := order[b.Owner]
			switch {
			case !inside:
				s.outer = append(s.outer, OuterUse{Order: int32(i), Instr: int32(k), Use: use[b], Span: in.Place.Span,
					Defines: in.Defines(), Reads: in.Reads()})
			case b.Owner != f && in.Reads() && captured != nil:
				if def := captured(f, &in.Place); def != nil {
					s.inner = append(s.inner, innerCapture{int32(i), int32(k), owner, int32(b.Owner.placeIndex(def))})
				}
			}
		}
	}
	if !fn.summary.CompareAndSwap(nil, s) { // summarized meanwhile (Summarize)
		return fn.summarize(captured, whole)
	}
	return s, s.uses
}

// Func returns the copy's root function.
func (c *Copy) Func() *Function { return c.funcs[0] }

// Funcs returns the copy's functions in preorder. Until they are made (Function.Materialize),
// only their Name, Span, NotAnalyzed, RunsWhenCreated, Arrow, Parent and Children may be used.
func (c *Copy) Funcs() []*Function { return c.funcs }

// OuterUses calls yield with each instruction of the copied functions that uses a binding from
// outside the copy, function by function in preorder, with its span in the copy's text.
func (c *Copy) OuterUses(yield func(OuterUse)) {
	for _, u := range c.outer {
		u.Span = Span{Start: u.Span.Start + c.outerShift, End: u.Span.End + c.outerShift}
		yield(u)
	}
}

// Binding returns the binding from outside the copy that OuterUse u uses.
func (c *Copy) Binding(u OuterUse) *Binding { return c.funcs[0].fromOutside[u.Use] }

// AddCapture records that the place of instruction u, a read of a variable of a function
// around the copy, sees the variable's single definition (Binding.Single). The lowering calls
// it before it shares the copy.
func (c *Copy) AddCapture(u OuterUse) {
	c.pending = append(c.pending, pendingCapture{u.Order, u.Instr, u.Use})
}

// CarryCaptures gives c, a copy of old, the captured reads of variables around it that old
// recorded (AddCapture), and reports whether old is the root of a copy, which alone records
// them. A lowering that copies old again and clones the functions around it, whose variables
// keep their single definitions there, calls it rather than read every use the copy makes of
// their variables: the list is shared, not copied.
func (c *Copy) CarryCaptures(old *Function) bool {
	from := old.copied.Value()
	if from == nil || from.funcs[0] != old || len(old.fromOutside) != len(c.funcs[0].fromOutside) {
		return false
	}
	c.pending = from.pending[:len(from.pending):len(from.pending)]
	return true
}

// capturedDef returns the definition the captured read p sees.
func (c *Copy) capturedDef(p pendingCapture) *Place { return c.funcs[0].fromOutside[p.use].Single }

// Make copies the functions' bodies, if no call did yet, and returns when they are copied.
func (c *Copy) Make() {
	c.once.Do(func() {
		funcs, uses, detached := c.origin.bodies()
		cloneBodies(funcs, c.funcs, c.move(), uses, c.funcs[0].fromOutside)
		c.captures = make(map[*Place]*Place, len(c.origin.inner)) // pending may still grow: capturesMade
		for _, r := range c.origin.inner {
			c.captures[c.place(r.order, r.instr)] = c.place(r.defOrder, r.defInstr)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.made = true
		if detached {
			return // the next version copies the template too (NewCopy)
		}
		// The next version copies this one: its summary is the origin's, but for the functions
		// and bindings, rather than one gathered again from the bodies just made.
		o := c.origin
		c.funcs[0].summary.CompareAndSwap(nil, &summary{funcs: c.funcs, uses: c.funcs[0].fromOutside,
			outer: o.outer, shift: c.outerShift, inner: o.inner, instrs: o.instrs})
		c.origin = nil
	})
}

// Detach makes the copy keep no earlier version: the functions its bodies will be copied from
// are copied into a template (see Copy), if they are a version's and the copy is not made.
// Without all, it leaves the functions of a version lowered from scratch as they are: they
// keep only each other. It is safe to call from any goroutine; the copies of one origin
// detach it once.
func (c *Copy) Detach(all bool) {
	c.mu.Lock()
	o := c.origin
	c.mu.Unlock()
	if o != nil && (all || !o.whole) {
		o.makeTemplate()
	}
}

// place returns the place of instruction instr of the copy's function order, once made.
func (c *Copy) place(order, instr int32) *Place { return &c.funcs[order].instrs[instr].Place }

// capturesMade returns every captured read inside the copy, once made: the map is complete
// only when the lowering that made the copy has returned.
func (c *Copy) capturesMade() map[*Place]*Place {
	c.Make()
	c.capOnce.Do(func() {
		for _, p := range c.pending {
			c.captures[c.place(p.order, p.instr)] = c.capturedDef(p)
		}
	})
	return c.captures
}

// ReadsFromOutside returns the places in the copy rooted at fn that read, captured, a variable
// of a function around the copy and see v: the captured reads the lowering resolved there
// (AddCapture). It makes the copy's bodies only if there are some; nil for a function that is
// not the root of a copy.
func (fn *Function) ReadsFromOutside(v *Value) []*Place {
	c := fn.copied.Value()
	if c == nil || c.funcs[0] != fn {
		return nil
	}
	var ps []*Place
	for _, p := range c.pending {
		if c.capturedDef(p).Value == v {
			c.Make()
			ps = append(ps, c.place(p.order, p.instr))
		}
	}
	return ps
}

// Materialize makes fn's body, if fn is a copy whose bodies are not made yet (see Copy).
// Whoever reads the blocks, bindings or values of a function of a version lowered from another
// calls it first; it is safe to call from any goroutine, and costs nothing once made.
func (fn *Function) Materialize() {
	if c := fn.copied.Value(); c != nil {
		c.Make()
	}
}

// Captures returns the captured reads in the functions of fn's copy, if fn is the root of a
// copy, made as Materialize does; nil for any other function. A read is keyed by its place and
// maps to the place of the single definition it sees.
func (fn *Function) Captures() map[*Place]*Place {
	if c := fn.copied.Value(); c != nil && c.funcs[0] == fn {
		return c.capturesMade()
	}
	return nil
}

// CopyRoot returns the root of the copy fn belongs to, or nil if fn is not a copy.
func (fn *Function) CopyRoot() *Function {
	if c := fn.copied.Value(); c != nil {
		return c.funcs[0]
	}
	return nil
}

// CopyCapture returns, for a function fn of a copy, the place of the single definition the
// read at p sees, and true; false if fn is not a function of a copy.
func (fn *Function) CopyCapture(p *Place) (*Place, bool) {
	c := fn.copied.Value()
	if c == nil {
		return nil, false
	}
	return c.capturesMade()[p], true
}

// NumInstrs returns how many instructions fn has, made or not.
func (fn *Function) NumInstrs() int {
	if fn.copied != (weak.Pointer[Copy]{}) {
		return int(fn.copyInstrs)
	}
	n := 0
	for _, b := range fn.Blocks {
		n += len(b.Instrs)
	}
	return n
}

// EachOuterUse calls yield with each instruction of fn and its nested functions that uses a
// binding none of them owns (a global or a variable of a function around fn), with the
// function that holds it: function by function in preorder, in order in each. The uses of a
// copy come from its summary, without making its bodies.
func (fn *Function) EachOuterUse(yield func(f *Function, b *Binding, at Span, defines, reads bool)) {
	_, inside := fn.nested()
	var visit func(*Function)
	visit = func(f *Function) {
		if c := f.copied.Value(); c != nil && c.funcs[0] == f {
			c.OuterUses(func(u OuterUse) {
				if b := c.Binding(u); !isIn(inside, b.Owner) {
					yield(c.funcs[u.Order], b, u.Span, u.Defines, u.Reads)
				}
			})
			return
		}
		f.Materialize()
		for _, blk := range f.Blocks {
			for i := range blk.Instrs {
				in := &blk.Instrs[i]
				if b := in.Place.Binding; b != nil && !isIn(inside, b.Owner) {
					yield(f, b, in.Place.Span, in.Defines(), in.Reads())
				}
			}
		}
		for _, c := range f.Children {
			visit(c)
		}
	}
	visit(fn)
}

// nested returns fn and the functions nested in it, in preorder, and the index of each there.
func (fn *Function) nested() ([]*Function, map[*Function]int32) {
	var funcs []*Function
	var enter func(*Function)
	enter = func(f *Function) {
		funcs = append(funcs, f)
		for _, c := range f.Children {
			enter(c)
		}
	}
	enter(fn)
	order := make(map[*Function]int32, len(funcs)) // made at its size, not grown: lodash.js's runInContext holds nearly every function
	for i, f := range funcs {
		order[f] = int32(i)
	}
	return funcs, order
}

// isIn reports whether f is one of the functions nested returned the order of.
func isIn(order map[*Function]int32, f *Function) bool {
	_, ok := order[f]
	return ok
}

// usedFromOutside returns the bindings that fn and its nested functions use and none of them
// owns: globals and enclosing functions' variables, each once. A copy's root knows its own,
// resolved; any other function finds them in its instructions.
func (fn *Function) usedFromOutside() []*Binding {
	if fn.fromOutside != nil {
		return fn.fromOutside
	}
	funcs, inside := fn.nested()
	seen := make(map[*Binding]bool)
	uses := []*Binding{}
	note := func(b *Binding) {
		if b != nil && !isIn(inside, b.Owner) && !seen[b] {
			seen[b] = true
			uses = append(uses, b)
		}
	}
	for _, f := range funcs {
		for _, b := range f.Blocks {
			for i := range b.Instrs {
				note(b.Instrs[i].Place.Binding)
			}
		}
		for _, v := range f.Values {
			note(v.Binding)
		}
	}
	return uses
}

// move returns how the copy's positions follow from its origin's: all shifted alike.
func (c *Copy) move() Move { return Move{At: math.MinInt32, By: c.shift} }

// A Move maps the positions of one version of the source to the next: those at or after At
// lie By bytes later, those before it stay. A copy moves all its positions alike; the
// functions around an edit keep their text before it and move what follows.
type Move struct{ At, By int32 }

// Pos returns where position p lies after the move.
func (m Move) Pos(p int32) int32 {
	if p >= m.At {
		return p + m.By
	}
	return p
}

// Span returns where s lies after the move.
func (m Move) Span(s Span) Span { return Span{Start: m.Pos(s.Start), End: m.Pos(s.End)} }

// Reason returns r with its position moved, if it has one.
func (m Move) Reason(r Reason) Reason {
	if r.Kind != NoReason {
		r.At = m.Span(r.At)
	}
	return r
}

// CloneFrame returns a copy of fn for a version of the source whose positions follow from
// fn's by m: its name, span, flags and bindings, without nested functions or body. It serves
// the functions around an edit, which the edit leaves as they were but for positions (see
// package lower): the caller gives the copy its nested functions, then its body (CloneBody).
// fn's body must be made (Materialize).
func (fn *Function) CloneFrame(m Move) *Function {
	nf := &Function{Name: fn.Name, Span: m.Span(fn.Span), NotAnalyzed: m.Reason(fn.NotAnalyzed),
		RunsWhenCreated: fn.RunsWhenCreated, Arrow: fn.Arrow, temps: fn.temps, built: fn.built}
	cloneBindings(fn, nf, m)
	return nf
}

// CloneBody gives nf, which CloneFrame made from fn, a copy of fn's blocks, instructions and
// SSA values, moved by m. nf.Children must stand for fn.Children, one for one: the closures
// nf creates are those. outer resolves the bindings fn uses and does not own.
func (nf *Function) CloneBody(fn *Function, m Move, outer func(*Binding) *Binding) {
	c := cloner{from: []*Function{fn}, to: []*Function{nf}, move: m, outer: outer, path: []int32{0}}
	c.body(fn, nf)
}

// cloneBodies copies the bodies of from, a function and its nested functions in preorder, into
// to, their shells, moved by m: uses[i], a binding they use from outside, becomes now[i].
func cloneBodies(from, to []*Function, m Move, uses, now []*Binding) {
	outer := make(map[*Binding]*Binding, len(uses))
	for i, b := range uses {
		outer[b] = now[i]
	}
	cl := cloner{from: from, to: to, move: m, outer: func(b *Binding) *Binding { return outer[b] }}
	cl.function(0)
}

// A cloner copies the bodies of the functions from, in preorder, into to, their shells,
// moving their positions by move.
type cloner struct {
	from, to []*Function
	move     Move
	outer    func(*Binding) *Binding // resolves the bindings used from outside the functions
	// path holds the positions of the functions being copied, outermost first: the owners of
	// the bindings the function copied last uses from inside the copy.
	path []int32
}

// copyOf returns the copy of owner, a function whose bindings the function copied last uses,
// or nil if owner is not copied: the binding is a global or a variable of a function around
// the copy.
func (c *cloner) copyOf(owner *Function) *Function {
	for i := len(c.path) - 1; i >= 0; i-- {
		if c.from[c.path[i]] == owner {
			return c.to[c.path[i]]
		}
	}
	return nil
}

func (c *cloner) binding(b *Binding) *Binding {
	if nf := c.copyOf(b.Owner); nf != nil {
		return nf.Bindings[b.ID]
	}
	return c.outer(b)
}

// cloneBindings gives nf copies of fn's bindings, moved by m.
func cloneBindings(fn, nf *Function, m Move) {
	bindings := make([]Binding, len(fn.Bindings))
	nf.Bindings = make([]*Binding, len(fn.Bindings))
	for i, b := range fn.Bindings {
		nb := &bindings[i]
		*nb = *b
		nb.Owner = nf
		nb.Decl = m.Span(b.Decl)
		nb.Type = m.Span(b.Type)
		nb.Why = m.Reason(b.Why)
		nf.Bindings[i] = nb
	}
}

// function copies the body of function order of the copy and those of its nested functions,
// which follow it in preorder, and returns the position of the function after them.
func (c *cloner) function(order int32) int32 {
	fn, nf := c.from[order], c.to[order]
	c.path = append(c.path, order)
	cloneBindings(fn, nf, c.move)
	next := order + 1
	for range fn.Children {
		next = c.function(next)
	}
	c.body(fn, nf)
	c.path = c.path[:len(c.path)-1]
	return next
}

// child returns the copy of f, a function nested in fn, which nf copies. The closures of a
// function's nested functions are mostly created in the order they are listed, so the search
// starts after the last one found, at *next.
func child(f, fn, nf *Function, next *int) *Function {
	for k := range len(fn.Children) {
		if i := (*next + k) % len(fn.Children); fn.Children[i] == f {
			*next = i + 1
			return nf.Children[i]
		}
	}
	return nil
}

// body copies fn's blocks, instructions and values into nf.
func (c *cloner) body(fn, nf *Function) {
	edges, phis, instrs := 0, 0, 0
	for _, b := range fn.Blocks {
		edges += len(b.Preds) + len(b.Term.Succs)
		phis += len(b.Phis)
		instrs += len(b.Instrs)
	}
	blocks := make([]Block, len(fn.Blocks))
	nf.Blocks = make([]*Block, len(fn.Blocks))
	for i := range blocks {
		nf.Blocks[i] = &blocks[i]
	}
	nf.instrs = make([]Instr, 0, instrs)
	edgeList := make([]*Block, 0, edges)
	phiList := make([]*Phi, 0, phis)
	nextChild := 0
	for i, b := range fn.Blocks {
		nb := &blocks[i]
		*nb = *b
		nb.Func = nf
		nb.Anchor = c.move.Span(b.Anchor)
		nb.Term.Span = c.move.Span(b.Term.Span)
		start := len(nf.instrs)
		nf.instrs = append(nf.instrs, b.Instrs...)
		nb.Instrs = nf.instrs[start:len(nf.instrs):len(nf.instrs)]
		for j := range nb.Instrs {
			in := &nb.Instrs[j]
			in.Span = c.move.Span(in.Span)
			if in.Func != nil {
				in.Func = child(in.Func, fn, nf, &nextChild)
			}
			if used := in.Place.Binding; used != nil {
				in.Place.Binding = c.binding(used)
				in.Place.Span = c.move.Span(in.Place.Span)
			}
		}
		edgeList, nb.Preds = appendBlocks(edgeList, b.Preds, nf.Blocks)
		edgeList, nb.Term.Succs = appendBlocks(edgeList, b.Term.Succs, nf.Blocks)
		phiList = append(phiList, b.Phis...) // translated once the φs exist, below
		nb.Phis = phiList[len(phiList)-len(b.Phis) : len(phiList) : len(phiList)]
	}
	for _, b := range nf.Bindings {
		if b.Single != nil {
			b.Single = &nf.instrs[fn.placeIndex(b.Single)].Place
		}
	}
	if len(fn.Values) == 0 { // not built: no values, and no place has one
		return
	}
	uses, phiCount, operands := 0, 0, 0
	for _, v := range fn.Values {
		uses += len(v.Uses)
		if v.Phi != nil {
			phiCount++
			operands += len(v.Phi.Operands)
		}
	}
	values := make([]Value, len(fn.Values))
	nf.Values = make([]*Value, len(fn.Values))
	for i := range values {
		nf.Values[i] = &values[i]
	}
	phiValues := make([]Phi, 0, phiCount)
	useList := make([]Use, 0, uses)
	operandList := make([]*Value, 0, operands)
	for i, v := range fn.Values {
		nv := &values[i]
		*nv = *v
		nv.Block = nf.Blocks[v.Block.ID]
		nv.Binding = c.binding(v.Binding)
		if v.Instr != nil {
			nv.Instr = &nf.instrs[fn.instrIndex(v.Instr)]
		}
		if v.Phi != nil {
			phiValues = append(phiValues, Phi{Value: nv, Block: nv.Block, complete: v.Phi.complete})
			nv.Phi = &phiValues[len(phiValues)-1]
			for _, op := range v.Phi.Operands {
				operandList = append(operandList, nf.value(op))
			}
			nv.Phi.Operands = operandList[len(operandList)-len(v.Phi.Operands) : len(operandList) : len(operandList)]
		}
	}
	for i, v := range fn.Values { // after the loop above, which makes the φs uses point to
		for _, u := range v.Uses {
			nu := Use{Index: u.Index}
			if u.Phi != nil {
				nu.Phi = nf.Values[u.Phi.Value.ID].Phi
			} else {
				nu.Place = &nf.instrs[fn.placeIndex(u.Place)].Place
			}
			useList = append(useList, nu)
		}
		values[i].Uses = useList[len(useList)-len(v.Uses) : len(useList) : len(useList)]
	}
	for i := range phiList {
		phiList[i] = nf.Values[phiList[i].Value.ID].Phi
	}
	for i := range nf.instrs {
		p := &nf.instrs[i].Place
		p.Value = nf.value(p.Value)
	}
}

// appendBlocks appends to list the copies, in blocks, of the blocks of from, and returns the
// list and the part it appended.
func appendBlocks(list, from, blocks []*Block) ([]*Block, []*Block) {
	start := len(list)
	for _, b := range from {
		list = append(list, blocks[b.ID])
	}
	return list, list[start:len(list):len(list)]
}

// value returns fn's value with the ID of v, a value of the function fn was copied from.
func (fn *Function) value(v *Value) *Value {
	if v == nil {
		return nil
	}
	return fn.Values[v.ID]
}

// instrIndex returns the index of in in fn's packed instructions, into which it must point.
func (fn *Function) instrIndex(in *Instr) int {
	i := (uintptr(unsafe.Pointer(in)) - uintptr(unsafe.Pointer(unsafe.SliceData(fn.instrs)))) / unsafe.Sizeof(Instr{})
	if i >= uintptr(len(fn.instrs)) || &fn.instrs[i] != in {
		panic("ssa: an instruction outside its function's packed instructions")
	}
	return int(i)
}

// placeIndex returns the index in fn's packed instructions of the instruction holding p.
func (fn *Function) placeIndex(p *Place) int {
	return fn.instrIndex((*Instr)(unsafe.Add(unsafe.Pointer(p), -int(unsafe.Offsetof(Instr{}.Place)))))
}
