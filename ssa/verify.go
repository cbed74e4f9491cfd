package ssa

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Verify checks the invariants of a built function and returns every violation it finds, joined
// with errors.Join, or nil. Each message names the function, the block (bbN), the instruction
// (by its number in the printed form, [n]) and the value (x$3) concerned. It checks that
//
//   - the CFG is well formed: terminals have as many successors as their kind says, all blocks
//     of fn; each block's predecessors are exactly the edges into it, duplicates counted;
//     Block.ID is the index in fn.Blocks; the entry has no predecessors; every block is reachable;
//   - fn.Values is numbered by index and every value is defined exactly once: a param or def by
//     the instruction it names, a φ by one φ of its block, an initial value at the entry;
//   - every place of a renamed binding has a value of that binding, in fn.Values, and every other
//     place has none;
//   - every use is dominated by its definition, a φ operand by the end of its predecessor;
//   - a block has at most one φ per binding; every φ has one operand per predecessor, all of its
//     binding; every φ is used by some read, directly or through other φs (the form is pruned),
//     and is neither trivial nor part of a redundant φ set (it is minimal);
//   - every value's use list holds exactly the reads and φ operands that refer to it;
//   - a binding's Single, if set, is the place of one of fn's own instructions that defines it
//     (this also in a function that is not analyzed).
//
// Checks that rest on a broken foundation are skipped: nothing else is checked when fn.Blocks or
// fn.Values is misnumbered, dominance is not checked on a malformed CFG, and dead φs and
// redundant sets are only searched for when the values and φs are otherwise sound. A function
// that is not analyzed has nothing else to check.
func Verify(fn *Function) error {
	if err := checkSingles(fn); err != nil || !fn.Analyzed() {
		return err
	}
	if !fn.built {
		return fmt.Errorf("%s: not built", fn.Name)
	}
	vr := verifier{fn: fn, at: make(map[*Place]instrPos), reads: make(map[Use]*Value)}
	// Block and value IDs are what every other check indexes by and names things by.
	if !vr.checkBlockIDs() {
		return errors.Join(vr.errs...)
	}
	cfgOK := vr.checkCFG()
	if !vr.checkValueIDs() {
		return errors.Join(vr.errs...)
	}
	vr.indexInstrs()
	valuesOK := vr.checkValues()
	phisOK := vr.checkPhis(cfgOK)
	vr.checkPlaces(cfgOK)
	// The φ graph is walked through the values' φs and the φs' operands, which must be sound.
	if valuesOK && phisOK {
		vr.checkDeadPhis()
		vr.checkRedundantSets()
	}
	vr.checkUseLists()
	return errors.Join(vr.errs...)
}

// checkSingles checks that each of fn's bindings that has a Single has it among fn's own
// definitions of it: a copy of fn must not point into the function it was copied from.
func checkSingles(fn *Function) error {
	defines := make(map[*Place]bool)
	for _, b := range fn.Blocks {
		if b == nil {
			continue // checkBlockIDs reports it
		}
		for i := range b.Instrs {
			if in := &b.Instrs[i]; in.Defines() {
				defines[&in.Place] = true
			}
		}
	}
	var errs []error
	for _, b := range fn.Bindings {
		if b != nil && b.Single != nil && (!defines[b.Single] || b.Single.Binding != b) {
			errs = append(errs, fmt.Errorf("%s: the single definition of %s is not one of the function's definitions of it", fn.Name, b.Name))
		}
	}
	return errors.Join(errs...)
}

// verifier accumulates the problems found in one function.
type verifier struct {
	fn    *Function
	dom   *DomTree // nil until the block IDs are known to be sound
	errs  []error
	at    map[*Place]instrPos // where each instruction with a binding is, by its Place
	reads map[Use]*Value      // every read and φ operand of fn, and the value it refers to
	// phiIn counts, for each φ, the blocks' Phis entries that hold it, and remembers the last.
	phiIn map[*Phi]phiSlot
}

