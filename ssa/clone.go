package ssa

import (
	"sync"
	"unsafe"
)

// A Copy is a copy of a function and its nested functions, HIR and SSA form alike, for a new
// version of the source in which their text is unchanged but starts shift bytes later. It is
// made in two steps, so that the copying can run on another processor while the lowering of
// the new version goes on. NewCopy, on the lowering's goroutine, resolves the bindings the
// functions use from outside them, which only the lowering's scopes know, and returns the
// copy's root, with its name, span and parent as the lowering reads them; Make copies the
// rest, once, on whichever goroutine calls it first. The copy shares nothing mutable with the
// original, which must not change meanwhile. Make also gathers what the lowering then reads
// from the copy: the instructions that use a binding from outside it (OuterUses), and the
// captured reads inside it (Captured).
//
// Copies are made on every keystroke for each unchanged function next to the edit, so Make
// allocates by kind, not by object: one array each for a function's bindings, blocks,
// instructions, values, φs and the lists that point into them. Pointers into the original are
// translated by index: a binding by its owner and ID, a value by its ID, a φ by its value, and
// a place or a defining instruction by its position in the function's packed instructions
// (see packInstrs), which the copy lays out the same way.
type Copy struct {
	orig, root *Function
	c          cloner
	once       sync.Once
}

// OuterUse is an instruction of a copied function that uses a binding from outside the copy.
type OuterUse struct {
	Func  *Function
	Order int // Func's position among the copied functions, in preorder: 0 for the root
	Instr *Instr
}

// CapturedRead is a read of a variable of an enclosing function that sees a single
// definition of it: Def (see NewCopy).
type CapturedRead struct {
	Read, Def *Place
}

// NewCopy starts a copy of fn. Bindings the copied functions own are copied; every other
// binding b they use is replaced by outer(b), which returns nil when b has no counterpart, and
// then NewCopy returns nil. captured maps the places of reads in fn's nested functions to the
// places of the single definitions they see (the lowering's File.Captures); Make translates
// those inside the copy.
func (fn *Function) NewCopy(shift int32, outer func(*Binding) *Binding, captured map[*Place]*Place) *Copy {
	uses := fn.usedFromOutside()
	now := make([]*Binding, len(uses))
	for i, b := range uses {
		if now[i] = outer(b); now[i] == nil {
			return nil
		}
	}
	c := cloner{shift: shift, uses: uses, captured: captured}
	root := c.shell(fn)
	root.fromOutside = now
	return &Copy{orig: fn, root: root, c: c}
}

// Func returns the copy's root function. Until Make returns, only its Name, Span,
// NotAnalyzed and Parent may be used.
func (c *Copy) Func() *Function { return c.root }

// Make copies the functions, if no call did yet, and returns when they are copied.
func (c *Copy) Make() {
	c.once.Do(func() {
		c.c.outer = make(map[*Binding]*Binding, len(c.c.uses))
		for i, b := range c.c.uses {
			c.c.outer[b] = c.root.fromOutside[i]
		}
		c.c.funcs = make(map[*Function]*Function)
		c.c.function(c.orig, c.root)
		for i, r := range c.c.reads {
			def := r.Def
			c.c.reads[i].Def = &c.c.funcs[def.Binding.Owner].instrs[def.Binding.Owner.placeIndex(def)].Place
		}
	})
}

// Funcs returns the copied functions in preorder, once Make returned.
func (c *Copy) Funcs() []*Function { return c.c.order }

// Originals returns the functions copied, in the order of Funcs, once Make returned.
func (c *Copy) Originals() []*Function { return c.c.origs }

// Shift returns how many bytes later the copy's text starts than the original's.
func (c *Copy) Shift() int32 { return c.c.shift }

// OuterUses returns, once Make returned, the instructions of the copy that use a binding from
// outside it, function by function in preorder.
func (c *Copy) OuterUses() []OuterUse { return c.c.outerUses }

// Captured returns, once Make returned, the captured reads that the copied functions make of
// each other's variables, translated from the map NewCopy was given.
func (c *Copy) Captured() []CapturedRead { return c.c.reads }

