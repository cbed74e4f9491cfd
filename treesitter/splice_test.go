package treesitter

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

// spliceTyping is what the edits of TestSpliceEqualsWhole type: what a user types inside and
// between statements, and what makes the places a splice needs go wrong (a line comment before
// the next statement, an else after an if, a `(` after a function, a brace left open).
var spliceTyping = []string{" ", "\n", "x", "1", ";", "}", "{", "(", "//", "/*", "*/", "\"", "`", "else {}",
	"\nfunction f() {}\n", "if (a) {}", "var v = 1;", "return;", "x = function () {}", "(y)", "\n// note\n"}

// TestSpliceEqualsWhole edits every file of the corpora (JavaScript but typescript.js,
// TypeScript, test262's parser tests) at random places, with what spliceTyping types and with
// deletions of a byte, a word, a line, and checks every tree a splice makes against the whole
// parse of the new text, node for node. It checks too that the nodes it says it copied are
// copies (copiedRight), and that the C tree its whole parse makes has the same nodes. The
// splice must take two thirds of the edits of the JavaScript files that leave no syntax error,
// else it would not be what answers a keystroke.
func TestSpliceEqualsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var spliced, clean, edits, wholeChecked int
	check := func(t *testing.T, f corpus.File, count int) {
		g := grammarOf(f.Lang)
		old, err := Parse(g, f.Src)
		if err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		if old.Nodes[0].Flags&HasError != 0 {
			return
		}
		for range count {
			edit, newSrc := randomEdit(rng, f.Src)
			edits++
			next := spliceOf(t, old, edit, newSrc)
			whole, err := Parse(g, newSrc)
			if err != nil {
				t.Fatal(err)
			}
			if whole.Nodes[0].Flags&HasError == 0 {
				clean++
			}
			if next == nil {
				whole.Close()
				continue
			}
			spliced++
			if d := firstDifference(next.Nodes, whole.Nodes); d >= 0 {
				t.Fatalf("%s, edit %+v (%q): spliced node %d differs from the whole parse's\n spliced %+v\n whole   %+v",
					f.Name, edit, newSrc[edit.StartByte:edit.NewEndByte], d, nodeOrZero(next.Nodes, d), nodeOrZero(whole.Nodes, d))
			}
			whole.Close()
			for range 100 {
				if b := rng.Int32N(int32(len(next.Nodes))); !copiedRight(old, next, b) {
					t.Fatalf("%s, edit %+v: node %d is no copy of node %d of the tree before", f.Name, edit, b, next.CopiedFrom(old, b))
				}
			}
			if wholeChecked < 200 {
				wholeChecked++
				if !next.ParseWhole() {
					t.Fatalf("%s, edit %+v: no C tree", f.Name, edit)
				}
				nodes, err := flatten(next.sitterTree(), g)
				if err != nil {
					t.Fatal(err)
				}
				if d := firstDifference(nodes, next.Nodes); d >= 0 {
					t.Fatalf("%s, edit %+v: the whole parse's node %d differs from the spliced tree's", f.Name, edit, d)
				}
			}
			next.Close()
		}
	}
	for _, f := range corpus.Fetch(t) {
		if len(f.Src) <= 2<<20 { // typescript.js: a whole parse of each edit is the oracle's cost
			check(t, f, min(60, max(8, 10<<20/len(f.Src))))
		}
	}
	jsSpliced, jsClean := spliced, clean
	t.Logf("JavaScript corpus: %d edits, %d without syntax errors, %d spliced", edits, clean, spliced)
	for _, f := range slices.Concat(corpus.FetchTypeScript(t), corpus.FetchTest262(t)) {
		check(t, f, 1)
	}
	t.Logf("all corpora: %d edits, %d without syntax errors, %d spliced; %d C trees checked", edits, clean, spliced, wholeChecked)
	if jsSpliced*3 < jsClean*2 {
		t.Errorf("only %d of the %d edits of the JavaScript corpus that leave no syntax error spliced", jsSpliced, jsClean)
	}
}

// spliceOf returns the tree old.splice makes of newSrc, old's text changed by edit, or nil.
func spliceOf(tb testing.TB, old *Tree, edit Edit, newSrc []byte) *Tree {
	tb.Helper()
	ie, err := makeInputEdit(old.Src, newSrc, edit)
	if err != nil {
		tb.Fatal(err)
	}
	return old.splice(edit, newSrc, ie)
}

func nodeOrZero(nodes []Node, i int) Node {
	if i < len(nodes) {
		return nodes[i]
	}
	return Node{}
}

// randomEdit returns an edit of src at a random place and the text it makes.
func randomEdit(rng *rand.Rand, src []byte) (Edit, []byte) {
	at := uint32(rng.IntN(len(src) + 1))
	end := at
	var typed string
	switch k := rng.IntN(len(spliceTyping) + 3); {
	case k < len(spliceTyping):
		typed = spliceTyping[k]
	case k == len(spliceTyping) && int(at) < len(src): // a byte
		end = at + 1
	case k == len(spliceTyping)+1: // a word
		for int(end) < len(src) && wordBytes[src[end]] {
			end++
		}
	default: // the rest of a line
		for int(end) < len(src) && src[end] != '\n' {
			end++
		}
	}
	newSrc := slices.Concat(src[:at], []byte(typed), src[end:])
	return Edit{StartByte: at, OldEndByte: end, NewEndByte: at + uint32(len(typed))}, newSrc
}