// instrPos locates an instruction: its block, its index there and its number in the printed form.
type instrPos struct {
	block   *Block
	index   int
	printed int
}

type phiSlot struct {
	block *Block
	count int
}

func (vr *verifier) errorf(format string, args ...any) {
	vr.errs = append(vr.errs, fmt.Errorf("%s: "+format, append([]any{vr.fn.Name}, args...)...))
}

// name prints a value for a message without trusting it to be well formed.
func name(v *Value) string {
	switch {
	case v == nil:
		return "<nil value>"
	case v.Binding == nil:
		return fmt.Sprintf("<value #%d without binding>", v.ID)
	}
	return v.String()
}

func (vr *verifier) isBlock(b *Block) bool {
	fn := vr.fn
	return b != nil && b.ID >= 0 && int(b.ID) < len(fn.Blocks) && fn.Blocks[b.ID] == b
}

// isValue reports whether v is one of fn.Values; a value that is not has been removed (a stale
// reference) or was never registered.
func (vr *verifier) isValue(v *Value) bool {
	fn := vr.fn
	return v != nil && v.ID >= 0 && int(v.ID) < len(fn.Values) && fn.Values[v.ID] == v
}

// describe names the instruction at pos for a message.
func describe(pos instrPos) string {
	in := &pos.block.Instrs[pos.index]
	return fmt.Sprintf("bb%d [%d] %s %s", pos.block.ID, pos.printed, in.Op, in.Place.Binding.Name)
}

func describePhi(p *Phi) string {
	return fmt.Sprintf("φ %s in %s", name(p.Value), blockName(p.Block))
}

func blockName(b *Block) string {
	if b == nil {
		return "no block"
	}
	return fmt.Sprintf("bb%d", b.ID)
}

// describeUse names a use for a message, whether or not it belongs to fn.
func (vr *verifier) describeUse(u Use) string {
	switch {
	case u.Place != nil && u.Phi == nil:
		if pos, ok := vr.at[u.Place]; ok {
			return describe(pos)
		}
		return "a place outside " + vr.fn.Name
	case u.Phi != nil && u.Place == nil:
		return fmt.Sprintf("operand %d of %s", u.Index, describePhi(u.Phi))
	}
	return fmt.Sprintf("a malformed use (place %p, φ %p)", u.Place, u.Phi)
}

// checkBlockIDs checks that fn.Blocks is numbered by index.
func (vr *verifier) checkBlockIDs() bool {
	fn := vr.fn
	if len(fn.Blocks) == 0 {
		vr.errorf("no blocks")
		return false
	}
	ok := true
	for i, b := range fn.Blocks {
		switch {
		case b == nil:
			vr.errorf("Blocks[%d] is nil", i)
			ok = false
		case b.ID != int32(i):
			vr.errorf("bb%d is Blocks[%d]", b.ID, i)
			ok = false
		case b.Func != fn:
			vr.errorf("bb%d belongs to another function", i)
		}
	}
	return ok
}

// checkCFG checks the edges of the CFG and computes the dominator tree. It reports whether the
// CFG is sound enough for dominance to mean anything.
func (vr *verifier) checkCFG() bool {
	fn := vr.fn
	ok := true
	into := make([][]int32, len(fn.Blocks)) // by block ID: the sources of the edges into it
	for _, b := range fn.Blocks {
		if !vr.checkTerminal(b) {
			ok = false
		}
		for k, s := range b.Term.Succs {
			if !vr.isBlock(s) {
				vr.errorf("bb%d: successor %d is not a block of the function", b.ID, k)
				ok = false
				continue
			}
			into[s.ID] = append(into[s.ID], b.ID)
		}
	}
	if len(fn.Blocks[0].Preds) > 0 {
		vr.errorf("bb0: the entry has predecessors")
		ok = false
	}
	for _, b := range fn.Blocks {
		preds := make([]int32, 0, len(b.Preds))
		for k, p := range b.Preds {
			if !vr.isBlock(p) {
				vr.errorf("bb%d: predecessor %d is not a block of the function", b.ID, k)
				ok = false
				continue
			}
			preds = append(preds, p.ID)
		}
		slices.Sort(preds)
		slices.Sort(into[b.ID])
		if !slices.Equal(preds, into[b.ID]) {
			vr.errorf("bb%d: predecessors %s, but the edges into it come from %s", b.ID, blockList(preds), blockList(into[b.ID]))
			ok = false
		}
	}
	vr.dom = Dominators(fn)
	var unreachable []int32
	for _, b := range fn.Blocks {
		if !vr.dom.Dominates(b, b) {
			unreachable = append(unreachable, b.ID)
		}
	}
	if len(unreachable) > 0 {
		vr.errorf("blocks unreachable from the entry: %s", blockList(unreachable))
		ok = false
	}
	return ok
}

