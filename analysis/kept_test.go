package analysis_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

// TestKeptAnalysisOnlyInBrokenFunctions: with syntax errors, a document's answers may differ
// from a fresh analysis of its text only inside the functions an error touches (issue 13). A
// version whose fresh analysis has a newly broken function answers from the last good analysis
// moved through the edits since (moved.go), for every function: a function edited since then,
// which parses and which no error touches, loses the hints of its edited part. Found by
// server.TestEditingSessions (lodash.js, -edits=104 -seed=11: 2,950 hints missing across 5,000
// lines after an undo of one change, then an error in another function).
func TestKeptAnalysisOnlyInBrokenFunctions(t *testing.T) {
	src := "function a(x) {\n  let y = x;\n  if (x) y = 2;\n  return y;\n}\nfunction w(p) {\n  return p;\n}\n"
	doc := analyzedDocument(t, src)
	doc = replaceIn(doc, "if (x) y = 2;", "if (x) y = 3;") // typed on before it is analyzed
	doc = replaceIn(doc, "return p;", "return p +;")       // breaks w
	wantFreshHints(t, doc, "function w", "a")              // a's hints are those before w
}

// TestNoMoveFromAWorseAnalysis: the analysis a version answered with may have a syntax error
// of its own, when an edit since the last good analysis lies in a function that parses as it
// did (breaks). A later version whose fresh analysis breaks another function, but parses where
// that analysis did not, answers with its fresh analysis: moving the older one would answer
// nothing there. Found by server.TestEditingSessions (moment.js, seed 1) in some runs, as the
// analyses that ran depend on timing: the module's wrapper function lost its hints.
func TestNoMoveFromAWorseAnalysis(t *testing.T) {
	src := "var top = 1;\ntop = 2;\nfunction a(x) {\n  return x;\n}\nfunction w(p) {\n  return p;\n}\n"
	doc := analyzedDocument(t, src)
	doc = insertAt(doc, len(src), ")")                          // breaks the top level
	doc = replaceIn(doc, "return x;", "return x + 1;")          // in a, which parses as it did
	doc.Result()                                                // answers with its fresh analysis, the top level broken
	doc = replaceIn(doc, "return p;\n}\n)", "return p +;\n}\n") // the top level parses again; w breaks
	wantFreshHints(t, doc, "function a", "the top level")
}

// TestEditMakingAFunction: an edit that makes a function where there was none (`=>` typed into
// a name) is an edit inside the function around it. When that one parses as it did, the
// version answers with its fresh analysis, whatever another edit broke elsewhere; the last good
// analysis has no hints for the new function. Found by server.TestEditingSessions
// (three.module.js, -edits=200 -files=three.module -seed=6: `mat=>erial.isNodeMaterial`).
func TestEditMakingAFunction(t *testing.T) {
	src := "function a(xy) {\n  return xy;\n}\nfunction w(p) {\n  return p;\n}\n"
	doc := analyzedDocument(t, src)
	doc = replaceIn(doc, "return p;", "return p +;")                      // breaks w
	doc = insertAt(doc, strings.Index(string(doc.Text()), "xy;")+1, "=>") // x=>y: a returns a new arrow function
	wantFreshHints(t, doc, "function w", "a")
}

