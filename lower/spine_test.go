package lower

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	ts "github.com/ssalens/ssalens/treesitter"
)

// TestLowerSpine edits the body of a nested function and checks that the lowering from the
// previous version equals a fresh one, and that it lowered that function alone when nothing
// around it changes, and not when something does.
func TestLowerSpine(t *testing.T) {
	tests := []struct {
		name string
		src  string // the text before the edit, with | where the edit starts
		text string // the text inserted
		cut  int    // how many bytes the edit removes
		lang *ts.Grammar
		// alone says whether the lowering may lower the edited function alone: a use of the
		// variables around it that its old version did not make changes those functions.
		alone bool
	}{
		{"a statement", "function f() { let a = 1; function g() { return 0;| } return a; }", " g();", 0, nil, true},
		{"a line", "function f() {\n  function g(x) {\n    return x;|\n  }\n  for (const y of []) g(y);\n}", "\n    x++;", 0, nil, true},
		{"a nested function", "function f() { const a = 1; function g() {| return a; } }", " const h = () => a;", 0, nil, true},
		{"a read in a function nested later", "function f() { let a = 1; a = 2; function g() {| return a; } }", " const h = () => a;", 0, nil, true},
		{"a first read", "function f() { let a = 1; a = 2; function g() {| return a; } }", " a;", 0, nil, false},
		{"a global", "function f() { function g() { return 0|; } }", " + Math.PI", 0, nil, true},
		{"a global declared in a block around", "function f() { { let b; } function g() { return 0|; } }", " + b", 0, nil, false},
		{"a read of a variable around", "function f() { let a = 1; a = 2; function g() { return 0|; } return a; }", " + a", 0, nil, false},
		{"an assignment to a variable around", "function f() { let a = 1; function g() { a|; } return a; }", " = 2", 0, nil, false},
		{"an assignment a copy sees", "function f() { let a = 1; function g() { return a; } function h() { 0|; } }", "; a = 3", 0, nil, false},
		{"a captured read in a copy", "function f() { const a = 1; function g() { return a; } function h() { return 1|; } }", " + 1", 0, nil, true},
		{"a read the old version made", "function f() { const a = 1; function g() { return a|; } return g; }", " + a", 0, nil, true},
		{"a member of a variable around", "function f() { const a = {}; function g() { return a|; } return g; }", ".b", 0, nil, true},
		{"arguments in an arrow", "function f(p) { const g = () => { return 0|; }; return p; }", " + arguments[0]", 0, nil, false},
		{"arguments in a function", "function f(p) { function g() { return 0|; } return p; }", " + arguments[0]", 0, nil, true},
		{"a direct eval", "function f() { let a = 1; function g() { return 0|; } return a; }", " + eval('a')", 0, nil, false},
		{"a with statement", "function f() { let a = 1; function g(o) { return 0|; } return a; }", "; with (o) { a; }", 0, nil, false},
		{"a direct eval removed", "function f() { let a = 1; function g() { |eval('a'); return 0; } return a; }", "", len("eval('a');"), nil, false},
		{"a direct eval in the old version", "function f() { let a = 1; function g() { eval(''); return 0|; } return a; }", " + 1", 0, nil, false},
		{"the name of a class around", "const C = class K { m() {| return 0; } };", " K = 1;", 0, nil, false},
		{"a loop's line", "function f(xs) { for (const x of xs.map(y => { return y|; })) x; }", "\n", 0, nil, false},
		{"a loop's line in a function beside", "function f(g) {\n  var a = function () { for (var i = 0; i < 3; i++) g(i); }, b = function (y) {| return y; };\n  return [a, b];\n}", "\n", 0, nil, false},
		{"a loop's line in a nested function", "function f(xs, g) {\n  function e(n) {\n    xs.forEach(x => { for (let i = 0; i < x; i++) g(i); }); var m = n;| return m;\n  }\n  return e;\n}", "\n", 0, nil, true},
		{"a loop's line, no line break", "function f(xs) { for (const x of xs.map(y => { return y|; })) x; }", " + 1", 0, nil, true},
		{"a brace", "function f() { function g() { return 0|; } return 1; }", " }", 0, nil, false},
		{"a finally block", "function f() { try { g(); } finally { [1].map(x => { return x|; }); } }", " + 1", 0, nil, true},
		{"a namespace's export", "namespace N { export const a = 1; }\nnamespace N { function f() { return 0|; } }", " + a", 0, ts.TypeScript, false},
		{"a function around the edit that is a method", "class A { m() { return () => { return 0|; }; } }", " + 1", 0, nil, true},
		{"typing a name", "function f() { let value = 1; function g() { return valu|; } return value; }", "e", 0, nil, false},
		{"copies with captured reads inside", "function s(a) { const b = a; const i = () => b; return i; }\nfunction f(x) { let y = x; function g() { return y + x; } const h = () => { let z = 1; return () => z; };| return h; }", " y;", 0, nil, true},
	}
	for _, tt := range tests {
		for _, ahead := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/summarized ahead=%v", tt.name, ahead), func(t *testing.T) {
				lang := tt.lang
				if lang == nil {
					lang = ts.JavaScript
				}
				got := lowerEdit(t, lang, tt.src, tt.text, tt.cut, ahead)
				if alone := got.alone != nil; alone != tt.alone {
					t.Errorf("lowered one function alone: %v, want %v", alone, tt.alone)
				}
			})
		}
	}
}

