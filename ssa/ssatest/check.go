// Package ssatest helps test and benchmark SSA construction: Check compares a function built by
// ssa.Build with the reference builder of package cytron, RandomFunction generates random CFGs,
// and IfChain, NestedLoops and MinimizeWorstCase generate the families the benchmarks use.
package ssatest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/cytron"
)

// Check reports, as a test error with the printed function, whatever Validate finds wrong with
// fn.
func Check(t testing.TB, fn *ssa.Function) {
	t.Helper()
	if err := Validate(fn); err != nil {
		t.Errorf("%v\n%s", err, fn)
	}
}

// Validate checks a function that ssa.Build has built: ssa.Verify must accept it, and it must
// have the φs that cytron.Build places, block by block, and every read of a renamed binding must
// see the same definitions (other than φs) through the φ web as in cytron's SSA. Of a function
// that is not analyzed, only what ssa.Verify checks in it is checked.
//
// When the φs agree, the two SSA forms are compared edge by edge: every read and φ operand must
// refer to the corresponding definition (the same instruction, the φ at the same block, or the
// initial value). That implies the same definitions reach every read, and takes linear time,
// where comparing the sets themselves would be quadratic on a chain of joins. The sets are only
// computed to explain a difference.
func Validate(fn *ssa.Function) error {
	if err := ssa.Verify(fn); err != nil || !fn.Analyzed() {
		return err
	}
	ref := cytron.Build(fn)
	var errs []error
	for _, b := range fn.Blocks {
		errs = append(errs, comparePhis(b, ref)...)
	}
	errs = append(errs, compareCounts(fn, ref)...)
	if len(errs) > 0 {
		return errors.Join(append(errs, compareReachingSets(fn, ref)...)...)
	}
	// The φs agree, so each of Build's φs has its peer in Cytron's SSA.
	type site struct {
		block   *ssa.Block
		binding *ssa.Binding
	}
	refPhis := make(map[site]*cytron.Phi)
	cmp := comparer{ref: ref, phis: make(map[*cytron.Phi]*ssa.Value)}
	for _, b := range fn.Blocks {
		for _, p := range ref.PhisIn(b) {
			refPhis[site{b, p.Binding}] = p
		}
		for _, p := range b.Phis {
			cmp.phis[refPhis[site{b, p.Value.Binding}]] = p.Value
		}
	}
	for _, b := range fn.Blocks {
		for _, p := range b.Phis {
			want := refPhis[site{b, p.Value.Binding}]
			for i, op := range p.Operands {
				if !cmp.same(op, want.Operands[i]) {
					errs = append(errs, fmt.Errorf("%s: bb%d: operand %d of φ %s is %s; in Cytron's SSA, %s\n%s",
						fn.Name, b.ID, i, p.Value, op, cmp.name(want.Operands[i]), cmp.reaching(op, want.Operands[i])))
				}
			}
		}
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if !in.Reads() || in.Place.Value == nil {
				continue
			}
			if want := ref.Read(b, i); !cmp.same(in.Place.Value, want) {
				errs = append(errs, fmt.Errorf("%s: bb%d: a read of %s sees %s; in Cytron's SSA, %s\n%s",
					fn.Name, b.ID, in.Place.Binding.Name, in.Place.Value, cmp.name(want), cmp.reaching(in.Place.Value, want)))
			}
		}
	}
	return errors.Join(errs...)
}

// comparer matches the definitions of ssa.Build's SSA with cytron's.
type comparer struct {
	ref  *cytron.Result
	phis map[*cytron.Phi]*ssa.Value // cytron's φs and ssa.Build's at the same block
}

// same reports whether v is the definition d.
func (c *comparer) same(v *ssa.Value, d cytron.Def) bool {
	switch {
	case d.Phi != nil:
		return v == c.phis[d.Phi]
	case d.Instr != nil:
		return v.Instr == d.Instr
	}
	return v.Kind == ssa.ValueInitial
}

