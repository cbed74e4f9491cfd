package ssa

import (
	"errors"
	"fmt"
	"slices"
)

// ErrTooComplex is the error of a Build that ran past its work budget (see BuildWorkPerUnit).
var ErrTooComplex = errors.New("too complex")

// The work budget of Build: the values and φ operands it may create, the removed φs included,
// and the definitions it may record, per instruction and block of the function, plus a base.
// Braun et al.'s construction can place a φ for every variable at every join a read walks
// through, which grows as the product of the two (a variable read after n nested loops gets n
// φs, removed again as trivial); a function past the budget is left out of SSA form instead.
// No function of the corpus comes near it: the most any takes is 6.5 per instruction and block
// (isEarHashed in three.js).
const (
	BuildWorkPerUnit = 32
	BuildWorkBase    = 4096
)

// Build puts fn into SSA form: it gives every Place of a renamed binding its Value, inserts the
// φs that are needed and no others, and fills fn.Values. fn must have been finished (Finish)
// and not built before. Nested functions are built separately. A function whose construction
// runs past its work budget is left as it was, and Build returns an error wrapping
// ErrTooComplex.
func Build(fn *Function) error {
	if !fn.Analyzed() {
		return fmt.Errorf("%s: not analyzed: %s", fn.Name, fn.NotAnalyzed.Kind)
	}
	if fn.built {
		return fmt.Errorf("%s: already built", fn.Name)
	}
	if fn.created != nil || len(fn.Blocks) == 0 {
		return errors.New(fn.Name + ": Build before Finish")
	}
	fn.built = true
	places, defs, size := placeCount(fn)
	bd := builder{
		fn:         fn,
		budget:     BuildWorkPerUnit*size + BuildWorkBase,
		values:     make([]*Value, 0, places),
		defs:       newDefTable(len(fn.Blocks), len(fn.Bindings), places),
		entryOnly:  entryOnlyBindings(fn),
		initial:    make([]*Value, len(fn.Bindings)),
		incomplete: make([][]*Phi, len(fn.Blocks)),
		unfilled:   make([]int32, len(fn.Blocks)),
		slab:       min(max(defs+len(fn.Bindings), 4), slabSize),
	}
	defer bd.defs.release()
	for _, b := range fn.Blocks {
		bd.unfilled[b.ID] = int32(len(b.Preds))
	}
	for _, b := range fn.Blocks {
		if bd.unfilled[b.ID] == 0 {
			bd.seal(b)
		}
		bd.fill(b)
		for _, s := range b.Term.Succs {
			bd.unfilled[s.ID]--
			if bd.unfilled[s.ID] == 0 {
				bd.seal(s)
			}
		}
		if bd.over {
			bd.abandon()
			return fmt.Errorf("%s: building SSA form: %w", fn.Name, ErrTooComplex)
		}
	}
	if !reducible(fn) {
		bd.removeRedundantPhis()
	}
	bd.finish()
	return nil
}

// builder holds the state of one Build. Values are identified by their index in values while
// it runs; the current definition of a binding at the end of a block is in defs.
type builder struct {
	fn         *Function
	values     []*Value
	defs       defTable
	entryOnly  []bool   // by binding ID: defined in the entry block only, if at all
	initial    []*Value // by binding ID, created on first use
	incomplete [][]*Phi // by block ID: φs created while the block was unsealed
	unfilled   []int32  // by block ID: predecessors not yet filled
	calls      []readCall
	results    []*Value
	chain      []*Block // single-predecessor blocks a pending read passed through
	trivial    []*Phi   // worklist of φs to check for triviality
	valueSlab  []Value
	phiSlab    []Phi
	opSlab     []*Value
	useSlab    []Use
	slab       int // how many values or φs one allocation holds, for this function's size

	// work counts the values and φ operands created, the definitions recorded for the blocks
	// reads pass through and the uses moved from removed φs; over is set once it passes
	// budget, and stops the build.
	work, budget int
	over         bool
}

