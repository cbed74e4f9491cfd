package treesitter

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ssalens/ssalens/internal/race"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

var snippets = map[string]string{
	"empty":       "",
	"statements":  "var a = 1, b;\nlet [c, ...d] = e;\nconst {f, g: h = 2, ...i} = j;\nif (a) b(); else { c = d ?? e; }\nfor (let k of l) continue;\nfor (const k in l) break;\nfor (;;) {}\nwhile (a) a--;\ndo { a += 1 } while (a < 10);\nlabel: switch (a) { case 1: case 2: a(); break label; default: b(); }\ntry { throw new Error('x'); } catch ({message}) {} finally { debugger; }\n",
	"functions":   "function f(a, b = 1, ...c) { return a + b; }\nfunction* g() { yield* f(); yield 1; }\nasync function h() { await g(); }\nconst i = async (x) => x * 2, j = y => ({y});\n(function () { 'use strict'; })();\n",
	"classes":     "class A extends B {\n  static #x = 1;\n  y;\n  constructor() { super(); this.#x++; }\n  get z() { return this.y; }\n  static { init(); }\n  async *[Symbol.iterator]() {}\n}\nconst C = class {};\n@dec.orator() class D { @field x = 1; }\n",
	"expressions": "a?.b?.[c]?.(d);\nx = typeof y === 'string' ? `t${y}u\\n` : /re+/gi;\nnew.target; import.meta.url; delete o[k]; void 0;\na = b, c;\n[1, , ...d];\n({a, b: 2, [c]: 3, d() {}, get e() { return 1; }, ...f});\nx ||= y; x &&= y; x **= 2;\n0x1f + 1_000n + .5e-3;\n",
	"modules":     "import a, {b as c, default as d} from 'm';\nimport * as e from 'n' with { type: 'json' };\nexport default function () {}\nexport {a as f, c};\nexport * as g from 'o';\nexport const h = 1;\nconst i = await import('p');\n",
	"comments":    "#!/usr/bin/env node\n// line\n/* block */ a = /* inner */ 1;\n<!-- html comment\n",
	"jsx":         "const el = <div className=\"a\" {...props} data-x='y'>\n  text &amp; more {value}\n  <Foo.Bar baz={1} />\n  <ns:tag />\n  <>{list.map(x => <li key={x}>{x}</li>)}</>\n</div>;\n",
	"unicode":     "const s = \"héllo 🌍\"; // ünïcode\nlet ñ = 'π';\n",
	"errors":      "let x = ;\nfoo(1, 2\nclass { }\n",
}

func TestSnippetsMatchGoTreeSitter(t *testing.T) {
	for name, src := range snippets {
		t.Run(name, func(t *testing.T) {
			tree := mustParse(t, src)
			checkInvariants(t, tree)
			compareWithGoTreeSitter(t, tree)
		})
	}
}

// sexp renders the named nodes of a subtree with their fields, like
// tree-sitter's S-expressions.
func sexp(t *Tree, i int32) string {
	var b strings.Builder
	var write func(i int32)
	write = func(i int32) {
		if f := t.Nodes[i].Field; f != 0 {
			b.WriteString(f.String() + ": ")
		}
		b.WriteString("(" + t.Nodes[i].Kind.String())
		for c := range t.NamedChildren(i) {
			b.WriteString(" ")
			write(c)
		}
		b.WriteString(")")
	}
	write(i)
	return b.String()
}

func TestStructure(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a = b + 1;", "(program (expression_statement (assignment_expression left: (identifier) right: (binary_expression left: (identifier) right: (number)))))"},
		{"const x = <div className=\"a\">{y}</div>;",
			"(program (lexical_declaration (variable_declarator name: (identifier) value: (jsx_element open_tag: (jsx_opening_element name: (identifier) attribute: (jsx_attribute (property_identifier) (string (string_fragment)))) (jsx_expression (identifier)) close_tag: (jsx_closing_element name: (identifier))))))"},
		{"x = `a${b}`;", "(program (expression_statement (assignment_expression left: (identifier) right: (template_string (string_fragment) (template_substitution (identifier))))))"},
		{"o.p(q);", "(program (expression_statement (call_expression function: (member_expression object: (identifier) property: (property_identifier)) arguments: (arguments (identifier)))))"},
	}
	for _, test := range tests {
		tree := mustParse(t, test.src)
		if got := sexp(tree, 0); got != test.want {
			t.Errorf("%s:\n got %s\nwant %s", test.src, got, test.want)
		}
	}
}

