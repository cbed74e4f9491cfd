package ssa

import (
	"fmt"
	"sort"
)

// NewFunction returns an empty function with an entry block.
func NewFunction(name string, span Span) *Function {
	fn := &Function{Name: name, Span: span}
	fn.NewBlock("entry").reached = true
	return fn
}

// NewBinding declares a binding owned by fn.
func (fn *Function) NewBinding(name string, kind BindingKind, decl Span) *Binding {
	b := &Binding{ID: int32(len(fn.Bindings)), Name: name, Kind: kind, Decl: decl, Owner: fn}
	fn.Bindings = append(fn.Bindings, b)
	return b
}

// NewGlobal returns a binding for a name that resolves to no declaration.
func NewGlobal(name string) *Binding {
	return &Binding{ID: -1, Name: name, Kind: Global}
}

// AddChild records a nested function.
func (fn *Function) AddChild(child *Function) {
	child.Parent = fn
	fn.Children = append(fn.Children, child)
}

// NewBlock appends a new, unterminated block. Before Finish, blocks are kept in creation order;
// the first one created is the entry.
func (fn *Function) NewBlock(label string) *Block {
	b := &Block{ID: int32(len(fn.created)), Func: fn, Label: label, order: int32(len(fn.created))}
	fn.created = append(fn.created, b)
	fn.Blocks = fn.created
	return b
}

// NewTemp allocates a temporary.
func (fn *Function) NewTemp() Temp {
	t := Temp(fn.temps)
	fn.temps++
	return t
}

// Emit appends an instruction computing a new temporary and returns it.
func (b *Block) Emit(op Op, text string, span Span, args ...Temp) Temp {
	t := b.Func.NewTemp()
	b.EmitTo(t, op, text, span, args...)
	return t
}

// EmitTo appends an instruction that assigns dest, a temporary allocated with NewTemp. Only
// the paths into a join assign one temporary more than once (see OpCopy).
func (b *Block) EmitTo(dest Temp, op Op, text string, span Span, args ...Temp) {
	b.add(Instr{Op: op, Dest: dest, Args: b.Func.keep(args), Text: text, Span: span})
}

// maxArgSlab is how many operands one allocation of a function's operand lists holds at most;
// the first holds 16, and each next one twice as many as the last.
const maxArgSlab = 256

// keep returns a copy of an instruction's operands, cut from a larger allocation: a function
// has thousands of instructions, most with one or two operands.
func (fn *Function) keep(args []Temp) []Temp {
	if len(args) == 0 {
		return nil
	}
	if len(fn.args)+len(args) > cap(fn.args) {
		fn.args = make([]Temp, 0, max(min(2*cap(fn.args), maxArgSlab), 16, len(args)))
	}
	start := len(fn.args)
	fn.args = append(fn.args, args...)
	return fn.args[start:len(fn.args):len(fn.args)]
}

// add appends in, counting it for Made. A function's blocks take their instructions from one
// growing list, fn.instrs, not from a list each: the block appended to last holds the list's
// tail and grows in place, and a block appended to after another is first copied to the tail.
// A lowering fills its blocks mostly one after the other, so few are copied, and a function
// whose lowering borrowed an array (Borrow) costs no allocation but its packed instructions.
// Finish then packs what is live (packInstrs).
func (b *Block) add(in Instr) {
	fn, n := b.Func, len(b.Instrs)
	if n == 0 || &b.Instrs[n-1] != &fn.instrs[len(fn.instrs)-1] {
		fn.instrs = append(fn.instrs, b.Instrs...)
	}
	fn.instrs = append(fn.instrs, in)
	end := len(fn.instrs)
	b.Instrs = fn.instrs[end-n-1 : end : end]
	fn.made++
}

// Made returns how many instructions and blocks were made for fn so far: the work its
// construction took, which a lowering bounds. Finish drops the unreachable blocks, not their
// instructions from the count.
func (fn *Function) Made() int { return fn.made + len(fn.Blocks) }

// Unary appends an instruction applying op to x and returns its temporary.
func (b *Block) Unary(op Operator, span Span, x Temp) Temp {
	t := b.Emit(OpUnary, "", span, x)
	b.Instrs[len(b.Instrs)-1].Operator = op
	return t
}