// entryOnlyBindings marks the bindings that no block but the entry defines, such as hoisted
// function declarations and variables assigned once at the top of a function.
func entryOnlyBindings(fn *Function) []bool {
	only := make([]bool, len(fn.Bindings))
	for i := range only {
		only[i] = true
	}
	for _, b := range fn.Blocks[1:] {
		for i := range b.Instrs {
			if in := &b.Instrs[i]; (in.Defines() || in.Op == OpUninit) && in.Place.Binding.Owner == fn {
				only[in.Place.Binding.ID] = false
			}
		}
	}
	return only
}

// placeCount counts the places of fn and those that define its own bindings, to size the
// builder's tables, and its instructions and blocks, its size for the work budget.
func placeCount(fn *Function) (places, defs, size int) {
	for _, b := range fn.Blocks {
		size += 1 + len(b.Instrs)
		for i := range b.Instrs {
			if in := &b.Instrs[i]; in.Place.Binding != nil {
				places++
				if in.Place.Binding.Owner == fn && (in.Defines() || in.Op == OpUninit) {
					defs++
				}
			}
		}
	}
	return places, defs, size
}

// spend counts n units of work.
func (bd *builder) spend(n int) {
	bd.work += n
	if bd.work > bd.budget {
		bd.over = true
	}
}

// abandon undoes what a build that ran past its budget did to fn.
func (bd *builder) abandon() {
	for _, b := range bd.fn.Blocks {
		b.Phis = nil
		for i := range b.Instrs {
			b.Instrs[i].Place.Value = nil
		}
	}
}

// slabSize is the most values or φs one allocation holds; a small function's allocations
// hold about as many values as it can have besides φs (a definition for each place that
// defines, an initial value for each binding), since most of its thousands of kin are small.
const slabSize = 64

// usesPerValue is the room for uses each value starts with.
const usesPerValue = 2

func (bd *builder) newValue(binding *Binding, kind ValueKind, b *Block) *Value {
	bd.spend(1)
	if len(bd.valueSlab) == cap(bd.valueSlab) {
		bd.valueSlab = make([]Value, 0, bd.slab)
	}
	if len(bd.useSlab)+usesPerValue > cap(bd.useSlab) {
		bd.useSlab = make([]Use, 0, usesPerValue*bd.slab)
	}
	// Most values have one or two uses: room for them comes with the value.
	uses := bd.useSlab[len(bd.useSlab) : len(bd.useSlab) : len(bd.useSlab)+usesPerValue]
	bd.useSlab = bd.useSlab[:len(bd.useSlab)+usesPerValue]
	bd.valueSlab = append(bd.valueSlab, Value{ID: int32(len(bd.values)), Binding: binding, Kind: kind, Block: b, Uses: uses})
	v := &bd.valueSlab[len(bd.valueSlab)-1]
	bd.values = append(bd.values, v)
	return v
}

// operands returns room for n φ operands, cut from a larger allocation.
func (bd *builder) operands(n int) []*Value {
	bd.spend(n)
	if len(bd.opSlab)+n > cap(bd.opSlab) {
		bd.opSlab = make([]*Value, 0, max(4*bd.slab, n))
	}
	ops := bd.opSlab[len(bd.opSlab) : len(bd.opSlab)+n : len(bd.opSlab)+n]
	bd.opSlab = bd.opSlab[:len(bd.opSlab)+n]
	return ops
}

func (bd *builder) newPhi(binding *Binding, b *Block) *Phi {
	v := bd.newValue(binding, ValuePhi, b)
	if len(bd.phiSlab) == cap(bd.phiSlab) {
		bd.phiSlab = make([]Phi, 0, bd.slab)
	}
	bd.phiSlab = append(bd.phiSlab, Phi{Value: v, Block: b, Operands: bd.operands(len(b.Preds))})
	p := &bd.phiSlab[len(bd.phiSlab)-1]
	v.Phi = p
	b.Phis = append(b.Phis, p)
	return p
}

// resolve follows the replacements of removed φs, compressing the path it walked.
func resolve(v *Value) *Value {
	root := v
	for root.replacedBy != nil {
		root = root.replacedBy
	}
	for v != root {
		next := v.replacedBy
		v.replacedBy = root
		v = next
	}
	return root
}

func (bd *builder) write(binding *Binding, b *Block, v *Value) {
	bd.defs.put(b, binding, v)
}

func (bd *builder) lookup(binding *Binding, b *Block) *Value {
	v := bd.defs.get(b, binding)
	if v == nil {
		return nil
	}
	return resolve(v)
}