func TestHelpers(t *testing.T) {
	src := "f(a, b, /* c */ d);"
	tree := mustParse(t, src)
	stmt := tree.Nodes[0].FirstChild
	call := tree.Nodes[stmt].FirstChild
	if tree.Nodes[call].Kind != KindCallExpression {
		t.Fatalf("got %v, want call_expression", tree.Nodes[call].Kind)
	}
	args := tree.ChildByField(call, FieldArguments)
	if string(tree.Text(tree.ChildByField(call, FieldFunction))) != "f" || tree.Nodes[args].Kind != KindArguments {
		t.Fatalf("bad call fields: %s", sexp(tree, call))
	}
	if got := tree.ChildByField(call, FieldBody); got != -1 {
		t.Errorf("ChildByField(body) = %d, want -1", got)
	}
	var all, named []string
	for c := range tree.Children(args) {
		all = append(all, string(tree.Text(c)))
	}
	for c := range tree.NamedChildren(args) {
		named = append(named, string(tree.Text(c)))
	}
	if want := []string{"(", "a", ",", "b", ",", "/* c */", "d", ")"}; !slices.Equal(all, want) {
		t.Errorf("Children = %q, want %q", all, want)
	}
	// Comments are named extras.
	if want := []string{"a", "b", "/* c */", "d"}; !slices.Equal(named, want) {
		t.Errorf("NamedChildren = %q, want %q", named, want)
	}
	if c := tree.NamedChild(args, 3); string(tree.Text(c)) != "d" {
		t.Errorf("NamedChild(3) = %q", tree.Text(c))
	}
	if c := tree.NamedChild(args, 4); c != -1 {
		t.Errorf("NamedChild(4) = %d, want -1", c)
	}
	if end := tree.SubtreeEnd(args); end != int32(len(tree.Nodes))-1 || tree.Nodes[end].Kind != TokenKind(";") {
		t.Errorf("SubtreeEnd(arguments) = %d, want the final ';'", end)
	}

	allocs := testing.AllocsPerRun(100, func() {
		n := 0
		for c := range tree.Children(args) {
			n += int(tree.NextNamedSibling(c) + tree.FirstNamedChild(c))
		}
		for c := range tree.NamedChildren(args) {
			n += len(tree.Text(c))
		}
		n += int(tree.ChildByField(call, FieldArguments) + tree.NamedChild(args, 2) + tree.SubtreeEnd(call))
		if n == 0 {
			t.Fatal("unreachable")
		}
	})
	if allocs != 0 {
		t.Errorf("helpers allocate %v times per run", allocs)
	}
}

// TestKinds checks the translation of each grammar's symbols and fields: every symbol a tree
// can hold has the project's kind of its name and namedness, every field the project's field of
// its name.
func TestKinds(t *testing.T) {
	for _, g := range []*Grammar{JavaScript, TypeScript, TSX} {
		for id := range uint16(g.lang.NodeKindCount()) {
			if !g.lang.NodeKindIsVisible(id) {
				continue
			}
			k := g.kinds[id]
			if k == KindUnknown || k.String() != g.lang.NodeKindForId(id) || k.IsNamed() != g.lang.NodeKindIsNamed(id) {
				t.Errorf("%v: symbol %d %q (named %v) translates to %v (named %v)", g, id, g.lang.NodeKindForId(id), g.lang.NodeKindIsNamed(id), k, k.IsNamed())
			}
		}
		for id := range uint16(g.lang.FieldCount()) {
			if f := g.fields[id+1]; f == FieldNone || f.String() != g.lang.FieldNameForId(id+1) {
				t.Errorf("%v: field %d %q translates to %q", g, id+1, g.lang.FieldNameForId(id+1), f)
			}
		}
	}
	if KindError.String() != "ERROR" || !KindError.IsNamed() {
		t.Errorf("KindError is %q", KindError)
	}
	if TokenKind("=").String() != "=" || TokenKind("class") == KindClass || TokenClass != TokenKind("class") {
		t.Errorf("TokenKind mixes up tokens and named kinds")
	}
}

