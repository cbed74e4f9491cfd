package ssa

// Clone copies fn and its nested functions, HIR and SSA form alike, for a new version of the
// source in which fn's text is unchanged but starts shift bytes later. Bindings the copied
// functions own are copied; every other binding b is replaced by outer(b), which returns nil
// when b has no counterpart, and then Clone returns nil too. The copy shares nothing mutable
// with fn.
func (fn *Function) Clone(shift int32, outer func(*Binding) *Binding) *Function {
	c := cloner{shift: shift, outer: outer, bindings: make(map[*Binding]*Binding)}
	return c.function(fn)
}

type cloner struct {
	shift    int32
	outer    func(*Binding) *Binding
	bindings map[*Binding]*Binding // the bindings of the copied functions
}

func (c *cloner) span(s Span) Span { return Span{Start: s.Start + c.shift, End: s.End + c.shift} }

func (c *cloner) reason(r Reason) Reason {
	if r.Kind != NoReason {
		r.At = c.span(r.At)
	}
	return r
}

func (c *cloner) binding(b *Binding) *Binding {
	if nb, ok := c.bindings[b]; ok {
		return nb
	}
	return c.outer(b)
}

func (c *cloner) function(fn *Function) *Function {
	nf := &Function{Name: fn.Name, Span: c.span(fn.Span), NotAnalyzed: c.reason(fn.NotAnalyzed), temps: fn.temps, built: fn.built}
	for _, b := range fn.Bindings {
		nb := *b
		nb.Owner = nf
		nb.Decl = c.span(b.Decl)
		nb.Type = c.span(b.Type)
		nb.Why = c.reason(b.Why)
		nf.Bindings = append(nf.Bindings, &nb)
		c.bindings[b] = &nb
	}
	children := make(map[*Function]*Function, len(fn.Children))
	for _, child := range fn.Children {
		nc := c.function(child)
		if nc == nil {
			return nil
		}
		nc.Parent = nf
		nf.Children = append(nf.Children, nc)
		children[child] = nc
	}
	blocks := make([]*Block, len(fn.Blocks))
	for i, b := range fn.Blocks {
		nb := *b
		nb.Func = nf
		nb.Anchor = c.span(b.Anchor)
		nb.Instrs = make([]Instr, len(b.Instrs))
		blocks[i] = &nb
	}
	values := make([]*Value, len(fn.Values))
	phis := make(map[*Phi]*Phi)
	for i, v := range fn.Values {
		nv := *v
		nv.Block = blocks[v.Block.ID]
		if nv.Binding = c.binding(v.Binding); nv.Binding == nil {
			return nil
		}
		values[i] = &nv
		if v.Phi != nil {
			np := &Phi{Value: &nv, Block: nv.Block, complete: v.Phi.complete}
			nv.Phi = np
			phis[v.Phi] = np
		}
	}
	places := make(map[*Place]*Place)
	value := func(v *Value) *Value {
		if v == nil {
			return nil
		}
		return values[v.ID]
	}
	for i, b := range fn.Blocks {
		nb := blocks[i]
		for j := range b.Instrs {
			in, ni := &b.Instrs[j], &nb.Instrs[j]
			*ni = *in
			ni.Span = c.span(in.Span)
			if in.Func != nil {
				ni.Func = children[in.Func]
			}
			if in.Place.Binding != nil {
				if ni.Place.Binding = c.binding(in.Place.Binding); ni.Place.Binding == nil {
					return nil
				}
				ni.Place.Span = c.span(in.Place.Span)
				ni.Place.Value = value(in.Place.Value)
				places[&in.Place] = &ni.Place
				if v := in.Place.Value; v != nil && v.Instr == in {
					ni.Place.Value.Instr = ni
				}
			}
		}
		nb.Preds = make([]*Block, len(b.Preds))
		for k, p := range b.Preds {
			nb.Preds[k] = blocks[p.ID]
		}
		nb.Phis = make([]*Phi, len(b.Phis))
		for k, p := range b.Phis {
			np := phis[p]
			np.Operands = make([]*Value, len(p.Operands))
			for o, op := range p.Operands {
				np.Operands[o] = value(op)
			}
			nb.Phis[k] = np
		}
		nb.Term.Span = c.span(b.Term.Span)
		nb.Term.Succs = make([]*Block, len(b.Term.Succs))
		for k, s := range b.Term.Succs {
			nb.Term.Succs[k] = blocks[s.ID]
		}
	}
	for i, v := range fn.Values {
		nv := values[i]
		nv.Uses = make([]Use, len(v.Uses))
		for k, u := range v.Uses {
			nu := Use{Index: u.Index}
			if u.Phi != nil {
				nu.Phi = phis[u.Phi]
			} else {
				nu.Place = places[u.Place]
			}
			nv.Uses[k] = nu
		}
	}
	nf.Blocks = blocks
	nf.Values = values
	return nf
}
