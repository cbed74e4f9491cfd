package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ssalens/ssalens/lower"
	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/treesitter"
)

// Span is a half-open range of byte offsets into the source.
type Span = ssa.Span

// Language is the language of a source file, which picks its grammar.
type Language uint8

const (
	JavaScript Language = iota // JavaScript with JSX
	TypeScript                 // TypeScript without JSX, where <T>x is a type assertion
	TSX                        // TypeScript with JSX
)

func (l Language) grammar() *treesitter.Grammar {
	switch l {
	case TypeScript:
		return treesitter.TypeScript
	case TSX:
		return treesitter.TSX
	}
	return treesitter.JavaScript
}

// Options choose how a source file is analyzed.
type Options struct {
	Language Language
	// Verify runs the SSA verifier on every function built, and reports a violation as an
	// internal error of that function instead of answering from a wrong SSA form.
	Verify bool
	// MemoryLimit is the most memory, in bytes, the analysis of one document may take by
	// estimate (bytesPerNode); a document past it is not analyzed. 0: DefaultMemoryLimit.
	MemoryLimit int64
}

// DefaultMemoryLimit is the memory ceiling of a document's analysis: 4 million syntax nodes,
// about a 20 MB file of typical JavaScript (typescript.js, 9 MB, has 2 million).
const DefaultMemoryLimit = 2 << 30

// bytesPerNode is the memory a document's analysis takes per syntax node: the most any corpus
// file takes at its peak is 340 bytes of Go memory (lodash.js) with tree-sitter's own tree,
// about 95 more, kept for re-parsing. The work budgets (lower.WorkPerNode,
// ssa.BuildWorkPerUnit) bound what an odd function can take beyond it.
const bytesPerNode = 512

// overMemoryLimit returns why the analysis of a tree of nodes syntax nodes is not done if
// its estimate passes the ceiling, or "".
func (o Options) overMemoryLimit(nodes int) string {
	limit := o.MemoryLimit
	if limit <= 0 {
		limit = DefaultMemoryLimit
	}
	if estimate := int64(nodes) * bytesPerNode; estimate > limit {
		return fmt.Sprintf("the file is not analyzed: its %d syntax nodes would take about %s, more than the %s ssalens allows a document",
			nodes, mebibytes(estimate), mebibytes(limit))
	}
	return ""
}