// TestAliasesNormalized parses code whose nodes come from grammar symbols
// that tree-sitter aliases to the name of another symbol, and checks that
// each such node gets the one Kind of its name.
func TestAliasesNormalized(t *testing.T) {
	tree := mustParse(t, "<A.B c=\"d\" e='f'>{`g`}<a-b/></A.B>; @h.i() class J {}; k = l / m / /n/ + f('o');\n")
	checkInvariants(t, tree)
	compareWithGoTreeSitter(t, tree)
	grammarIDs := map[string]map[uint16]bool{}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if grammarIDs[n.Kind()] == nil {
			grammarIDs[n.Kind()] = map[uint16]bool{}
		}
		grammarIDs[n.Kind()][n.GrammarId()] = true
		for j := range n.ChildCount() {
			walk(n.Child(j))
		}
	}
	walk(tree.ts.RootNode())
	for _, name := range []string{"identifier", "member_expression", "string", "string_fragment", "call_expression", "/"} {
		if len(grammarIDs[name]) < 2 {
			t.Errorf("%q comes from grammar symbols %v; the test no longer exercises aliasing", name, grammarIDs[name])
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		src  string
		want Flags // some node must have these flags
	}{
		{"let x = ;", IsError},
		{"foo(1, 2", IsError},
		{"function f() { return 1", Missing},
		{"if (a { b }", HasError},
		{"<div>", HasError},
		{"}}}{{{", IsError},
	}
	for _, test := range tests {
		tree := mustParse(t, test.src)
		checkInvariants(t, tree)
		compareWithGoTreeSitter(t, tree)
		if tree.Nodes[0].Flags&HasError == 0 {
			t.Errorf("%q: root lacks HasError", test.src)
		}
		if !slices.ContainsFunc(tree.Nodes, func(n Node) bool { return n.Flags&test.want == test.want }) {
			t.Errorf("%q: no node has flags %b: %s", test.src, test.want, sexp(tree, 0))
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	for _, src := range []string{"\xff\xfe", "let s = '\xc3'; x\x80 = 1;", "\x00\x00\x00", "a = 1;\xed\xa0\x80"} {
		tree := mustParse(t, src)
		checkInvariants(t, tree)
		compareWithGoTreeSitter(t, tree)
	}
}

func TestDeepNesting(t *testing.T) {
	const depth = 10000
	for _, open := range []string{"(", "[", "{a:", "f("} {
		close := map[string]string{"(": ")", "[": "]", "{a:": "}", "f(": ")"}[open]
		src := "x = " + strings.Repeat(open, depth) + "1" + strings.Repeat(close, depth) + ";"
		tree := mustParse(t, src)
		checkInvariants(t, tree)
		if tree.Nodes[0].Flags&HasError != 0 {
			t.Errorf("%s…: unexpected syntax error", open)
		}
		// The innermost literal lies depth levels down.
		one := slices.IndexFunc(tree.Nodes, func(n Node) bool { return n.Kind == KindNumber })
		level := 0
		for p := int32(one); p >= 0; p = tree.Nodes[p].Parent {
			level++
		}
		if level < depth {
			t.Errorf("%s…: number at depth %d, want at least %d", open, level, depth)
		}
	}
}

func TestReparse(t *testing.T) {
	base := "function f(a) {\n  return a + 1;\n}\nconst s = \"héllo\";\n"
	type step struct {
		name          string
		start, oldEnd int
		insert        string
	}
	steps := []step{
		{"insert at start", 0, 0, "'use strict';\n"},
		{"insert in middle", strings.Index(base, "+ 1") + 3, strings.Index(base, "+ 1") + 3, " * 2"},
		{"append at end", len(base), len(base), "f(s);\n"},
		{"delete at start", 0, len("function f(a) {\n"), ""},
		{"delete at end", len(base) - len("\";\n"), len(base), ""},
		{"replace identifier", strings.Index(base, "f("), strings.Index(base, "f(") + 1, "longerName"},
		{"replace multibyte", strings.Index(base, "é"), strings.Index(base, "é") + len("é"), "ü🌍"},
		{"insert newline in string", strings.Index(base, "llo"), strings.Index(base, "llo"), "\\\n"},
		{"delete everything", 0, len(base), ""},
		{"break syntax", strings.Index(base, "return"), strings.Index(base, "return"), "{"},
	}
	apply := func(old *Tree, s step) *Tree {
		t.Helper()
		src := slices.Concat(old.Src[:s.start], []byte(s.insert), old.Src[s.oldEnd:])
		edit := Edit{StartByte: uint32(s.start), OldEndByte: uint32(s.oldEnd), NewEndByte: uint32(s.start + len(s.insert))}
		tree, err := old.Reparse(edit, src)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		t.Cleanup(tree.Close)
		fresh := mustParse(t, string(src))
		if !slices.Equal(tree.Nodes, fresh.Nodes) {
			t.Fatalf("%s: incremental parse differs from fresh parse:\n%s\n%s", s.name, sexp(tree, 0), sexp(fresh, 0))
		}
		checkInvariants(t, tree)
		compareWithGoTreeSitter(t, tree)
		return tree
	}

	// Each edit applied to the same original tree, which must stay usable.
	orig := mustParse(t, base)
	origNodes := slices.Clone(orig.Nodes)
	for _, s := range steps {
		apply(orig, s)
	}
	if again, err := flatten(orig.ts, JavaScript); err != nil || !slices.Equal(again, origNodes) {
		t.Fatalf("original C tree changed by Reparse (err %v)", err)
	}

	// A chain of edits, each on the previous result, in several lines.
	tree := orig
	src := base
	for i := range 20 {
		pos := strings.Index(src, "\n") + 1
		s := step{"chain", pos, pos, "x" + strings.Repeat("é", i) + " = " + strings.Repeat("(", i) + "1" + strings.Repeat(")", i) + ";\n"}
		if i%3 == 2 { // delete the line inserted before
			s = step{"chain delete", pos, pos + strings.Index(src[pos:], "\n") + 1, ""}
		}
		tree = apply(tree, s)
		src = string(tree.Src)
	}
}

func TestReparseErrors(t *testing.T) {
	tree := mustParse(t, "a;")
	if _, err := tree.Reparse(Edit{StartByte: 1, OldEndByte: 5, NewEndByte: 1}, []byte("a;")); err == nil {
		t.Error("out-of-range edit accepted")
	}
	if _, err := tree.Reparse(Edit{StartByte: 2, OldEndByte: 1, NewEndByte: 2}, []byte("a;")); err == nil {
		t.Error("backwards edit accepted")
	}
	tree.Close()
	tree.Close()
	if _, err := tree.Reparse(Edit{}, []byte("a;")); err == nil {
		t.Error("Reparse of closed tree accepted")
	}
	if !bytes.Equal(tree.Text(0), []byte("a;")) {
		t.Error("flat tree unusable after Close")
	}
}

func TestAdvance(t *testing.T) {
	tests := []struct {
		from sitter.Point
		text string
		want sitter.Point
	}{
		{sitter.Point{}, "", sitter.Point{}},
		{sitter.Point{Row: 1, Column: 2}, "abc", sitter.Point{Row: 1, Column: 5}},
		{sitter.Point{Row: 1, Column: 2}, "a\nbc", sitter.Point{Row: 2, Column: 2}},
		{sitter.Point{}, "é\n\n🌍", sitter.Point{Row: 2, Column: 4}},
		{sitter.Point{Row: 0, Column: 7}, "\n", sitter.Point{Row: 1, Column: 0}},
		// A carriage return alone ends a line, as lexable has tree-sitter read it; one before
		// a line feed does not.
		{sitter.Point{}, "a\rb", sitter.Point{Row: 1, Column: 1}},
		{sitter.Point{}, "a\r\nb", sitter.Point{Row: 1, Column: 1}},
		{sitter.Point{}, "a\r", sitter.Point{Row: 1, Column: 0}},
	}
	for _, test := range tests {
		if got := advance(test.from, []byte(test.text), 0, uint32(len(test.text))); got != test.want {
			t.Errorf("advance(%v, %q) = %v, want %v", test.from, test.text, got, test.want)
		}
	}
	// The byte after the text decides: a "\r" just before the end, followed by "\n" beyond it.
	if got, want := advance(sitter.Point{}, []byte("a\r\n"), 0, 2), (sitter.Point{Column: 2}); got != want {
		t.Errorf("advance to the \\n of a \\r\\n = %v, want %v", got, want)
	}
}

// TestConcurrent parses and reparses from several goroutines, sharing one
// original tree, to exercise the parser pool and tree copying.
func TestConcurrent(t *testing.T) {
	base := mustParse(t, snippets["classes"])
	want := mustParse(t, "// x\n"+snippets["classes"])
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				tree, err := base.Reparse(Edit{0, 0, 5}, want.Src)
				if err != nil {
					t.Error(err)
					return
				}
				if !slices.Equal(tree.Nodes, want.Nodes) {
					t.Error("concurrent Reparse differs from a fresh parse")
				}
				tree.Close()
			}
		})
	}
	wg.Wait()
}

