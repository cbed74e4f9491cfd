package ssa

import (
	"fmt"
	"io"
	"strings"
)

// String returns the printed form of fn (see Fprint).
func (fn *Function) String() string {
	var sb strings.Builder
	Fprint(&sb, fn)
	return sb.String()
}

// Fprint writes fn in the style of React Compiler's printed HIR: each block with its
// predecessors, its φs as `x$3: phi(bb1: x$1, bb2: x$2)`, its numbered instructions and its
// terminal. Renamed occurrences print as name$version, versions counting per variable: a
// variable of fn named as one declared before it (a let that shadows another in a block) prints
// with a prime for each, x'$1. The others say why they are not renamed through the op's name
// (LoadGlobal, LoadContext, LoadCapture). Nested functions are not printed.
// A function that is not analyzed prints as its name and the kind of the reason; package
// analysis words the reason for users.
func Fprint(w io.Writer, fn *Function) {
	fmt.Fprintf(w, "function %s\n", fn.Name)
	if !fn.Analyzed() {
		fmt.Fprintf(w, "  not analyzed: %s\n", fn.NotAnalyzed.Kind)
		return
	}
	name := valueNames(fn)
	n := 0
	for _, b := range fn.Blocks {
		fmt.Fprintf(w, "bb%d (%s):\n", b.ID, b.Label)
		if len(b.Preds) > 0 {
			ids := make([]string, len(b.Preds))
			for i, p := range b.Preds {
				ids[i] = fmt.Sprintf("bb%d", p.ID)
			}
			fmt.Fprintf(w, "  predecessors: %s\n", strings.Join(ids, ", "))
		}
		for _, p := range b.Phis {
			ops := make([]string, len(p.Operands))
			for i, op := range p.Operands {
				ops[i] = fmt.Sprintf("bb%d: %s", b.Preds[i].ID, name(op))
			}
			fmt.Fprintf(w, "  %s: phi(%s)\n", name(p.Value), strings.Join(ops, ", "))
		}
		for i := range b.Instrs {
			fmt.Fprintf(w, "  [%d] %s\n", n, fn.InstrText(&b.Instrs[i], name))
			n++
		}
		fmt.Fprintf(w, "  %s\n", b.Term.String())
	}
}

// String returns name$version.
func (v *Value) String() string { return fmt.Sprintf("%s$%d", v.Binding.Name, v.Version) }

// valueNames returns how Fprint names the values of fn's variables (see Fprint).
func valueNames(fn *Function) func(*Value) string {
	primes := make(map[*Binding]string)
	named := make(map[string]int)
	for _, b := range fn.Bindings {
		if b.Owner == fn {
			primes[b] = strings.Repeat("'", named[b.Name])
			named[b.Name]++
		}
	}
	return func(v *Value) string { return fmt.Sprintf("%s%s$%d", v.Binding.Name, primes[v.Binding], v.Version) }
}

func (t Temp) String() string { return fmt.Sprintf("$%d", t) }

func temps(ts []Temp) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

// placeOp names a Place instruction after what happens to the binding in fn, and its value
// with value.
func (fn *Function) placeOp(in *Instr, value func(*Value) string) (op, name string) {
	verb := "Load"
	if in.Op == OpStoreLocal {
		verb = "Store"
	}
	b := in.Place.Binding
	switch {
	case in.Place.Value != nil:
		return in.Op.String(), value(in.Place.Value)
	case b.Kind == Global:
		return verb + "Global", b.Name
	case b.Context():
		return verb + "Context", b.Name
	case b.Owner != fn:
		return verb + "Capture", b.Name
	}
	return in.Op.String(), b.Name
}

// InstrText renders in as Fprint does, each value of a variable as value names it.
func (fn *Function) InstrText(in *Instr, value func(*Value) string) string {
	var rhs string
	switch in.Op {
	case OpParam:
		if in.Place.Binding == nil {
			return fmt.Sprintf("%s = Param", in.Dest)
		}
		_, name := fn.placeOp(in, value)
		return "Param " + name
	case OpLoadLocal:
		op, name := fn.placeOp(in, value)
		rhs = op + " " + name
	case OpUninit:
		return "Uninit " + in.Place.Binding.Name
	case OpStoreLocal:
		op, name := fn.placeOp(in, value)
		rhs = fmt.Sprintf("%s %s = %s", op, name, in.Args[0])
	case OpCopy:
		rhs = in.Args[0].String()
	case OpConst:
		rhs = "Const " + in.Text
	case OpUndefined:
		rhs = "Const undefined"
	case OpUnary:
		rhs = fmt.Sprintf("Unary %s %s", in.Operator, in.Args[0])
	case OpBinary:
		rhs = fmt.Sprintf("Binary %s %s %s", in.Args[0], in.Operator, in.Args[1])
	case OpCall, OpNew:
		rhs = fmt.Sprintf("%s %s(%s)", in.Op, in.Args[0], temps(in.Args[1:]))
	case OpProperty:
		rhs = fmt.Sprintf("PropertyLoad %s.%s", in.Args[0], in.Text)
	case OpSetProperty:
		rhs = fmt.Sprintf("PropertyStore %s.%s = %s", in.Args[0], in.Text, in.Args[1])
	case OpIndex:
		rhs = fmt.Sprintf("IndexLoad %s[%s]", in.Args[0], in.Args[1])
	case OpSetIndex:
		rhs = fmt.Sprintf("IndexStore %s[%s] = %s", in.Args[0], in.Args[1], in.Args[2])
	case OpFunction:
		rhs = "Function " + in.Text
	case OpIntrinsic:
		name := in.Text
		if name == "" {
			name = in.Intrinsic.String()
		}
		rhs = fmt.Sprintf("%s(%s)", name, temps(in.Args))
	}
	if in.Dest == NoTemp {
		return rhs
	}
	return fmt.Sprintf("%s = %s", in.Dest, rhs)
}

func (t *Terminal) String() string {
	switch t.Kind {
	case TermGoto:
		return fmt.Sprintf("Goto bb%d", t.Succs[0].ID)
	case TermIf:
		return fmt.Sprintf("If %s then bb%d else bb%d", t.Arg, t.Succs[0].ID, t.Succs[1].ID)
	case TermSwitch:
		cases := make([]string, 0, len(t.Succs))
		for i, c := range t.Cases {
			cases = append(cases, fmt.Sprintf("case %s: bb%d", c, t.Succs[i].ID))
		}
		cases = append(cases, fmt.Sprintf("default: bb%d", t.Succs[len(t.Succs)-1].ID))
		return fmt.Sprintf("Switch %s [%s]", t.Arg, strings.Join(cases, ", "))
	case TermMaybeThrow:
		return fmt.Sprintf("MaybeThrow then bb%d handler bb%d", t.Succs[0].ID, t.Succs[1].ID)
	case TermThrow:
		if len(t.Succs) > 0 {
			return fmt.Sprintf("Throw %s handler bb%d", t.Arg, t.Succs[0].ID)
		}
		return fmt.Sprintf("Throw %s", t.Arg)
	case TermReturn:
		if t.Arg == NoTemp {
			return t.Kind.String()
		}
		return fmt.Sprintf("%s %s", t.Kind, t.Arg)
	}
	return t.Kind.String()
}