// usedFromOutside returns the bindings that fn and its nested functions use and none of them
// owns: globals and enclosing functions' variables, each once. A copy knows its own from the
// original's, resolved; an original made by lowering finds them in its instructions.
func (fn *Function) usedFromOutside() []*Binding {
	if fn.fromOutside != nil {
		return fn.fromOutside
	}
	inside := make(map[*Function]bool)
	var funcs []*Function
	var enter func(*Function)
	enter = func(f *Function) {
		inside[f] = true
		funcs = append(funcs, f)
		for _, c := range f.Children {
			enter(c)
		}
	}
	enter(fn)
	seen := make(map[*Binding]bool)
	uses := []*Binding{}
	note := func(b *Binding) {
		if b != nil && !inside[b.Owner] && !seen[b] {
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

type cloner struct {
	shift    int32
	uses     []*Binding              // the bindings used from outside the copied functions
	outer    map[*Binding]*Binding   // the same, resolved: the copy's fromOutside
	captured map[*Place]*Place       // see NewCopy
	funcs    map[*Function]*Function // the copies made so far, by original
	order    []*Function             // the same copies, in preorder
	origs    []*Function             // their originals, in the same order

	outerUses []OuterUse
	// reads are the captured reads inside the copy; until the copy is whole, with Def the
	// original's place.
	reads []CapturedRead
}

func (c *cloner) span(s Span) Span { return Span{Start: s.Start + c.shift, End: s.End + c.shift} }

func (c *cloner) reason(r Reason) Reason {
	if r.Kind != NoReason {
		r.At = c.span(r.At)
	}
	return r
}

func (c *cloner) binding(b *Binding) *Binding {
	if nf, ok := c.funcs[b.Owner]; ok {
		return nf.Bindings[b.ID]
	}
	return c.outer[b]
}

// shell returns the copy of fn without its bindings, nested functions and body.
func (c *cloner) shell(fn *Function) *Function {
	return &Function{Name: fn.Name, Span: c.span(fn.Span), NotAnalyzed: c.reason(fn.NotAnalyzed), temps: fn.temps, built: fn.built}
}

// function copies into nf, fn's shell, the rest of fn.
func (c *cloner) function(fn, nf *Function) {
	c.funcs[fn] = nf
	order := len(c.order)
	c.order = append(c.order, nf)
	c.origs = append(c.origs, fn)
	bindings := make([]Binding, len(fn.Bindings))
	nf.Bindings = make([]*Binding, len(fn.Bindings))
	for i, b := range fn.Bindings {
		nb := &bindings[i]
		*nb = *b
		nb.Owner = nf
		nb.Decl = c.span(b.Decl)
		nb.Type = c.span(b.Type)
		nb.Why = c.reason(b.Why)
		nf.Bindings[i] = nb
	}
	nf.Children = make([]*Function, len(fn.Children))
	for i, child := range fn.Children {
		nc := c.shell(child)
		nc.Parent = nf
		c.function(child, nc)
		nf.Children[i] = nc
	}
	c.body(fn, nf, order)
}

// body copies fn's blocks, instructions and values into nf, the copy of preorder order.
func (c *cloner) body(fn, nf *Function, order int) {
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
	for i, b := range fn.Blocks {
		nb := &blocks[i]
		*nb = *b
		nb.Func = nf
		nb.Anchor = c.span(b.Anchor)
		nb.Term.Span = c.span(b.Term.Span)
		start := len(nf.instrs)
		nf.instrs = append(nf.instrs, b.Instrs...)
		nb.Instrs = nf.instrs[start:len(nf.instrs):len(nf.instrs)]
		for j := range nb.Instrs {
			in := &nb.Instrs[j]
			in.Span = c.span(in.Span)
			if in.Func != nil {
				in.Func = c.funcs[in.Func]
			}
			if used := in.Place.Binding; used != nil {
				switch {
				case c.funcs[used.Owner] == nil:
					c.outerUses = append(c.outerUses, OuterUse{nf, order, in})
				case used.Owner != fn && in.Reads():
					if def := c.captured[&b.Instrs[j].Place]; def != nil {
						c.reads = append(c.reads, CapturedRead{&in.Place, def})
					}
				}
				in.Place.Binding = c.binding(used)
				in.Place.Span = c.span(in.Place.Span)
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
