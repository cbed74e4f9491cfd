package analysis

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/ssalens/ssalens/lower"
	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/treesitter"
)

// Result is the analysis of one source file.
type Result struct {
	Src   []byte
	Lines *Lines
	File  *lower.File
	// Funcs are all functions of the file, the top level first, parents before children.
	Funcs []*ssa.Function
	// Occurrences are the places of local and global variables, sorted by Span.Start.
	Occurrences []Occurrence
	// Joins are the points where φs are shown, sorted by At.
	Joins []Join
	// Captured lists, for values read from nested functions, the places that read them there.
	Captured map[*ssa.Value][]*ssa.Place
	// Skipped says why the file is not analyzed at all, if it is not.
	Skipped string

	single map[*ssa.Binding]*ssa.Value // the definition of each binding defined once
}

// MaxSize is the size of the largest source analyzed. Analysis takes about 80 times the
// source size in memory (a 9 MB file takes 0.7 GB); a larger file is left alone.
const MaxSize = 32 << 20

// tooLarge returns the result for a source larger than MaxSize: nothing but the reason.
func tooLarge(src []byte) *Result {
	return &Result{Src: src, Lines: NewLines(src),
		Skipped: fmt.Sprintf("the file is not analyzed: it has %.1f MiB, more than the %d MiB ssalens analyzes", float64(len(src))/(1<<20), MaxSize>>20)}
}

// Occurrence is one place of a variable in the source. Read is the value it reads and Write
// the value it defines; both are set for `x += 1` and `i++`, and neither for a variable that
// is not renamed (a global, a context variable, a function that is not analyzed, dead code).
type Occurrence struct {
	Span    ssa.Span
	Binding *ssa.Binding
	Func    *ssa.Function
	Read    *ssa.Value
	Write   *ssa.Value
	Assigns bool // the occurrence assigns the variable, renamed or not
}

// Join is a point where control flow merges and φs are shown.
type Join struct {
	At    int32 // offset where the φs are shown
	Loop  bool  // a loop header: shown at the end of the loop's first line
	Block *ssa.Block
}

// Analyze parses, lowers and builds src. Functions that cannot be analyzed keep a reason in
// NotAnalyzed; the others are in SSA form.
func Analyze(src []byte) (*Result, error) {
	if len(src) > MaxSize {
		return tooLarge(src), nil
	}
	tree, err := treesitter.Parse(treesitter.JavaScript, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	return analyzeTree(tree, nil, treesitter.Edit{}), nil
}

// analyzeTree analyzes tree; if prev is the analysis of an earlier version that edit turned
// into tree's source, the functions it does not touch are copied from it.
func analyzeTree(tree *treesitter.Tree, prev *Result, edit treesitter.Edit) *Result {
	var file *lower.File
	if prev != nil && prev.File != nil {
		file = lower.LowerFrom(tree, prev.File, edit)
	} else {
		file = lower.Lower(tree)
	}
	r := &Result{Src: tree.Src, Lines: NewLines(tree.Src), File: file, Funcs: file.Funcs}
	buildAll(file.Funcs)
	r.index()
	return r
}

// buildAll builds the functions that can be analyzed, on every processor: once lowered,
// functions are independent of each other.
func buildAll(funcs []*ssa.Function) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(funcs)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(funcs)); i = next.Add(1) - 1 {
				fn := funcs[i]
				if fn.NotAnalyzed != "" || fn.Built() {
					continue
				}
				if err := ssa.Build(fn); err != nil {
					fn.NotAnalyzed = fmt.Sprintf("internal error: %v", err)
				}
			}
		})
	}
	wg.Wait()
}

func (r *Result) index() {
	r.single = singleDefinitions(r.Funcs)
	single := r.single
	closures := newClosureSites(r.Funcs)
	r.Captured = make(map[*ssa.Value][]*ssa.Place)
	for _, fn := range r.Funcs {
		for _, b := range fn.Blocks {
			for i := range b.Instrs {
				in := &b.Instrs[i]
				if in.Place.Binding == nil || in.Op == ssa.OpUninit {
					continue
				}
				p := &in.Place
				v := p.Value
				if v == nil && fn.NotAnalyzed == "" && capturedRead(fn, in) {
					if v = single[p.Binding]; v != nil && !closures.definedBefore(v, fn) {
						v = nil
					}
					if v != nil {
						r.Captured[v] = append(r.Captured[v], p)
					}
				}
				r.addOccurrence(Occurrence{Span: p.Span, Binding: p.Binding, Func: fn, Assigns: in.Defines()}, in.Reads(), v)
			}
			if len(b.Phis) > 0 {
				r.Joins = append(r.Joins, Join{At: b.Anchor.End, Loop: b.LoopHeader, Block: b})
			}
		}
	}
	r.sortOccurrences()
	r.mergeReadWrites()
	slices.SortStableFunc(r.Joins, func(a, b Join) int { return cmp.Compare(a.At, b.At) })
}

// sortOccurrences orders the occurrences by offset, keeping the order of lowering for equal
// offsets. It sorts indices rather than the occurrences themselves, which hold pointers and
// are costly to move.
func (r *Result) sortOccurrences() {
	occ := r.Occurrences
	order := make([]int32, len(occ))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(occ[a].Span.Start, occ[b].Span.Start); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	sorted := make([]Occurrence, len(occ))
	for i, j := range order {
		sorted[i] = occ[j]
	}
	r.Occurrences = sorted
}

func (r *Result) addOccurrence(o Occurrence, read bool, v *ssa.Value) {
	if read {
		o.Read = v
	} else {
		o.Write = v
	}
	r.Occurrences = append(r.Occurrences, o)
}

// mergeReadWrites joins the read and the write of one occurrence (x += 1) into one.
func (r *Result) mergeReadWrites() {
	out := r.Occurrences[:0]
	for _, o := range r.Occurrences {
		if n := len(out); n > 0 && out[n-1].Span == o.Span && out[n-1].Binding == o.Binding {
			last := &out[n-1]
			if last.Read == nil {
				last.Read = o.Read
			}
			if last.Write == nil {
				last.Write = o.Write
			}
			last.Assigns = last.Assigns || o.Assigns
			continue
		}
		out = append(out, o)
	}
	r.Occurrences = out
}

func capturedRead(fn *ssa.Function, in *ssa.Instr) bool {
	b := in.Place.Binding
	return in.Reads() && b.Kind != ssa.Global && !b.Context && b.Owner != fn && b.Owner != nil && b.Owner.NotAnalyzed == ""
}

// singleDefinitions maps each binding that has exactly one definition in its owner to it.
func singleDefinitions(funcs []*ssa.Function) map[*ssa.Binding]*ssa.Value {
	defs := make(map[*ssa.Binding]*ssa.Value)
	for _, fn := range funcs {
		for _, v := range fn.Values {
			if v.Kind != ssa.ValueDef && v.Kind != ssa.ValueParam {
				continue
			}
			if _, seen := defs[v.Binding]; seen {
				defs[v.Binding] = nil
			} else {
				defs[v.Binding] = v
			}
		}
	}
	return defs
}

// At returns the index of the occurrence whose span contains or ends at off, or -1.
func (r *Result) At(off int32) int {
	i := sort.Search(len(r.Occurrences), func(i int) bool { return r.Occurrences[i].Span.End >= off })
	if i < len(r.Occurrences) && r.Occurrences[i].Span.Start <= off {
		return i
	}
	return -1
}

func sortPlaces(ps []*ssa.Place) {
	slices.SortFunc(ps, func(a, b *ssa.Place) int { return cmp.Compare(a.Span.Start, b.Span.Start) })
}
