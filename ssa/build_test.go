package ssa_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// parseCFG reads a CFG written one block a line, `label: item; item; …; terminal`, where an
// item is `param x`, `def x` or `use x`, and the terminal is `goto L`, `if L1 L2`,
// `switch L1 L2 …` (the last target is the default), `try L1 L2` (MaybeThrow), `return` or
// `throw`. Names are let bindings, except those listed on a leading `globals: g h` line.
func parseCFG(t testing.TB, src string) *ssa.Function {
	t.Helper()
	fn := ssa.NewFunction("f", ssa.Span{})
	bindings := map[string]*ssa.Binding{}
	blocks := map[string]*ssa.Block{}
	binding := func(name string) *ssa.Binding {
		if b, ok := bindings[name]; ok {
			return b
		}
		b := fn.NewBinding(name, ssa.Let, ssa.Span{})
		bindings[name] = b
		return b
	}
	type line struct {
		label string
		items []string
	}
	var lines []line
	for _, text := range strings.Split(strings.TrimSpace(src), "\n") {
		label, rest, ok := strings.Cut(strings.TrimSpace(text), ":")
		if !ok {
			t.Fatalf("no label in %q", text)
		}
		if label == "globals" {
			for _, g := range strings.Fields(rest) {
				bindings[g] = ssa.NewGlobal(g)
			}
			continue
		}
		var items []string
		for _, it := range strings.Split(rest, ";") {
			items = append(items, strings.TrimSpace(it))
		}
		lines = append(lines, line{label, items})
		if len(blocks) == 0 {
			blocks[label] = fn.Blocks[0]
			fn.Blocks[0].Label = label
		} else {
			blocks[label] = fn.NewBlock(label)
		}
	}
	target := func(label string) *ssa.Block {
		b, ok := blocks[label]
		if !ok {
			t.Fatalf("no block %q", label)
		}
		return b
	}
	for _, l := range lines {
		b := blocks[l.label]
		for i, it := range l.items {
			f := strings.Fields(it)
			if i == len(l.items)-1 {
				switch f[0] {
				case "goto":
					b.Goto(target(f[1]))
				case "if":
					b.If(b.Emit(ssa.OpConst, "cond", ssa.Span{}), target(f[1]), target(f[2]))
				case "switch":
					var succs []*ssa.Block
					var cases []ssa.Temp
					for _, l := range f[1:] {
						succs = append(succs, target(l))
					}
					d := b.Emit(ssa.OpConst, "d", ssa.Span{})
					for range succs[1:] {
						cases = append(cases, b.Emit(ssa.OpConst, "case", ssa.Span{}))
					}
					b.Switch(d, cases, succs)
				case "try":
					b.MaybeThrow(target(f[1]), target(f[2]))
				case "return":
					b.Return(ssa.NoTemp)
				case "throw":
					b.Throw(b.Emit(ssa.OpConst, "error", ssa.Span{}), nil)
				default:
					t.Fatalf("bad terminal %q", it)
				}
				continue
			}
			switch f[0] {
			case "param":
				b.Param(binding(f[1]), ssa.Span{})
			case "def":
				b.Store(binding(f[1]), ssa.Span{}, b.Emit(ssa.OpConst, "0", ssa.Span{}))
			case "use":
				b.Load(binding(f[1]), ssa.Span{})
			default:
				t.Fatalf("bad item %q", it)
			}
		}
	}
	if err := fn.Finish(); err != nil {
		t.Fatal(err)
	}
	return fn
}

// renderCFG prints a built function in parseCFG's notation, with versions on renamed
// occurrences and each block's φs first.
func renderCFG(fn *ssa.Function) string {
	var sb strings.Builder
	for _, b := range fn.Blocks {
		var items []string
		for _, p := range b.Phis {
			ops := make([]string, len(p.Operands))
			for i, op := range p.Operands {
				ops[i] = op.String()
			}
			items = append(items, fmt.Sprintf("%s = phi(%s)", p.Value, strings.Join(ops, ", ")))
		}
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if in.Place.Binding == nil {
				continue
			}
			name := in.Place.Binding.Name
			if in.Place.Value != nil {
				name = in.Place.Value.String()
			}
			verb := map[ssa.Op]string{ssa.OpParam: "param", ssa.OpStoreLocal: "def", ssa.OpLoadLocal: "use"}[in.Op]
			items = append(items, verb+" "+name)
		}
		items = append(items, renderTerm(&b.Term))
		fmt.Fprintf(&sb, "%s: %s\n", b.Label, strings.Join(items, "; "))
	}
	return sb.String()
}

func renderTerm(t *ssa.Terminal) string {
	labels := []string{map[ssa.TermKind]string{ssa.TermGoto: "goto", ssa.TermIf: "if", ssa.TermSwitch: "switch",
		ssa.TermMaybeThrow: "try", ssa.TermReturn: "return", ssa.TermThrow: "throw"}[t.Kind]}
	for _, s := range t.Succs {
		labels = append(labels, s.Label)
	}
	return strings.Join(labels, " ")
}

