package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestProgress opens a file whose analysis takes longer than the progress delay (here none)
// for a client that takes work-done progress: it is told of the analysis with $/progress, from
// begin to end, and with ssalens/status, analyzing and then done with the count of functions
// not analyzed. The file takes tens of milliseconds, the client's creating the progress token
// a fraction of one.
func TestProgress(t *testing.T) {
	c := startServer(t)
	c.server.progressDelay = 0
	c.initialize(map[string]any{"window": map[string]any{"workDoneProgress": true}}, nil)
	var sb strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&sb, "function f%d(a, b) {\n  let x = a;\n  if (b) { x = %d; }\n  return x;\n}\n", i, i)
	}
	c.open(fixtureURI, sb.String()+"function broken() { with (o) {} }\n")
	c.diagnostics(fixtureURI, 1)
	var kinds, messages []string
	_, status := c.waitFor(0, "the status when analyzed", func(m message) bool {
		var p statusParams
		return m.Method == "ssalens/status" && json.Unmarshal(m.Params, &p) == nil && !p.Analyzing
	})
	wantJSON(t, "status", status, `{"textDocument":{"uri":"file:///fixture.js"},"version":1,"analyzing":false,"notAnalyzed":1}`)
	c.waitFor(0, "the status while analyzing", func(m message) bool {
		var p statusParams
		return m.Method == "ssalens/status" && json.Unmarshal(m.Params, &p) == nil && p.Analyzing
	})
	c.waitFor(0, "the end of the progress", func(m message) bool {
		var p struct {
			Value struct{ Kind, Message string } `json:"value"`
		}
		if m.Method == "$/progress" && json.Unmarshal(m.Params, &p) == nil {
			kinds = append(kinds, p.Value.Kind)
			messages = append(messages, p.Value.Message)
		}
		return p.Value.Kind == "end"
	})
	if len(kinds) != 2 || kinds[0] != "begin" {
		t.Errorf("progress reports %v, want begin then end", kinds)
	} else if messages[0] != "analyzing fixture.js" {
		t.Errorf("progress begins with %q, want the file's name alone", messages[0])
	}
}

// TestStatusCountsKept: a function that a syntax error breaks while the version answers from
// the last one that parsed counts among those not analyzed, and among those kept, which show
// that version's SSA versions (a user test found VS Code's status item saying they had none).
func TestStatusCountsKept(t *testing.T) {
	c := startInitialized(t, nil, nil)
	c.open(fixtureURI, "function f(a) {\n  let x = a;\n  return x;\n}\n")
	c.diagnostics(fixtureURI, 1)
	c.change(fixtureURI, 2, contentChange{Range: span(2, 2, 2, 2), Text: "let ab "})
	_, status := c.waitFor(0, "the status of version 2", func(m message) bool {
		var p statusParams
		return m.Method == "ssalens/status" && json.Unmarshal(m.Params, &p) == nil && p.Version == 2 && !p.Analyzing
	})
	wantJSON(t, "status", status, `{"textDocument":{"uri":"file:///fixture.js"},"version":2,"analyzing":false,"notAnalyzed":1,"kept":1}`)
}
