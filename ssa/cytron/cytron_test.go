package cytron_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/cytron"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

var at ssa.Span

func finish(t *testing.T, fn *ssa.Function) {
	t.Helper()
	if err := fn.Finish(); err != nil {
		t.Fatal(err)
	}
}

func cond(b *ssa.Block) ssa.Temp { return b.Emit(ssa.OpConst, "c", at) }

// lastRead returns the index of the last LoadLocal in b.
func lastRead(t *testing.T, b *ssa.Block) int {
	t.Helper()
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if b.Instrs[i].Reads() {
			return i
		}
	}
	t.Fatalf("no read in %s", b.Label)
	return -1
}

// sources returns the instructions of the definitions reaching the read b.Instrs[i], nil for
// the initial value.
func sources(r *cytron.Result, b *ssa.Block, i int) map[*ssa.Instr]bool {
	out := make(map[*ssa.Instr]bool)
	for _, d := range r.Sources(r.Read(b, i)) {
		out[d.Instr] = true
	}
	return out
}

func TestDiamond(t *testing.T) {
	fn := ssa.NewFunction("diamond", at)
	x := fn.NewBinding("x", ssa.Let, at)
	e := fn.Entry()
	then, els, join := fn.NewBlock("then"), fn.NewBlock("else"), fn.NewBlock("join")
	e.If(cond(e), then, els)
	then.Store(x, at, cond(then))
	then.Goto(join)
	els.Store(x, at, cond(els))
	els.Goto(join)
	join.Load(x, at)
	join.Return(ssa.NoTemp)
	finish(t, fn)

	r := cytron.Build(fn)
	if r.Phis[x] != 1 || len(r.PhisIn(join)) != 1 {
		t.Fatalf("want one φ of x, at the join; got %v", r.Phis)
	}
	p := r.PhisIn(join)[0]
	if d := r.Read(join, 0); d.Phi != p {
		t.Errorf("the read sees %+v, want the φ", d)
	}
	for i, pred := range join.Preds {
		if want := &pred.Instrs[1]; p.Operands[i].Instr != want {
			t.Errorf("operand %d is %+v, want the store in %s", i, p.Operands[i], pred.Label)
		}
	}
	if s := sources(r, join, 0); len(s) != 2 || !s[&then.Instrs[1]] || !s[&els.Instrs[1]] {
		t.Errorf("sources %v, want both stores", s)
	}
}

// A φ where the variable is dead afterwards is pruned; a read before any definition sees the
// initial value.
func TestPrunedAndInitial(t *testing.T) {
	fn := ssa.NewFunction("pruned", at)
	x := fn.NewBinding("x", ssa.Var, at)
	y := fn.NewBinding("y", ssa.Var, at)
	e := fn.Entry()
	then, join := fn.NewBlock("then"), fn.NewBlock("join")
	e.Load(y, at)
	e.If(cond(e), then, join)
	then.Store(x, at, cond(then))
	then.Store(y, at, cond(then))
	then.Goto(join)
	join.Load(y, at)
	join.Return(ssa.NoTemp)
	finish(t, fn)

	r := cytron.Build(fn)
	if r.Phis[x] != 0 || r.Phis[y] != 1 {
		t.Errorf("φs %v, want none for x (dead) and one for y", r.Phis)
	}
	if d := r.Read(e, 0); !d.Initial() {
		t.Errorf("the read in the entry sees %+v, want the initial value", d)
	}
	if s := sources(r, join, lastRead(t, join)); len(s) != 2 || !s[nil] {
		t.Errorf("sources %v, want the initial value and the store", s)
	}
}

// Both arms of an If to one block: two predecessors, one definition, no φ.
func TestDuplicateEdge(t *testing.T) {
	fn := ssa.NewFunction("dup", at)
	x := fn.NewBinding("x", ssa.Let, at)
	e := fn.Entry()
	next := fn.NewBlock("next")
	e.Store(x, at, cond(e))
	e.If(cond(e), next, next)
	next.Load(x, at)
	next.Return(ssa.NoTemp)
	finish(t, fn)
	r := cytron.Build(fn)
	if r.Phis[x] != 0 || r.Read(next, 0).Instr != &e.Instrs[1] {
		t.Errorf("φs %v, read %+v; want no φ and the store", r.Phis, r.Read(next, 0))
	}
}

// twoEntryLoop is Braun et al. Fig. 4 (Wagner's thesis, Fig. 4.1): x is assigned before a loop
// that can be entered at either of its blocks, and read in both. Cytron places no φ, since the
// only definition dominates the loop; Braun's trivial-φ removal alone leaves two φs that only
// the SCC pass removes.
func twoEntryLoop(t *testing.T) (fn *ssa.Function, x *ssa.Binding, a, b *ssa.Block) {
	fn = ssa.NewFunction("fig4", at)
	x = fn.NewBinding("x", ssa.Let, at)
	e := fn.Entry()
	a, b = fn.NewBlock("a"), fn.NewBlock("b")
	exit := fn.NewBlock("exit")
	e.Store(x, at, cond(e))
	e.If(cond(e), a, b)
	a.Load(x, at)
	a.If(cond(a), b, exit)
	b.Load(x, at)
	b.If(cond(b), a, exit)
	exit.Load(x, at)
	exit.Return(ssa.NoTemp)
	finish(t, fn)
	return fn, x, a, b
}

