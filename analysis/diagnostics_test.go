package analysis_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

// TestUselessAssignments checks the useless-assignment hints, as "line:col message", on
// small programs: the examples of ESLint's no-useless-assignment documentation, which both
// report alike, the disagreements with ESLint found on the npm corpus that were our bugs (see
// TestESLintComparison), and the documented differences of policy.
func TestUselessAssignments(t *testing.T) {
	tests := []struct {
		name string
		lang analysis.Language
		src  string
		want []string
	}{
		{
			name: "eslint docs",
			src: `function fn1() {
  let v = 'used';
  doSomething(v);
  v = 'unused';
}
function fn2() {
  let v = 'used';
  if (condition) {
    v = 'unused';
    return;
  }
  doSomething(v);
}
function fn3() {
  let v = 'used';
  if (condition) {
    doSomething(v);
  } else {
    v = 'unused';
  }
}
function fn4() {
  let v = 'unused';
  if (condition) {
    v = 'used';
    doSomething(v);
    return;
  }
}
function fn5() {
  let v = 'used';
  if (condition) {
    let v = 'used';
    console.log(v);
    v = 'unused';
  }
  console.log(v);
}`,
			want: []string{
				"4:3 v₂: this value of v is never read",
				"9:5 v₂: this value of v is never read",
				"19:5 v₂: this value of v is never read",
				"23:7 v₁: this value of v is never read",
				"35:5 v₂: this value of v is never read",
			},
		},
		{
			// Fixed: the closure is created (hoisted) before the definition, so its read does
			// not show that value, but a call after the definition reads it (lodash's debounce).
			name: "read by a function declared before the definition",
			src: `function debounce(o) {
  var wait;
  wait = o ? o.wait : wait;
  function remaining() { return wait; }
  return remaining;
}`,
		},
		{
			// Fixed: TypeScript's compiled enums and namespaces, read by functions created earlier.
			name: "read by an arrow created before the definition",
			src: `var get = () => Kind;
var Kind = ((Kind2) => Kind2)(Kind || {});
var NS;
((NS2) => {})(NS || (NS = {}));
function use() { return NS; }`,
		},
		{
			// Fixed: a loop whose test is a truthy literal has no exit edge; it is left by
			// break, return or throw only (react-dom's renderRootSync).
			name: "loops with a constant true test",
			src: `function a(g) {
  var m = g();
  while (1) { if (g()) { m = 2; break; } }
  return m;
}
function b(g) {
  var m = g();
  do { if (g()) { m = 2; break; } } while (true);
  return m;
}
function c(g) {
  var m = g();
  for (; "yes"; ) { m = g(); if (m) return m; }
  return m;
}
function d(g) {
  var m = g();
  while ((0x10)) { m = g(); if (m) break; }
  return m;
}`,
			want: []string{
				"2:7 m₁: this value of m is never read",
				"7:7 m₁: this value of m is never read",
				"12:7 m₁: this value of m is never read",
				"17:7 m₁: this value of m is never read",
			},
		},
		{
			// A false or unknown test may end the loop: m₁ reaches the return.
			name: "loops with other tests",
			src: `function a(g) {
  var m = g();
  while (0) { m = g(); }
  while (0n) { m = g(); }
  while ("") { m = g(); }
  while (g) { m = g(); }
  return m;
}`,
		},
		{
			// Fixed: a later assignment to a function or class declaration's binding is an
			// assignment like any other (TypeScript's Debug.log); the declarations are not.
			name: "assignments to function and class bindings",
			src: `function f(g) {
  function log() {}
  g(log);
  log = g.log || (g.log = {});
  class A {}
  g(A);
  A = null;
  function h() {}
  h = g;
  return h();
}`,
			want: []string{
				"4:3 log₂: this value of log is never read",
				"7:3 A₂: this value of A is never read",
			},
		},
		{
			// Fixed: a read of the class in a decorator, its own or a member's, made the
			// binding inside the class, set where the class is complete, look like a store
			// never read, with an empty span after the class.
			name: "a class read by decorators",
			lang: analysis.TypeScript,
			src: `function f() {
  @dec(C) class C {}
  class D { @dec(D) m() {} }
  return [C, D];
}`,
		},
		{
			// Fixed: enums and namespaces, which no code can assign, read before their
			// declaration (undefined, as a var) were reported as stores never read.
			name: "enums and namespaces read before their declaration",
			lang: analysis.TypeScript,
			src: `function f() {
  const a = E.A;
  enum E { A }
  const b = N.x;
  namespace N { export const x = 1; }
  return [a, b];
}`,
		},
		{
			// Documented difference: ESLint skips assignments in try blocks; we follow the edges
			// to the handler, which does not read x.
			name: "try block",
			src: `function f(g) {
  try {
    var x = 0;
    x = g();
    return x;
  } catch (e) {
    return null;
  }
}
function h(g) {
  var y = 0;
  try {
    y = 1;
    y = g();
  } catch (e) {}
  return y;
}`,
			want: []string{"3:9 x₁: this value of x is never read"},
		},
		{
			// Documented difference: names starting with _ are left out on purpose.
			name: "underscore names",
			src: `function f(g) {
  let _options = g();
  g(_options);
  _options = void 0;
}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := analysis.Options{Language: tt.lang}
			r, err := analysis.Analyze([]byte(tt.src), opts)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, r)
			checkAgrees(t, []byte(tt.src), opts, r)
			var got []string
			for _, d := range r.Diagnostics(true) {
				if d.Code != "uselessAssignment" {
					continue
				}
				line, col := r.Lines.Position(d.Span.Start, analysis.UTF8)
				got = append(got, fmt.Sprintf("%d:%d %s", line+1, col+1, d.Message))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}
