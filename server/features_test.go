package server

import (
	"testing"

	"go.lsp.dev/protocol"
)

// fixture has an if, a loop, a useless assignment and a read in the temporal dead zone.
const fixture = `function f(c) {
  let x = 1;
  if (c) { x = 2; }
  return x;
}
function count(n) {
  let i = 0;
  while (i < n) {
    i = i + 1;
  }
  return i;
}
function g() {
  let y = 1;
  y = 2;
  return y + z;
  let z = 3;
}
`

const fixtureURI protocol.DocumentURI = "file:///fixture.js"

func openFixture(t *testing.T) *testClient {
	c := startInitialized(t, nil, nil)
	c.open(fixtureURI, fixture)
	return c
}

func TestInitialize(t *testing.T) {
	c := startServer(t)
	wantJSON(t, "initialize", c.initialize(nil, nil), `{
		"capabilities": {
			"textDocumentSync": {"openClose": true, "change": 2, "save": {"includeText": true}},
			"hoverProvider": true,
			"definitionProvider": true,
			"declarationProvider": true,
			"referencesProvider": true,
			"documentHighlightProvider": true,
			"codeLensProvider": {},
			"executeCommandProvider": {"commands": ["ssalens.showSSA"]},
			"inlayHintProvider": true,
			"positionEncoding": "utf-16"
		},
		"serverInfo": {"name": "ssalens", "version": "test"}
	}`)
}

// The whole file: a version after every occurrence, φs at the if's join and the loop header,
// each operand linked to its definition.
const fixtureHints = `[
	{"kind":1,"label":"₁","position":{"character":12,"line":0},"tooltip":"defines c₁"},
	{"kind":1,"label":"₁","position":{"character":7,"line":1},"tooltip":"defines x₁"},
	{"kind":1,"label":"₁","position":{"character":7,"line":2},"tooltip":"reads c₁, the parameter"},
	{"kind":1,"label":"₂","position":{"character":12,"line":2},"tooltip":"defines x₂"},
	{"label":[
		{"location":{"range":{"end":{"character":19,"line":2},"start":{"character":19,"line":2}},"uri":"file:///fixture.js"},"tooltip":"x₃ = φ of 2 values where control flow joins:\nx₁: from the branch where the condition fails (line 3), defined on line 2\nx₂: from the end of the then block (line 3), defined on line 3","value":"x₃"},
		{"value":" ← φ("},
		{"location":{"range":{"end":{"character":7,"line":1},"start":{"character":6,"line":1}},"uri":"file:///fixture.js"},"tooltip":"x₁: from the branch where the condition fails (line 3), defined on line 2","value":"₁"},
		{"value":","},
		{"location":{"range":{"end":{"character":12,"line":2},"start":{"character":11,"line":2}},"uri":"file:///fixture.js"},"tooltip":"x₂: from the end of the then block (line 3), defined on line 3","value":"₂"},
		{"value":")"}
	],"paddingLeft":true,"position":{"character":19,"line":2}},
	{"kind":1,"label":"₃","position":{"character":10,"line":3},"tooltip":"reads x₃, the φ on line 3"},
	{"kind":1,"label":"₁","position":{"character":16,"line":5},"tooltip":"defines n₁"},
	{"kind":1,"label":"₁","position":{"character":7,"line":6},"tooltip":"defines i₁"},
	{"kind":1,"label":"₂","position":{"character":10,"line":7},"tooltip":"reads i₂, the φ on line 8"},
	{"kind":1,"label":"₁","position":{"character":14,"line":7},"tooltip":"reads n₁, the parameter"},
	{"label":[
		{"location":{"range":{"end":{"character":17,"line":7},"start":{"character":17,"line":7}},"uri":"file:///fixture.js"},"tooltip":"i₂ = φ of 2 values where control flow joins:\ni₁: from the loop entry (line 8), defined on line 7\ni₃: from the loop's back edge (line 10), defined on line 9","value":"i₂"},
		{"value":" ← φ("},
		{"location":{"range":{"end":{"character":7,"line":6},"start":{"character":6,"line":6}},"uri":"file:///fixture.js"},"tooltip":"i₁: from the loop entry (line 8), defined on line 7","value":"₁"},
		{"value":","},
		{"location":{"range":{"end":{"character":5,"line":8},"start":{"character":4,"line":8}},"uri":"file:///fixture.js"},"tooltip":"i₃: from the loop's back edge (line 10), defined on line 9","value":"₃"},
		{"value":")"}
	],"paddingLeft":true,"position":{"character":17,"line":7}},
	{"kind":1,"label":"₃","position":{"character":5,"line":8},"tooltip":"defines i₃"},
	{"kind":1,"label":"₂","position":{"character":9,"line":8},"tooltip":"reads i₂, the φ on line 8"},
	{"kind":1,"label":"₂","position":{"character":10,"line":10},"tooltip":"reads i₂, the φ on line 8"},
	{"kind":1,"label":"₁","position":{"character":7,"line":13},"tooltip":"defines y₁"},
	{"kind":1,"label":"₂","position":{"character":3,"line":14},"tooltip":"defines y₂"},
	{"kind":1,"label":"₂","position":{"character":10,"line":15},"tooltip":"reads y₂, defined on line 15"},
	{"kind":1,"label":"₀","position":{"character":14,"line":15},"tooltip":"reads z₀, uninitialized (the temporal dead zone before its declaration)"}
]`