// Binary appends an instruction applying op to x and y and returns its temporary.
func (b *Block) Binary(op Operator, span Span, x, y Temp) Temp {
	t := b.Emit(OpBinary, "", span, x, y)
	b.Instrs[len(b.Instrs)-1].Operator = op
	return t
}

// Intrinsic appends an intrinsic instruction and returns its temporary; text, if not empty, is
// its printed form.
func (b *Block) Intrinsic(i Intrinsic, text string, span Span, args ...Temp) Temp {
	t := b.Emit(OpIntrinsic, text, span, args...)
	b.Instrs[len(b.Instrs)-1].Intrinsic = i
	return t
}

// Param defines the next parameter as binding at span.
func (b *Block) Param(binding *Binding, span Span) {
	b.add(Instr{Op: OpParam, Dest: NoTemp, Place: Place{Binding: binding, Span: span}, Span: span})
}

// Load reads binding at span into a new temporary.
func (b *Block) Load(binding *Binding, span Span) Temp {
	t := b.Func.NewTemp()
	b.add(Instr{Op: OpLoadLocal, Dest: t, Place: Place{Binding: binding, Span: span}, Span: span})
	return t
}

// Store assigns value to binding at span.
func (b *Block) Store(binding *Binding, span Span, value Temp) {
	b.add(Instr{Op: OpStoreLocal, Dest: NoTemp, Args: b.Func.keep([]Temp{value}), Place: Place{Binding: binding, Span: span}, Span: span})
}

// Uninit makes binding uninitialized again. A loop that enters a block scope anew gives the
// scope's let, const and class bindings a new temporal dead zone this way.
func (b *Block) Uninit(binding *Binding, span Span) {
	b.add(Instr{Op: OpUninit, Dest: NoTemp, Place: Place{Binding: binding, Span: span}, Span: span})
}

// Closure creates the closure of a nested function.
func (b *Block) Closure(child *Function, span Span) Temp {
	t := b.Func.NewTemp()
	b.add(Instr{Op: OpFunction, Dest: t, Func: child, Text: child.Name, Span: span})
	return t
}

// Terminated reports whether the block already has a terminal.
func (b *Block) Terminated() bool { return b.Term.Kind != TermNone }

func (b *Block) terminate(kind TermKind, arg Temp, succs ...*Block) *Terminal {
	if b.Terminated() {
		panic(fmt.Sprintf("ssa: block bb%d of %s terminated twice", b.ID, b.Func.Name))
	}
	b.Term = Terminal{Kind: kind, Arg: arg, Succs: succs}
	if b.reached {
		for _, s := range succs {
			s.reached = true
		}
	}
	return &b.Term
}

// Reached reports whether a path of the edges made so far leads from the entry to b. A builder
// that makes every edge into a block before it fills the block, as a lowering of structured code
// does but for the back edges into loop headers, knows from it whether the code it emits can
// run.
func (b *Block) Reached() bool { return b.reached }

// Goto ends the block with a jump to target.
func (b *Block) Goto(target *Block) *Terminal { return b.terminate(TermGoto, NoTemp, target) }

// If ends the block with a two-way branch on cond.
func (b *Block) If(cond Temp, then, els *Block) *Terminal {
	return b.terminate(TermIf, cond, then, els)
}

// Switch ends the block with a multi-way branch: targets[i] is taken when the discriminant
// matches cases[i]; the last target is the default.
func (b *Block) Switch(discriminant Temp, cases []Temp, targets []*Block) *Terminal {
	if len(targets) != len(cases)+1 {
		panic("ssa: Switch needs one target per case plus a default")
	}
	t := b.terminate(TermSwitch, discriminant, targets...)
	t.Cases = cases
	return t
}

// MaybeThrow ends the block with an edge to next and an exceptional edge to handler.
func (b *Block) MaybeThrow(next, handler *Block) *Terminal {
	return b.terminate(TermMaybeThrow, NoTemp, next, handler)
}

// Return ends the block with a return of value (NoTemp: undefined).
func (b *Block) Return(value Temp) *Terminal { return b.terminate(TermReturn, value) }

// Throw ends the block by throwing value, to handler if it is not nil.
func (b *Block) Throw(value Temp, handler *Block) *Terminal {
	if handler == nil {
		return b.terminate(TermThrow, value)
	}
	return b.terminate(TermThrow, value, handler)
}

