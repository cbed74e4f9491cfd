package lower

import (
	"fmt"
	ts "github.com/ssalens/ssalens/treesitter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/ssa/ssatest"
)

// TestLowerFromEqualsLower edits files at random and lowers each re-parsed tree twice: from
// the previous version, copying the top-level functions the edit does not touch, and from
// scratch. Both must give the same functions, the same SSA form and the same context
// variables, whatever syntax errors the edits make; and copies must really happen.
func TestLowerFromEqualsLower(t *testing.T) {
	var files []string
	for _, ext := range []string{"js", "ts", "tsx"} {
		matches, _ := filepath.Glob("../testdata/annotate/*." + ext)
		files = append(files, matches...)
	}
	inserts := []string{" ", "\n", "x", "let q = 0;", "y = 2;", "}", "{", "(", "function e(p) { return p; }", "/*", "'", "`", "eval(s);", "with (o) {}"}
	copied := 0
	for _, seed := range []uint64{3, 13, 55} {
		rng := rand.New(rand.NewPCG(seed, 1))
		copied += lowerFromEdits(t, files, inserts, rng)
	}
	if copied == 0 {
		t.Error("no function was copied from a previous version")
	}
}

// lowerFromEdits edits each file 15 times with rng and compares the two lowerings of each
// version; it returns how many functions were copied.
func lowerFromEdits(t *testing.T, files, inserts []string, rng *rand.Rand) int {
	copied := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := ts.Parse(grammarOf(name), src)
		if err != nil {
			t.Fatal(err)
		}
		prev := lowerAndBuild(t, tree, nil, ts.Edit{})
		for step := range 15 {
			p := rng.IntN(len(src) + 1)
			next := slices.Concat(src[:p], []byte(inserts[rng.IntN(len(inserts))]), src[p:])
			edit := ts.Edit{StartByte: uint32(p), OldEndByte: uint32(p), NewEndByte: uint32(p + len(next) - len(src))}
			nextTree, err := tree.Reparse(edit, next)
			if err != nil {
				t.Fatal(err)
			}
			tree.Close()
			got := lowerAndBuild(t, nextTree, prev, edit)
			want := lowerAndBuild(t, nextTree, nil, ts.Edit{})
			if g, w := describe(got), describe(want); g != w {
				t.Fatalf("%s, edit %d (%q at %d): lowering from the previous version differs:\n%s\nwant\n%s", name, step, next[p:p+len(next)-len(src)], p, g, w)
			}
			for _, fn := range got.Funcs[1:] {
				if fn.Parent == got.Funcs[0] && fn.Built() && !slices.Contains(want.Funcs, fn) {
					copied++
				}
			}
			src, tree, prev = next, nextTree, got
		}
		tree.Close()
	}
	return copied
}

// lowerAndBuild lowers tree (from prev, if not nil) and builds the functions not built yet.
func lowerAndBuild(t *testing.T, tree *ts.Tree, prev *File, edit ts.Edit) *File {
	var f *File
	if prev != nil {
		f = LowerFrom(tree, prev, edit, nil, nil)
		for _, fn := range f.Funcs {
			if fn.Built() {
				ssatest.Check(t, fn) // a copy
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
	return f
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
	}
	var captures []string
	for read, def := range f.Captures {
		captures = append(captures, fmt.Sprintf("%s read at %v sees its definition at %v\n", read.Binding.Name, read.Span, def.Span))
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
