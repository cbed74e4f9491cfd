package ssa

import "unsafe"

// Clone copies fn and its nested functions, HIR and SSA form alike, for a new version of the
// source in which fn's text is unchanged but starts shift bytes later. Bindings the copied
// functions own are copied; every other binding b is replaced by outer(b), which returns nil
// when b has no counterpart, and then Clone returns nil too. The copy shares nothing mutable
// with fn.
//
// Clone runs on every keystroke for each unchanged function next to the edit, so it allocates
// by kind, not by object: one array each for a function's bindings, blocks, instructions,
// values, φs and the lists that point into them. Pointers into the original are translated by
// index: a binding by its owner and ID, a value by its ID, a φ by its value, and a place or a
// defining instruction by its position in the function's packed instructions (see
// packInstrs), which the copy lays out the same way.
func (fn *Function) Clone(shift int32, outer func(*Binding) *Binding) *Function {
	c := cloner{shift: shift, outer: outer, funcs: make(map[*Function]*Function)}
	return c.function(fn)
}

type cloner struct {
	shift int32
	outer func(*Binding) *Binding
	funcs map[*Function]*Function // the copies made so far, by original
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
	return c.outer(b)
}

func (c *cloner) function(fn *Function) *Function {
	nf := &Function{Name: fn.Name, Span: c.span(fn.Span), NotAnalyzed: c.reason(fn.NotAnalyzed), temps: fn.temps, built: fn.built}
	c.funcs[fn] = nf
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
		nc := c.function(child)
		if nc == nil {
			return nil
		}
		nc.Parent = nf
		nf.Children[i] = nc
	}
	if !c.body(fn, nf) {
		return nil
	}
	return nf
}

// body copies fn's blocks, instructions and values into nf.
func (c *cloner) body(fn, nf *Function) bool {
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
			if in.Place.Binding != nil {
				if in.Place.Binding = c.binding(in.Place.Binding); in.Place.Binding == nil {
					return false
				}
				in.Place.Span = c.span(in.Place.Span)
			}
		}
		edgeList, nb.Preds = appendBlocks(edgeList, b.Preds, nf.Blocks)
		edgeList, nb.Term.Succs = appendBlocks(edgeList, b.Term.Succs, nf.Blocks)
		phiList = append(phiList, b.Phis...) // translated once the φs exist, below
		nb.Phis = phiList[len(phiList)-len(b.Phis) : len(phiList) : len(phiList)]
	}
	if len(fn.Values) == 0 {
		return true
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
		if nv.Binding = c.binding(v.Binding); nv.Binding == nil {
			return false
		}
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
	for _, b := range nf.Bindings {
		if b.Single != nil {
			b.Single = &nf.instrs[fn.placeIndex(b.Single)].Place
		}
	}
	return true
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
