package server

import (
	"encoding/json"
	"testing"
)

func TestReachingDefinitionsAndValueReferences(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "ssalens/reachingDefinitions of i₂", c.mustCall("ssalens/reachingDefinitions", at(fixtureURI, 7, 9)), `[
		{"uri":"file:///fixture.js","range":{"start":{"line":6,"character":6},"end":{"line":6,"character":7}},"label":"i₁ — defined on line 7","detail":"let i = 0;"},
		{"uri":"file:///fixture.js","range":{"start":{"line":8,"character":4},"end":{"line":8,"character":5}},"label":"i₃ — defined on line 9","detail":"i = i + 1;"}
	]`)
	wantJSON(t, "ssalens/valueReferences of i₂", c.mustCall("ssalens/valueReferences", at(fixtureURI, 7, 9)), `[
		{"uri":"file:///fixture.js","range":{"start":{"line":7,"character":17},"end":{"line":7,"character":17}},"label":"i₂ ← φ(₁,₃) — φ on line 8","detail":"while (i < n) {"},
		{"uri":"file:///fixture.js","range":{"start":{"line":7,"character":9},"end":{"line":7,"character":10}},"label":"i₂ — read on line 8","detail":"while (i < n) {"},
		{"uri":"file:///fixture.js","range":{"start":{"line":8,"character":8},"end":{"line":8,"character":9}},"label":"i₂ — read on line 9","detail":"i = i + 1;"},
		{"uri":"file:///fixture.js","range":{"start":{"line":10,"character":9},"end":{"line":10,"character":10}},"label":"i₂ — read on line 11","detail":"return i;"}
	]`)
	wantJSON(t, "nothing at a keyword", c.mustCall("ssalens/valueReferences", at(fixtureURI, 0, 2)), `null`)
}

// TestStandardRequestsOff: with ssalens.navigation.standardRequests off, definition and
// references answer null, and ssalens' own requests still answer.
func TestStandardRequestsOff(t *testing.T) {
	c := startInitialized(t, nil, map[string]any{"ssalens": map[string]any{"navigation": map[string]any{"standardRequests": false}}})
	c.open(fixtureURI, fixture)
	refs := at(fixtureURI, 15, 9)
	refs["context"] = map[string]any{"includeDeclaration": true}
	wantJSON(t, "definition", c.mustCall("textDocument/definition", at(fixtureURI, 15, 9)), `null`)
	wantJSON(t, "references", c.mustCall("textDocument/references", refs), `null`)
	wantJSON(t, "ssalens/reachingDefinitions", c.mustCall("ssalens/reachingDefinitions", at(fixtureURI, 15, 9)), `[
		{"uri":"file:///fixture.js","range":{"start":{"line":14,"character":2},"end":{"line":14,"character":3}},"label":"y₂ — defined on line 15","detail":"y = 2;"}
	]`)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"ssalens.navigation.standardRequests": true}})
	c.waitFor(0, "the diagnostics after the change", func(m message) bool { return m.Method == "textDocument/publishDiagnostics" })
	wantJSON(t, "definition again", c.mustCall("textDocument/definition", at(fixtureURI, 15, 9)), `[
		{"uri":"file:///fixture.js","range":{"start":{"line":14,"character":2},"end":{"line":14,"character":3}}}
	]`)
}

const unrenamedFixture = `function f() {
  let n = 0;
  const inc = () => { n++; };
  inc();
  return n + window.x;
}
function g(o) { with (o) { return x; } }
`

func TestCodeLensAndUnrenamed(t *testing.T) {
	c := openFixture(t)
	const uri = "file:///unrenamed.js"
	c.open(uri, unrenamedFixture)
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
	details := "1 global:\n  window — a global: no declaration in this file\n1 context variable:\n  n — a context variable: it is assigned in the nested function inc\n" +
		"1 function not analyzed:\n  function g — not analyzed: contains a with statement at 7:17"
	wantJSON(t, "the code lens", c.mustCall("textDocument/codeLens", doc), `[
		{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"command":{
			"title":"ssalens: no versions for 1 global, 1 context variable, 1 function not analyzed",
			"command":"ssalens.showUnrenamed",
			"tooltip":`+quote(details)+`,
			"arguments":[{"uri":"file:///unrenamed.js","summary":"1 global, 1 context variable, 1 function not analyzed","details":`+quote(details)+`}]}}
	]`)
	wantJSON(t, "ssalens/unrenamed", c.mustCall("ssalens/unrenamed", doc), `{
		"summary":"1 global, 1 context variable, 1 function not analyzed",
		"details":`+quote(details)+`,
		"items":[
			{"uri":"file:///unrenamed.js","range":{"start":{"line":4,"character":13},"end":{"line":4,"character":19}},"label":"window — a global: no declaration in this file","detail":"return n + window.x;"},
			{"uri":"file:///unrenamed.js","range":{"start":{"line":1,"character":6},"end":{"line":1,"character":7}},"label":"n — a context variable: it is assigned in the nested function inc","detail":"let n = 0;"},
			{"uri":"file:///unrenamed.js","range":{"start":{"line":6,"character":16},"end":{"line":6,"character":38}},"label":"function g — not analyzed: contains a with statement at 7:17","detail":"function g(o) { with (o) { return x; } }"}
		]}`)
	wantJSON(t, "no lens where every variable is renamed", c.mustCall("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}}), `[]`)
	wantJSON(t, "ssalens/unrenamed of such a file", c.mustCall("ssalens/unrenamed", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}}), `{"summary":"","details":"","items":[]}`)
}