func (bd *builder) fill(b *Block) {
	for i := range b.Instrs {
		in := &b.Instrs[i]
		binding := in.Place.Binding
		if binding == nil || !binding.Renamed(bd.fn) {
			continue
		}
		switch in.Op {
		case OpParam, OpStoreLocal, OpUninit:
			kind := ValueDef
			switch in.Op {
			case OpParam:
				kind = ValueParam
			case OpUninit:
				kind = ValueUninit
			}
			v := bd.newValue(binding, kind, b)
			v.Instr = in
			in.Place.Value = v
			bd.write(binding, b, v)
		case OpLoadLocal:
			v := bd.read(binding, b)
			if v == nil {
				return // over the budget
			}
			in.Place.Value = v
			v.Uses = append(v.Uses, Use{Place: &in.Place})
		}
	}
	b.filled = true
}

func (bd *builder) seal(b *Block) {
	for _, p := range bd.incomplete[b.ID] {
		bd.calls = append(bd.calls, readCall{phi: p, chainStart: int32(len(bd.chain))})
		bd.pushOperandReads(p)
		bd.run(p.Value.Binding)
		bd.results = bd.results[:0]
		if bd.over {
			return
		}
	}
	bd.incomplete[b.ID] = nil
	b.sealed = true
}

// readCall is a frame of the explicit stack that replaces Braun et al.'s recursion: either
// a read of the binding at the end of block, or (phi != nil) the completion of phi once the
// reads of its operands have pushed their results.
type readCall struct {
	block      *Block
	phi        *Phi
	chainStart int32
}

// read returns the value of binding that reaches the current point of block b, or nil if the
// build ran past its budget.
func (bd *builder) read(binding *Binding, b *Block) *Value {
	if v := bd.lookup(binding, b); v != nil {
		return v
	}
	if entry := bd.fn.Blocks[0]; b != entry && bd.entryOnly[binding.ID] {
		// The entry block, filled first, dominates b: the value it ends with reaches every
		// read outside it. Walking to it would create a φ at every join on the way.
		if v := bd.lookup(binding, entry); v != nil {
			return v
		}
		return bd.initialValue(binding)
	}
	bd.calls = append(bd.calls, readCall{block: b})
	bd.run(binding)
	if bd.over {
		return nil
	}
	v := bd.results[0]
	bd.results = bd.results[:0]
	return resolve(v)
}

func (bd *builder) pushOperandReads(p *Phi) {
	for i := len(p.Block.Preds) - 1; i >= 0; i-- {
		bd.calls = append(bd.calls, readCall{block: p.Block.Preds[i]})
	}
}

// run executes read frames for binding until the stack is empty, leaving one result, or until
// the build runs past its budget.
func (bd *builder) run(binding *Binding) {
	for len(bd.calls) > 0 {
		if bd.over {
			bd.calls = bd.calls[:0]
			return
		}
		c := bd.calls[len(bd.calls)-1]
		bd.calls = bd.calls[:len(bd.calls)-1]
		if c.phi != nil {
			bd.completePhi(c.phi)
			v := bd.removeIfTrivial(c.phi)
			bd.settle(binding, c.chainStart, v)
			continue
		}
		chainStart := int32(len(bd.chain))
		b := c.block
		for {
			if v := bd.lookup(binding, b); v != nil {
				bd.settle(binding, chainStart, v)
				break
			}
			if !b.sealed {
				p := bd.newPhi(binding, b)
				bd.incomplete[b.ID] = append(bd.incomplete[b.ID], p)
				bd.write(binding, b, p.Value)
				bd.settle(binding, chainStart, p.Value)
				break
			}
			if len(b.Preds) == 0 {
				bd.settle(binding, chainStart, bd.initialValue(binding))
				break
			}
			if len(b.Preds) == 1 {
				bd.chain = append(bd.chain, b)
				b = b.Preds[0]
				continue
			}
			// A φ is written before its operands are read, so that cycles through b end at it.
			p := bd.newPhi(binding, b)
			bd.write(binding, b, p.Value)
			bd.calls = append(bd.calls, readCall{phi: p, chainStart: chainStart})
			bd.pushOperandReads(p)
			break
		}
	}
}