// TestSpliceAtItsLimits edits sources where parsing alone the statements the edit
// touches would go wrong: the piece must grow (a line comment that runs into the next
// statement, an else after an if, a call of the function expression before), or the splice be
// refused (a comment that the text after the piece closes, a syntax error, a piece that would
// be longer than maxPiece). Each edit must give the whole parse's tree, and be spliced or not as
// the table says.
func TestSpliceAtItsLimits(t *testing.T) {
	for _, tc := range []struct {
		name, src, old, new string
		spliced             bool
	}{
		{"a space in a function body", "function f() {\n  a();\n  b();\n}\nfunction g() {}\n", "  b", "   b", true},
		{"a statement typed", "function f() {\n  a();\n}\n", "a();", "a(); var x = 1;", true},
		{"a deleted */ opens a comment the next one closes", "var a;\n/** see https://x.dev/y */\nfunction f() {}\n/* two */\n", "y */", "y ", false},
		{"a line comment typed before the next statement", "var a = 1; var b = 2; var c;\n", "; var b", "; // var b", true},
		{"a line comment typed before the end of a block", "function f() { a(); b(); }\n", "; b", "; // b", false},
		{"an else after an if", "if (a) {}\nvar b;\n", "{}\n", "{} else {}\n", true},
		{"a call of a function expression", "var f = function () {}\nvar g;\n", "var g;", "(g);", true},
		{"two statements on a line after a brace", "function f() {}\nfunction g() {}\n", "}\nfunction g", "} function g", true},
		{"a comment typed on the line of a block's }", "{} /=/\n", "/=/", "// x", false},
		{"a syntax error", "function f() {\n  a();\n}\n", "a();", "a(;", false},
		{"a statement longer than a piece", "var a;\nfunction f(b) {\n" + strings.Repeat("  g();\n", 12000) + "}\nvar c;\n", "f(b)", "f(b, d)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := mustParse(t, tc.src)
			at := strings.Index(tc.src, tc.old)
			newSrc := strings.Replace(tc.src, tc.old, tc.new, 1)
			edit := Edit{StartByte: uint32(at), OldEndByte: uint32(at + len(tc.old)), NewEndByte: uint32(at + len(tc.new))}
			if spliced := spliceOf(t, old, edit, []byte(newSrc)); (spliced != nil) != tc.spliced {
				t.Errorf("spliced: %v, want %v", spliced != nil, tc.spliced)
			}
			next, err := old.Reparse(edit, []byte(newSrc))
			if err != nil {
				t.Fatal(err)
			}
			if whole := mustParse(t, newSrc); !slices.Equal(next.Nodes, whole.Nodes) {
				t.Errorf("the re-parse differs from the whole parse:\n%s\n%s", sexp(next, 0), sexp(whole, 0))
			}
		})
	}
}

// FuzzSplice edits a source at a place, with a text, in each grammar, and checks a splice
// against the whole parse of the new text, node for node. `go test` runs the seeds: small
// sources where statements meet in the ways the splice must tell apart.
func FuzzSplice(f *testing.F) {
	seeds := []string{
		"var a = 1;\nfunction f() {\n  if (a) x;\n  // c\n  var y;\n}\n",
		"x = function () {}\n(g)\nclass C { m() {} }\n",
		"{}\n/* a */ var b;\nlabel: for (;;) { break label; }\n",
		"if (a) {} else {}\ndo x(); while (y)\nvar z = `t${1}`;\n",
		"let s = 'a'; /** doc */\nexport function g<T>(p: T): T { return p; }\n",
		"const el = <div>{x /* c */}</div>;\nvar q = /re*/g;\n",
	}
	for i, s := range seeds {
		f.Add(s, uint(i*7), uint(i%3), []string{"//", " ", "*/", "}", "\n", "x;"}[i%6])
	}
	f.Fuzz(func(t *testing.T, src string, at, cut uint, typed string) {
		if len(src) > 1<<12 || len(typed) > 64 {
			return
		}
		start := int(at % uint(len(src)+1))
		end := min(len(src), start+int(cut%8))
		newSrc := src[:start] + typed + src[end:]
		edit := Edit{StartByte: uint32(start), OldEndByte: uint32(end), NewEndByte: uint32(start + len(typed))}
		for _, g := range []*Grammar{JavaScript, TypeScript, TSX} {
			old, err := Parse(g, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if next := spliceOf(t, old, edit, []byte(newSrc)); next != nil {
				whole, err := Parse(g, []byte(newSrc))
				if err != nil {
					t.Fatal(err)
				}
				if d := firstDifference(next.Nodes, whole.Nodes); d >= 0 {
					t.Fatalf("%v: %q, [%d,%d) replaced by %q: spliced node %d differs from the whole parse's:\n%s\n%s", g, src, start, end, typed, d, sexp(next, 0), sexp(whole, 0))
				}
				whole.Close()
				next.Close()
			}
			old.Close()
		}
	})
}
