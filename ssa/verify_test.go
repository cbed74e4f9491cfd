package ssa

import (
	"slices"
	"strings"
	"testing"
)

func finishAndBuild(t *testing.T, fn *Function) {
	t.Helper()
	if err := fn.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := Build(fn); err != nil {
		t.Fatal(err)
	}
}

// loopFunction is
//
//	function loop(c) { let x = 1; while (x) { x = x + c; } return x; }
//
// with a φ for x at the loop header.
type loopFunction struct {
	fn                 *Function
	x, c               *Binding
	entry, head, body  *Block
	exit               *Block
	phi                *Phi
	headRead, bodyRead *Instr // the reads of x
	bodyDef            *Instr // x = x + c
}

func newLoop(t *testing.T) *loopFunction {
	fn := NewFunction("loop", Span{})
	c := fn.NewBinding("c", Param, Span{Start: 1})
	x := fn.NewBinding("x", Let, Span{Start: 2})
	e := fn.Blocks[0]
	e.Param(c, Span{Start: 1})
	e.Store(x, Span{Start: 2}, e.Emit(OpConst, "1", Span{}))
	h, body, exit := fn.NewBlock("loop"), fn.NewBlock("body"), fn.NewBlock("exit")
	h.Anchor = Span{Start: 3}
	e.Goto(h)
	h.If(h.Load(x, Span{Start: 3}), body, exit)
	sum := body.Emit(OpBinary, "+", Span{}, body.Load(x, Span{Start: 4}), body.Load(c, Span{Start: 5}))
	body.Store(x, Span{Start: 6}, sum)
	body.Goto(h).Span = Span{Start: 7}
	exit.Return(exit.Load(x, Span{Start: 8}))
	finishAndBuild(t, fn)
	if len(h.Phis) != 1 {
		t.Fatalf("want one φ in the loop header\n%s", fn)
	}
	return &loopFunction{fn: fn, x: x, c: c, entry: e, head: h, body: body, exit: exit,
		phi: h.Phis[0], headRead: &h.Instrs[0], bodyRead: &body.Instrs[0], bodyDef: &body.Instrs[3]}
}

// twoEntryLoop is the irreducible CFG of Braun et al., Fig. 4: x is assigned once, then read in
// a loop that can be entered at either of its two blocks. Minimal SSA has no φ.
type twoEntryLoop struct {
	fn          *Function
	x           *Binding
	def         *Value
	a, b        *Block // the loop's blocks
	readA, read *Instr // reads of x in a and b
}

func newTwoEntryLoop(t *testing.T) *twoEntryLoop {
	fn := NewFunction("irreducible", Span{})
	x := fn.NewBinding("x", Var, Span{})
	e := fn.Blocks[0]
	e.Store(x, Span{Start: 1}, e.Emit(OpConst, "0", Span{}))
	a, b, exit := fn.NewBlock("a"), fn.NewBlock("b"), fn.NewBlock("exit")
	e.If(e.Emit(OpConst, "c", Span{}), a, b)
	a.If(a.Load(x, Span{Start: 2}), b, exit).Span = Span{Start: 2}
	b.Load(x, Span{Start: 3})
	b.Goto(a).Span = Span{Start: 3}
	exit.Return(NoTemp)
	finishAndBuild(t, fn)
	return &twoEntryLoop{fn: fn, x: x, def: e.Instrs[1].Place.Value, a: a, b: b, readA: &a.Instrs[0], read: &b.Instrs[0]}
}

// addPhi adds a φ of binding to b by hand, with its uses, numbered after the existing values.
func addPhi(fn *Function, b *Block, binding *Binding, operands ...*Value) *Phi {
	version := int32(0)
	for _, v := range fn.Values {
		if v.Binding == binding {
			version = max(version, v.Version)
		}
	}
	v := &Value{ID: int32(len(fn.Values)), Binding: binding, Kind: ValuePhi, Version: version + 1, Block: b}
	p := &Phi{Value: v, Block: b, Operands: operands, complete: true}
	v.Phi = p
	b.Phis = append(b.Phis, p)
	fn.Values = append(fn.Values, v)
	for i, op := range operands {
		op.Uses = append(op.Uses, Use{Phi: p, Index: int32(i)})
	}
	return p
}

// retarget makes the read at place see v, keeping the use lists right.
func retarget(place *Place, v *Value) {
	old := place.Value
	old.Uses = slices.DeleteFunc(old.Uses, func(u Use) bool { return u.Place == place })
	place.Value = v
	v.Uses = append(v.Uses, Use{Place: place})
}

// predIndex returns the index of pred among b's predecessors.
func predIndex(t *testing.T, b, pred *Block) int {
	t.Helper()
	i := slices.Index(b.Preds, pred)
	if i < 0 {
		t.Fatalf("bb%d is not a predecessor of bb%d", pred.ID, b.ID)
	}
	return i
}

