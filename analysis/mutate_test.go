package analysis_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/internal/mutate"
	"github.com/ssalens/ssalens/lower"
	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
	"github.com/ssalens/ssalens/treesitter"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

var (
	mutations    = flag.Int("mutations", 1500, "inputs TestMutations analyzes")
	mutationSeed = flag.Uint64("mutation-seed", 1, "the seed of TestMutations")
)

// crashersDir holds the inputs a campaign found at fault, minimized, each a regression test
// (TestCrashers; the server's TestCrashersServer).
const crashersDir = "../testdata/crashers"

// TestMutations is structure-aware fuzzing: it takes the functions of the corpus files and the
// programs of test262-parser-tests, breaks them as editing does (package mutate: tokens
// deleted, duplicated, swapped, code commented out and back in, brackets unbalanced, cut at a
// token, one to three at a time, and every 100th base cut at every one of its tokens) and
// checks each with checkInput. An input at fault is saved in testdata/crashers. A campaign:
//
//	nice go test ./analysis -run TestMutations -timeout 0 -args -mutations=1000000 -mutation-seed=2
func TestMutations(t *testing.T) {
	bases := mutate.Bases(t)
	rng := rand.New(rand.NewPCG(*mutationSeed, 5))
	inputs := 0
	for inputs < *mutations {
		base := bases[rng.IntN(len(bases))]
		if inputs%100 == 0 && len(base) < 2000 {
			for _, cut := range mutate.Truncations(base) {
				checkInput(t, cut, "a truncation", true)
				inputs++
			}
			continue
		}
		src, what := mutate.Mutate(base, rng)
		checkInput(t, src, what, true)
		inputs++
		if t.Failed() {
			break
		}
	}
	t.Logf("%d inputs from %d bases", inputs, len(bases))
}

// TestCrashers replays the inputs campaigns found at fault.
func TestCrashers(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(crashersDir, "*.js"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkInput(t, src, filepath.Base(f), false)
	}
}

// checkInput analyzes src with the SSA verifier on, and checks that nothing panics, no
// function is at fault (an internal error), none is lowered twice, the work stays within the
// budgets, and every answer (inlay hints, diagnostics, hover, definition, references,
// highlights, the annotated source and the dump) is about the text: its spans lie inside it.
// One input in ten also goes through ssatest.Check, the comparison with Cytron's builder. An
// input at fault is saved as a crasher if save is set.
func checkInput(t *testing.T, src []byte, what string, save bool) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		why := what + ": " + fmt.Sprintf(format, args...)
		if save {
			why += " (saved as " + saveCrasher(src) + ")"
		}
		t.Errorf("%s:\n%.2000s", why, src)
	}
	defer func() {
		if r := recover(); r != nil {
			fail("panic: %v\n%s", r, debug.Stack())
		}
	}()
	r, err := analysis.Analyze(src, analysis.Options{Verify: true})
	if err != nil {
		return
	}
	n := int32(len(src))
	within := func(s ssa.Span) bool { return 0 <= s.Start && s.Start <= s.End && s.End <= n }
	if r.Skipped != "" {
		return // not analyzed at all
	}
	tree, err := treesitter.Parse(treesitter.JavaScript, src)
	if err != nil {
		t.Fatal(err)
	}
	tree.Close()
	made, size, values := 0, 0, 0
	type key struct {
		span ssa.Span
		name string
	}
	seen := map[key]bool{}
	for _, fn := range r.Funcs {
		if fn.NotAnalyzed.Kind == ssa.InternalError {
			fail("%s: %s", fn.Name, fn.NotAnalyzed.Name)
		}
		if seen[key{fn.Span, fn.Name}] {
			fail("function %s at %v lowered twice", fn.Name, fn.Span)
		}
		seen[key{fn.Span, fn.Name}] = true
		made += fn.Made()
		values += len(fn.Values)
		for _, b := range fn.Blocks {
			size += 1 + len(b.Instrs)
		}
	}
	funcs := len(r.Funcs)
	if limit := lower.WorkPerNode*len(tree.Nodes) + lower.WorkBase*funcs; made > limit {
		fail("%d instructions and blocks, over the lowering budgets (%d)", made, limit)
	}
	if limit := ssa.BuildWorkPerUnit*size + ssa.BuildWorkBase*funcs; values > limit {
		fail("%d values, over the SSA budgets (%d)", values, limit)
	}
	for _, h := range r.InlayHints(0, n, analysis.HintOptions{Versions: true, Phis: true}) {
		if h.At < 0 || h.At > n {
			fail("hint at %d", h.At)
		}
		for _, p := range h.Parts {
			if p.Def != nil && !within(*p.Def) {
				fail("hint part %q links to %v", p.Text, *p.Def)
			}
		}
	}
	for _, d := range r.Diagnostics(true) {
		if !within(d.Span) {
			fail("diagnostic %q at %v", d.Message, d.Span)
		}
	}
	for off := int32(0); off <= n; off += max(1, n/24) {
		if _, span, ok := r.Hover(off); ok && !within(span) {
			fail("hover at %d spans %v", off, span)
		}
		spans := append(r.Definition(off), r.References(off, true)...)
		if s, ok := r.Declaration(off); ok {
			spans = append(spans, s)
		}
		for _, h := range r.Highlights(off) {
			spans = append(spans, h.Span)
		}
		for _, s := range spans {
			if !within(s) {
				fail("an answer at %d spans %v", off, s)
			}
		}
	}
	r.Annotate()
	if err := r.DumpJSON(io.Discard, ""); err != nil {
		fail("dump: %v", err)
	}
	if sum := sha256.Sum256(src); sum[0] < 26 { // one input in ten
		for _, fn := range r.Funcs {
			if fn.Analyzed() {
				ssatest.Check(t, fn)
			}
		}
	}
}

// saveCrasher saves src in crashersDir and returns its file name.
func saveCrasher(src []byte) string {
	sum := sha256.Sum256(src)
	name := filepath.Join(crashersDir, hex.EncodeToString(sum[:8])+".js")
	if err := os.MkdirAll(crashersDir, 0o755); err == nil {
		_ = os.WriteFile(name, src, 0o644)
	}
	return name
}

// TestTest262 analyzes the programs of test262-parser-tests 0.0.5 with checkInput: the 1,981
// a parser must accept and the 1,399 it must reject. No program may crash anything, and every
// function of a program tree-sitter parses must lower, build and verify; it lists the valid
// programs tree-sitter cannot parse.
func TestTest262(t *testing.T) {
	var valid, invalid int
	var unparsed []string
	for _, f := range corpus.FetchTest262(t) {
		checkInput(t, f.Src, f.Name, false)
		if !strings.HasPrefix(f.Name, "test262/pass/") {
			invalid++
			continue
		}
		valid++
		if r, err := analysis.Analyze(f.Src, analysis.Options{}); err == nil && hasSyntaxError(r) {
			unparsed = append(unparsed, strings.TrimPrefix(f.Name, "test262/pass/"))
		}
	}
	t.Logf("%d valid programs, %d invalid; tree-sitter cannot parse %d valid ones: %s", valid, invalid, len(unparsed), strings.Join(unparsed, " "))
}