func TestInlayHints(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "whole file", c.inlayHints(fixtureURI), fixtureHints)
}

func TestInlayHintsOfRange(t *testing.T) {
	c := openFixture(t)
	got := c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}, "range": span(6, 0, 7, 100)})
	wantJSON(t, "lines 7 and 8", got, `[
		{"kind":1,"label":"₁","position":{"character":7,"line":6},"tooltip":"defines i₁"},
		{"kind":1,"label":"₂","position":{"character":10,"line":7},"tooltip":"reads i₂, the φ on line 8"},
		{"kind":1,"label":"₁","position":{"character":14,"line":7},"tooltip":"reads n₁, the parameter"},
		{"label":[
			{"location":{"range":{"end":{"character":17,"line":7},"start":{"character":17,"line":7}},"uri":"file:///fixture.js"},"tooltip":"i₂ = φ of 2 values where control flow joins:\ni₁: from the loop entry (line 8), defined on line 7\ni₃: from the loop's back edge (line 10), defined on line 9","value":"i₂"},
		{"value":" ← φ("},
		{"location":{"range":{"end":{"character":7,"line":6},"start":{"character":6,"line":6}},"uri":"file:///fixture.js"},"tooltip":"i₁: from the loop entry (line 8), defined on line 7","value":"₁"},
		{"value":","},
		{"location":{"range":{"end":{"character":5,"line":8},"start":{"character":4,"line":8}},"uri":"file:///fixture.js"},"tooltip":"i₃: from the loop's back edge (line 10), defined on line 9","value":"₃"},
		{"value":")"}
		],"paddingLeft":true,"position":{"character":17,"line":7}}
	]`)
	got = c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}, "range": span(4, 0, 4, 1)})
	wantJSON(t, "a line without hints", got, `[]`)
}

func TestHover(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "hover on the φ value i₂", c.mustCall("textDocument/hover", at(fixtureURI, 7, 9)), hoverJSON(
		"**i₂** — version 2 of `i` (let)\n\n`i₂ ← φ(₁,₃)` on line 8, where control flow joins:\n\n"+
			"- `i₁` from the loop entry (line 8): defined on line 7, `let i = 0;`\n"+
			"- `i₃` from the loop's back edge (line 10): defined on line 9, `i = i + 1;`\n\n3 uses (line 8, 9, 11).",
		span(7, 9, 7, 10)))
	wantJSON(t, "hover on a keyword", c.mustCall("textDocument/hover", at(fixtureURI, 0, 2)), `null`)
}

func TestDefinition(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "definition of the φ value i₂: both definitions reaching it", c.mustCall("textDocument/definition", at(fixtureURI, 7, 9)), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 6, "character": 6}, "end": {"line": 6, "character": 7}}},
		{"uri": "file:///fixture.js", "range": {"start": {"line": 8, "character": 4}, "end": {"line": 8, "character": 5}}}
	]`)
	wantJSON(t, "definition of y₂", c.mustCall("textDocument/definition", at(fixtureURI, 15, 9)), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 14, "character": 2}, "end": {"line": 14, "character": 3}}}
	]`)
	wantJSON(t, "definition at the location of the φ hint's x₃ part", c.mustCall("textDocument/definition", at(fixtureURI, 2, 19)), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 7}}},
		{"uri": "file:///fixture.js", "range": {"start": {"line": 2, "character": 11}, "end": {"line": 2, "character": 12}}}
	]`)
	wantJSON(t, "definition of nothing", c.mustCall("textDocument/definition", at(fixtureURI, 4, 0)), `null`)
}

func TestDeclaration(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "declaration of i at i₃", c.mustCall("textDocument/declaration", at(fixtureURI, 8, 4)), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 6, "character": 6}, "end": {"line": 6, "character": 7}}}
	]`)
	wantJSON(t, "declaration of nothing", c.mustCall("textDocument/declaration", at(fixtureURI, 4, 0)), `null`)
}