func TestVerifyValid(t *testing.T) {
	l := newLoop(t)
	if err := Verify(l.fn); err != nil {
		t.Errorf("loop: %v\n%s", err, l.fn)
	}
	irr := newTwoEntryLoop(t)
	if err := Verify(irr.fn); err != nil {
		t.Errorf("two-entry loop: %v\n%s", err, irr.fn)
	}

	// Places that are not renamed: a global, a context variable, and a variable of the
	// enclosing function.
	outer := NewFunction("outer", Span{})
	captured := outer.NewBinding("captured", Let, Span{})
	fn := NewFunction("inner", Span{})
	outer.AddChild(fn)
	ctx := fn.NewBinding("ctx", Let, Span{})
	ctx.Why = Reason{Kind: AssignedInNestedFunction}
	global := NewGlobal("console")
	y := fn.NewBinding("y", Var, Span{})
	e := fn.Blocks[0]
	then, join := fn.NewBlock("then"), fn.NewBlock("join")
	e.Store(ctx, Span{Start: 1}, e.Load(global, Span{Start: 2}))
	e.If(e.Load(captured, Span{Start: 3}), then, join)
	then.Store(y, Span{Start: 4}, then.Load(ctx, Span{Start: 5}))
	then.Goto(join).Span = Span{Start: 6}
	join.Return(join.Load(y, Span{Start: 7}))
	finishAndBuild(t, fn)
	if err := Verify(fn); err != nil {
		t.Errorf("inner: %v\n%s", err, fn)
	}
	if len(join.Phis) != 1 || join.Phis[0].Operands[0].Kind != ValueInitial {
		t.Errorf("want a φ of y's initial value and y$1 at the join\n%s", fn)
	}

	notAnalyzed := NewFunction("withEval", Span{})
	notAnalyzed.NotAnalyzed = Reason{Kind: DirectEval}
	if err := Verify(notAnalyzed); err != nil {
		t.Errorf("not analyzed: %v", err)
	}
}

func TestVerifyNotBuilt(t *testing.T) {
	fn, _ := graph(t, [][]int{{}})
	if err := Verify(fn); err == nil || !strings.Contains(err.Error(), "g: not built") {
		t.Errorf("Verify before Build: %v", err)
	}
}