// checkTerminal checks that b's terminal has the number of successors its kind calls for.
func (vr *verifier) checkTerminal(b *Block) bool {
	want := 0
	switch b.Term.Kind {
	case TermNone:
		vr.errorf("bb%d: no terminal", b.ID)
		return false
	case TermGoto:
		want = 1
	case TermIf, TermMaybeThrow:
		want = 2
	case TermSwitch:
		want = len(b.Term.Cases) + 1
	case TermThrow:
		// To the handler when in a try, else out of the function.
		want = min(len(b.Term.Succs), 1)
	}
	if len(b.Term.Succs) != want {
		vr.errorf("bb%d: %s has %d successors, want %d", b.ID, b.Term.Kind, len(b.Term.Succs), want)
		return false
	}
	return true
}

func blockList(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprintf("bb%d", id)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// checkValueIDs checks that fn.Values is numbered by index, which every later check relies on to
// tell live values from stale ones.
func (vr *verifier) checkValueIDs() bool {
	ok := true
	for i, v := range vr.fn.Values {
		switch {
		case v == nil:
			vr.errorf("Values[%d] is nil", i)
			ok = false
		case v.ID != int32(i):
			vr.errorf("%s is Values[%d] but has ID %d", name(v), i, v.ID)
			ok = false
		}
	}
	return ok
}

// indexInstrs records where every instruction with a place is, and every read and φ operand.
func (vr *verifier) indexInstrs() {
	printed := 0
	vr.phiIn = make(map[*Phi]phiSlot)
	for _, b := range vr.fn.Blocks {
		for _, p := range b.Phis {
			if p == nil {
				continue
			}
			vr.phiIn[p] = phiSlot{block: b, count: vr.phiIn[p].count + 1}
			for i, op := range p.Operands {
				vr.reads[Use{Phi: p, Index: int32(i)}] = op
			}
		}
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if in.Place.Binding != nil {
				vr.at[&in.Place] = instrPos{block: b, index: i, printed: printed}
				if in.Op == OpLoadLocal {
					vr.reads[Use{Place: &in.Place}] = in.Place.Value
				}
			}
			printed++
		}
	}
}

// checkValues checks each value's own fields: its binding is renamed here, its version is its
// own, and it is defined where it says. It reports whether all of them are sound.
func (vr *verifier) checkValues() bool {
	fn := vr.fn
	reported := len(vr.errs)
	initial := make(map[*Binding]*Value)
	type version struct {
		binding *Binding
		version int32
	}
	versions := make(map[version]*Value)
	for _, v := range fn.Values {
		if v.Binding == nil {
			vr.errorf("%s has no binding", name(v))
			continue
		}
		if v.Kind > ValueUninit {
			vr.errorf("%s has unknown kind %d", name(v), v.Kind)
			continue
		}
		if !v.Binding.Renamed(fn) {
			vr.errorf("%s is a value of %s, which is not renamed in the function", name(v), v.Binding.Name)
		}
		if v.Uninitialized() != (v.Version == 0) {
			vr.errorf("%s has version %d but kind %s", name(v), v.Version, v.Kind)
		} else if w := versions[version{v.Binding, v.Version}]; w != nil && v.Kind != ValueUninit {
			vr.errorf("%s (%s) and %s (%s) have the same version", name(w), w.Kind, name(v), v.Kind)
		} else {
			versions[version{v.Binding, v.Version}] = v
		}
		if !vr.isBlock(v.Block) {
			vr.errorf("%s is in no block of the function", name(v))
			continue
		}
		switch v.Kind {
		case ValueInitial:
			if v.Block != fn.Blocks[0] || v.Instr != nil || v.Phi != nil {
				vr.errorf("initial value %s is not defined at the entry alone", name(v))
			}
			if w := initial[v.Binding]; w != nil {
				vr.errorf("%s and %s are both initial values of %s", name(w), name(v), v.Binding.Name)
			}
			initial[v.Binding] = v
		case ValueParam, ValueDef, ValueUninit:
			vr.checkInstrDef(v)
		case ValuePhi:
			vr.checkPhiDef(v)
		}
	}
	return len(vr.errs) == reported
}

