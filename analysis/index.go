package analysis

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/ssalens/ssalens/ssa"
)

// The index of occurrences. Answers find variables by place: the hints of a range, the
// occurrence under the cursor, every occurrence of a variable. The places are in the
// functions' instructions, in lowering order; an index lists them in source order.
//
// Indexing a whole file costs about an eighth of a keystroke, and most keystrokes need only
// their hints and diagnostics: the hints of the lines on screen, and diagnostics that read the
// instructions. So a version indexes the whole file the first time an answer needs all of it
// (indexed: highlights and the stores of a variable not renamed, the code lens, annotate), and
// until then an answer about a range or a place indexes the functions around it alone
// (indexOver), in the same order, until those partial indexes have cost what the whole one
// does. A Result moved from an older analysis (moved.go) answers from that one's index, moved
// (movedIndex). The reads of captured values that hover lists come from the lowering's own
// record of them, searched for the value asked about (capturedReadsOf).

// index lists occurrences and joins in source order.
type index struct {
	// occurrences are the places of local and global variables, sorted by Span.Start.
	occurrences []Occurrence
	// joins are the points where φs are shown, sorted by At.
	joins []Join
}

// indexed returns the index of the whole file, made the first time it is needed.
func (r *Result) indexed() *index {
	r.indexOnce.Do(func() {
		if r.moving != nil {
			occurrences, joins := r.movedIndex(math.MinInt32, math.MaxInt32)
			r.whole.Store(&index{occurrences, joins})
		} else if r.whole.Load() == nil {
			r.whole.Store(r.indexOf(r.Funcs, r.instrs, math.MinInt32, math.MaxInt32))
		}
	})
	return r.whole.Load()
}

// Occurrences returns the places of local and global variables in the file, sorted by
// Span.Start.
func (r *Result) Occurrences() []Occurrence { return r.indexed().occurrences }

// indexOver returns the occurrences whose spans overlap [start, end] and the joins shown in
// it: from the functions whose text overlaps the range, which hold them all, until reading
// those for answers has cost what indexing the whole file does; from the index of the whole
// file after that, so that however many answers a version gives, the work stays linear in the
// file.
func (r *Result) indexOver(start, end int32) ([]Occurrence, []Join) {
	if r.whole.Load() == nil && r.moving != nil {
		occurrences, joins := r.movedIndex(start, end)
		if r.aroundWork.Add(int64(len(occurrences))) <= r.instrs {
			return occurrences, joins
		}
	} else if r.whole.Load() == nil {
		funcs := r.around(start, end)
		instrs := instructions(funcs)
		if r.aroundWork.Add(int64(len(r.Funcs))+instrs) <= int64(len(r.Funcs))+r.instrs {
			x := r.indexOf(funcs, instrs, start, end)
			return x.occurrences, x.joins
		}
	}
	return r.indexed().over(start, end)
}

// around returns the functions whose text overlaps [start, end], in the order of r.Funcs.
func (r *Result) around(start, end int32) []*ssa.Function {
	var funcs []*ssa.Function
	for _, fn := range r.Funcs {
		if fn.Span.Start <= end && fn.Span.End >= start {
			funcs = append(funcs, fn)
		}
	}
	return funcs
}

// instructions counts the instructions of funcs, made or not (ssa.Copy).
func instructions(funcs []*ssa.Function) int64 {
	var n int64
	for _, fn := range funcs {
		n += int64(fn.NumInstrs())
	}
	return n
}

// materialize makes the bodies of the copied functions among funcs that are not made yet
// (ssa.Copy), on every processor when there are many.
func materialize(funcs []*ssa.Function) {
	if len(funcs) < 64 {
		for _, fn := range funcs {
			fn.Materialize()
		}
		return
	}
	eachFunc(funcs, func(i int) { funcs[i].Materialize() })
}

// over returns the occurrences of x whose spans overlap [start, end] and its joins shown in
// it. Occurrences do not nest, so their ends are in the order of their starts.
func (x *index) over(start, end int32) ([]Occurrence, []Join) {
	i := sort.Search(len(x.occurrences), func(i int) bool { return x.occurrences[i].Span.End >= start })
	j := i + sort.Search(len(x.occurrences)-i, func(j int) bool { return x.occurrences[i+j].Span.Start > end })
	k := sort.Search(len(x.joins), func(k int) bool { return x.joins[k].At >= start })
	l := k + sort.Search(len(x.joins)-k, func(l int) bool { return x.joins[k+l].At > end })
	return x.occurrences[i:j], x.joins[k:l]
}

// occurrenceAt returns the occurrence whose span contains or ends at off, or nil.
func (r *Result) occurrenceAt(off int32) *Occurrence {
	if occurrences, _ := r.indexOver(off, off); len(occurrences) > 0 {
		return &occurrences[0]
	}
	return nil
}