// Each corruption is applied to a freshly built function; Verify must name the problem.
func TestVerifyCorrupt(t *testing.T) {
	tests := []struct {
		name    string
		corrupt func(t *testing.T) *Function
		want    []string
	}{
		{"φ arity", func(t *testing.T) *Function {
			l := newLoop(t)
			l.phi.Operands = l.phi.Operands[:1]
			return l.fn
		}, []string{"loop: bb1: φ x$2 has 1 operands for 2 predecessors"}},

		{"operand of another binding", func(t *testing.T) *Function {
			l := newLoop(t)
			i := predIndex(t, l.head, l.body)
			c := l.fn.Blocks[0].Instrs[0].Place.Value
			l.phi.Operands[i] = c
			c.Uses = append(c.Uses, Use{Phi: l.phi, Index: int32(i)})
			return l.fn
		}, []string{"loop: bb1: operand 1 (from bb2) of φ x$2 is c$1, a value of another binding"}},

		{"use not dominated", func(t *testing.T) *Function {
			l := newLoop(t)
			// The exit reads the value defined in the loop body, which the exit does not
			// come through when the loop runs zero times.
			retarget(&l.exit.Instrs[0].Place, l.bodyDef.Place.Value)
			return l.fn
		}, []string{"loop: bb3 [8] LoadLocal x: reads x$3, whose definition in bb2 does not dominate it"}},

		{"use before its definition in the block", func(t *testing.T) *Function {
			l := newLoop(t)
			retarget(&l.bodyRead.Place, l.bodyDef.Place.Value)
			return l.fn
		}, []string{"loop: bb2 [4] LoadLocal x: reads x$3, which is defined after it in the block"}},

		{"φ operand not dominated", func(t *testing.T) *Function {
			irr := newTwoEntryLoop(t)
			// Gives the read in b a def of its own, then feeds that def into a φ of a along
			// the edge from the entry, which b does not dominate.
			def := &Value{ID: int32(len(irr.fn.Values)), Binding: irr.x, Kind: ValueDef, Version: 2, Block: irr.b}
			irr.fn.Values = append(irr.fn.Values, def)
			irr.b.Instrs = append(irr.b.Instrs, Instr{Op: OpStoreLocal, Dest: NoTemp, Args: []Temp{0},
				Place: Place{Binding: irr.x, Value: def}})
			def.Instr = &irr.b.Instrs[len(irr.b.Instrs)-1]
			ops := []*Value{irr.def, irr.def}
			ops[predIndex(t, irr.a, irr.fn.Blocks[0])] = def
			p := addPhi(irr.fn, irr.a, irr.x, ops...)
			retarget(&irr.readA.Place, p.Value)
			return irr.fn
		}, []string{"irreducible: bb2: operand 0 of φ x$3 is x$2, whose definition does not dominate the end of bb0"}},

		{"stale value", func(t *testing.T) *Function {
			l := newLoop(t)
			stale := &Value{ID: 1, Binding: l.x, Kind: ValuePhi, Version: 9, Block: l.head}
			retarget(&l.exit.Instrs[0].Place, stale)
			return l.fn
		}, []string{"loop: bb3 [8] LoadLocal x: the place has value x$9, which is not in Values"}},

		{"removed φ still an operand", func(t *testing.T) *Function {
			l := newLoop(t)
			l.head.Phis = nil
			return l.fn
		}, []string{
			"loop: bb1: φ x$2 is in no block's φ list",
			"loop: x$3 lists a use at operand 1 of φ x$2 in bb1, which is not a read or φ operand in the function",
		}},

		{"trivial φ", func(t *testing.T) *Function {
			irr := newTwoEntryLoop(t)
			// A φ in the exit, reached from a alone, merging the one def.
			exit := irr.fn.Blocks[len(irr.fn.Blocks)-1]
			p := addPhi(irr.fn, exit, irr.x, irr.def)
			exit.Instrs = append(exit.Instrs, Instr{Op: OpLoadLocal, Dest: 9, Place: Place{Binding: irr.x, Value: p.Value}})
			p.Value.Uses = append(p.Value.Uses, Use{Place: &exit.Instrs[len(exit.Instrs)-1].Place})
			return irr.fn
		}, []string{"irreducible: bb3: φ x$2 is trivial: it merges only x$1"}},

		{"φ of itself only", func(t *testing.T) *Function {
			l := newLoop(t)
			for i := range l.phi.Operands {
				l.phi.Operands[i].Uses = slices.DeleteFunc(l.phi.Operands[i].Uses, func(u Use) bool { return u.Phi == l.phi })
				l.phi.Operands[i] = l.phi.Value
				l.phi.Value.Uses = append(l.phi.Value.Uses, Use{Phi: l.phi, Index: int32(i)})
			}
			return l.fn
		}, []string{"loop: bb1: φ x$2 is trivial: it merges no value besides itself"}},

		{"redundant φ pair", func(t *testing.T) *Function {
			irr := newTwoEntryLoop(t)
			entry := irr.fn.Blocks[0]
			pa := addPhi(irr.fn, irr.a, irr.x, irr.def, irr.def)
			pb := addPhi(irr.fn, irr.b, irr.x, irr.def, irr.def)
			// Each φ takes the other's value along the edge inside the loop.
			for _, edge := range []struct{ p, other *Phi }{{pa, pb}, {pb, pa}} {
				i := 1 - predIndex(t, edge.p.Block, entry)
				irr.def.Uses = slices.DeleteFunc(irr.def.Uses, func(u Use) bool { return u.Phi == edge.p && u.Index == int32(i) })
				edge.p.Operands[i] = edge.other.Value
				edge.other.Value.Uses = append(edge.other.Value.Uses, Use{Phi: edge.p, Index: int32(i)})
			}
			retarget(&irr.readA.Place, pa.Value)
			retarget(&irr.read.Place, pb.Value)
			return irr.fn
		}, []string{"irreducible: redundant φ set: φ x$3 in bb1, φ x$2 in bb2 together merge only x$1"}},

		{"dead φ", func(t *testing.T) *Function {
			l := newLoop(t)
			addPhi(l.fn, l.head, l.x, l.phi.Operands...)
			return l.fn
		}, []string{"loop: bb1: φ x$4 is dead: no read uses it, directly or through other φs"}},

		{"two φs of one binding", func(t *testing.T) *Function {
			l := newLoop(t)
			p := addPhi(l.fn, l.head, l.x, l.phi.Operands...)
			retarget(&l.exit.Instrs[0].Place, p.Value)
			return l.fn
		}, []string{"loop: bb1: φs x$2 and x$4 both merge x"}},

		{"missing use", func(t *testing.T) *Function {
			l := newLoop(t)
			v := l.phi.Value
			v.Uses = slices.DeleteFunc(v.Uses, func(u Use) bool { return u.Place == &l.bodyRead.Place })
			return l.fn
		}, []string{"loop: x$2 does not list its use at bb2 [4] LoadLocal x"}},

		{"use listed twice", func(t *testing.T) *Function {
			l := newLoop(t)
			v := l.phi.Value
			v.Uses = append(v.Uses, Use{Place: &l.headRead.Place})
			return l.fn
		}, []string{"loop: x$2 lists its use at bb1 [3] LoadLocal x 2 times"}},

		{"use listed by the wrong value", func(t *testing.T) *Function {
			l := newLoop(t)
			v := l.fn.Blocks[0].Instrs[0].Place.Value // c$1
			v.Uses = append(v.Uses, Use{Place: &l.headRead.Place})
			return l.fn
		}, []string{"loop: c$1 lists a use at bb1 [3] LoadLocal x, which refers to x$2"}},

		{"two defs of one value", func(t *testing.T) *Function {
			l := newLoop(t)
			def := l.fn.Blocks[0].Instrs[2].Place.Value // x$1
			l.bodyDef.Place.Value = def
			return l.fn
		}, []string{"loop: bb2 [7] StoreLocal x: the place has x$1, which this instruction does not define"}},

		{"read of its own definition", func(t *testing.T) *Function {
			l := newLoop(t)
			v := &Value{ID: int32(len(l.fn.Values)), Binding: l.x, Kind: ValueDef, Version: 4, Block: l.head, Instr: l.headRead}
			l.fn.Values = append(l.fn.Values, v)
			retarget(&l.headRead.Place, v)
			return l.fn
		}, []string{
			"loop: bb1 [3] LoadLocal x: reads x$4, which it defines itself",
			"loop: bb1 [3] LoadLocal x: def value x$4 is defined by a LoadLocal",
		}},

		{"renamed place without value", func(t *testing.T) *Function {
			l := newLoop(t)
			l.phi.Value.Uses = slices.DeleteFunc(l.phi.Value.Uses, func(u Use) bool { return u.Place == &l.bodyRead.Place })
			l.bodyRead.Place.Value = nil
			return l.fn
		}, []string{"loop: bb2 [4] LoadLocal x: the place has no value"}},

		{"value of a binding that is not renamed", func(t *testing.T) *Function {
			l := newLoop(t)
			l.x.Why = Reason{Kind: AssignedInNestedFunction}
			return l.fn
		}, []string{
			"loop: x$1 is a value of x, which is not renamed in the function",
			"loop: bb1 [3] LoadLocal x: x is not renamed in the function but its place has value x$2",
		}},

		{"same version twice", func(t *testing.T) *Function {
			l := newLoop(t)
			l.phi.Value.Version = 1
			return l.fn
		}, []string{"loop: x$1 (def) and x$1 (phi) have the same version"}},

		{"misnumbered value", func(t *testing.T) *Function {
			l := newLoop(t)
			l.fn.Values[2].ID = 7
			return l.fn
		}, []string{"loop: x$2 is Values[2] but has ID 7"}},

		{"predecessor missing", func(t *testing.T) *Function {
			l := newLoop(t)
			l.exit.Preds = nil
			return l.fn
		}, []string{"loop: bb3: predecessors [], but the edges into it come from [bb1]"}},

		{"duplicate edge counted once", func(t *testing.T) *Function {
			fn, blocks := graph(t, [][]int{{1, 1}, {}})
			blocks[1].Preds = blocks[1].Preds[:1]
			if err := Build(fn); err != nil {
				t.Fatal(err)
			}
			return fn
		}, []string{"g: bb1: predecessors [bb0], but the edges into it come from [bb0 bb0]"}},

		{"misnumbered block", func(t *testing.T) *Function {
			l := newLoop(t)
			l.body.ID = 5
			return l.fn
		}, []string{"loop: bb5 is Blocks[2]"}},

		{"unreachable block", func(t *testing.T) *Function {
			l := newLoop(t)
			// Drops the loop's entry edge: the header and body only reach each other.
			l.entry.Term = Terminal{Kind: TermReturn, Arg: NoTemp}
			l.head.Preds = slices.DeleteFunc(l.head.Preds, func(b *Block) bool { return b == l.entry })
			return l.fn
		}, []string{"loop: blocks unreachable from the entry: [bb1 bb2 bb3]", "loop: bb1: φ x$2 has 2 operands for 1 predecessors"}},

		{"successor outside the function", func(t *testing.T) *Function {
			l := newLoop(t)
			other, _ := graph(t, [][]int{{}})
			l.exit.Term = Terminal{Kind: TermGoto, Succs: []*Block{other.Blocks[0]}}
			return l.fn
		}, []string{"loop: bb3: successor 0 is not a block of the function"}},

		{"terminal arity", func(t *testing.T) *Function {
			l := newLoop(t)
			l.head.Term.Kind = TermGoto
			return l.fn
		}, []string{"loop: bb1: Goto has 2 successors, want 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := tt.corrupt(t)
			err := Verify(fn)
			if err == nil {
				t.Fatalf("Verify found nothing\n%s", fn)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Verify:\n%v\nwant a line containing\n%s", err, want)
				}
			}
		})
	}
}