// TestSpineCarriesCopies: a copy beside the functions around the edit, itself a copy, takes
// what its old version recorded (spine.adopt) rather than reading its uses again: the captured
// reads that see a single definition, and whether its code uses the arguments object of a
// function around it. Three edits in g's body copy the arrow a of a copy, and the fourth, in
// f's own code, lowers f alone: a reads f's arguments, so it is lowered again too, and f's
// parameter p is a context variable.
func TestSpineCarriesCopies(t *testing.T) {
	src := "function f(p) {\n  const c = 1;\n  const a = () => arguments[0] + c;\n  function g() { return 0; }\n  return p;\n}\n"
	tree, err := ts.Parse(ts.JavaScript, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	prev, _ := lowerAndBuild(t, tree, nil, ts.Edit{}, true)
	for i, step := range []struct{ after, text string }{
		{"return 0", " + 1"}, {"return 0", " + 2"}, {"return 0", " + 3"}, {"return p", " + c"},
	} {
		at := strings.Index(string(tree.Src), step.after) + len(step.after)
		next := slices.Concat(tree.Src[:at], []byte(step.text), tree.Src[at:])
		edit := ts.Edit{StartByte: uint32(at), OldEndByte: uint32(at), NewEndByte: uint32(at + len(step.text))}
		nextTree, err := tree.Reparse(edit, next)
		if err != nil {
			t.Fatal(err)
		}
		tree.Close()
		tree = nextTree
		got, _ := lowerAndBuild(t, tree, prev, edit, true)
		want, _ := lowerAndBuild(t, tree, nil, ts.Edit{}, true)
		if g, w := describe(got), describe(want); g != w {
			t.Fatalf("edit %d: lowering from the previous version differs:\n%s\nwant\n%s", i, g, w)
		}
		if got.alone == nil {
			t.Errorf("edit %d: the lowering did not lower one function alone", i)
		}
		prev = got
	}
	tree.Close()
}

// lowerEdit parses marked, a source with | where an edit removes cut bytes and inserts text,
// lowers it, then the edited source from that lowering, checks that this equals a fresh
// lowering, and returns it. With ahead, the functions the edit copies may be summarized
// before it, as the analysis does while the user reads a file opened (File.PrepareCopies).
func lowerEdit(t *testing.T, lang *ts.Grammar, marked, text string, cut int, ahead bool) *File {
	t.Helper()
	at := strings.Index(marked, "|")
	src := []byte(strings.Replace(marked, "|", "", 1))
	next := []byte(marked[:at] + text + marked[at+1+cut:])
	tree, err := ts.Parse(lang, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	prev, _ := lowerAndBuild(t, tree, nil, ts.Edit{}, true)
	if ahead {
		prev.PrepareCopies()
	}
	edit := ts.Edit{StartByte: uint32(at), OldEndByte: uint32(at + cut), NewEndByte: uint32(at + len(text))}
	nextTree, err := tree.Reparse(edit, next)
	if err != nil {
		t.Fatal(err)
	}
	defer nextTree.Close()
	got, _ := lowerAndBuild(t, nextTree, prev, edit, true)
	want, _ := lowerAndBuild(t, nextTree, nil, ts.Edit{}, true)
	if g, w := describe(got), describe(want); g != w {
		t.Errorf("lowering from the previous version differs:\n%s\nwant\n%s", g, w)
	}
	return got
}
