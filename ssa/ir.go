package ssa

import (
	"sync/atomic"
	"weak"
)

// Span is a half-open range of byte offsets into the UTF-8 source.
type Span struct {
	Start, End int32
}

// BindingKind says how a binding was declared.
type BindingKind uint8

const (
	Var BindingKind = iota
	Let
	Const
	Param
	FunctionDecl
	Class
	CatchParam
	Import
	Global    // an identifier that resolves to no declaration; never renamed
	Enum      // a TypeScript enum: its object, which later declarations of the same name extend
	Namespace // a TypeScript namespace with values: its object, likewise
)

var bindingKindNames = [...]string{"var", "let", "const", "param", "function", "class", "catch", "import", "global",
	"enum", "namespace"}

func (k BindingKind) String() string { return bindingKindNames[k] }

// Binding is one declared variable. Owner is the function whose scope declares it (nil for a
// global); only the owner renames it, and only when it is not a context variable.
type Binding struct {
	ID       int32
	Name     string
	Kind     BindingKind
	Decl     Span
	Owner    *Function
	Why      Reason // why the binding is a context variable, not renamed (see Context)
	Exported bool   // a module export: importers see every value it takes
	// ReadNested reports that a function nested in Owner reads the binding, which the
	// lowering knows once Owner is finished (lower's captureResolver.settle).
	ReadNested bool
	// Single is the place of the binding's one definition, if live code of Owner defines it
	// exactly once; the lowering knows it once Owner is finished, as ReadNested.
	Single *Place
	// Type is the span of the type annotation the declaration gives it in TypeScript
	// (`let x: T`, a parameter's), without the colon; empty if none.
	Type Span
}

// Renamed reports whether Build gives the binding's places SSA values in fn.
func (b *Binding) Renamed(fn *Function) bool {
	return b.Owner == fn && !b.Context() && b.Kind != Global
}

// Temp is a function-local temporary; NoTemp marks an absent operand or result.
type Temp int32

const NoTemp Temp = -1

// Place is one occurrence of a binding in the source. After Build, Value is the SSA value the
// occurrence reads (LoadLocal) or defines (StoreLocal, Param), or nil if the binding is not
// renamed in this function.
type Place struct {
	Binding *Binding
	Span    Span
	Value   *Value
}

// Op is an instruction's operation. Only the ops that carry a Place matter to SSA construction;
// the others describe the computation for printing and for later analyses.
type Op uint8

const (
	OpParam      Op = iota // Place (or Dest, for a destructured parameter) is the next parameter
	OpLoadLocal            // Dest = Place
	OpStoreLocal           // Place = Args[0]; Dest, if any, is the stored value
	OpUninit               // Place's binding is uninitialized again: a block scope entered anew by a loop
	OpCopy                 // Dest = Args[0]; a temporary assigned on each path into a join
	OpConst                // Dest = the literal Text
	OpUndefined            // Dest = undefined
	OpUnary                // Dest = Operator Args[0]
	OpBinary               // Dest = Args[0] Operator Args[1]
	OpCall                 // Dest = Args[0](Args[1:]...)
	OpNew                  // Dest = new Args[0](Args[1:]...)
	OpProperty             // Dest = Args[0].Text
	OpSetProperty
	OpIndex // Dest = Args[0][Args[1]]
	OpSetIndex
	OpFunction  // Dest = closure of Func
	OpIntrinsic // Dest = Intrinsic(Args...): any other expression form (object, array, await, …)
)

var opNames = [...]string{"Param", "LoadLocal", "StoreLocal", "Uninit", "Copy", "Const", "Undefined", "Unary", "Binary", "Call",
	"New", "PropertyLoad", "PropertyStore", "IndexLoad", "IndexStore", "Function", "Intrinsic"}

func (o Op) String() string { return opNames[o] }

// Instr is one three-address instruction.
type Instr struct {
	Op        Op
	Operator  Operator  // for OpUnary and OpBinary
	Intrinsic Intrinsic // for OpIntrinsic
	Dest      Temp
	Args      []Temp
	Place     Place // for OpParam, OpLoadLocal, OpStoreLocal, OpUninit (Binding is nil otherwise)
	// Text is for display only: a literal, a property name, a function's name, or an
	// intrinsic's printed form when it says more than its name (`Class Point`).
	Text string
	Func *Function // for OpFunction
	Span Span
}

// Defines reports whether the instruction defines its Place.
func (in *Instr) Defines() bool {
	return in.Place.Binding != nil && (in.Op == OpStoreLocal || in.Op == OpParam)
}

// Reads reports whether the instruction reads its Place.
func (in *Instr) Reads() bool { return in.Place.Binding != nil && in.Op == OpLoadLocal }

// TermKind is the kind of a block's terminal.
type TermKind uint8

const (
	TermNone       TermKind = iota // not yet terminated
	TermGoto                       // Succs[0]
	TermIf                         // Arg ? Succs[0] : Succs[1]
	TermSwitch                     // Succs[i] when Arg matches Cases[i]; the last Succ is the default
	TermMaybeThrow                 // continue to Succs[0]; an exception here goes to Succs[1]
	TermReturn                     // return Arg (NoTemp: undefined)
	TermThrow                      // throw Arg, to the handler Succs[0] if the block is in a try
)