func mebibytes(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

// Result is the analysis of one source file.
type Result struct {
	Src   []byte
	Lines *Lines
	File  *lower.File
	// Funcs are all functions of the file, the top level first, parents before children.
	Funcs []*ssa.Function
	// Skipped says why the file is not analyzed at all, if it is not.
	Skipped string

	// whole is the index of the whole file, once an answer needed it (see index.go).
	whole     atomic.Pointer[index]
	indexOnce sync.Once
	// instrs counts the instructions of Funcs, and aroundWork the functions and instructions
	// that answers read to index the functions around their ranges before whole was made
	// (indexOver).
	instrs     int64
	aroundWork atomic.Int64
	// moving is set when the functions were analyzed in an earlier text (see moved.go), and
	// analyzed is the Result that analyzed them, in the text moving's edits start from.
	moving   *moving
	analyzed *Result
	// goodBroken are the starts of the functions that a syntax error breaks in the last good
	// analysis these answers come from: r's own, unless r is moved.
	goodBroken map[int32]bool
	// brokenInText are the functions that a syntax error breaks in a moved Result's text, which
	// its own functions do not have.
	brokenInText []brokenFunc

	doms         sync.Map // *ssa.Function → *ssa.DomTree, computed when a rendering needs them
	literalTemps sync.Map // *ssa.Function → its literals (see literals)
	// funcDiags are the findings about the analyzed functions' own code (see
	// keptFuncDiagnostics), guarded by funcDiagsMu, which Diagnostics holds.
	funcDiags   map[*ssa.Function]funcDiagnostics
	funcDiagsMu sync.Mutex
}

// MaxSize is the size of the largest source analyzed. Analysis takes about 80 times the
// source size in memory (a 9 MB file takes 0.7 GB); a larger file is left alone.
const MaxSize = 32 << 20

// tooLarge returns the result for a source larger than MaxSize: nothing but the reason.
func tooLarge(src []byte, lines *Lines) *Result {
	return &Result{Src: src, Lines: lines,
		Skipped: fmt.Sprintf("the file is not analyzed: it has %.1f MiB, more than the %d MiB ssalens analyzes", float64(len(src))/(1<<20), MaxSize>>20)}
}

// Occurrence is one place of a variable in the source. Read is the value it reads and Write
// the value it defines; both are set for `x += 1` and `i++`, and neither for a variable that
// is not renamed (a global, a context variable, a function that is not analyzed, dead code).
type Occurrence struct {
	Span    Span
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

// Analyze parses, lowers and builds src; the answers that find variables by place index their
// occurrences when they need them (index.go). Functions that cannot be analyzed keep a reason
// in NotAnalyzed; the others are in SSA form.
func Analyze(src []byte, opts Options) (*Result, error) {
	r, err := lowerSource(src, opts, nil)
	if err != nil {
		return nil, err
	}
	buildAll(r.Funcs, opts.Verify, nil)
	return r, nil
}

// Checked is what Check finds in a source file: its diagnostics, and the line index that
// places them.
type Checked struct {
	Src         []byte
	Lines       *Lines
	Diagnostics []Diagnostic
}

// Check analyzes src for its diagnostics alone, as `ssalens check` does. It keeps no index of
// occurrences, which only hints and navigation need, and lets each function's body go once
// the function's diagnostics are out, so that its memory peaks when lowering ends, before
// any SSA form is built. parsed, if not nil, is called once the syntax tree's memory is given
// back, before lowering: the parse is when the memory tree-sitter takes peaks.
func Check(src []byte, opts Options, parsed func()) (*Checked, error) {
	r, err := lowerSource(src, opts, func() {
		// The C allocator keeps what the tree's last subtrees freed for later C allocations,
		// which the Go heap cannot use (the walk that flattened the tree gave back the rest as
		// it went). Trimming it costs a few milliseconds (lodash.js: 2.7 ms, 7% of its
		// analysis besides the parse); it is not worth the system calls for a small tree.
		if len(src) >= releaseAfterParse {
			treesitter.ReleaseMemory()
		}
		if parsed != nil {
			parsed()
		}
	})
	if err != nil {
		return nil, err
	}
	c := &Checked{Src: src, Lines: r.Lines}
	if r.Skipped != "" {
		c.Diagnostics = r.Diagnostics(true)
		return c, nil
	}
	// These point into the instructions of every function, which would keep them all.
	r.File.Captures = nil
	// The lowering has just let the flat syntax tree go, at the peak. Collected now, before
	// building allocates, it is gone; otherwise the collection that starts near the memory
	// limit runs while the first functions are built, and the heap outgrows the limit
	// (typescript.js: a peak of 238 to 242 MiB instead of 223, in 8 runs of 15).
	if len(src) >= releaseAfterParse {
		runtime.GC()
	}
	found := make([][]Diagnostic, len(r.Funcs))
	// A function's body goes once its diagnostics and its parent's are made: the parent's
	// read the code of its nested functions that run where they are made
	// (deadZoneReadsOnCreation).
	index := make(map[*ssa.Function]int, len(r.Funcs))
	for i, fn := range r.Funcs {
		index[fn] = i
	}
	var mu sync.Mutex
	diagnosed := make([]bool, len(r.Funcs))
	buildAll(r.Funcs, opts.Verify, func(i int) {
		fn := r.Funcs[i]
		found[i] = r.funcDiagnostics(fn, true)
		var done []*ssa.Function
		mu.Lock()
		diagnosed[i] = true
		if fn.Parent == nil || diagnosed[index[fn.Parent]] {
			done = append(done, fn)
		}
		for _, c := range fn.Children {
			if diagnosed[index[c]] {
				done = append(done, c)
			}
		}
		mu.Unlock()
		for _, f := range done {
			f.DropBody()
			r.literalTemps.Delete(f)
		}
	})
	c.Diagnostics = slices.Concat(found...)
	sortDiagnostics(c.Diagnostics)
	return c, nil
}

// lowerSource parses and lowers src, calling parsed, if not nil, once the syntax tree is
// closed. Without parsed, the tree is freed while src is lowered, and functions are built as
// they are lowered; with it (Check), the C tree is freed while the flat one is made
// (treesitter.ParseOnce), and memory peaks when the lowering ends, before any function is
// built. Either way a large source is parsed in pieces on every processor. Only re-parsing
// needs the C tree, and only lowering the next version from this one needs the flat tree.
func lowerSource(src []byte, opts Options, parsed func()) (*Result, error) {
	lines := NewLines(src)
	if len(src) > MaxSize {
		return tooLarge(src, lines), nil
	}
	parse := treesitter.ParseInPieces
	if parsed != nil {
		parse = treesitter.ParseOnce
	}
	tree, err := parse(opts.Language.grammar(), src)
	if err != nil {
		return nil, err
	}
	if parsed == nil {
		tree.CloseInBackground()
	} else {
		parsed()
	}
	return lowerTree(tree, lines, opts, nil, Edit{}, false, parsed == nil), nil
}

// releaseAfterParse is the size of the smallest source whose syntax tree Check gives back to
// the system once it is closed (a 128 kB source makes a tree of about 3 MB).
const releaseAfterParse = 128 << 10

// ReleaseMemory gives the memory of dropped analyses back to the operating system, from the
// Go heap and from the C allocator that held their syntax trees. It collects garbage first,
// so it belongs where nothing waits: after a file was closed, or when the user stops typing.
func ReleaseMemory() {
	debug.FreeOSMemory()
	treesitter.ReleaseMemory()
}

// CollectGarbage collects the garbage of the versions that later ones replaced, between two
// edits: as runtime.GC does, but what the next version's parse reuses of them stays
// (treesitter.CollectKeepingSpares).
func CollectGarbage() { treesitter.CollectKeepingSpares() }

// LongRunning prepares the process to analyze versions of documents one after another for a
// long time (a language server): memory freed by old versions is then easier to give back.
func LongRunning() { treesitter.OneArena() }

// analyzeTree lowers and builds tree (see lowerTree), without the index (see index).
func analyzeTree(tree *treesitter.Tree, lines *Lines, opts Options, prev *Result, edit Edit, next bool) *Result {
	r := lowerTree(tree, lines, opts, prev, edit, next, true)
	buildAll(r.Funcs, opts.Verify, nil)
	if r.File != nil && prev != nil {
		go r.File.DetachCopies(false) // after the version, not beside it
	}
	return r
}

// lowerTree lowers tree; if prev is the analysis of an earlier version that edit turned into
// tree's source, the functions it does not touch are copied from it, built already. The result
// keeps the flat tree, which lowering the next version from it needs, if next is set. If build
// is set, the functions are built as they are lowered (see lowerBuilding).
func lowerTree(tree *treesitter.Tree, lines *Lines, opts Options, prev *Result, edit Edit, next, build bool) *Result {
	if why := opts.overMemoryLimit(len(tree.Nodes)); why != "" {
		return &Result{Src: tree.Src, Lines: lines, Skipped: why}
	}
	var prevFile *lower.File
	if prev != nil {
		prevFile = prev.File
	}
	var file *lower.File
	if build {
		file = lowerBuilding(tree, prevFile, edit, lines)
	} else {
		file = lower.LowerFrom(tree, prevFile, edit, lines, nil)
	}
	if !next {
		file.Tree = nil
	}
	r := newResult(tree.Src, lines, file)
	if prev != nil {
		r.carryDiagnostics(prev, file.Copied)
	}
	file.Copied = nil // it holds prev's functions
	return r
}

// newResult returns the analysis of src that file is the lowering of.
func newResult(src []byte, lines *Lines, file *lower.File) *Result {
	r := &Result{Src: src, Lines: lines, File: file, Funcs: file.Funcs, instrs: instructions(file.Funcs)}
	r.goodBroken = make(map[int32]bool)
	for _, fn := range r.brokenFuncs() {
		r.goodBroken[fn.Span.Start] = true
	}
	return r
}

// lowerBuilding lowers tree as lower.LowerFrom does, and builds each function on another
// processor as soon as the lowering has it ready. The lowering of a file runs on one
// goroutine and would leave the other processors idle until it ends; then buildAll has only
// the functions left to build. The workers take the functions from a queue; when it is full,
// the lowering builds the function itself. A function the builder finds fault with is marked
// not analyzed once the lowering is over: it reads NotAnalyzed until then.
func lowerBuilding(tree *treesitter.Tree, prev *lower.File, edit Edit, lines *Lines) *lower.File {
	workers := runtime.GOMAXPROCS(0) - 1
	if workers == 0 {
		return lower.LowerFrom(tree, prev, edit, lines, nil)
	}
	type failure struct {
		fn  *ssa.Function
		err error
	}
	var mu sync.Mutex
	var failed []failure
	buildOne := func(fn *ssa.Function) {
		if err := ssa.Build(fn); err != nil {
			mu.Lock()
			failed = append(failed, failure{fn, err})
			mu.Unlock()
		}
	}
	queue := make(chan *ssa.Function, 1024)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for fn := range queue {
				buildOne(fn)
			}
		})
	}
	file := lower.LowerFrom(tree, prev, edit, lines, func(fn *ssa.Function) {
		select {
		case queue <- fn:
		default:
			buildOne(fn)
		}
	})
	close(queue)
	for fn := range queue { // what is left, with the workers
		buildOne(fn)
	}
	wg.Wait()
	for _, f := range failed {
		f.fn.NotAnalyzed = notAnalyzed(f.fn, f.err)
	}
	return file
}