// TestKeptVariableUsedInBrokenCode: what broken code does with a variable of an enclosing
// function may change what fresh says about that variable everywhere (a closure's assignment
// makes it a context variable, without versions). A version that answers from the last good
// analysis keeps the variable's places: they are among Kept.
func TestKeptVariableUsedInBrokenCode(t *testing.T) {
	for _, tt := range []struct {
		name   string
		src    string
		before string   // the text the edit inserts before
		insert string   // what it inserts, which breaks a function
		places []string // the variable's places in the new text, each after the | of a snippet
	}{
		// An error swallows g's assignment of t, which leaves t with versions in fresh. Found by
		// server.TestEditingSessions (jquery.js, -edits=200 -files=jquery -seed=5: `table`,
		// which computeTableStyleTests uses).
		{"a use swallowed", "function f() {\n  var t = 1;\n  function g() { t = 2; }\n  return t;\n}\n",
			"t = 2", "#", []string{"|t = 1", "return |t"}},
		// Error recovery makes g's declaration of its own i an assignment of f's, which has no
		// versions in fresh. Found by server.TestEditingSessions (jquery.js, -edits=400
		// -files=all -seed=29, in some runs: `ilet q = 1;nsert`).
		{"a use made", "function f(o) {\n  var i;\n  for (i in o) use(i);\n  function g(s) {\n    var elems, insert = s, i = 0;\n    return i + insert;\n  }\n  return g;\n}\n",
			"nsert = s", "let q = 1;", []string{"for (|i in o)", "use(|i)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := analyzedDocument(t, tt.src)
			doc = insertAt(doc, strings.Index(tt.src, tt.before), tt.insert)
			r, fresh := doc.Result(), mustAnalyze(t, doc.Text(), analysis.JavaScript)
			if got, want := hintLabels(r, len(doc.Text())), hintLabels(fresh, len(doc.Text())); got == want {
				t.Fatalf("fresh answers as the last good analysis does (%q): the case is not what it was", got)
			}
			text := string(doc.Text())
			for _, place := range tt.places {
				at := int32(strings.Index(text, strings.Replace(place, "|", "", 1)) + strings.Index(place, "|"))
				if !slices.ContainsFunc(r.Kept(), func(s analysis.Span) bool { return s.Start <= at && at < s.End }) {
					t.Errorf("the variable at %q is not among the kept places %v", place, r.Kept())
				}
			}
		})
	}
}

// wantFreshHints fails unless the hints doc answers before the first end in its text (those of
// what, which no error touches) are those a fresh analysis of the text has.
func wantFreshHints(t *testing.T, doc *analysis.Document, end, what string) {
	t.Helper()
	at := strings.Index(string(doc.Text()), end)
	got, want := hintLabels(doc.Result(), at), hintLabels(mustAnalyze(t, doc.Text(), analysis.JavaScript), at)
	if got != want {
		t.Errorf("hints of %s, which no error touches:\n%s\nwant, as a fresh analysis has them:\n%s", what, got, want)
	}
}

// insertAt inserts text at offset at of d's text.
func insertAt(d *analysis.Document, at int, text string) *analysis.Document {
	next := string(d.Text()[:at]) + text + string(d.Text()[at:])
	return d.Edit([]byte(next), analysis.Edit{StartByte: uint32(at), OldEndByte: uint32(at), NewEndByte: uint32(at + len(text))})
}

func replaceIn(d *analysis.Document, old, new string) *analysis.Document {
	text := string(d.Text())
	i := strings.Index(text, old)
	next := text[:i] + new + text[i+len(old):]
	return d.Edit([]byte(next), analysis.Edit{StartByte: uint32(i), OldEndByte: uint32(i + len(old)), NewEndByte: uint32(i + len(new))})
}

func hintLabels(r *analysis.Result, end int) string {
	var out []string
	for _, h := range r.InlayHints(0, int32(end), analysis.HintOptions{Versions: true, Phis: true}) {
		out = append(out, fmt.Sprintf("%d %s", h.At, h.Label()))
	}
	return strings.Join(out, "\n")
}

// TestKeptHoverSaysSo: where a version answers from its last good analysis what its own
// analysis would answer otherwise, hover says so (issue 13): in the function an error breaks,
// and at the variables it declares, nested functions included; elsewhere, where the answers
// are the text's own, it does not.
func TestKeptHoverSaysSo(t *testing.T) {
	src := "function outer(p) {\n  var h = p;\n  if (p) h = 2;\n  function inner(q) {\n    return q + h;\n  }\n  return inner;\n}\n"
	doc := analyzedDocument(t, src)
	doc = replaceIn(doc, "return inner;", "return inner +;")
	r := doc.Result()
	for _, tt := range []struct {
		at   string // the hovered text: its first occurrence after the line start given
		kept bool
	}{
		{"h = p", true},   // outer's own code
		{"q + h", false},  // inner's parameter: inner parses as it did
		{"h;\n  }", true}, // outer's h, read in inner
	} {
		off := strings.Index(string(doc.Text()), tt.at)
		hover, _, ok := r.Hover(int32(off))
		if !ok {
			t.Fatalf("no hover at %q", tt.at)
		}
		if got := strings.Contains(hover, "From the last version that parsed"); got != tt.kept {
			t.Errorf("hover at %q says it is kept: %v, want %v:\n%s", tt.at, got, tt.kept, hover)
		}
	}
	if len(r.Kept()) == 0 {
		t.Errorf("Kept() is empty, want outer's own code")
	}
}

