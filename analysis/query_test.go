package analysis_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/ssa"
)

const querySource = `function f(c) {
  let x = 1;
  if (c) { x = 2; }
  return x + g;
}
`

// at returns the offset of the first occurrence of sub in querySource.
func at(t *testing.T, sub string) int32 {
	t.Helper()
	i := strings.Index(querySource, sub)
	if i < 0 {
		t.Fatalf("%q is not in the source", sub)
	}
	return int32(i)
}

// Offsets of the occurrences the tests ask about.
const (
	letX    = "x = 1"
	assignX = "x = 2"
	returnX = "x + g"
	paramC  = "c) {"
	useC    = "c) { x"
	global  = "g;"
)

func spanText(s ssa.Span) string { return querySource[s.Start:s.End] }

func analyzeQuery(t *testing.T) *analysis.Result {
	t.Helper()
	r, err := analysis.Analyze([]byte(querySource), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDefinitionOfPhiReachesEveryDefinition(t *testing.T) {
	r := analyzeQuery(t)
	defs := r.Definition(at(t, returnX))
	var got []string
	for _, d := range defs {
		line, col := r.Lines.Position(d.Start, analysis.UTF8)
		got = append(got, fmt.Sprintf("%s@%d:%d", spanText(d), line, col))
	}
	if want := "x@1:6 x@2:11"; strings.Join(got, " ") != want {
		t.Errorf("definitions %v, want %s", got, want)
	}
	if d, ok := r.Declaration(at(t, returnX)); !ok || d.Start != at(t, letX) {
		t.Errorf("declaration %v, want the let", d)
	}
	if _, ok := r.Declaration(at(t, global)); ok {
		t.Error("a global has a declaration")
	}
}

func TestReferencesAndHighlights(t *testing.T) {
	r := analyzeQuery(t)
	refs := r.References(at(t, useC), true)
	if len(refs) != 2 || refs[0].Start != at(t, paramC) || refs[1].Start != at(t, useC) {
		t.Errorf("references of c₁ %v, want the parameter and its use", refs)
	}
	if refs := r.References(at(t, letX), false); len(refs) != 0 {
		t.Errorf("x₁ is only read through the φ, but has references %v", refs)
	}
	hs := r.Highlights(at(t, assignX))
	if len(hs) != 1 || !hs[0].Write || hs[0].Span.Start != at(t, assignX) {
		t.Errorf("highlights of x₂ %+v, want its definition only", hs)
	}
}

func TestHoverShowsPhiOperands(t *testing.T) {
	r := analyzeQuery(t)
	md, span, ok := r.Hover(at(t, returnX))
	if !ok || span.Start != at(t, returnX) {
		t.Fatalf("no hover at the x of return")
	}
	for _, want := range []string{"**x₃**", "`x₃ ← φ(₁,₂)` on line 3", "`x₁` from the branch where the condition fails (line 3): defined on line 2", "`x₂` from the end of the then block (line 3): defined on line 3", "1 use (line 4)"} {
		if !strings.Contains(md, want) {
			t.Errorf("hover lacks %q:\n%s", want, md)
		}
	}
	if md, _, _ := r.Hover(at(t, global)); !strings.Contains(md, "is a global") {
		t.Errorf("hover on a global: %s", md)
	}
}

// TestHoverNamesEdges hovers φs and checks the rows that say where each operand comes from:
// a row for each operand, with the operands of the φs folded into the one shown, and the edges
// it comes by; exceptions, which reach a finally block from the try block and from the catch
// block, where the catch's entry and its parameter's store are two edges from one line, named
// once; jumps, by their statement; and the end of a construct, past the joins inside it.
func TestHoverNamesEdges(t *testing.T) {
	for _, c := range []struct {
		name, src, at string
		want          []string
	}{
		{"exceptions", `function f(g) {
  let x = 1;
  try {
    x = 2;
    g();
  } catch (e) {
    x = 3;
    g();
  } finally {
    g(x);
  }
}
`, "x)", []string{
			"- `x₂` from the end of the try block (line 6): defined on line 4, `x = 2;`",
			"- `x₃` from an exception before the finally block (line 6): the φ on line 6",
			"- `x₄` from an exception before the finally block (line 7) and from the end of the catch block (line 9): defined on line 7, `x = 3;`",
		}},
		{"an else-if chain, folded", `function f(a) {
  let x = 0;
  if (a === 1) x = 1;
  else if (a === 2) x = 2;
  else if (a === 3) x = 3;
  return x;
}
`, "x;", []string{
			"- `x₂` from the end of the then block (line 3): defined on line 3, `if (a === 1) x = 1;`",
			"- `x₃` from the end of the then block (line 4): defined on line 4, `else if (a === 2) x = 2;`",
			"- `x₁` from the branch where the condition fails (line 5): defined on line 2, `let x = 0;`",
			"- `x₄` from the end of the then block (line 5): defined on line 5, `else if (a === 3) x = 3;`",
		}},
		{"a return into the finally block, and the try block's end past an if", `function f(a) {
  let y = 0;
  try {
    if (a) return 1;
    y = 1;
  } finally {
    y++;
  }
}
`, "y++", []string{
			"- `y₁` from an exception before the finally block (line 3) and from the return (line 4): defined on line 2, `let y = 0;`",
			"- `y₂` from an exception before the finally block (line 5) and from the end of the try block (line 6): defined on line 5, `y = 1;`",
		}},
		{"continue, and a do loop's body", `function f(a) {
  let w = 0;
  do {
    if (a) { w = 1; continue; }
    w = 2;
  } while (w < 0);
}
`, "w < 0", []string{
			"- `w₂` from the continue (line 4): defined on line 4, `if (a) { w = 1; continue; }`",
			"- `w₃` from the end of the loop body (line 6): defined on line 5, `w = 2;`",
		}},
		{"a for-of loop's end, and a break through a finally block", `function f(xs) {
  let n = 0;
  for (const x of xs) {
    try { if (x) break; n++; } finally { n += 2; }
  }
  return n;
}
`, "n;", []string{
			"- `n₂` from the end of the iteration (line 3): the φ on line 3",
			"- `n₅` from a jump out of the try statement, after the finally block (line 4): defined on line 4, `try { if (x) break; n++; } finally { n += 2; }`",
		}},
		{"a break, and a loop on one line", `function f(o) {
  let k = 'none';
  for (k in o) { if (k === 'x') break; }
  return k;
}
`, "k;", []string{
			"- `k₂` from the end of the iteration (line 3): the φ on line 3",
			"- `k₃` from the break (line 3): defined on line 3, `for (k in o) { if (k === 'x') break; }`",
		}},
	} {
		r, err := analysis.Analyze([]byte(c.src), analysis.Options{Verify: true})
		if err != nil {
			t.Fatal(err)
		}
		md, _, ok := r.Hover(int32(strings.LastIndex(c.src, c.at)))
		if !ok {
			t.Fatalf("%s: no hover at %q", c.name, c.at)
		}
		var rows []string
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "- ") {
				rows = append(rows, l)
			}
		}
		if !slices.Equal(rows, c.want) {
			t.Errorf("%s: hover rows:\n%s\nwant:\n%s", c.name, strings.Join(rows, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

func TestInlayHintsInRange(t *testing.T) {
	r := analyzeQuery(t)
	line3 := r.Lines.Start(2)
	line4 := r.Lines.Start(3)
	var got []string
	for _, h := range r.InlayHints(line3, line4-1, analysis.HintOptions{Versions: true, Phis: true}) {
		got = append(got, h.Label())
	}
	if want := "₁|₂|x₃ ← φ(₁,₂)"; strings.Join(got, "|") != want {
		t.Errorf("hints on line 3: %q, want %q", strings.Join(got, "|"), want)
	}
	got = got[:0]
	for _, h := range r.InlayHints(line3, line4-1, analysis.HintOptions{Phis: true}) {
		got = append(got, h.Label())
		for _, p := range h.Parts {
			if p.Text == "L2" && (p.Def == nil || p.Def.Start != at(t, letX)) {
				t.Errorf("operand x₁ links to %v, want the let", p.Def)
			}
		}
	}
	if want := "x ← φ(L2,L3)"; strings.Join(got, "|") != want {
		t.Errorf("φ hints only: %q, want %q", got, want)
	}
}

// checkDiagnostics analyzes src and compares its diagnostics with want, each as 1-based
// line:col (bytes) followed by what describe says of it; one it says "" of is left out.
func checkDiagnostics(t *testing.T, src string, opts analysis.Options, describe func(analysis.Diagnostic) string, want []string) {
	t.Helper()
	r, err := analysis.Analyze([]byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, r)
	checkAgrees(t, []byte(src), opts, r)
	var got []string
	for _, d := range r.Diagnostics(true) {
		if s := describe(d); s != "" {
			line, col := r.Lines.Position(d.Span.Start, analysis.UTF8)
			got = append(got, fmt.Sprintf("%d:%d%s", line+1, col+1, s))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s\ndiagnostics:\n\t%s\nwant:\n\t%s", src, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestDiagnostics(t *testing.T) {
	src := `function f(c) {
  let x = 1;
  x = 2;
  let _skip = 1;
  _skip = 2;
  console.log(x, _skip);
  return late;
  let late = 3;
}
function g() { with (o) {} }
function h(a = b, b = 1) { early = a + b; let early; return early; }
`
	checkDiagnostics(t, src, analysis.Options{}, func(d analysis.Diagnostic) string {
		return fmt.Sprintf(":%s:%s", d.Severity, d.Message)
	}, []string{
		"2:7:hint:x₁: this value of x is never read",
		"7:10:warning:late is read before its declaration (temporal dead zone): this throws a ReferenceError",
		"10:16:information:function g is not analyzed: contains a with statement at 10:16",
		"11:16:warning:b is read before its declaration (temporal dead zone): this throws a ReferenceError",
		"11:28:warning:early is assigned before its declaration (temporal dead zone): this throws a ReferenceError",
	})
}

// TestDeadZoneReadsOnCreation: a class's static members and a function called where it is
// written run at once, and their reads of a let, const or class declared later throw; a
// closure that runs later, an instance field and the class's own name do not.
func TestDeadZoneReadsOnCreation(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		lang      analysis.Language
		want      []string // line:col:certainty of each read reported
	}{
		{"static field", "function f() {\n  class A { static s = k; }\n  const k = 1;\n}\n", analysis.JavaScript, []string{"2:24:is"}},
		{"static block", "class A { static { k; } }\nlet k = 1;\n", analysis.JavaScript, []string{"1:20:is"}},
		{"called where written", "function g() {\n  const r = (() => w)();\n  const w = 3;\n  return r;\n}\n", analysis.JavaScript, []string{"2:20:is"}},
		{"on some paths", "function f(c) {\n  switch (c) {\n    case 0: let k = 1;\n    case 1: (function () { return k; })();\n  }\n}\n", analysis.JavaScript, []string{"4:35:may be"}},
		// Before the declaration in the text, TypeScript's compiler reports it (TestDeadZoneLeftToTypeScript).
		{"TypeScript static readonly", "function f(c: number) {\n  switch (c) {\n    case 0: let k = 1;\n    case 1: class A { static readonly x: number = k; }\n  }\n}\n", analysis.TypeScript, []string{"4:51:may be"}},
		{"declared before", "const k = 1;\nclass A { static s = k; static { k; } }\n(() => k)();\n", analysis.JavaScript, nil},
		{"instance field", "class A { x = k; }\nconst k = 1;\n", analysis.JavaScript, nil},
		{"a closure that runs later", "const f = () => k;\nconst k = 1;\nf();\n", analysis.JavaScript, nil},
		{"the class's own name", "class A { static s = A.name; static { A.t = 1; } }\n", analysis.JavaScript, nil},
		{"a function nested in a static member", "class A { static s = () => k; }\nconst k = 1;\n", analysis.JavaScript, nil},
		{"var", "class A { static s = v; }\nvar v = 1;\n", analysis.JavaScript, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkDiagnostics(t, tc.src, analysis.Options{Language: tc.lang}, func(d analysis.Diagnostic) string {
				switch {
				case d.Code != "temporalDeadZone":
					return ""
				case strings.Contains(d.Message, "may be"):
					return ":may be"
				}
				return ":is"
			}, tc.want)
		})
	}
}

// TestConstantAssignments: an assignment to a const was taken for a store (the return after
// `c = 2` read 2, and c₁ was "never read"); it stores nothing, throws a TypeError, and is a
// warning, as an assignment to an import or to the name a class or a named function
// expression in strict code binds to itself is. Declarations store, and sloppy code ignores an
// assignment to a named function expression's name. In TypeScript the compiler reports them.
func TestConstantAssignments(t *testing.T) {
	src := `function f(a, xs) {
  const c = a;
  try { c = 2; } catch (e) {}
  for (const x of xs) { x += 1; }
  return c;
}
class K { m() { K = 1; } }
const E = class Self { static s = Self; };
const g = function s() { s = 1; return s; };
const h = function t() { "use strict"; t = 1; return t; };
`
	checkDiagnostics(t, src, analysis.Options{}, func(d analysis.Diagnostic) string {
		return fmt.Sprintf(" %s %s", d.Code, d.Message)
	}, []string{
		"3:9 constantAssignment c cannot be assigned (a constant): this throws a TypeError",
		"4:25 constantAssignment x cannot be assigned (a constant): this throws a TypeError",
		"7:17 constantAssignment K cannot be assigned (a constant): this throws a TypeError",
		"10:40 constantAssignment t cannot be assigned (a constant): this throws a TypeError",
	})
	r, err := analysis.Analyze([]byte(src), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if text := r.Annotate(); !strings.Contains(text, "  return c₁;") {
		t.Errorf("the return after c = 2 must read c₁:\n%s", text)
	}
	// TypeScript's compiler reports each of them as an error: they are left to it.
	ts := analysis.Options{Language: analysis.TypeScript}
	checkDiagnostics(t, src, ts, func(d analysis.Diagnostic) string {
		if d.Code == "constantAssignment" {
			return " " + d.Message
		}
		return ""
	}, nil)
	if r, err := analysis.Analyze([]byte(src), ts); err != nil || !strings.Contains(r.Annotate(), "  return c₁;") {
		t.Errorf("in TypeScript too, the return after c = 2 must read c₁ (%v)", err)
	}
}

// TestDeadZoneLeftToTypeScript: in TypeScript, the compiler reports every use of a binding
// that comes before its declaration in the text (ts2448, ts2449, ts2373), in closures that run
// where they are made too; those are left to it, and what control flow brings back into the
// dead zone from later in the text (a switch case) is still reported.
func TestDeadZoneLeftToTypeScript(t *testing.T) {
	src := `function a() { use(y); let y = 1; return y; }
function b() { y = 2; let y = 1; return y; }
function c() { const o = new C(); class C {} return o; }
function d(p = q, q = 1) { return p + q; }
function e(k) {
  switch (k) {
    case 0:
      let y = 1;
      return y;
    case 1:
      return y;
  }
}
function f() { const g = (() => y)(); let y = 1; return g + y; }
function h() { class K { static s = y; } let y = 1; return [K, y]; }
`
	describe := func(d analysis.Diagnostic) string {
		if d.Code != "temporalDeadZone" {
			return ""
		}
		return " " + d.Message[:strings.Index(d.Message, " before")]
	}
	checkDiagnostics(t, src, analysis.Options{}, describe, []string{
		"1:20 y is read", "2:16 y is assigned", "3:30 C is read", "4:16 q is read", "11:14 y is read",
		"14:33 y is read", "15:37 y is read",
	})
	checkDiagnostics(t, src, analysis.Options{Language: analysis.TypeScript}, describe, []string{"11:14 y is read"})
}

// TestDeadZoneAssignments: an assignment in a switch case to a let declared in an earlier case
// throws when control jumps to its case, and was not reported: the check went by the order of
// the text. It now follows control flow, as for reads.
func TestDeadZoneAssignments(t *testing.T) {
	src := `function f(k) {
  switch (k) {
    case 0: let a = 1; return a;
    case 1: a = 2; return a;
  }
}
function g(k) {
  switch (k) {
    case 0: let b = 1;
    case 1: b = 2; return b;
  }
}
function h() {
  x = 1;
  let x;
  x = 2;
  return x;
}
`
	checkDiagnostics(t, src, analysis.Options{}, func(d analysis.Diagnostic) string { return " " + d.Message }, []string{
		"4:13 a is assigned before its declaration (temporal dead zone): this throws a ReferenceError",
		"9:17 b₁: this value of b is never read", // case 0 falls through to b = 2
		"10:13 b may be assigned before its declaration (temporal dead zone): this throws a ReferenceError",
		"14:3 x is assigned before its declaration (temporal dead zone): this throws a ReferenceError",
	})
}

// TestDeadZoneOfContextVariables: a variable a closure reads and its function assigns more
// than once is not renamed (a context variable), and the reads and assignments of it in its
// own function before its declaration went unreported, though they throw as the others do.
func TestDeadZoneOfContextVariables(t *testing.T) {
	src := `function f(k) {
  console.log(late);
  late = 0;
  let late = 1;
  const g = () => late;
  late = 2;
  return g;
}
function s(k) {
  switch (k) {
    case 0: let a = 1; a = 3; return () => a;
    case 1: return a;
  }
}
`
	checkDiagnostics(t, src, analysis.Options{}, func(d analysis.Diagnostic) string { return " " + d.Message }, []string{
		"2:15 late is read before its declaration (temporal dead zone): this throws a ReferenceError",
		"3:3 late is assigned before its declaration (temporal dead zone): this throws a ReferenceError",
		"12:20 a is read before its declaration (temporal dead zone): this throws a ReferenceError",
	})
}

// TestDeclarationAsBody: a let, const or class declaration as the body of an if, a loop or a
// label is an early SyntaxError, which tree-sitter accepts. Analyzed, its binding was scoped
// to the body, and the code after it read a global of its name: typing `if (q) ` before a
// declaration made that version's answers wrong, and those kept while the `{` after it was
// unclosed.
func TestDeclarationAsBody(t *testing.T) {
	src := `function f(q) {
  if (q) const a = 1;
  return a;
}
function g(q) {
  while (q) class C {}
}
function h(q) {
  l: let b = q;
  if (q) { const c = 1; return c; }
}
`
	checkDiagnostics(t, src, analysis.Options{}, func(d analysis.Diagnostic) string {
		if d.Code != "notAnalyzed" {
			return ""
		}
		return " " + d.Message
	}, []string{
		"2:10 function f is not analyzed: syntax error at 2:10: a lexical declaration cannot be the body of a statement",
		"6:13 function g is not analyzed: syntax error at 6:13: a lexical declaration cannot be the body of a statement",
		"9:6 function h is not analyzed: syntax error at 9:6: a lexical declaration cannot be the body of a statement",
	})
}

// TestArgumentsObjectIsNoGlobal: an undeclared arguments in a function names its arguments
// object (the nearest function's that is not an arrow), and was listed and hovered as a global
// with no declaration. At the top level, an arrow's arguments is a global.
func TestArgumentsObjectIsNoGlobal(t *testing.T) {
	src := "function f(a) { const g = () => arguments[1]; return arguments[0] + g(); }\nconst h = () => arguments;\n"
	r, err := analysis.Analyze([]byte(src), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var items []string
	for _, it := range r.Unrenamed().Items {
		items = append(items, fmt.Sprintf("%d %s", it.Span.Start, it.Label))
	}
	if want := []string{fmt.Sprint(strings.Index(src, "arguments;"), " arguments — a global: no declaration in this file"),
		"11 a — a context variable: in sloppy code it is aliased by the arguments object of f"}; !slices.Equal(items, want) {
		t.Errorf("unrenamed %q, want %q", items, want)
	}
	checkHovers(t, r, src, []hoverCase{
		{"arguments[1]", "`arguments` is the arguments object of the function it is in"},
		{"arguments[0]", "`arguments` is the arguments object of the function it is in"},
		{"arguments;", "`arguments` is a global"},
	})
}

// hoverCase is a hover expected at the first match of at in the source: one that contains want.
type hoverCase struct{ at, want string }

func checkHovers(t *testing.T, r *analysis.Result, src string, cases []hoverCase) {
	t.Helper()
	for _, c := range cases {
		md, _, ok := r.Hover(int32(strings.Index(src, c.at)))
		if !ok || !strings.Contains(md, c.want) {
			t.Errorf("hover at %q: %q, want it to contain %q", c.at, md, c.want)
		}
	}
}

// TestNotAnalyzedDiagnostics: NotAnalyzedDiagnostics, which annotate prints, are those of
// Diagnostics with the code notAnalyzed, in the same order, found without the others.
func TestNotAnalyzedDiagnostics(t *testing.T) {
	src := "function f(o) { with (o) { x = 1; } }\nfunction g() { let a = 1; a = 2; return eval('a'); }\nfunction h() { let b = 1; b = 2; return; }\nfunction k() { if (q) const c = 1; }\n"
	r, err := analysis.Analyze([]byte(src), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want []analysis.Diagnostic
	for _, d := range r.Diagnostics(true) {
		if d.Code == "notAnalyzed" {
			want = append(want, d)
		}
	}
	if got := r.NotAnalyzedDiagnostics(); len(want) != 3 || !slices.Equal(got, want) {
		t.Errorf("NotAnalyzedDiagnostics:\n%v\nwant three, those of Diagnostics:\n%v", got, want)
	}
}