// TestEditThen composes random edits and checks that the composition covers every change:
// the text before its start and after its end is untouched, and its lengths agree.
func TestEditThen(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	apply := func(text string) (string, Edit) {
		start := rng.IntN(len(text) + 1)
		end := start + rng.IntN(len(text)-start+1)
		insert := strings.Repeat("x", rng.IntN(4))
		return text[:start] + insert + text[end:], Edit{StartByte: uint32(start), OldEndByte: uint32(end), NewEndByte: uint32(start + len(insert))}
	}
	for range 2000 {
		t0 := strings.Repeat("abcdefghij", 1+rng.IntN(3))
		t1, e1 := apply(t0)
		t2, e2 := apply(t1)
		e := e1.Then(e2)
		if e.StartByte > e.OldEndByte || e.StartByte > e.NewEndByte || int(e.OldEndByte) > len(t0) || int(e.NewEndByte) > len(t2) ||
			t0[:e.StartByte] != t2[:e.StartByte] || t0[e.OldEndByte:] != t2[e.NewEndByte:] || len(t0)-int(e.OldEndByte) != len(t2)-int(e.NewEndByte) {
			t.Fatalf("%q %+v then %+v = %+v, which does not cover the change to %q", t0, e1, e2, e, t2)
		}
	}
}