// Finish seals the shape of the CFG: it checks that every reachable block is terminated and
// that no edge enters the entry block, drops
// unreachable blocks, orders the rest in reverse postorder and derives each block's
// predecessors from the terminals, ordered by where the edge leaves in the source (the span of
// the predecessor's terminal), then by creation order.
func (fn *Function) Finish() error {
	order, err := reversePostorder(fn.created[0], len(fn.created))
	if err != nil {
		return fmt.Errorf("%s: %w", fn.Name, err)
	}
	fn.Blocks = order
	fn.created = nil
	fn.packInstrs()
	for i, b := range order {
		b.ID = int32(i)
		b.Preds = b.Preds[:0]
	}
	for _, b := range order {
		for _, s := range b.Term.Succs {
			s.Preds = append(s.Preds, b)
		}
	}
	if len(order[0].Preds) > 0 {
		return fmt.Errorf("%s: the entry block has predecessors", fn.Name)
	}
	for _, b := range order {
		sort.SliceStable(b.Preds, func(i, j int) bool {
			pi, pj := b.Preds[i], b.Preds[j]
			if pi.Term.Span.Start != pj.Term.Span.Start {
				return pi.Term.Span.Start < pj.Term.Span.Start
			}
			return pi.order < pj.order
		})
	}
	return nil
}

// packInstrs moves the instructions of fn's blocks into one allocation of the size they take.
// Appended one at a time, a block's list ends up to twice as long as its instructions, and
// instructions are most of what a lowered file takes in memory. No pointer into the lists may
// be taken before: a Place is found by its instruction's index until the function is finished.
func (fn *Function) packInstrs() {
	n := 0
	for _, b := range fn.Blocks {
		n += len(b.Instrs)
	}
	appended := fn.instrs
	fn.instrs = make([]Instr, n)
	all := fn.instrs
	for _, b := range fn.Blocks {
		k := copy(all, b.Instrs)
		b.Instrs, all = all[:k:k], all[k:]
	}
	if fn.pool != nil {
		clear(appended) // the array serves later functions, and lowerings: it keeps nothing
		fn.pool.free = append(fn.pool.free, appended)
		fn.pool = nil
	}
}

// reversePostorder walks the CFG from entry with an explicit stack. Successors are visited
// last to first so that the first successor (a then-branch, a loop body) comes first in the
// resulting order.
func reversePostorder(entry *Block, blocks int) ([]*Block, error) {
	type frame struct {
		b    *Block
		next int // successors left to visit
	}
	visited := make([]bool, blocks)
	visited[entry.order] = true
	stack := []frame{{b: entry, next: len(entry.Term.Succs)}}
	post := make([]*Block, 0, blocks)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if !top.b.Terminated() {
			return nil, fmt.Errorf("block %q (created #%d) has no terminal", top.b.Label, top.b.order)
		}
		if top.next > 0 {
			top.next--
			s := top.b.Term.Succs[top.next]
			if !visited[s.order] {
				visited[s.order] = true
				stack = append(stack, frame{b: s, next: len(s.Term.Succs)})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post, nil
}

// DropBody frees fn's blocks, instructions and values for a caller done with them, keeping
// the function's name, span, bindings and nesting.
func (fn *Function) DropBody() {
	fn.Blocks, fn.Values, fn.instrs = nil, nil, nil
	for _, b := range fn.Bindings {
		b.Single = nil
	}
}

// InstrPool keeps the arrays that functions append their instructions to while they are
// made (see add), for a caller that makes one function after another, as a lowering does:
// Finish packs a function's instructions into an allocation of their own size and puts the
// array back for the next function. A function made while another is (a nested function)
// takes an array of its own, so the pool holds one for each level of nesting at most. The
// arrays are cleared as they come back, so a pool keeps no function alive and can serve later
// lowerings too. A pool is for one goroutine at a time.
type InstrPool struct{ free [][]Instr }

// Borrow has fn append its instructions to an array of pool, with room for about n, until
// Finish, instead of to one of its own, which would be garbage once packed: instructions are
// most of what a lowering allocates. An array too small for n is replaced.
func (fn *Function) Borrow(pool *InstrPool, n int) {
	if k := len(pool.free); k > 0 {
		fn.instrs, pool.free = pool.free[k-1][:0], pool.free[:k-1]
	}
	if cap(fn.instrs) < n {
		fn.instrs = make([]Instr, 0, n)
	}
	fn.pool = pool
}
