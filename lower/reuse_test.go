package lower

import (
	"fmt"
	ts "github.com/ssalens/ssalens/treesitter"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// TestLowerFromEqualsLower edits files at random and lowers each re-parsed tree twice: from
// the previous version, copying the functions the edit does not touch, and from scratch. Both
// must give the same functions, the same SSA form, the same context variables and the same
// captured reads, whatever syntax errors the edits make. Copies must really happen, also of
// functions that use variables of the functions around them, of functions whose nested
// functions make captured reads of their variables, which the copy translates, and of copies
// whose bodies were not made.
func TestLowerFromEqualsLower(t *testing.T) {
	var files []string
	for _, ext := range []string{"js", "ts", "tsx"} {
		matches, _ := filepath.Glob("../testdata/annotate/*." + ext)
		files = append(files, matches...)
	}
	inserts := []string{" ", "\n", "x", "let q = 0;", "y = 2;", "}", "{", "(", "function e(p) { return p; }", "/*", "'", "`", "eval(s);", "with (o) {}", "g(() => arguments[0]);"}
	var copied reuseCount
	for _, seed := range []uint64{3, 13, 55} {
		rng := rand.New(rand.NewPCG(seed, 1))
		copied.add(lowerFromEdits(t, files, inserts, rng))
	}
	t.Logf("copied %d functions, with %d uses of variables around them and %d captured reads inside them; %d from copies not made; %d versions lowered one function",
		copied.funcs, copied.outerUses, copied.capturedInside, copied.chained, copied.alone)
	if copied.funcs == 0 || copied.outerUses == 0 || copied.capturedInside == 0 || copied.chained == 0 || copied.alone == 0 {
		t.Errorf("copied %d functions, with %d uses of variables around them and %d captured reads inside them, %d from copies not made, %d versions lowered one function: want some of each",
			copied.funcs, copied.outerUses, copied.capturedInside, copied.chained, copied.alone)
	}
}

// TestReuseWithArguments edits f's own code and checks which of its nested functions are
// copied rather than lowered again: one whose arguments object is its own, or whose arrow
// functions read the object of a function inside the copy, is; an arrow function reading f's
// is not, since f's lowering marks f's parameters as aliased by it. Either way the lowering
// from the previous version equals a fresh one.
func TestReuseWithArguments(t *testing.T) {
	tests := []struct {
		name, src string // src has | where a space is typed, in f's own code
		copied    []string
	}{
		{"a function reads its own", "function f(a) {| function g() { return arguments[0]; } return a; }", []string{"g"}},
		{"an arrow reads f's", "function f(a) {| const g = () => arguments[0]; return a; }", nil},
		{"an arrow in an arrow reads f's", "function f(a) {| const g = () => () => arguments[0]; return a; }", nil},
		{"an arrow reads a function's inside the copy", "function f(a) {| const g = () => function h() { return () => arguments[0]; }; return a; }",
			[]string{"g", "h", "<anonymous>"}},
		{"a function beside reads its own", "function f(a) {| const g = () => 1, h = function () { return arguments.length; }; return a; }",
			[]string{"g", "h"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lowerEdit(t, ts.JavaScript, tt.src, " ", 0, false)
			var copied []string
			for _, c := range got.Copied {
				if c.Move.At == math.MinInt32 { // a copy, not a clone of a function around the edit
					copied = append(copied, c.Func.Name)
				}
			}
			if !slices.Equal(copied, tt.copied) {
				t.Errorf("copied %q, want %q", copied, tt.copied)
			}
		})
	}
}

// reuseCount counts what lowerings from a previous version copied: functions, the uses they
// make of the variables of the functions around them, and captured reads inside them.
type reuseCount struct {
	funcs, outerUses, capturedInside int
	// chained counts the functions copied from copies whose bodies were not made (ssa.Copy).
	chained int
	// alone counts the versions lowered by lowering one function again (spine.go).
	alone int
}

func (c *reuseCount) add(d reuseCount) {
	c.funcs, c.outerUses, c.capturedInside = c.funcs+d.funcs, c.outerUses+d.outerUses, c.capturedInside+d.capturedInside
	c.chained += d.chained
	c.alone += d.alone
}

// lowerFromEdits edits each file 15 times with rng and compares the two lowerings of each
// version; it returns what was copied.
func lowerFromEdits(t *testing.T, files, inserts []string, rng *rand.Rand) reuseCount {
	var copied reuseCount
	for i, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := ts.Parse(grammarOf(name), src)
		if err != nil {
			t.Fatal(err)
		}
		prev, _ := lowerAndBuild(t, tree, nil, ts.Edit{}, true)
		if i%2 == 0 { // the first copies of half the files copy what was summarized ahead
			prev.PrepareCopies()
		}
		for step := range 15 {
			p := rng.IntN(len(src) + 1)
			next := slices.Concat(src[:p], []byte(inserts[rng.IntN(len(inserts))]), src[p:])
			edit := ts.Edit{StartByte: uint32(p), OldEndByte: uint32(p), NewEndByte: uint32(p + len(next) - len(src))}
			nextTree, err := tree.Reparse(edit, next)
			if err != nil {
				t.Fatal(err)
			}
			tree.Close()
			// The copies of a version checked are made; those of the others are left as they
			// are, so that the next versions copy copies not made.
			check := step%3 == 2 || step == 14
			got, count := lowerAndBuild(t, nextTree, prev, edit, check)
			if check {
				want, _ := lowerAndBuild(t, nextTree, nil, ts.Edit{}, true)
				if g, w := describe(got), describe(want); g != w {
					t.Fatalf("%s, edit %d (%q at %d): lowering from the previous version differs:\n%s\nwant\n%s", name, step, next[p:p+len(next)-len(src)], p, g, w)
				}
			}
			copied.add(count)
			src, tree, prev = next, nextTree, got
		}
		tree.Close()
	}
	return copied
}