// TestParseOnce checks that ParseOnce makes the nodes Parse makes, on the corpus and on
// copies of it broken in the middle or cut short (error recovery may make one subtree the
// child of two, which the walk must release once), and that the walk, which frees the C tree
// as it goes, frees all of it: the C allocator holds no more afterwards than a hundredth of
// what the tree held.
func TestParseOnce(t *testing.T) {
	for _, f := range corpus.Fetch(t) {
		srcs := [][]byte{f.Src}
		if len(f.Src) < 4<<20 {
			half := len(f.Src) / 2
			srcs = append(srcs, slices.Concat(f.Src[:half], []byte("}) ( [ =>"), f.Src[half:]), f.Src[:len(f.Src)/3])
		}
		for i, src := range srcs {
			before := cMemoryInUse()
			want, err := Parse(JavaScript, src)
			if err != nil {
				t.Fatal(err)
			}
			held := cMemoryInUse() - before
			want.Close()
			before = cMemoryInUse()
			got, err := ParseOnce(JavaScript, src)
			if err != nil {
				t.Fatal(err)
			}
			left := cMemoryInUse() - before
			t.Logf("%s, variant %d: the C tree held %d kB, %d bytes left after ParseOnce", f.Name, i, held>>10, left)
			if before >= 0 && left > held/100 {
				t.Errorf("%s, variant %d: %d kB of the C tree's %d kB are still held after ParseOnce", f.Name, i, left>>10, held>>10)
			}
			if d := firstDifference(got.Nodes, want.Nodes); d >= 0 {
				t.Errorf("%s, variant %d: node %d differs from Parse's", f.Name, i, d)
			}
			if _, err := got.Reparse(Edit{}, src); err == nil {
				t.Errorf("%s: the tree of ParseOnce can be re-parsed", f.Name)
			}
		}
	}
}

