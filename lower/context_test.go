package lower

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// TestArgumentsAliasParameters: in sloppy code, a use of arguments anywhere in a function with
// simple parameters, inside a block or an arrow too, makes its parameters context variables.
// A use inside a block once looked for them in the block's scope and renamed them.
func TestArgumentsAliasParameters(t *testing.T) {
	for _, src := range []string{
		"function g(a) { arguments[0] = 2; return a; }",
		"function g(a) { if (1) { arguments[0] = 2; } return a; }",
		"function g(a) { { let b; (() => arguments[0] = b)(); } return a; }",
	} {
		file := Lower(mustParse(t, src))
		g := file.Funcs[1]
		if a := g.Bindings[0]; a.Name != "a" || a.Why.Kind != ssa.AliasedByArguments {
			t.Errorf("%q: %s is %v, want aliased by arguments", src, a.Name, a.Why.Kind)
		}
	}
}

// TestReadyFunctions checks the promise LowerFrom's ready makes, on the fixtures and the
// corpus: every function that can be analyzed is handed over exactly once, after the functions
// nested in it, and what its building and its diagnostics read is final by then: its own
// variables' status (Why), whether a nested function reads them (ReadNested), their one
// definition (Single), and whether it is analyzed.
func TestReadyFunctions(t *testing.T) {
	fixtures, err := filepath.Glob("../testdata/annotate/*.js")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var sources [][]byte
	for _, name := range fixtures {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, src)
	}
	for _, f := range corpus.Fetch(t) {
		if len(f.Src) < 2<<20 {
			sources = append(sources, f.Src)
		}
	}
	for _, src := range sources {
		tree, err := ts.Parse(ts.JavaScript, src)
		if err != nil {
			t.Fatal(err)
		}
		handed := make(map[*ssa.Function]int)
		type settled struct {
			why        ssa.Reason
			readNested bool
			single     *ssa.Place
		}
		whys := make(map[*ssa.Binding]settled)
		file := LowerFrom(tree, nil, ts.Edit{}, nil, func(fn *ssa.Function) {
			if handed[fn]++; handed[fn] > 1 {
				t.Fatalf("%s handed over twice", fn.Name)
			}
			for _, c := range fn.Children {
				if c.Analyzed() && handed[c] == 0 {
					t.Fatalf("%s handed over before %s, nested in it", fn.Name, c.Name)
				}
			}
			for _, b := range fn.Bindings {
				whys[b] = settled{b.Why, b.ReadNested, b.Single}
			}
		})
		for _, fn := range file.Funcs {
			if fn.Analyzed() != (handed[fn] == 1) {
				t.Fatalf("%s: analyzed %v, handed over %d times", fn.Name, fn.Analyzed(), handed[fn])
			}
			for _, b := range fn.Bindings {
				if then, ok := whys[b]; ok && then != (settled{b.Why, b.ReadNested, b.Single}) {
					t.Fatalf("%s's %s was %+v when handed over, %+v in the end", fn.Name, b.Name, then, settled{b.Why, b.ReadNested, b.Single})
				}
			}
		}
		tree.Close()
	}
}