// TestKeptHoverNamesJumps: the hover of a version that answers from its last good analysis names
// an edge by the jump statement it leaves from, read in the text at the jump's moved place.
func TestKeptHoverNamesJumps(t *testing.T) {
	src := "function f(o) {\n  let k = 'none';\n  for (k in o) { if (k === 'x') break; }\n  return k;\n}\n"
	doc := analyzedDocument(t, src)
	doc = replaceIn(doc, "let k = 'none';", "let k = 'none'; +;")
	r := doc.Result()
	hover, _, ok := r.Hover(int32(strings.Index(string(doc.Text()), "k;\n}")))
	if !ok {
		t.Fatal("no hover at the k of return k")
	}
	for _, want := range []string{"From the last version that parsed", "- `k₃` from the break (line 3)"} {
		if !strings.Contains(hover, want) {
			t.Errorf("hover lacks %q:\n%s", want, hover)
		}
	}
}

// TestKeptDefinitionOfContextVariable: the stores listed for a variable that is not renamed
// come from the occurrence index, whose spans a moved version has already moved; they were
// moved a second time, and Go to Definition landed lines away.
func TestKeptDefinitionOfContextVariable(t *testing.T) {
	src := "function w(p) {\n  return p;\n}\nfunction f() {\n  let c = 0;\n  function inc() { c = c + 1; }\n  inc();\n  return c;\n}\n"
	doc := analyzedDocument(t, src)
	doc = replaceIn(doc, "return p;", "return p +\n\n\n;") // breaks w, moves f three lines down
	off := int32(strings.LastIndex(string(doc.Text()), "c;"))
	got, want := doc.Result().Definition(off), mustAnalyze(t, doc.Text(), analysis.JavaScript).Definition(off)
	if len(want) != 2 || !slices.Equal(got, want) {
		t.Errorf("definitions of c: %v, want %v, as a fresh analysis has them (the declaration and the store in inc)", got, want)
	}
}

// TestKeptAfterALineDeleted: while a function is broken (`let ab ` typed before a return),
// the line of a definition is deleted (a user test). The version answers from the last good
// analysis, and Go to Definition landed at the deletion's point, hover quoted the line there as
// the definition, and the syntax error was said to be there too, the last edit, though
// tree-sitter finds it inside the text typed before. Now the definition is left out, as
// references and highlights leave it, hover says the text was edited, and the error is where
// a fresh analysis has it.
func TestKeptAfterALineDeleted(t *testing.T) {
	src := "function f(a) {\n  let x = 1;\n  x = 2;\n  return x + a;\n}\n"
	doc := typeOneByOne(t, src, analysis.JavaScript, strings.Index(src, "return"), "let ab ") // breaks f
	doc = replaceIn(doc, "  x = 2;\n", "")
	r := doc.Result()
	off := int32(strings.Index(string(doc.Text()), "x + a"))
	if defs := r.Definition(off); len(defs) != 0 {
		t.Errorf("definitions of x: %v, want none: its definition was deleted", defs)
	}
	hover, _, _ := r.Hover(off)
	if want := "**x₂**"; !strings.HasPrefix(hover, want) || !strings.Contains(hover, "Defined on line 3: edited since the last version that parsed") {
		t.Errorf("hover of x: %q, want %s…, defined on line 3 in text edited since", hover, want)
	}
	if errs := syntaxErrors(r); len(errs) != 1 || !strings.HasPrefix(errs[0], "3:9 ") {
		t.Errorf("syntax errors %q, want one at 3:9, after ab, as a fresh analysis has it", errs)
	}

	// The join of an if statement deleted: the φ the return reads has no place left.
	src = "function g(a) {\n  let y = 1;\n  if (a) y = 2;\n  return y;\n}\n"
	doc = typeOneByOne(t, src, analysis.JavaScript, strings.Index(src, "return"), "let ab ")
	doc = replaceIn(doc, "  if (a) y = 2;\n", "")
	r = doc.Result()
	off = int32(strings.Index(string(doc.Text()), "y;"))
	for _, l := range slices.Concat(r.Definition(off), located(r.ValueReferences(off))) {
		if l.Start == l.End {
			t.Errorf("references or definition of y at the point %v, where the deleted if was", l)
		}
	}
}

// located returns the spans of ls.
func located(ls []analysis.Located) []analysis.Span {
	var spans []analysis.Span
	for _, l := range ls {
		spans = append(spans, l.Span)
	}
	return spans
}

