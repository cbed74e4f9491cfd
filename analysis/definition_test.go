package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

// definitionTexts returns, for each definition Definition lists at the n-th occurrence (from 0)
// of sub in src, the source from the definition to the end of its line.
func definitionTexts(t *testing.T, src, sub string, n int) []string {
	t.Helper()
	off := -1
	for range n + 1 {
		i := strings.Index(src[off+1:], sub)
		if i < 0 {
			t.Fatalf("%q occurs fewer than %d times", sub, n+1)
		}
		off += 1 + i
	}
	r := analyzeDefinition(t, src)
	var got []string
	for _, d := range r.Definition(int32(off)) {
		line := src[d.Start:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		got = append(got, line)
	}
	return got
}

func analyzeDefinition(t *testing.T, src string) *analysis.Result {
	t.Helper()
	r, err := analysis.Analyze([]byte(src), analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, r)
	return r
}

// A context variable is not renamed: a call may change it. A read of it may see its
// declaration's value or any assignment, in its function or in a closure.
func TestDefinitionOfContextVariableListsEveryStore(t *testing.T) {
	const src = `function f(c) {
  let x = 1;
  const g = () => { x = 2; };
  if (c) { x = 3; }
  g();
  return x;
}
`
	got := definitionTexts(t, src, "x;", 0)
	want := []string{"x = 1;", "x = 2; };", "x = 3; }"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("Definition of the context variable x: %q, want %q", got, want)
	}
}

// A closure created before the only assignment of a captured variable may run before or
// after it: the read in the closure may see the declaration's undefined or the assignment.
func TestDefinitionOfVariableCapturedBeforeItsAssignment(t *testing.T) {
	const src = `function h() {
  var y;
  function k() { return y; }
  y = 1;
  return k();
}
`
	got := definitionTexts(t, src, "y; }", 0)
	want := []string{"y;", "y = 1;"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("Definition of y in the closure: %q, want %q", got, want)
	}
}

// Case tests run in order until one matches: an assignment in a later test happens only when
// the earlier tests fail, so after the switch the parameter's value may still be there.
func TestDefinitionAfterSwitchWithAssigningCaseTest(t *testing.T) {
	const src = `function f(a, b) {
  switch (a) {
    case 1:
    case (b = 2):
  }
  return b;
}
`
	got := definitionTexts(t, src, "b;", 0)
	want := []string{"b) {", "b = 2):"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("Definition of b after the switch: %q, want %q", got, want)
	}
}

// A var read where its declaration's undefined and its one assignment meet: both are defined
// at the same identifier, which Definition lists once.
func TestDefinitionListsEachSpanOnce(t *testing.T) {
	const src = "function f(c) {\n  if (c) { var x = 1; }\n  return x;\n}\n"
	got := definitionTexts(t, src, "x;", 0)
	if want := []string{"x = 1; }"}; strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("Definition of x: %q, want %q", got, want)
	}
}

// In sloppy code a plain function declared in a block is also a var of the enclosing function
// (ECMAScript Annex B.3.3): after the block, g is undefined until the declaration runs, then the
// function, both defined at its name. A generator or an async function makes no such var, nor
// does a function whose var would clash with a let of an enclosing block, nor any in strict
// code: then g after the block is the g of the function around.
func TestDefinitionOfFunctionDeclaredInBlock(t *testing.T) {
	const outer = "function outer() {\n  var g = 1;\n  function f(c) {\n    %s\n    return g;\n  }\n}\n"
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"a function", "if (c) { function g() {} }", []string{"g() {} }"}},
		{"in a switch", "switch (c) { case 1: function g() {} }", []string{"g() {} }"}},
		{"strict", "'use strict'; if (c) { function g() {} }", []string{"g = 1;"}},
		{"a generator", "if (c) { function* g() {} }", []string{"g = 1;"}},
		{"an async function", "if (c) { async function g() {} }", []string{"g = 1;"}},
		{"a let clash", "{ let g; { function g() {} } }", []string{"g = 1;"}},
		{"a for clash", "for (let g of []) { function g() {} }", []string{"g = 1;"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf(outer, tc.body)
			got := definitionTexts(t, src, "g;\n  }", 0) // return g;
			if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
				t.Errorf("Definition of g after the block: %q, want %q", got, tc.want)
			}
		})
	}
}