func TestTwoEntryLoop(t *testing.T) {
	fn, x, a, b := twoEntryLoop(t)
	r := cytron.Build(fn)
	def := &fn.Entry().Instrs[1]
	if r.Phis[x] != 0 || r.Read(a, 0).Instr != def || r.Read(b, 0).Instr != def {
		t.Errorf("φs %v; want none, and every read seeing the one store", r.Phis)
	}
	if err := ssa.Build(fn); err != nil {
		t.Fatal(err)
	}
	ssatest.Check(t, fn)
}

// The same loop with x also assigned in one of its blocks needs φs at both.
func TestTwoEntryLoopWithDef(t *testing.T) {
	fn := ssa.NewFunction("fig4def", at)
	x := fn.NewBinding("x", ssa.Let, at)
	e := fn.Entry()
	a, b, exit := fn.NewBlock("a"), fn.NewBlock("b"), fn.NewBlock("exit")
	e.Store(x, at, cond(e))
	e.If(cond(e), a, b)
	a.Load(x, at)
	a.If(cond(a), b, exit)
	b.Load(x, at)
	b.Store(x, at, cond(b))
	b.If(cond(b), a, exit)
	exit.Load(x, at)
	exit.Return(ssa.NoTemp)
	finish(t, fn)
	r := cytron.Build(fn)
	if r.Phis[x] != 3 || len(r.PhisIn(a)) != 1 || len(r.PhisIn(b)) != 1 || len(r.PhisIn(exit)) != 1 {
		t.Errorf("φs %v; want one at a, b and the exit", r.Phis)
	}
	if err := ssa.Build(fn); err != nil {
		t.Fatal(err)
	}
	ssatest.Check(t, fn)
}

// Build reads the function and nothing else: the printed form is the same after it, whether
// or not ssa.Build ran before, and so is its answer.
func TestDoesNotModify(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		fn := ssatest.RandomFunction(rng, ssatest.RandomOptions(rng, 30))
		before := fn.String()
		unbuilt := cytron.Build(fn)
		if after := fn.String(); after != before {
			t.Fatalf("cytron.Build changed an unbuilt function:\n%s\nto\n%s", before, after)
		}
		if err := ssa.Build(fn); err != nil {
			t.Fatal(err)
		}
		before = fn.String()
		built := cytron.Build(fn)
		if after := fn.String(); after != before {
			t.Fatalf("cytron.Build changed a built function:\n%s\nto\n%s", before, after)
		}
		for _, b := range fn.Blocks {
			if len(unbuilt.PhisIn(b)) != len(built.PhisIn(b)) {
				t.Fatalf("bb%d: %d φs before ssa.Build, %d after\n%s", b.ID, len(unbuilt.PhisIn(b)), len(built.PhisIn(b)), fn)
			}
			for i := range b.Instrs {
				u, v := unbuilt.Read(b, i), built.Read(b, i)
				if u.Instr != v.Instr || (u.Phi == nil) != (v.Phi == nil) {
					t.Fatalf("bb%d: read %d sees %+v before ssa.Build, %+v after\n%s", b.ID, i, u, v, fn)
				}
			}
		}
	}
}

// benchmarkCytron measures the reference builder as ssa's benchmarks measure ssa.Build.
func benchmarkCytron(b *testing.B, make func() *ssa.Function) {
	ssatest.BenchmarkPerBlock(b, make, func(fn *ssa.Function) { cytron.Build(fn) })
}

// BenchmarkCytronIfChain is the family of ssa's BenchmarkBuildIfChain: n sequential
// `if (c) x = …`, then a read.
func BenchmarkCytronIfChain(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchmarkCytron(b, func() *ssa.Function { return ssatest.IfChain(n) }) })
	}
}

func BenchmarkCytronNestedLoops(b *testing.B) {
	for _, depth := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) { benchmarkCytron(b, func() *ssa.Function { return ssatest.NestedLoops(depth) }) })
	}
}

// BenchmarkCytronMinimizeWorstCase is linear: Cytron never places the φs that Braun's
// construction has to find redundant.
func BenchmarkCytronMinimizeWorstCase(b *testing.B) {
	for _, phis := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("phis=%d", phis), func(b *testing.B) {
			benchmarkCytron(b, func() *ssa.Function { return ssatest.MinimizeWorstCase(phis) })
		})
	}
}