// TestConsumingWalkKeepsSharedSubtrees flattens, consuming it, a tree re-parsed from another
// that is still open, so that the two share subtrees: the walk must drop its references to
// them without freeing them, and the other tree must read as before and be freed with them.
func TestConsumingWalkKeepsSharedSubtrees(t *testing.T) {
	src := []byte(snippets["expressions"] + snippets["errors"] + snippets["jsx"])
	mustParse(t, string(src)).Close() // the parser's own memory, kept for the next parse
	before := cMemoryInUse()
	old, err := Parse(JavaScript, src)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := parseC(JavaScript, src, old.ts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := flattenFrom(shared, JavaScript, nil, true)
	shared.Close()
	if err != nil {
		t.Fatal(err)
	}
	if d := firstDifference(nodes, old.Nodes); d >= 0 {
		t.Errorf("node %d of the consumed tree differs", d)
	}
	again, err := flatten(old.ts, JavaScript)
	if err != nil {
		t.Fatal(err)
	}
	if d := firstDifference(again, old.Nodes); d >= 0 {
		t.Errorf("node %d of the tree that shared subtrees differs after the walk", d)
	}
	old.Close()
	if left := cMemoryInUse() - before; before >= 0 && !race.Enabled && left > 4<<10 {
		t.Errorf("%d bytes still held after both trees were freed", left)
	}
}

// TestLoneCRAndNUL: JavaScript ends a line at a carriage return alone, and a string may hold a
// NUL character. The grammars took the first for a space (`return⏎a = 1` returned a = 1) and
// the second for the end of the input (a syntax error); lexable has them read a line feed and
// U+0001 instead. An edit that makes a carriage return alone, or takes its line feed away,
// changes how the parser reads the carriage return before the edit: tree-sitter lexes again
// the token whose whitespace holds it, and the re-parse is a fresh parse's.
func TestLoneCRAndNUL(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"return before a lone CR", "function f(b) { if (b) return\r a = 1; }",
			"(program (function_declaration name: (identifier) parameters: (formal_parameters (identifier)) body: (statement_block (if_statement condition: (parenthesized_expression (identifier)) consequence: (return_statement)) (expression_statement (assignment_expression left: (identifier) right: (number))))))"},
		{"a comment ended by a lone CR", "// c\rx = 1;",
			"(program (comment) (expression_statement (assignment_expression left: (identifier) right: (number))))"},
		{"NUL in a string, a template and a comment", "s = \"a\x00b\" + `\x00`; // \x00\n",
			"(program (expression_statement (assignment_expression left: (identifier) right: (binary_expression left: (string (string_fragment)) right: (template_string (string_fragment))))) (comment))"},
	} {
		tree := mustParse(t, tt.src)
		if got := sexp(tree, 0); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
		if tree.Nodes[0].Flags&HasError != 0 {
			t.Errorf("%s: syntax error", tt.name)
		}
		if string(tree.Src) != tt.src {
			t.Errorf("%s: Src changed", tt.name)
		}
	}
	if tree := mustParse(t, "x = 1\x00;"); tree.Nodes[0].Flags&HasError == 0 {
		t.Errorf("a NUL outside a string or comment parsed without an error")
	}
	src := "function f(b) {\r\n  if (b) return\r\n  a = 1;\r\n}\r\n"
	at := uint32(strings.Index(src, "return") + len("return\r"))
	for _, e := range []struct {
		name   string
		edit   Edit
		insert string
	}{
		{"a character between CR and LF", Edit{StartByte: at, OldEndByte: at, NewEndByte: at + 1}, "x"},
		{"the LF after a CR deleted", Edit{StartByte: at, OldEndByte: at + 1, NewEndByte: at}, ""},
	} {
		old := mustParse(t, src)
		next := slices.Concat([]byte(src[:e.edit.StartByte]), []byte(e.insert), []byte(src[e.edit.OldEndByte:]))
		tree, err := old.Reparse(e.edit, next)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(tree.Close)
		if fresh := mustParse(t, string(next)); !slices.Equal(tree.Nodes, fresh.Nodes) {
			t.Errorf("%s: re-parse differs from a fresh parse:\n%s\n%s", e.name, sexp(tree, 0), sexp(fresh, 0))
		}
	}
}

// TestSameOutside re-parses after edits inside a function's body and checks SameOutside:
// true while the tree outside the body is as it was, false once the edit changes it.
func TestSameOutside(t *testing.T) {
	tests := []struct {
		name, src, text string // src has | where text is inserted
		same            bool
	}{
		{"a statement", "function f() { let a = 1;| return a; }\nf();", " a++;", true},
		{"an error inside", "function f() { let a = 1;| return a; }\nf();", " a +;", true},
		{"a comment opened", "function f() { let a = 1;| return a; }\nf(); /* c */ g();", " /*", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := strings.Index(tt.src, "|")
			src := []byte(strings.Replace(tt.src, "|", "", 1))
			next := []byte(tt.src[:at] + tt.text + tt.src[at+1:])
			old, err := Parse(JavaScript, src)
			if err != nil {
				t.Fatal(err)
			}
			defer old.Close()
			body := old.NodeAt(uint32(strings.Index(tt.src, "{")), uint32(strings.Index(tt.src, "}")), KindStatementBlock)
			edit := Edit{StartByte: uint32(at), OldEndByte: uint32(at), NewEndByte: uint32(at + len(tt.text))}
			tree, err := old.Reparse(edit, next)
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			// The node that starts where the body did, and holds the edit.
			inside := int32(-1)
			for i, n := range tree.Nodes {
				if n.Start == old.Nodes[body].Start && n.End > edit.NewEndByte {
					inside = int32(i)
				}
			}
			if inside < 0 {
				t.Fatal("no node holds the edit")
			}
			if got := tree.SameOutside(old, inside, edit); got != tt.same {
				t.Errorf("SameOutside = %v, want %v", got, tt.same)
			}
			if other, _ := Parse(JavaScript, next); other.SameOutside(old, inside, edit) {
				t.Error("SameOutside of a tree not re-parsed from old")
			}
		})
	}
}
