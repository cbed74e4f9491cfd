package ssa_test

import (
	"strings"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

func TestPrint(t *testing.T) {
	var s ssa.Span
	outer := ssa.NewFunction("outer", s)
	shared := outer.NewBinding("shared", ssa.Let, s)
	shared.Why = ssa.Reason{Kind: ssa.AssignedInNestedFunction}
	captured := outer.NewBinding("k", ssa.Const, s)
	fn := ssa.NewFunction("f", s)
	outer.AddChild(fn)
	c := fn.NewBinding("c", ssa.Param, s)
	x := fn.NewBinding("x", ssa.Let, s)
	console := ssa.NewGlobal("console")
	inner := ssa.NewFunction("inner", s)
	fn.AddChild(inner)

	entry := fn.Blocks[0]
	then := fn.NewBlock("then")
	cases := fn.NewBlock("case")
	join := fn.NewBlock("join")
	handler := fn.NewBlock("catch")
	entry.Param(c, s)
	obj := entry.Intrinsic(ssa.IntrinsicObject, "", s)
	entry.Emit(ssa.OpSetProperty, "p", s, obj, entry.Load(c, s))
	entry.Store(x, s, entry.Emit(ssa.OpProperty, "p", s, obj))
	entry.If(entry.Unary(ssa.OperatorNot, s, entry.Load(x, s)), then, cases)
	sum := then.Binary(ssa.OperatorAdd, s, then.Load(x, s), then.Load(captured, s))
	then.Store(x, s, sum)
	then.Store(shared, s, then.Emit(ssa.OpIndex, "", s, obj, then.Load(shared, s)))
	then.MaybeThrow(join, handler)
	one := cases.Emit(ssa.OpConst, "1", s)
	cases.Switch(cases.Load(x, s), []ssa.Temp{one}, []*ssa.Block{join, handler})
	log := join.Emit(ssa.OpProperty, "log", s, join.Load(console, s))
	join.Emit(ssa.OpCall, "", s, log, join.Load(x, s), join.Closure(inner, s))
	join.Emit(ssa.OpNew, "", s, log)
	join.Return(join.Load(x, s))
	handler.Throw(handler.Emit(ssa.OpSetIndex, "", s, obj, obj, obj), nil)
	if err := fn.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := ssa.Build(fn); err != nil {
		t.Fatal(err)
	}
	ssatest.Check(t, fn)
	want := `
function f
bb0 (entry):
  [0] Param c$1
  [1] $0 = Object()
  [2] $1 = LoadLocal c$1
  [3] $2 = PropertyStore $0.p = $1
  [4] $3 = PropertyLoad $0.p
  [5] StoreLocal x$1 = $3
  [6] $4 = LoadLocal x$1
  [7] $5 = Unary ! $4
  If $5 then bb1 else bb2
bb1 (then):
  predecessors: bb0
  [8] $6 = LoadLocal x$1
  [9] $7 = LoadCapture k
  [10] $8 = Binary $6 + $7
  [11] StoreLocal x$2 = $8
  [12] $9 = LoadContext shared
  [13] $10 = IndexLoad $0[$9]
  [14] StoreContext shared = $10
  MaybeThrow then bb3 handler bb4
bb2 (case):
  predecessors: bb0
  [15] $11 = Const 1
  [16] $12 = LoadLocal x$1
  Switch $12 [case $11: bb3, default: bb4]
bb3 (join):
  predecessors: bb1, bb2
  x$3: phi(bb1: x$2, bb2: x$1)
  [17] $13 = LoadGlobal console
  [18] $14 = PropertyLoad $13.log
  [19] $15 = LoadLocal x$3
  [20] $16 = Function inner
  [21] $17 = Call $14($15, $16)
  [22] $18 = New $14()
  [23] $19 = LoadLocal x$3
  Return $19
bb4 (catch):
  predecessors: bb1, bb2
  [24] $20 = IndexStore $0[$0] = $0
  Throw $20
`
	if got := fn.String(); got != strings.TrimPrefix(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