// indexOf indexes the places of funcs, which have instrs instructions, whose spans overlap
// [start, end] and the joins shown in it. funcs are in the order of r.Funcs, so that places at
// the same offset keep lowering order.
//
// Occurrences hold four pointers each, costly to write twice and to move, so the places are
// first ordered by their offsets alone (sortByStart), and each occurrence is then written
// once, where it belongs.
func (r *Result) indexOf(funcs []*ssa.Function, instrs int64, start, end int32) *index {
	x := &index{}
	if r.File == nil { // not analyzed
		return x
	}
	materialize(funcs)
	// As many places as instructions at most, without reading each instruction a second time.
	starts, places, owners := make([]int32, 0, instrs), make([]*ssa.Instr, 0, instrs), make([]int32, 0, instrs)
	for f, fn := range funcs {
		for _, b := range fn.Blocks {
			for i := range b.Instrs {
				if in := &b.Instrs[i]; in.Place.Binding != nil && in.Op != ssa.OpUninit &&
					in.Place.Span.Start <= end && in.Place.Span.End >= start {
					starts = append(starts, in.Place.Span.Start)
					places = append(places, in)
					owners = append(owners, int32(f))
				}
			}
			if len(b.Phis) > 0 && b.Anchor.End >= start && b.Anchor.End <= end {
				x.joins = append(x.joins, Join{At: b.Anchor.End, Loop: b.LoopHeader, Block: b})
			}
		}
	}
	x.occurrences = make([]Occurrence, 0, len(starts))
	for _, i := range sortByStart(starts) {
		in, fn := places[i], funcs[owners[i]]
		p := &in.Place
		v := p.Value
		// Only a variable of a function around fn can be read captured: the others need no
		// lookup.
		if owner := p.Binding.Owner; owner != nil && owner != fn {
			if def := r.File.Capture(fn, p); def != nil && def.Value != nil {
				v = def.Value
			}
		}
		x.add(Occurrence{Span: p.Span, Binding: p.Binding, Func: fn, Assigns: in.Defines()}, in.Reads(), v)
	}
	slices.SortStableFunc(x.joins, func(a, b Join) int { return cmp.Compare(a.At, b.At) })
	return x
}

// sortByStart returns the indices of starts in the order of their values, equal ones in the
// order they come in, by a radix sort, radixBits of the offset at a time: a stable comparison
// sort took a third of the index's time.
func sortByStart(starts []int32) []int32 {
	order, spare := make([]int32, len(starts)), make([]int32, len(starts))
	var last int32
	for i, s := range starts {
		order[i] = int32(i)
		last = max(last, s)
	}
	for shift := 0; shift == 0 || last>>shift != 0; shift += radixBits {
		var next [1<<radixBits + 1]int32 // next[d]: where the next index of digit d goes
		for _, i := range order {
			next[starts[i]>>shift&(1<<radixBits-1)+1]++
		}
		for d := 1; d < len(next); d++ {
			next[d] += next[d-1]
		}
		for _, i := range order {
			d := starts[i] >> shift & (1<<radixBits - 1)
			spare[next[d]] = i
			next[d]++
		}
		order, spare = spare, order
	}
	return order
}

// radixBits is how many bits of an offset each pass of sortByStart sorts by: two passes for a
// file under 4 MB, three for any other.
const radixBits = 11

// capturedReadsOf returns the places that read v, captured, in the functions nested in v's.
// They are found there alone, and a copy's bodies are made only if it has some (ssa.Copy), so
// that a hover makes few. A Result moved from an older analysis asks that one, whose functions
// it answers with: turning all of them around at the keystroke that breaks the text cost
// typescript.js 130 ms.
func (r *Result) capturedReadsOf(v *ssa.Value) []*ssa.Place {
	if r.moving != nil {
		return r.analyzed.capturedReadsOf(v)
	}
	if r.File == nil { // not analyzed
		return nil
	}
	var ps []*ssa.Place
	add := func(captures map[*ssa.Place]*ssa.Place) {
		for p, def := range captures {
			if def.Value == v {
				ps = append(ps, p)
			}
		}
	}
	if root := v.Block.Func.CopyRoot(); root != nil { // so are the functions nested in it
		add(root.Captures())
		return ps
	}
	add(r.File.Captures)
	var nested func(*ssa.Function)
	nested = func(fn *ssa.Function) {
		for _, c := range fn.Children {
			if c.CopyRoot() == c {
				ps = append(ps, c.ReadsFromOutside(v)...)
			} else {
				nested(c)
			}
		}
	}
	nested(v.Block.Func)
	return ps
}

// add appends o, reading or writing v, or joins it to the last occurrence when that is the
// other half of the same place: the write of x in x += 1, which follows its read. A read
// that follows the write of its place is left out: TypeScript's parameter property
// (constructor(private x)) is read to store this.x after the body's super call, and that
// read has no text of its own; shown at the parameter, it would read as x₂→₁.
func (x *index) add(o Occurrence, read bool, v *ssa.Value) {
	if n := len(x.occurrences); n > 0 {
		if last := &x.occurrences[n-1]; last.Span == o.Span && last.Binding == o.Binding {
			if !read && last.Write == nil {
				last.Write = v
			}
			last.Assigns = last.Assigns || o.Assigns
			return
		}
	}
	if read {
		o.Read = v
	} else {
		o.Write = v
	}
	x.occurrences = append(x.occurrences, o)
}