func TestReferences(t *testing.T) {
	c := openFixture(t)
	refs := func(line, char uint32, includeDeclaration bool) map[string]any {
		p := at(fixtureURI, line, char)
		p["context"] = map[string]any{"includeDeclaration": includeDeclaration}
		return p
	}
	wantJSON(t, "uses of i₂", c.mustCall("textDocument/references", refs(7, 9, true)), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 7, "character": 9}, "end": {"line": 7, "character": 10}}},
		{"uri": "file:///fixture.js", "range": {"start": {"line": 8, "character": 8}, "end": {"line": 8, "character": 9}}},
		{"uri": "file:///fixture.js", "range": {"start": {"line": 10, "character": 9}, "end": {"line": 10, "character": 10}}}
	]`)
	wantJSON(t, "y₂ with its definition", c.mustCall("textDocument/references", refs(15, 9, true)), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 14, "character": 2}, "end": {"line": 14, "character": 3}}},
		{"uri": "file:///fixture.js", "range": {"start": {"line": 15, "character": 9}, "end": {"line": 15, "character": 10}}}
	]`)
	wantJSON(t, "y₂ without its definition", c.mustCall("textDocument/references", refs(15, 9, false)), `[
		{"uri": "file:///fixture.js", "range": {"start": {"line": 15, "character": 9}, "end": {"line": 15, "character": 10}}}
	]`)
}

func TestDocumentHighlight(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "y₂: its definition (Write) and its use (Read)", c.mustCall("textDocument/documentHighlight", at(fixtureURI, 15, 9)), `[
		{"kind": 3, "range": {"start": {"line": 14, "character": 2}, "end": {"line": 14, "character": 3}}},
		{"kind": 2, "range": {"start": {"line": 15, "character": 9}, "end": {"line": 15, "character": 10}}}
	]`)
}

func TestDiagnostics(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "diagnostics", c.diagnostics(fixtureURI, 1), `{
		"uri": "file:///fixture.js",
		"version": 1,
		"diagnostics": [
			{"range": {"start": {"line": 13, "character": 6}, "end": {"line": 13, "character": 7}}, "severity": 4,
			 "code": "uselessAssignment", "source": "ssalens", "message": "y₁: this value of y is never read", "tags": [1]},
			{"range": {"start": {"line": 15, "character": 13}, "end": {"line": 15, "character": 14}}, "severity": 2,
			 "code": "temporalDeadZone", "source": "ssalens", "message": "z is read before its declaration (temporal dead zone): this throws a ReferenceError"}
		]
	}`)
}

func TestDiagnosticsClearedOnClose(t *testing.T) {
	c := openFixture(t)
	c.diagnostics(fixtureURI, 1)
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}})
	wantJSON(t, "after close", c.diagnostics(fixtureURI, 0), `{"uri": "file:///fixture.js", "diagnostics": []}`)
	if code := c.callError("textDocument/hover", at(fixtureURI, 7, 9)); code != -32602 {
		t.Errorf("hover on a closed document: code %d, want InvalidParams", code)
	}
}

// TestInlayHintNeedsRange: a request without its required range was answered with no hints,
// as if it had asked for an empty range at the start.
func TestInlayHintNeedsRange(t *testing.T) {
	c := openFixture(t)
	if code := c.callError("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}}); code != -32602 {
		t.Errorf("inlayHint without a range: code %d, want InvalidParams", code)
	}
}

const countSSA = `{"name": "count", "text": "function count\nbb0 (entry):\n  [0] Param n$1\n  [1] $0 = Const 0\n  [2] StoreLocal i$1 = $0\n  Goto bb1\nbb1 (while):\n  predecessors: bb0, bb2\n  i$2: phi(bb0: i$1, bb2: i$3)\n  [3] $1 = LoadLocal i$2\n  [4] $2 = LoadLocal n$1\n  [5] $3 = Binary $1 < $2\n  If $3 then bb2 else bb3\nbb2 (body):\n  predecessors: bb1\n  [6] $4 = LoadLocal i$2\n  [7] $5 = Const 1\n  [8] $6 = Binary $4 + $5\n  [9] StoreLocal i$3 = $6\n  Goto bb1\nbb3 (exit):\n  predecessors: bb1\n  [10] $7 = LoadLocal i$2\n  Return $7\n"}`

func TestShowSSA(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "ssalens/showSSA", c.mustCall("ssalens/showSSA", at(fixtureURI, 8, 4)), countSSA)
	wantJSON(t, "executeCommand with {textDocument, position}", c.mustCall("workspace/executeCommand", map[string]any{
		"command": "ssalens.showSSA", "arguments": []any{at(fixtureURI, 8, 4)}}), countSSA)
	wantJSON(t, "executeCommand with uri, position", c.mustCall("workspace/executeCommand", map[string]any{
		"command": "ssalens.showSSA", "arguments": []any{fixtureURI, pos(8, 4)}}), countSSA)
	if code := c.callError("workspace/executeCommand", map[string]any{"command": "ssalens.nope"}); code != -32602 {
		t.Errorf("unknown command: code %d, want InvalidParams", code)
	}
	if code := c.callError("workspace/executeCommand", map[string]any{"command": "ssalens.showSSA", "arguments": []any{}}); code != -32602 {
		t.Errorf("showSSA without arguments: code %d, want InvalidParams", code)
	}
}