func TestBuild(t *testing.T) {
	tests := []struct {
		name, cfg, want string
	}{{
		name: "straight line",
		cfg: `
entry: param c; def x; use x; def x; use x; use c; return`,
		want: `
entry: param c$1; def x$1; use x$1; def x$2; use x$2; use c$1; return`,
	}, {
		name: "if else",
		cfg: `
entry: def x; if then else
then: def x; goto join
else: def x; goto join
join: use x; return`,
		want: `
entry: def x$1; if then else
then: def x$2; goto join
else: def x$3; goto join
join: x$4 = phi(x$2, x$3); use x$4; return`,
	}, {
		name: "if without else",
		cfg: `
entry: def x; if then join
then: def x; goto join
join: use x; return`,
		want: `
entry: def x$1; if then join
then: def x$2; goto join
join: x$3 = phi(x$1, x$2); use x$3; return`,
	}, {
		name: "assignment on one path is unused without a read",
		cfg: `
entry: def x; if then join
then: def x; goto join
join: return`,
		want: `
entry: def x$1; if then join
then: def x$2; goto join
join: return`,
	}, {
		name: "while",
		cfg: `
entry: def i; goto head
head: use i; if body exit
body: use i; def i; goto head
exit: use i; return`,
		want: `
entry: def i$1; goto head
head: i$2 = phi(i$1, i$3); use i$2; if body exit
body: use i$2; def i$3; goto head
exit: use i$2; return`,
	}, {
		name: "do while",
		cfg: `
entry: def i; goto body
body: use i; def i; goto test
test: use i; if body exit
exit: use i; return`,
		want: `
entry: def i$1; goto body
body: i$2 = phi(i$1, i$3); use i$2; def i$3; goto test
test: use i$3; if body exit
exit: use i$3; return`,
	}, {
		name: "loop that never writes the variable has no phi",
		cfg: `
entry: def x; def i; goto head
head: use i; if body exit
body: use x; def i; goto head
exit: use x; return`,
		want: `
entry: def x$1; def i$1; goto head
head: i$2 = phi(i$1, i$3); use i$2; if body exit
body: use x$1; def i$3; goto head
exit: use x$1; return`,
	}, {
		name: "nested loops",
		cfg: `
entry: def x; goto outer
outer: if inner exit
inner: use x; if body latch
body: def x; goto inner
latch: goto outer
exit: use x; return`,
		want: `
entry: def x$1; goto outer
outer: x$2 = phi(x$1, x$3); if inner exit
inner: x$3 = phi(x$2, x$4); use x$3; if body latch
body: def x$4; goto inner
latch: goto outer
exit: use x$2; return`,
	}, {
		name: "break and continue to the outer loop",
		cfg: `
entry: def x; goto outer
outer: use x; if inner exit
inner: if body latch
body: def x; if brk more
brk: goto exit
more: if cont inner
cont: goto outer
latch: def x; goto outer
exit: use x; return`,
		want: `
entry: def x$1; goto outer
outer: x$2 = phi(x$1, x$3, x$4); use x$2; if inner exit
inner: if body latch
body: def x$3; if brk more
brk: goto exit
more: if cont inner
cont: goto outer
latch: def x$4; goto outer
exit: x$5 = phi(x$2, x$3); use x$5; return`,
	}, {
		name: "irreducible loop with no write inside (Braun et al. Fig. 4)",
		cfg: `
entry: def x; if a b
a: use x; if b exit
b: use x; if a exit
exit: use x; return`,
		want: `
entry: def x$1; if a b
b: use x$1; if a exit
a: use x$1; if b exit
exit: use x$1; return`,
	}, {
		name: "irreducible loop with a write inside",
		cfg: `
entry: def x; if a b
a: use x; if b exit
b: use x; def x; if a exit
exit: use x; return`,
		want: `
entry: def x$1; if a b
b: x$2 = phi(x$1, x$4); use x$2; def x$3; if a exit
a: x$4 = phi(x$1, x$3); use x$4; if b exit
exit: x$5 = phi(x$4, x$3); use x$5; return`,
	}, {
		name: "read before any definition sees version 0",
		cfg: `
entry: use x; if then join
then: def x; goto join
join: use x; return`,
		want: `
entry: use x$0; if then join
then: def x$1; goto join
join: x$2 = phi(x$0, x$1); use x$2; return`,
	}, {
		name: "global reads are not renamed",
		cfg: `
globals: console
entry: use console; def x; if then join
then: use console; goto join
join: use console; use x; return`,
		want: `
entry: use console; def x$1; if then join
then: use console; goto join
join: use console; use x$1; return`,
	}, {
		name: "switch with fallthrough",
		cfg: `
entry: def x; switch a b d
a: def x; goto b
b: use x; goto exit
d: def x; goto exit
exit: use x; return`,
		want: `
entry: def x$1; switch a b d
a: def x$2; goto b
b: x$3 = phi(x$1, x$2); use x$3; goto exit
d: def x$4; goto exit
exit: x$5 = phi(x$3, x$4); use x$5; return`,
	}, {
		name: "handler sees every state of the try body",
		cfg: `
entry: def x; try t1 catch
t1: def x; try t2 catch
t2: def x; goto after
catch: use x; goto after
after: use x; return`,
		want: `
entry: def x$1; try t1 catch
t1: def x$2; try t2 catch
t2: def x$3; goto after
catch: x$4 = phi(x$1, x$2); use x$4; goto after
after: x$5 = phi(x$3, x$4); use x$5; return`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := parseCFG(t, tt.cfg)
			if err := ssa.Build(fn); err != nil {
				t.Fatal(err)
			}
			ssatest.Check(t, fn)
			got := renderCFG(fn)
			if want := strings.TrimSpace(tt.want) + "\n"; got != want {
				t.Errorf("got\n%swant\n%s", got, want)
			}
		})
	}
}