// checkInstrDef checks that a param or def value is what its instruction defines.
func (vr *verifier) checkInstrDef(v *Value) {
	if v.Instr == nil || v.Phi != nil {
		vr.errorf("bb%d: %s value %s has no defining instruction", v.Block.ID, v.Kind, name(v))
		return
	}
	pos, ok := vr.at[&v.Instr.Place]
	if !ok {
		vr.errorf("bb%d: %s value %s is defined by an instruction outside the function", v.Block.ID, v.Kind, name(v))
		return
	}
	want := OpStoreLocal
	switch v.Kind {
	case ValueParam:
		want = OpParam
	case ValueUninit:
		want = OpUninit
	}
	switch {
	case v.Instr.Op != want:
		vr.errorf("%s: %s value %s is defined by a %s", describe(pos), v.Kind, name(v), v.Instr.Op)
	case pos.block != v.Block:
		vr.errorf("%s: defines %s, which says it is in bb%d", describe(pos), name(v), v.Block.ID)
	case v.Instr.Place.Value != v:
		vr.errorf("%s: defines %s, not %s, which names it as its definition", describe(pos), name(v.Instr.Place.Value), name(v))
	}
}

// checkPhiDef checks that a φ value belongs to exactly one φ, in its block.
func (vr *verifier) checkPhiDef(v *Value) {
	p := v.Phi
	switch {
	case p == nil || v.Instr != nil:
		vr.errorf("bb%d: φ value %s has no φ", v.Block.ID, name(v))
	case p.Value != v:
		vr.errorf("bb%d: φ value %s names a φ that defines %s", v.Block.ID, name(v), name(p.Value))
	case vr.phiIn[p].count == 0:
		vr.errorf("bb%d: φ %s is in no block's φ list", v.Block.ID, name(v))
	case vr.phiIn[p].count > 1:
		vr.errorf("bb%d: φ %s is listed %d times", v.Block.ID, name(v), vr.phiIn[p].count)
	case vr.phiIn[p].block != v.Block || p.Block != v.Block:
		vr.errorf("bb%d: φ %s is listed in %s and says it is in %s", v.Block.ID, name(v), blockName(vr.phiIn[p].block), blockName(p.Block))
	}
}

// defPoint is where a value is defined, for dominance: initial values come before everything in
// the entry, φs at the start of their block, params and defs at their instruction.
func (vr *verifier) defPoint(v *Value) (*Block, int) {
	switch v.Kind {
	case ValueInitial:
		return vr.fn.Blocks[0], -2
	case ValuePhi:
		return v.Block, -1
	}
	if v.Instr == nil {
		return nil, 0
	}
	pos, ok := vr.at[&v.Instr.Place]
	if !ok {
		return nil, 0
	}
	return pos.block, pos.index
}