// analyzedDocument returns a document of src whose analysis is done, the last good one for the
// edits that follow.
func analyzedDocument(t *testing.T, src string) *analysis.Document {
	t.Helper()
	doc := analysis.NewDocument([]byte(src), analysis.Options{})
	doc.Result()
	return doc
}

// TestErrorOfAWholeFile: an unclosed `{` can make the TypeScript grammar's tree one error node
// from the first byte to the last, and the hover and the syntax error of the version kept said
// "the syntax error at 1:1" (found by a user test in zod's schemas.ts). They now point at the
// edit that made the error. Typed one character at a time, each version analyzed, `s` keeps
// its version from the last version that parsed: `if (q) ` before `const s` no longer parses
// (TestDeclarationAsBody).
func TestErrorOfAWholeFile(t *testing.T) {
	src := "const f = (a) => {\n  const g = (x) => {\n    const s = x ? 1 : 2;\n    h({ ...(s ? { s } : {}) });\n    return x;\n  };\n};\n"
	doc := typeOneByOne(t, src, analysis.TypeScript, strings.Index(src, "    const s"), "    if (q) {\n")
	r := doc.Result()
	text := string(doc.Text())
	hover, _, _ := r.Hover(int32(strings.Index(text, "...(s") + 4))
	if want := "**s₁**"; !strings.HasPrefix(hover, want) || !strings.Contains(hover, "the syntax error at 3:") {
		t.Errorf("hover of s: %q, want %s… and the syntax error on line 3", hover, want)
	}
	if errs := syntaxErrors(r); len(errs) != 1 || !strings.HasPrefix(errs[0], "3:") {
		t.Errorf("syntax errors %q, want one on line 3", errs)
	}
}

// TestNewFunctionTookCode: typing an arrow function before a statement makes that statement,
// once `=>` is typed, the body of a new arrow function, broken. That version analyzed `list`
// without the statement, its fresh analysis was shown (the edit is inside `list`, which parses
// as it did), and became the version kept for the next ones: from `{` to `}`, with `list` now
// broken, the hints of `list` were gone (this session's user test, in TSX, where `<U,>(u)`
// alone does not parse). The function around a new broken function that spans code the edits
// did not write now counts as reshaped: each version answers from the one before `=>`.
func TestNewFunctionTookCode(t *testing.T) {
	src := "function list(items: number[]) {\n  let total = items.length;\n  if (total > 3) {\n    total = 3;\n  }\n  return total;\n}\n"
	for _, tc := range []struct {
		lang  analysis.Language
		typed string
	}{
		{analysis.TSX, "\n  const pick = <U,>(u) => { return u; };"},
		{analysis.TypeScript, "\n  const pick = (u: number) => { return u; };"},
	} {
		doc := analysis.NewDocument([]byte(src), analysis.Options{Language: tc.lang})
		doc.Result()
		at := strings.Index(src, "\n  if")
		for i, c := range tc.typed {
			doc = insertAt(doc, at+i, string(c))
			if hints := hintLabels(doc.Result(), len(doc.Text())); !strings.Contains(hints, "total₃ ← φ(₁,₂)") {
				t.Errorf("%v, %q typed: hints\n%s\nlack total's φ", tc.lang, tc.typed[:i+1], hints)
			}
		}
		doc.Close()
	}
}

// TestErrorOfAWholeStatement: a generic arrow typed into a TSX function can make the whole
// statement that declares the function one error node, and the syntax error of the version
// kept said "at 2:1", seven lines above the edit (this session's user test). An error that
// holds the last edit now points at the edit, as one of a whole function did
// (TestErrorOfAWholeFile).
func TestErrorOfAWholeStatement(t *testing.T) {
	src := `import * as React from "react";
export function List<T>({ items }: { items: T[] }) {
  let count = 0;
  const rows = items.map((it, i) => {
    count += 1;
    return <li key={i}>{String(it)}</li>;
  });
  let total = count;
  if (total > 3) {
    total = 3;
  }
  return <ul data-n={total}>{rows}</ul>;
}
export const ident = <T,>(x: T) => {
  let y = x;
  y = y ?? x;
  return y;
};
function later(a: number) {
  let b = a;
  for (let i = 0; i < a; i++) {
    b += i;
  }
  return b;
}
`
	doc := typeOneByOne(t, src, analysis.TSX, strings.Index(src, "\n  if (total"), "\n  const pick = <U,>(u: U): U ")
	if errs := syntaxErrors(doc.Result()); len(errs) != 1 || !strings.HasPrefix(errs[0], "9:") {
		t.Errorf("syntax errors %q, want one on line 9, the edited one", errs)
	}
}