// settle records v as the value of binding in the single-predecessor blocks the finished read
// passed through, and pushes it as the read's result.
func (bd *builder) settle(binding *Binding, chainStart int32, v *Value) {
	bd.spend(len(bd.chain) - int(chainStart))
	for _, b := range bd.chain[chainStart:] {
		bd.write(binding, b, v)
	}
	bd.chain = bd.chain[:chainStart]
	bd.results = append(bd.results, v)
}

func (bd *builder) initialValue(binding *Binding) *Value {
	if v := bd.initial[binding.ID]; v != nil {
		return v
	}
	v := bd.newValue(binding, ValueInitial, bd.fn.Blocks[0])
	bd.initial[binding.ID] = v
	return v
}

// completePhi takes the operand reads' results off the result stack.
func (bd *builder) completePhi(p *Phi) {
	n := len(p.Operands)
	ops := bd.results[len(bd.results)-n:]
	for i, op := range ops {
		op = resolve(op)
		p.Operands[i] = op
		op.Uses = append(op.Uses, Use{Phi: p, Index: int32(i)})
	}
	bd.results = bd.results[:len(bd.results)-n]
	p.complete = true
}

// sameOperand returns the single value p merges besides itself, or nil if it merges several.
// A φ that merges nothing but itself (only possible in a cycle no entry path reaches) returns
// its own value.
func sameOperand(p *Phi) *Value {
	var same *Value
	for _, op := range p.Operands {
		if op == same || op == p.Value {
			continue
		}
		if same != nil {
			return nil
		}
		same = op
	}
	if same == nil {
		return p.Value
	}
	return same
}

// removeIfTrivial removes p if it is trivial, then every φ user that becomes trivial in turn,
// and returns the value that now stands for p.
func (bd *builder) removeIfTrivial(p *Phi) *Value {
	bd.trivial = append(bd.trivial[:0], p)
	for len(bd.trivial) > 0 {
		q := bd.trivial[len(bd.trivial)-1]
		bd.trivial = bd.trivial[:len(bd.trivial)-1]
		if q.Value.replacedBy != nil || !q.complete {
			continue
		}
		same := sameOperand(q)
		if same == nil || same == q.Value {
			continue
		}
		bd.replace(q, same)
	}
	return resolve(p.Value)
}

// replace removes φ p, redirecting its uses to v and queueing its φ users for the triviality
// check.
func (bd *builder) replace(p *Phi, v *Value) {
	old := p.Value
	old.replacedBy = v
	bd.spend(len(old.Uses))
	for _, u := range old.Uses {
		if u.Phi == nil {
			u.Place.Value = v
			v.Uses = append(v.Uses, u)
			continue
		}
		if u.Phi == p || u.Phi.Value.replacedBy != nil {
			continue
		}
		u.Phi.Operands[u.Index] = v
		v.Uses = append(v.Uses, u)
		bd.trivial = append(bd.trivial, u.Phi)
	}
	old.Uses = nil
}

// finish drops removed φs and stale uses, then numbers the remaining values.
func (bd *builder) finish() {
	fn := bd.fn
	live := func(u Use) bool { return u.Phi == nil || u.Phi.Value.replacedBy == nil }
	values := make([]*Value, 0, len(bd.values))
	for _, v := range bd.initial {
		if v != nil {
			values = append(values, v)
		}
	}
	for _, b := range fn.Blocks {
		b.Phis = slices.DeleteFunc(b.Phis, func(p *Phi) bool { return p.Value.replacedBy != nil })
		slices.SortFunc(b.Phis, func(p, q *Phi) int { return int(p.Value.Binding.ID - q.Value.Binding.ID) })
		for _, p := range b.Phis {
			values = append(values, p.Value)
		}
		for i := range b.Instrs {
			if in := &b.Instrs[i]; (in.Defines() || in.Op == OpUninit) && in.Place.Value != nil {
				values = append(values, in.Place.Value)
			}
		}
	}
	for i, v := range values {
		v.ID = int32(i)
		v.Uses = slices.DeleteFunc(v.Uses, func(u Use) bool { return !live(u) })
	}
	fn.Values = values
	numberVersions(fn)
}