// checkPhis checks every φ of every block, and reports whether they are sound enough to search
// for redundant sets.
func (vr *verifier) checkPhis(cfgOK bool) bool {
	ok := true
	first := make(map[*Binding]*Phi) // the first φ of each binding in the current block
	for _, b := range vr.fn.Blocks {
		clear(first)
		for k, p := range b.Phis {
			if p == nil {
				vr.errorf("bb%d: φ %d is nil", b.ID, k)
				ok = false
				continue
			}
			if !vr.checkPhi(b, p, cfgOK) {
				ok = false
				continue
			}
			// One φ per binding and block: a second would merge the same values.
			if q := first[p.Value.Binding]; q != nil {
				vr.errorf("bb%d: φs %s and %s both merge %s", b.ID, name(q.Value), name(p.Value), p.Value.Binding.Name)
			} else {
				first[p.Value.Binding] = p
			}
		}
	}
	return ok
}

func (vr *verifier) checkPhi(b *Block, p *Phi, cfgOK bool) bool {
	if !vr.isValue(p.Value) {
		vr.errorf("bb%d: a φ defines %s, which is not in Values", b.ID, name(p.Value))
		return false
	}
	if p.Value.Binding == nil {
		return false // reported by checkValues
	}
	if p.Block != b || p.Value.Phi != p {
		vr.errorf("bb%d: φ %s is listed here but is not this block's φ of that value", b.ID, name(p.Value))
		return false
	}
	ok := true
	if len(p.Operands) != len(b.Preds) {
		vr.errorf("bb%d: φ %s has %d operands for %d predecessors", b.ID, name(p.Value), len(p.Operands), len(b.Preds))
		ok = false
	}
	for i, op := range p.Operands {
		from := "?"
		if i < len(b.Preds) && b.Preds[i] != nil {
			from = fmt.Sprintf("bb%d", b.Preds[i].ID)
		}
		switch {
		case !vr.isValue(op):
			vr.errorf("bb%d: operand %d (from %s) of φ %s is %s, which is not in Values", b.ID, i, from, name(p.Value), name(op))
			ok = false
		case op.Binding != p.Value.Binding:
			vr.errorf("bb%d: operand %d (from %s) of φ %s is %s, a value of another binding", b.ID, i, from, name(p.Value), name(op))
			ok = false
		case cfgOK && i < len(b.Preds):
			// A nil definition point was reported by checkValues.
			if d, _ := vr.defPoint(op); d != nil && !vr.dom.Dominates(d, b.Preds[i]) {
				vr.errorf("bb%d: operand %d of φ %s is %s, whose definition does not dominate the end of %s", b.ID, i, name(p.Value), name(op), from)
			}
		}
	}
	if !ok {
		return false
	}
	switch same := sameOperand(p); {
	case same == p.Value:
		vr.errorf("bb%d: φ %s is trivial: it merges no value besides itself", b.ID, name(p.Value))
		return false
	case same != nil:
		vr.errorf("bb%d: φ %s is trivial: it merges only %s", b.ID, name(p.Value), name(same))
		return false
	}
	return true
}

// checkPlaces checks the value of every place and, for reads, that their definition dominates
// them.
func (vr *verifier) checkPlaces(cfgOK bool) {
	fn := vr.fn
	for _, b := range fn.Blocks {
		for j := range b.Instrs {
			in := &b.Instrs[j]
			binding := in.Place.Binding
			if binding == nil {
				continue
			}
			pos := vr.at[&in.Place]
			v := in.Place.Value
			switch {
			case in.Op != OpParam && in.Op != OpLoadLocal && in.Op != OpStoreLocal && in.Op != OpUninit:
				vr.errorf("%s: a %s instruction has a place", describe(pos), in.Op)
				continue
			case !binding.Renamed(fn):
				if v != nil {
					vr.errorf("%s: %s is not renamed in the function but its place has value %s", describe(pos), binding.Name, name(v))
				}
				continue
			case v == nil:
				vr.errorf("%s: the place has no value", describe(pos))
				continue
			case !vr.isValue(v):
				vr.errorf("%s: the place has value %s, which is not in Values", describe(pos), name(v))
				continue
			case v.Binding != binding:
				vr.errorf("%s: the place has %s, a value of another binding", describe(pos), name(v))
				continue
			}
			if in.Defines() || in.Op == OpUninit {
				if v.Instr != in {
					vr.errorf("%s: the place has %s, which this instruction does not define", describe(pos), name(v))
				}
				continue
			}
			if v.Instr == in {
				vr.errorf("%s: reads %s, which it defines itself", describe(pos), name(v))
				continue
			}
			if !cfgOK {
				continue
			}
			switch d, at := vr.defPoint(v); {
			case d == nil:
				// checkValues reported the broken definition.
			case !vr.dom.Dominates(d, b):
				vr.errorf("%s: reads %s, whose definition in bb%d does not dominate it", describe(pos), name(v), d.ID)
			case d == b && at >= j:
				vr.errorf("%s: reads %s, which is defined after it in the block", describe(pos), name(v))
			}
		}
	}
}