func TestUselessAssignmentSeverity(t *testing.T) {
	c := startInitialized(t, nil, map[string]any{"ssalens.diagnostics.uselessAssignmentSeverity": "warning"})
	c.open(fixtureURI, fixture)
	wantJSON(t, "a useless assignment as a warning", c.diagnostics(fixtureURI, 1), `{
		"uri": "file:///fixture.js",
		"version": 1,
		"diagnostics": [
			{"range": {"start": {"line": 13, "character": 6}, "end": {"line": 13, "character": 7}}, "severity": 2,
			 "code": "uselessAssignment", "source": "ssalens", "message": "y₁: this value of y is never read", "tags": [1]},
			{"range": {"start": {"line": 15, "character": 13}, "end": {"line": 15, "character": 14}}, "severity": 2,
			 "code": "temporalDeadZone", "source": "ssalens", "message": "z is read before its declaration (temporal dead zone): this throws a ReferenceError"}
		]
	}`)
}

func TestFunctionGraph(t *testing.T) {
	c := openFixture(t)
	wantJSON(t, "ssalens/functionGraph of f", c.mustCall("ssalens/functionGraph", at(fixtureURI, 3, 9)), `{
		"name":"f","range":{"start":{"line":0,"character":0},"end":{"line":4,"character":1}},"analyzed":true,
		"blocks":[
			{"id":0,"label":"entry","range":{"start":{"line":0,"character":11},"end":{"line":2,"character":8}},"lines":[
				{"kind":"instr","text":"Param c₁","range":{"start":{"line":0,"character":11},"end":{"line":0,"character":12}}},
				{"kind":"instr","text":"$0 = Const 1","range":{"start":{"line":1,"character":10},"end":{"line":1,"character":11}}},
				{"kind":"instr","text":"StoreLocal x₁ = $0","range":{"start":{"line":1,"character":6},"end":{"line":1,"character":7}}},
				{"kind":"instr","text":"$1 = LoadLocal c₁","range":{"start":{"line":2,"character":6},"end":{"line":2,"character":7}}},
				{"kind":"term","text":"If $1 then bb1 else bb2","range":{"start":{"line":2,"character":5},"end":{"line":2,"character":8}}}]},
			{"id":1,"label":"then","range":{"start":{"line":2,"character":11},"end":{"line":2,"character":19}},"lines":[
				{"kind":"instr","text":"$2 = Const 2","range":{"start":{"line":2,"character":15},"end":{"line":2,"character":16}}},
				{"kind":"instr","text":"StoreLocal x₂ = $2","range":{"start":{"line":2,"character":11},"end":{"line":2,"character":12}}},
				{"kind":"term","text":"Goto bb2","range":{"start":{"line":2,"character":19},"end":{"line":2,"character":19}}}]},
			{"id":2,"label":"join","range":{"start":{"line":3,"character":2},"end":{"line":3,"character":10}},"lines":[
				{"kind":"phi","text":"x₃ ← φ(₁,₂)","range":{"start":{"line":2,"character":19},"end":{"line":2,"character":19}},
				 "tooltip":"x₁ from bb0, from the branch where the condition fails (line 3)\nx₂ from bb1, from the end of the then block (line 3)"},
				{"kind":"instr","text":"$3 = LoadLocal x₃","range":{"start":{"line":3,"character":9},"end":{"line":3,"character":10}}},
				{"kind":"term","text":"Return $3","range":{"start":{"line":3,"character":2},"end":{"line":3,"character":2}}}]}
		],
		"edges":[{"from":0,"to":1,"label":"then"},{"from":0,"to":2,"label":"else"},{"from":1,"to":2}]
	}`)
}

// quote returns s as a JSON string.
func quote(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}