var termNames = [...]string{"<none>", "Goto", "If", "Switch", "MaybeThrow", "Return", "Throw"}

func (k TermKind) String() string { return termNames[k] }

// Terminal ends a block. Span is where its edges leave in the source; predecessor lists are
// ordered by it.
type Terminal struct {
	Kind  TermKind
	Arg   Temp
	Cases []Temp
	Succs []*Block
	Span  Span
}

// Block is a basic block.
type Block struct {
	ID     int32 // index in Function.Blocks after Finish
	Func   *Function
	Preds  []*Block
	Phis   []*Phi
	Instrs []Instr
	Term   Terminal
	// Anchor places the block's φs in the source: Start is where they count as defined for
	// version numbering (a loop's test, the end of an if statement), End is where they are shown
	// (the end of a loop's first line, the end of the if statement).
	Anchor     Span
	LoopHeader bool   // the block is the header of a source loop
	Label      string // a short description for printing: "while", "then", "join", …

	order   int32 // creation order, the tie-breaker for predecessor order
	filled  bool
	sealed  bool
	reached bool // an edge from the entry reaches the block (see Reached)
}

// ValueKind says how an SSA value is defined.
type ValueKind uint8

const (
	ValueInitial ValueKind = iota // version 0: the value before any definition
	ValueParam
	ValueDef
	ValuePhi
	// ValueUninit is the value a let, const or class binding has again when a loop enters its
	// block scope anew (OpUninit): uninitialized, like version 0, and shown as version 0.
	ValueUninit
)

var valueKindNames = [...]string{"initial", "param", "def", "phi", "uninit"}

// Uninitialized reports whether v is a binding's value before its declaration ran.
func (v *Value) Uninitialized() bool { return v.Kind == ValueInitial || v.Kind == ValueUninit }

func (k ValueKind) String() string { return valueKindNames[k] }

// Value is one SSA value of a binding.
type Value struct {
	ID      int32 // index in Function.Values after Build
	Binding *Binding
	Kind    ValueKind
	Version int32 // per binding: 0 for the initial value, then 1, 2, … (see Function.Values)
	Block   *Block
	Instr   *Instr // the defining instruction for ValueParam, ValueDef and ValueUninit
	Phi     *Phi   // for ValuePhi
	Uses    []Use

	replacedBy *Value // set while Build runs, on φs it removed
}

// Def returns the Place a param or def value was defined at, or nil.
func (v *Value) Def() *Place {
	if v.Instr == nil {
		return nil
	}
	return &v.Instr.Place
}

// Sources returns the values other than φs that reach v through the φ web (v itself if it is
// not a φ), each once.
func Sources(v *Value) []*Value {
	seen := map[*Value]bool{v: true}
	work := []*Value{v}
	var out []*Value
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if v.Kind != ValuePhi {
			out = append(out, v)
			continue
		}
		for _, op := range v.Phi.Operands {
			if !seen[op] {
				seen[op] = true
				work = append(work, op)
			}
		}
	}
	return out
}

// Use is one read of a value: the Place of a LoadLocal, or operand Index of a φ.
type Use struct {
	Place *Place
	Phi   *Phi
	Index int32
}

// Phi merges the values of one binding at the start of a block; Operands[i] flows in from
// Block.Preds[i].
type Phi struct {
	Value    *Value
	Block    *Block
	Operands []*Value

	complete bool
}

// Function is one JavaScript function (or the top level of a script or module).
type Function struct {
	Name     string
	Span     Span
	Blocks   []*Block // reverse postorder after Finish; Blocks[0] is the entry
	Bindings []*Binding
	Values   []*Value // after Build: initial values, then the others in block order
	Parent   *Function
	Children []*Function
	// NotAnalyzed says why the function has no SSA form (with, eval, a syntax error), if it
	// has none (see Analyzed).
	NotAnalyzed Reason
	// RunsWhenCreated marks a function that runs where its closure is made, once: a class's
	// static field initializer or static block, which run when the class is defined.
	RunsWhenCreated bool
	// Arrow marks an arrow function, which has no this or arguments of its own.
	Arrow bool

	temps   int32
	created []*Block
	args    []Temp     // what is left of the allocation operand lists are cut from (see keep)
	made    int        // instructions appended, for Made
	instrs  []Instr    // before Finish, what blocks append to (see add); after, every block's instructions in block order (see packInstrs)
	pool    *InstrPool // where instrs came from and goes back to at Finish, if borrowed
	built   bool
	// fromOutside are the bindings a copy and its nested functions use from outside them (see
	// usedFromOutside), on the root of a copy; nil for any other function.
	fromOutside []*Binding
	// copied is the copy fn belongs to, if fn is a copy (see Copy); copyInstrs is how many
	// instructions it has, made or not. The reference is weak: whoever may ask for fn's body
	// keeps the copy (see Copy).
	copied     weak.Pointer[Copy]
	copyInstrs int32
	summary    atomic.Pointer[summary] // what copies of fn read of it, once one was made
}

// Entry returns the entry block.
func (fn *Function) Entry() *Block { return fn.Blocks[0] }

// Built reports whether fn is in SSA form.
func (fn *Function) Built() bool { return fn.built }