// checkDeadPhis reports the φs that no read uses, directly or through other φs.
func (vr *verifier) checkDeadPhis() {
	live := make([]bool, len(vr.fn.Values))
	var work []*Phi
	mark := func(v *Value) {
		if v.Kind == ValuePhi && v.Phi != nil && !live[v.ID] {
			live[v.ID] = true
			work = append(work, v.Phi)
		}
	}
	for _, b := range vr.fn.Blocks {
		for j := range b.Instrs {
			if in := &b.Instrs[j]; in.Reads() && vr.isValue(in.Place.Value) {
				mark(in.Place.Value)
			}
		}
	}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		for _, op := range p.Operands {
			mark(op)
		}
	}
	for _, b := range vr.fn.Blocks {
		for _, p := range b.Phis {
			if !live[p.Value.ID] {
				vr.errorf("bb%d: φ %s is dead: no read uses it, directly or through other φs", b.ID, name(p.Value))
			}
		}
	}
}

// checkRedundantSets looks for a set of φs whose operands from outside the set are a single
// value, with the search Build itself uses; it reports the first set and stops, since the
// search's later answers assume the set was replaced.
func (vr *verifier) checkRedundantSets() {
	var phis []*Phi
	for _, b := range vr.fn.Blocks {
		phis = append(phis, b.Phis...)
	}
	findRedundantPhiSets(phis, len(vr.fn.Values), func(set []*Phi, v *Value) bool {
		names := make([]string, len(set))
		for i, p := range set {
			names[i] = describePhi(p)
		}
		vr.errorf("redundant φ set: %s together merge only %s", strings.Join(names, ", "), name(v))
		return false
	})
}

// checkUseLists checks that each value's Uses holds exactly the reads and φ operands that refer
// to it, each once.
func (vr *verifier) checkUseLists() {
	listed := make(map[Use]int)
	for _, v := range vr.fn.Values {
		for _, u := range v.Uses {
			switch w, ok := vr.reads[u]; {
			case !ok:
				vr.errorf("%s lists a use at %s, which is not a read or φ operand in the function", name(v), vr.describeUse(u))
			case w != v:
				vr.errorf("%s lists a use at %s, which refers to %s", name(v), vr.describeUse(u), name(w))
			default:
				listed[u]++
			}
		}
	}
	// Walk the reads in block order, for messages in a stable order.
	check := func(u Use, v *Value) {
		if !vr.isValue(v) {
			return // reported as a stale reference
		}
		switch n := listed[u]; {
		case n == 0:
			vr.errorf("%s does not list its use at %s", name(v), vr.describeUse(u))
		case n > 1:
			vr.errorf("%s lists its use at %s %d times", name(v), vr.describeUse(u), n)
		}
	}
	for _, b := range vr.fn.Blocks {
		for _, p := range b.Phis {
			if p == nil {
				continue
			}
			for i, op := range p.Operands {
				check(Use{Phi: p, Index: int32(i)}, op)
			}
		}
		for j := range b.Instrs {
			if in := &b.Instrs[j]; in.Reads() {
				check(Use{Place: &in.Place}, in.Place.Value)
			}
		}
	}
}