// name describes d by ssa.Build's names.
func (c *comparer) name(d cytron.Def) string {
	switch {
	case d.Phi != nil:
		return fmt.Sprintf("the φ in bb%d", d.Phi.Block.ID)
	case d.Instr != nil:
		return d.Instr.Place.Value.String()
	}
	return "the initial value"
}

// reaching explains a difference by the definitions that reach through the φ webs.
func (c *comparer) reaching(v *ssa.Value, d cytron.Def) string {
	return fmt.Sprintf("\tthrough φs, %s; in Cytron's SSA, %s",
		defNames(v.Binding, sourcesOf(v)), defNames(v.Binding, refSources(c.ref, d)))
}

// refSources is sourcesOf for cytron's SSA.
func refSources(ref *cytron.Result, d cytron.Def) map[*ssa.Instr]bool {
	out := make(map[*ssa.Instr]bool)
	for _, s := range ref.Sources(d) {
		out[s.Instr] = true
	}
	return out
}

// compareReachingSets compares, for every read, the definitions that reach it through the φ
// webs of the two SSA forms; it explains differences in where the φs are.
func compareReachingSets(fn *ssa.Function, ref *cytron.Result) []error {
	var errs []error
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if !in.Reads() || in.Place.Value == nil {
				continue
			}
			got, want := sourcesOf(in.Place.Value), refSources(ref, ref.Read(b, i))
			if !maps.Equal(got, want) {
				errs = append(errs, fmt.Errorf("%s: bb%d: a read of %s sees %s through φs; in Cytron's SSA, %s",
					fn.Name, b.ID, in.Place.Binding.Name, defNames(in.Place.Binding, got), defNames(in.Place.Binding, want)))
			}
		}
	}
	return errs
}

// comparePhis compares the bindings b has φs for with those cytron placed there.
func comparePhis(b *ssa.Block, ref *cytron.Result) []error {
	var got, want []*ssa.Binding
	for _, p := range b.Phis {
		got = append(got, p.Value.Binding)
	}
	for _, p := range ref.PhisIn(b) {
		want = append(want, p.Binding)
	}
	byID := func(x, y *ssa.Binding) int { return int(x.ID - y.ID) }
	slices.SortFunc(got, byID)
	slices.SortFunc(want, byID)
	if slices.Equal(got, want) {
		return nil
	}
	return []error{fmt.Errorf("%s: bb%d: φs for %s; Cytron places φs for %s", b.Func.Name, b.ID, bindingNames(got), bindingNames(want))}
}

func bindingNames(bs []*ssa.Binding) string {
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Name
	}
	return "[" + strings.Join(names, " ") + "]"
}

// compareCounts compares the number of φs of each binding, the figure Cytron's and Braun's
// papers report; comparePhis has already said where they differ.
func compareCounts(fn *ssa.Function, ref *cytron.Result) []error {
	got := make(map[*ssa.Binding]int)
	for _, b := range fn.Blocks {
		for _, p := range b.Phis {
			got[p.Value.Binding]++
		}
	}
	var errs []error
	for _, binding := range fn.Bindings {
		if got[binding] != ref.Phis[binding] {
			errs = append(errs, fmt.Errorf("%s: %d φs for %s; Cytron places %d", fn.Name, got[binding], binding.Name, ref.Phis[binding]))
		}
	}
	return errs
}

// sourcesOf returns the instructions of the definitions other than φs that reach v through
// the φ web, nil standing for the initial value.
func sourcesOf(v *ssa.Value) map[*ssa.Instr]bool {
	out := make(map[*ssa.Instr]bool)
	for _, s := range ssa.Sources(v) {
		out[s.Instr] = true
	}
	return out
}

// defNames prints definitions by the values ssa.Build gave them.
func defNames(binding *ssa.Binding, defs map[*ssa.Instr]bool) string {
	names := make([]string, 0, len(defs))
	for in := range defs {
		if in == nil {
			names = append(names, binding.Name+"$0")
		} else {
			names = append(names, in.Place.Value.String())
		}
	}
	slices.Sort(names)
	return "{" + strings.Join(names, ", ") + "}"
}