// lowerAndBuild lowers tree (from prev, if not nil) and builds the functions not built yet;
// if check is set, it makes the copies' bodies, verifies every function and returns what it
// copied from prev.
func lowerAndBuild(t *testing.T, tree *ts.Tree, prev *File, edit ts.Edit, check bool) (*File, reuseCount) {
	var f *File
	var copied reuseCount
	if prev != nil {
		f = LowerFrom(tree, prev, edit, nil, nil)
		if f.alone != nil {
			copied.alone++
		}
		for _, c := range f.Copied {
			if c.Of.NumInstrs() > 0 && len(c.Of.Blocks) == 0 {
				copied.chained++
			}
		}
	} else {
		f = Lower(tree)
	}
	for _, fn := range f.Funcs {
		if fn.Analyzed() && !fn.Built() {
			if err := ssa.Build(fn); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !check {
		return f, copied
	}
	for _, fn := range f.Funcs {
		fn.Materialize()
	}
	if prev != nil {
		copies := make(map[*ssa.Function]bool)
		for _, fn := range f.Funcs {
			if fn.Built() { // a copy: the lowering builds none
				ssatest.Check(t, fn)
				copies[fn] = true
			}
		}
		for fn := range copies {
			copied.funcs++
			for _, b := range fn.Blocks {
				for _, in := range b.Instrs {
					if o := in.Place.Binding; o != nil && o.Owner != nil && !copies[o.Owner] {
						copied.outerUses++
					}
				}
			}
		}
		for fn := range copies {
			for read := range fn.Captures() {
				if copies[read.Binding.Owner] {
					copied.capturedInside++
				}
			}
		}
	}
	for _, fn := range f.Funcs {
		if err := ssa.Verify(fn); err != nil { // also of a function not analyzed, copied or not
			t.Error(err)
		}
	}
	return f, copied
}

// describe prints every function of f with its span, the reason it is not analyzed, its
// context variables and its SSA form.
func describe(f *File) string {
	var sb strings.Builder
	for _, fn := range f.Funcs {
		fmt.Fprintf(&sb, "%s %v %v\n", fn.Name, fn.Span, fn.NotAnalyzed)
		for _, b := range fn.Bindings {
			if b.Context() {
				fmt.Fprintf(&sb, "  context %s: %v\n", b.Name, b.Why)
			}
			if b.ReadNested {
				fmt.Fprintf(&sb, "  %s is read in a nested function\n", b.Name)
			}
			if p := b.Single; p != nil {
				fmt.Fprintf(&sb, "  %s is defined once, at %v\n", b.Name, p.Span)
			}
		}
		sb.WriteString(fn.String())
		for _, b := range fn.Blocks {
			if b.LoopHeader {
				fmt.Fprintf(&sb, "  loop %s: φs at %v\n", b.Label, b.Anchor)
			}
		}
	}
	var captures []string
	note := func(all map[*ssa.Place]*ssa.Place) {
		for read, def := range all {
			captures = append(captures, fmt.Sprintf("%s read at %v sees its definition at %v\n", read.Binding.Name, read.Span, def.Span))
		}
	}
	note(f.Captures)
	for _, fn := range f.Funcs {
		note(fn.Captures())
	}
	slices.Sort(captures)
	sb.WriteString(strings.Join(captures, ""))
	return sb.String()
}

// grammarOf returns the grammar of a file, by its extension.
func grammarOf(name string) *ts.Grammar {
	switch filepath.Ext(name) {
	case ".ts":
		return ts.TypeScript
	case ".tsx":
		return ts.TSX
	}
	return ts.JavaScript
}

// TestCopiesKeepNoEarlierVersion types in g's body, then in f's, version after version, and
// checks that the versions since the first are collected, and the first once the user pauses.
// The first version, lowered from scratch, holds no other: while the user types, h's copies
// copy its h as it is. g was lowered again in the second, which holds the first's clone of f
// and copies: its copies keep it until they are detached, as the analysis does once a version
// is built (File.DetachCopies), and then copy a template (ssa.Copy), which must keep nothing
// of any version. g uses f's variables, for which the template holds stand-ins.
func TestCopiesKeepNoEarlierVersion(t *testing.T) {
	src := "function f(a) {\n  let b = a;\n  function g() { return a + b; }\n  const h = () => g() + b;\n  return h;\n}\n"
	tree, err := ts.Parse(ts.JavaScript, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { tree.Close() }()
	file, _ := lowerAndBuild(t, tree, nil, ts.Edit{}, false)
	opened := weak.Make(file.Funcs[1])
	const versions = 8
	var early []weak.Pointer[ssa.Function]
	for i := range versions {
		at := strings.Index(src, "return h") // f's own code
		if i == 0 {
			at = strings.Index(src, "return a") // g's
		}
		next := src[:at] + " " + src[at:]
		edit := ts.Edit{StartByte: uint32(at), OldEndByte: uint32(at), NewEndByte: uint32(at + 1)}
		nextTree, err := tree.Reparse(edit, []byte(next))
		if err != nil {
			t.Fatal(err)
		}
		tree.Close()
		tree, src = nextTree, next
		if file, _ = lowerAndBuild(t, tree, file, edit, false); file.alone == nil {
			t.Fatal("the edit did not lower one function alone")
		}
		file.DetachCopies(false)
		if i < 2 {
			early = append(early, weak.Make(file.Funcs[1]))
		}
	}
	runtime.GC()
	if early[0].Value() != nil || early[1].Value() != nil {
		t.Errorf("f of the second and third versions is still held, %d versions later", versions)
	}
	if opened.Value() == nil {
		t.Error("the file as opened was not kept while the user typed: its copies were detached")
	}
	file.DetachCopies(true) // the user pauses
	runtime.GC()
	if opened.Value() != nil {
		t.Error("the file as opened is still held after a pause")
	}
	runtime.KeepAlive(file) // the last version holds the copies
}

// TestLoweringKeepsNothingOfItsVersion lowers and builds a file whose function is large enough
// that the arrays of its lowering and of its build are kept for the next ones (scratch, the
// SSA builder's pooled tables), then drops the file: what is kept must not keep it.
func TestLoweringKeepsNothingOfItsVersion(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("function f(x) {\n")
	for i := range 150 {
		fmt.Fprintf(&sb, "  let v%d = x;\n  if (x > %d) v%d = %d;\n", i, i, i, i)
	}
	sb.WriteString("  function g() { return v0 + v1; }\n  return g;\n}\n")
	tree, err := ts.Parse(ts.JavaScript, []byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	file, _ := lowerAndBuild(t, tree, nil, ts.Edit{}, false)
	f, g := weak.Make(file.Funcs[1]), weak.Make(file.Funcs[2])
	file = nil
	runtime.GC() // once: a pool keeps what was put in it until the next collection
	if f.Value() != nil || g.Value() != nil {
		t.Error("the functions of a file dropped are still held after a collection")
	}
}