// TestErrorOfAMissingToken: typing an if's { into a function makes tree-sitter wait for its }
// until the end of the file, where it puts the missing token, and the syntax error of the
// version kept was there, six lines below the edit (last session's second user test). A
// token missing after the last edit, in the broken function, now points at the edit; at its
// text, when it starts with a line break (this session's user test: a line opened with o in
// Neovim and typed is one edit, and the error was at the end of the line above).
func TestErrorOfAMissingToken(t *testing.T) {
	src := "function later(a) {\n  let b = a;\n  for (let i = 0; i < a; i++) {\n    b += i;\n  }\n  return b;\n}\nfunction other(c) {\n  let d = c;\n  return d;\n}\n"
	at, text := strings.Index(src, "\n  return b"), "\n  if (b > 1) {"
	oneEdit := analysis.NewDocument([]byte(src), analysis.Options{})
	oneEdit.Result()
	oneEdit = insertAt(oneEdit, at, text)
	t.Cleanup(oneEdit.Close)
	for _, c := range []struct {
		how  string
		doc  *analysis.Document
		want string
	}{
		{"typed one by one", typeOneByOne(t, src, analysis.JavaScript, at, text), "6:14"},
		{"typed as one edit", oneEdit, "6:3"},
	} {
		if errs := syntaxErrors(c.doc.Result()); len(errs) != 1 || !strings.HasPrefix(errs[0], c.want+" syntax error at "+c.want+": function later") {
			t.Errorf("%s: syntax errors %q, want one at %s, in function later", c.how, errs, c.want)
		}
	}
}

// typeOneByOne opens src in lang and types text at offset at one character at a time, each
// version analyzed; it returns the last version.
func typeOneByOne(t *testing.T, src string, lang analysis.Language, at int, text string) *analysis.Document {
	doc := analysis.NewDocument([]byte(src), analysis.Options{Language: lang})
	doc.Result()
	for i, c := range text {
		doc = insertAt(doc, at+i, string(c))
		doc.Result()
	}
	t.Cleanup(doc.Close)
	return doc
}

// syntaxErrors returns r's syntax-error diagnostics as line:column message.
func syntaxErrors(r *analysis.Result) []string {
	var errs []string
	for _, d := range r.Diagnostics(true) {
		if d.Code == "syntaxError" {
			line, col := r.Lines.Position(d.Span.Start, analysis.UTF8)
			errs = append(errs, fmt.Sprintf("%d:%d %s", line+1, col+1, d.Message))
		}
	}
	return errs
}

// TestKeptFunctionViews: while an edit breaks a function, the version answers from its last
// good analysis, and the function's SSA view and the list of what has no versions say so. The
// SSA view looked for the function at its span moved like a token's, which an edit inside it
// shrinks to the edit's point, and found none ("No function at line 3"); the list and the code
// lens said nothing was left unanalyzed, beside a status that counted the syntax error (a user
// test in VS Code).
func TestKeptFunctionViews(t *testing.T) {
	src := "function pad() { return 1; }\nfunction f(a) {\n  let x = 1;\n  if (a) { x = 2; }\n  return x;\n}\n"
	doc := analyzedDocument(t, src)
	doc = insertAt(doc, strings.Index(src, "  return x;"), "  if (x > 1) {\n")
	r := doc.Result()
	at := int32(strings.Index(string(doc.Text()), "x = 1"))
	const note = "From the last version that parsed: function f has a syntax error now, at 5:3."

	g, ok := r.FunctionGraph(at)
	if !ok || g.Name != "f" || !g.Analyzed || g.Kept != note || len(g.Blocks) == 0 {
		t.Errorf("graph at x = 1: %v %q analyzed %v, %d blocks, kept %q; want f's last good graph, kept %q", ok, g.Name, g.Analyzed, len(g.Blocks), g.Kept, note)
	}
	if end := int32(len(doc.Text()) - 1); g.Span.Start != int32(strings.Index(src, "function f")) || g.Span.End != end {
		t.Errorf("graph's span %v, want from f's start to the end of the text (%d), as error recovery grew it", g.Span, end)
	}
	if name, text, ok := r.ShowSSA(at); !ok || name != "f" || !strings.HasPrefix(text, "function f\n  "+note+"\nbb0 (entry):\n") {
		t.Errorf("ShowSSA at x = 1: %v %q\n%s", ok, name, text)
	}
	if g, _ := r.FunctionGraph(int32(strings.Index(src, "return 1"))); g.Name != "pad" || g.Kept != "" {
		t.Errorf("graph of pad, which parses: %q kept %q", g.Name, g.Kept)
	}

	u, diagnosed := r.Unrenamed(), 0
	for _, d := range r.Diagnostics(false) {
		if d.Code == "syntaxError" || d.Code == "notAnalyzed" {
			diagnosed++
		}
	}
	want := "function f — not analyzed: syntax error at 5:3; it shows the last version that parsed"
	if len(u.Items) != 1 || u.Items[0].Label != want || u.Summary != "1 function not analyzed" || diagnosed != 1 {
		t.Errorf("unrenamed %q: %v, beside %d diagnostics of functions not analyzed; want one item %q", u.Summary, u.Items, diagnosed, want)
	}
}