// buildAll builds the functions that can be analyzed, on every processor: once lowered,
// functions are independent of each other. A function the builder or, if verify is set, the
// verifier finds fault with is not analyzed, for an internal error. done, if not nil, is
// called with the index of each function once it is built, or found not to be analyzable.
func buildAll(funcs []*ssa.Function, verify bool, done func(int)) {
	eachFunc(funcs, func(i int) {
		if fn := funcs[i]; fn.Analyzed() && (!fn.Built() || verify) {
			if err := build(fn, verify); err != nil {
				fn.NotAnalyzed = notAnalyzed(fn, err)
			}
		}
		if done != nil {
			done(i)
		}
	})
}

// eachFunc calls f with the index of each of funcs, on every processor, the functions taken
// in order as the processors come free.
func eachFunc(funcs []*ssa.Function, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(funcs)) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(funcs)); i = next.Add(1) - 1 {
				f(int(i))
			}
		})
	}
	wg.Wait()
}

// notAnalyzed is the reason fn is not analyzed when building or verifying it failed with err.
func notAnalyzed(fn *ssa.Function, err error) ssa.Reason {
	if errors.Is(err, ssa.ErrTooComplex) {
		return ssa.Reason{Kind: ssa.TooComplex, At: fn.Span, Name: "SSA"}
	}
	return ssa.Reason{Kind: ssa.InternalError, At: fn.Span, Name: err.Error()}
}

func build(fn *ssa.Function, verify bool) error {
	if !fn.Built() {
		if err := ssa.Build(fn); err != nil {
			return err
		}
	}
	if verify {
		fn.Materialize()
		return ssa.Verify(fn)
	}
	return nil
}

// single returns the one definition of b, if b is defined exactly once and renamed.
func (r *Result) single(b *ssa.Binding) *ssa.Value {
	if p := b.Single; p != nil {
		return p.Value
	}
	return nil
}

// dominators returns the dominator tree of fn, computed once for all callers.
func (r *Result) dominators(fn *ssa.Function) *ssa.DomTree {
	if d, ok := r.doms.Load(fn); ok {
		return d.(*ssa.DomTree)
	}
	d, _ := r.doms.LoadOrStore(fn, ssa.Dominators(fn))
	return d.(*ssa.DomTree)
}

// value returns the SSA value an occurrence stands for in navigation: the one it reads, or
// the one it defines.
func (o *Occurrence) value() *ssa.Value {
	if o.Read != nil {
		return o.Read
	}
	return o.Write
}

func sortPlaces(ps []*ssa.Place) {
	slices.SortFunc(ps, func(a, b *ssa.Place) int { return cmp.Compare(a.Span.Start, b.Span.Start) })
}
