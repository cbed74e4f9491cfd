// Package pathological generates JavaScript inputs that stress the bounds of the analysis:
// deep nesting of every construct, long runs of one construct, and the error recoveries that
// once made the lowering exponential. Tests at every level (lower, analysis, server) take the
// same inputs, at a size n and at 2n, and check that the work grows linearly.
package pathological

import (
	"fmt"
	"strings"
)

// Input is one family of inputs.
type Input struct {
	Name string
	// Text returns the input of size n: n levels of nesting, or n repetitions.
	Text func(n int) string
	// Nesting marks inputs whose size is a nesting depth, which the lowering bounds at
	// lower.MaxNesting.
	Nesting bool
	// TooComplex marks inputs whose SSA form or dispatch blocks grow faster than the text,
	// which the work budget must stop (some function is not analyzed, as too complex).
	TooComplex bool
}

// nest returns n levels of open around mid, each closed by close.
func nest(open, mid, close string) func(int) string {
	return func(n int) string { return strings.Repeat(open, n) + mid + strings.Repeat(close, n) }
}

// run returns head, n times unit, then tail.
func run(head, unit, tail string) func(int) string {
	return func(n int) string { return head + strings.Repeat(unit, n) + tail }
}

// numbered returns head, unit formatted with 0…n-1, then tail.
func numbered(head, unit, tail string) func(int) string {
	return func(n int) string {
		var sb strings.Builder
		sb.WriteString(head)
		for i := range n {
			fmt.Fprintf(&sb, unit, i)
		}
		sb.WriteString(tail)
		return sb.String()
	}
}

// around returns head, the input of f, then tail.
func around(head string, f func(int) string, tail string) func(int) string {
	return func(n int) string { return head + f(n) + tail }
}

// join concatenates the inputs of several families of size n.
func join(parts ...func(int) string) func(int) string {
	return func(n int) string {
		var sb strings.Builder
		for _, p := range parts {
			sb.WriteString(p(n))
		}
		return sb.String()
	}
}

// Inputs are the families, by construct.
var Inputs = []Input{
	// Nesting, one construct at a time.
	{Name: "parentheses", Text: nest("(", "x", ")"), Nesting: true},
	{Name: "arrays", Text: nest("[", "x", "]"), Nesting: true},
	{Name: "objects", Text: nest("({a: ", "x", "})"), Nesting: true},
	{Name: "calls", Text: nest("f(", "x", ")"), Nesting: true},
	{Name: "arrows", Text: nest("() => ", "x", ""), Nesting: true},
	{Name: "arrow bodies", Text: nest("() => { let a = 1; return ", "a", "; }"), Nesting: true},
	{Name: "functions", Text: nest("function f(a) { a = 1; ", "a", "}"), Nesting: true},
	{Name: "classes", Text: nest("x = class { m() { return ", "x", "; } };"), Nesting: true},
	{Name: "ifs", Text: nest("if (x) { ", "x", "}"), Nesting: true},
	{Name: "blocks", Text: nest("{ x; ", "x", "}"), Nesting: true},
	{Name: "blocks with lets", Text: nest("{ let a; a; ", "x", "}"), Nesting: true},
	{Name: "while loops", Text: nest("while (x) { ", "x", "}"), Nesting: true},
	{Name: "for-of loops", Text: nest("for (const v of x) { v; ", "x", "}"), Nesting: true},
	{Name: "try catch", Text: nest("try { ", "x", "} catch (e) { e; }"), Nesting: true},
	{Name: "try finally", Text: nest("try { ", "x", "} finally { x; }"), Nesting: true},
	{Name: "switches", Text: nest("switch (x) { case 1: ", "x", "}"), Nesting: true},
	{Name: "ternaries", Text: nest("x ? ", "x", " : y"), Nesting: true},
	{Name: "templates", Text: nest("`${", "x", "}`"), Nesting: true},
	{Name: "JSX", Text: nest("<a>", "{x}", "</a>"), Nesting: true},
	{Name: "labels", Text: nest("l: { ", "break l;", "}"), Nesting: true},
	{Name: "direct evals", Text: nest("{ let a; eval(''); ", "x", "}"), Nesting: true},
	{Name: "closures reading outer", Text: around("function f() { var x = 1; ", nest("function g() { x; ", "x", "}"), "}"), Nesting: true},
	{Name: "arrows with an error below", Text: nest("() => ", ")", ""), Nesting: true},
	{Name: "unary chain with an error below", Text: nest("-(() => ", "(", ")"), Nesting: true},

	// Runs of invalid updates and assignments, which error recovery nests.
	{Name: "dash run", Text: run("a;", "-", "a;")},
	{Name: "decrements", Text: run("function f(a){ var x = a ", "-- ", "1; return x; }")},
	{Name: "postfix increments", Text: run("a", "++ ", "")},
	{Name: "prefix and postfix", Text: nest("--", "a", "--")},
	{Name: "assignment chains", Text: nest("(", "a", " = b)")},
	{Name: "compound assignments", Text: nest("(", "a", " += 1)")},

	// Long runs of one construct.
	{Name: "else if chain", Text: run("let x = 0; if (x) {}", " else if (x) { x = 1; }", " x;")},
	{Name: "switch cases", Text: run("let x; switch (x) {", " case 1: x = 2;", "} x;")},
	{Name: "loops on one line", Text: run("", "for (;;) { break; } ", "")},
	{Name: "labeled loops", Text: join(numbered("", "l%d: for (;;) ", "{ "), numbered("", "break l%d; ", "}"))},
	{Name: "joins read by let", Text: run("function f(c) { let x = 0; ", "if (c) x = 1; x; ", "}")},
	{Name: "declarations in one block", Text: numbered("", "let a%[1]d; a%[1]d = 1; a%[1]d; ", "")},
	{Name: "uses of arguments", Text: run("function f(a, b) { { ", "arguments; a; ", "} }")},
	{Name: "functions on one line", Text: run("", "function f(a) { while (a) a--; return a; } ", "")},

	// Growth faster than the text, which the work budget stops.
	{Name: "jumps out of nested finally", Text: join(numbered("function f(c) { ", "l%d: for (;;) ", "{ "), run("", "try { ", ""),
		numbered("", "if (c) break l%d; ", ""), run("", "} finally { } ", "} }")), TooComplex: true},
	{Name: "nested loops with a let each", Text: nest("for (let i = 0; i < n; i++) { ", "", "}"), TooComplex: true},
	{Name: "variables live through nested loops", Text: join(numbered("function f(c) { ", "var v%d = 0; while (c) { ", ""),
		numbered("", "v%d++; ", ""), run("", "}", "}")), TooComplex: true},
}