// TestKeptDiagnostics: a version that answers from the last good analysis reports that
// analysis's findings, made once for it, moved with the text: those of a function no error
// touches are a fresh analysis's, and in the function an edit broke, those of code the edit
// touched are left out (the useless assignment to q), as that code's hints are, and the others
// move with the text (the read of r in its dead zone).
func TestKeptDiagnostics(t *testing.T) {
	src := "function w(p) {\n  let q = 1;\n  q = p;\n  return r + q;\n  let r;\n}\n" +
		"function a(x) {\n  let y = 1;\n  y = x;\n  return z + y;\n  let z;\n}\n"
	diagnostics := func(r *analysis.Result, from, to string) []string {
		var ds []string
		text := string(r.Src)
		start, end := strings.Index(text, from), len(text)
		if to != "" {
			end = strings.Index(text, to)
		}
		for _, d := range r.Diagnostics(true) {
			if s := int(d.Span.Start); start <= s && s < end && d.Code != "syntaxError" {
				ds = append(ds, fmt.Sprintf("%d-%d %s %s", d.Span.Start, d.Span.End, d.Code, d.Message))
			}
		}
		return ds
	}
	doc := analyzedDocument(t, src)
	doc.Result().Diagnostics(true)
	doc = replaceIn(doc, "q = 1;", "q! = 1;") // breaks w
	fresh := mustAnalyze(t, doc.Text(), analysis.JavaScript)
	if got, want := diagnostics(doc.Result(), "function a", ""), diagnostics(fresh, "function a", ""); !slices.Equal(got, want) || len(want) != 2 {
		t.Errorf("diagnostics of a, which no error touches:\n%s\nwant, as a fresh analysis has them (a useless assignment and a read in the dead zone):\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	r := strings.Index(string(doc.Text()), "r + q")
	want := []string{fmt.Sprintf("%d-%d temporalDeadZone r is read before its declaration (temporal dead zone): this throws a ReferenceError", r, r+1)}
	if got := diagnostics(doc.Result(), "function w", "function a"); !slices.Equal(got, want) {
		t.Errorf("diagnostics of w, which the edit broke:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestKeptHoverListsCapturedReads: the hover of a value read by a closure lists that read, in
// a version that answers from the last good analysis as in a fresh analysis of its text, where
// no error touches the value's function. The moved version asks the analysis it answers from
// for the reads, instead of turning all of them around when the text broke.
func TestKeptHoverListsCapturedReads(t *testing.T) {
	src := "function w(p) {\n  return p;\n}\nfunction a() {\n  let v = 1;\n  return function () { return v; };\n}\n"
	doc := analyzedDocument(t, src)
	doc = replaceIn(doc, "return p;", "return p +;") // breaks w
	at := int32(strings.Index(string(doc.Text()), "v = 1"))
	got, _, _ := doc.Result().Hover(at)
	want, _, _ := mustAnalyze(t, doc.Text(), analysis.JavaScript).Hover(at)
	if got != want || !strings.Contains(want, "line 6") {
		t.Errorf("hover of v:\n%s\nwant, as a fresh analysis has it, with the read on line 6:\n%s", got, want)
	}
}
