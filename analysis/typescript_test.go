package analysis_test

import (
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

func TestLanguageOf(t *testing.T) {
	for _, tt := range []struct {
		id, file, flag string
		want           analysis.Language
	}{
		{"javascript", "a.js", "js", analysis.JavaScript},
		{"javascriptreact", "a.jsx", "js", analysis.JavaScript},
		{"", "a.mjs", "", analysis.JavaScript},
		{"", "a.cjs", "", analysis.JavaScript},
		{"typescript", "a.ts", "ts", analysis.TypeScript},
		{"", "a.MTS", "", analysis.TypeScript},
		{"", "dir.tsx/a.d.cts", "", analysis.TypeScript},
		{"typescriptreact", "a.tsx", "tsx", analysis.TSX},
	} {
		if tt.id != "" {
			if got, ok := analysis.LanguageOfID(tt.id); !ok || got != tt.want {
				t.Errorf("LanguageOfID(%q) = %v, %v; want %v", tt.id, got, ok, tt.want)
			}
		}
		if got, ok := analysis.LanguageOfFile(tt.file); !ok || got != tt.want {
			t.Errorf("LanguageOfFile(%q) = %v, %v; want %v", tt.file, got, ok, tt.want)
		}
		if tt.flag != "" {
			if got, ok := analysis.LanguageNamed(tt.flag); !ok || got != tt.want {
				t.Errorf("LanguageNamed(%q) = %v, %v; want %v", tt.flag, got, ok, tt.want)
			}
		}
	}
	for _, id := range []string{"json", "vue", "", "TypeScript"} {
		if _, ok := analysis.LanguageOfID(id); ok {
			t.Errorf("LanguageOfID(%q) accepted", id)
		}
	}
	for _, file := range []string{"a.json", "a", "a.ts.txt"} {
		if _, ok := analysis.LanguageOfFile(file); ok {
			t.Errorf("LanguageOfFile(%q) accepted", file)
		}
	}
}

// TestHoverShowsDeclaredType checks that hover on a TypeScript binding shows the type its
// declaration gives it, on one line, and only the name for a binding without one.
func TestHoverShowsDeclaredType(t *testing.T) {
	src := "function f(a: number, b?: string, c = 1) {\n" +
		"  let x: {\n    n: number;\n  } = { n: a };\n" +
		"  if (b) x = { n: c };\n" +
		"  try { g(); } catch (e: unknown) { return e; }\n" +
		"  return x;\n}\n"
	r, err := analysis.Analyze([]byte(src), analysis.Options{Language: analysis.TypeScript})
	if err != nil {
		t.Fatal(err)
	}
	checkHovers(t, r, src, []hoverCase{
		{"a }", "version 1 of `a: number` (param)"},
		{"b) x", "version 1 of `b: string` (param)"},
		{"c };", "version 1 of `c` (param)"},
		{"x;\n}", "version 3 of `x: { n: number; }` (let)"},
		{"e; }", "version 1 of `e: unknown` (catch)"},
	})
}

// TestParameterPropertyHint checks the hint of a parameter property, which defines the
// parameter and reads it (this.x = x) at one place: one version, not x₁→₁.
func TestParameterPropertyHint(t *testing.T) {
	src := "class A { constructor(public x: number) { x = 2; } }"
	r, err := analysis.Analyze([]byte(src), analysis.Options{Language: analysis.TypeScript})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Annotate(), "class A { constructor(public x₁: number) { x₂ = 2; } }"; got != want {
		t.Errorf("annotate: %s\nwant %s", got, want)
	}
}

// TestCommentAfterJoin annotates JavaScript with a comment after a construct whose paths join,
// parsed as JavaScript, TypeScript and TSX: the φs show after the construct's last token, before
// the comment, whatever the grammar (TypeScript's gives the statement the comment's extent).
func TestCommentAfterJoin(t *testing.T) {
	for _, src := range []string{
		"function f(a) {\n  let x = 0;\n  if (a) {\n    x = 1;\n  } // done\n  return x;\n}\n",
		"function f(a) {\n  let x = 0;\n  if (a) { x = 1; } /* one */ /* two */\n  return x;\n}\n",
		"function f(a) {\n  let x = 0;\n  try { x = 4; } catch { x = 5; } // t\n  return x;\n}\n",
		"function f(a) {\n  let x = 0;\n  switch (a) { case 1: x = 1; } // s\n  return x;\n}\n",
		"function f(a) {\n  let x = 0;\n  if (a) if (x) { x = 2; } // nested\n  return x;\n}\n",
	} {
		want := mustAnalyze(t, []byte(src), analysis.JavaScript).Annotate()
		if !strings.Contains(want, "φ") {
			t.Fatalf("no φ in\n%s", want)
		}
		for _, lang := range []analysis.Language{analysis.TypeScript, analysis.TSX} {
			if got := mustAnalyze(t, []byte(src), lang).Annotate(); got != want {
				t.Errorf("as %v:\n%s\nwant, as JavaScript:\n%s", lang, got, want)
			}
		}
	}
}

// TestBrokenDecorator: a method's decorators, computed key and parameters' decorators run in
// the function around the class, which makes the method's closure. tree-sitter-typescript does
// not parse an arrow function in a parameter decorator, valid TypeScript: the syntax error was
// counted as the method's alone, and the function around it, analyzed without the arrow,
// showed versions of the variable the arrow captures and `w₁: this value of w is never read`
// (a user test). It is now that function's, and a method whose own code parses is analyzed.
func TestBrokenDecorator(t *testing.T) {
	src := `function arrowWithType() { let w = 1; class C { m(@((t: any) => w) p: number) {} } w = 2; return [C, w]; }
function arrow() { let w = 1; class C { m(@(() => w) p: number) { let q = p; return q; } } w = 2; return [C, w]; }
function computedKey() { let w = 1; class C { [w +]() {} } w = 2; return [C, w]; }
function fine() { let w = 1; class C { @(dec(w)) m(@dec(w) p: number) {} } w = 2; return [C, w]; }
`
	checkDiagnostics(t, src, analysis.Options{Language: analysis.TypeScript}, func(d analysis.Diagnostic) string {
		return " " + d.Message
	}, []string{
		"1:52 function arrowWithType is not analyzed: syntax error at 1:52",
		"1:62 function m is not analyzed: syntax error at 1:62",
		"2:45 function arrow is not analyzed: syntax error at 2:45",
		"3:51 function computedKey is not analyzed: syntax error at 3:51",
	})
}

// TestCodeTakenIntoAType: an unfinished type (an object type, an overload's parameters, a
// type alias) makes tree-sitter's recovery take the statements after it into the type, which
// makes no code: the function was analyzed without them, with no diagnostic, and showed
// `x₂: this value of x is never read` where the if reads it (this session's user test). It is
// now not analyzed. An error in a type that holds no token of code is valid TypeScript the
// grammar does not know (a variance annotation, keyof readonly, an import type as a parameter's
// type), and the function stays analyzed.
func TestCodeTakenIntoAType(t *testing.T) {
	src := `function objectType(o: number) {
  let x = o;
  let v: { a: number
  if (x > 3) { x = 3; }
  return x;
}
function overload(o: number) {
  let x = o;
  function sig(a
  if (x > 3) { x = 3; }
  return x;
}
function alias(o: number) {
  let x = o;
  type T = (a
  if (x > 3) { x = 3; }
  return x;
}
function aliasBeforeAssignment(o: number) {
  let t = o;
  type L =
  t = t + 1;
  if (t > 1) t = 1;
  return t;
}
function aliasBeforeReturn(t: number) {
  t = t + 1;
  type L =
  return t;
}
function annotationBeforeIncrement(t: number) {
  let v:
  ++t;
  return t;
}
function keyofBeforeReturn(t: number) {
  t = t + 1;
  type K = keyof
  return t;
}
function conditionalBeforeReturn(t: number) {
  t = t + 1;
  type K = T extends string ?
  return t;
}
function grammarGaps() {
  interface Producer<out T> { get(): T }
  type Flags = { [K in keyof readonly any[]]?: boolean };
  interface J { visit<M = {}>(m?: import("./m").Visitor<M>): any; }
  type Route<T> = {
    <F extends object = T[]>(handler: F): -1
    <P = T>(handler: P): T
  };
  enum Op { delete = "DELETE" }
  type Deletes = Op.delete;
  let p: Producer<number> | Flags | J | Route<number> | Deletes | undefined;
  return p;
}
`
	for _, lang := range []analysis.Language{analysis.TypeScript, analysis.TSX} {
		checkDiagnostics(t, src, analysis.Options{Language: lang}, func(d analysis.Diagnostic) string {
			return " " + d.Message
		}, []string{
			"4:6 function objectType is not analyzed: syntax error at 4:6",
			"9:16 function overload is not analyzed: syntax error at 9:16",
			"15:13 function alias is not analyzed: syntax error at 15:13",
			"22:3 function aliasBeforeAssignment is not analyzed: syntax error at 22:3",
			"29:3 function aliasBeforeReturn is not analyzed: syntax error at 29:3",
			"33:3 function annotationBeforeIncrement is not analyzed: syntax error at 33:3",
			"39:3 function keyofBeforeReturn is not analyzed: syntax error at 39:3",
			"43:14 function conditionalBeforeReturn is not analyzed: syntax error at 43:14",
		})
	}
}
