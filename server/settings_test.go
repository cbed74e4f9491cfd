package server

import (
	"github.com/ssalens/ssalens/analysis"

	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestSettingsForms(t *testing.T) {
	tests := []struct {
		json    string
		change  func(*settings) // of the defaults
		ignored []string
	}{
		{`null`, func(*settings) {}, nil},
		{`{"ssalens":{"inlayHints":{"versions":false}}}`, func(s *settings) { s.hints.Versions = false }, nil},
		{`{"ssalens.inlayHints.phis":false,"ssalens.diagnostics.uselessAssignment":false}`, func(s *settings) { s.hints.Phis, s.uselessAssignments = false, false }, nil},
		{`{"ssalens":{"inlayHints.versions":false,"diagnostics":{"uselessAssignment":false}}}`, func(s *settings) { s.hints.Versions, s.uselessAssignments = false, false }, nil},
		{`{"inlayHints":{"phis":false}}`, func(s *settings) { s.hints.Phis = false }, nil},
		{`{"ssalens":{"inlayHints":{"versions":"no","phis":0}},"other":{"x":false}}`, func(*settings) {},
			[]string{`ssalens.inlayHints.phis: 0`, `ssalens.inlayHints.versions: "no"`}},
		{`{"ssalens":{"inlayHints":{"scope":"function","maxPerLine":4,"phiOnly":true}}}`, func(s *settings) {
			s.hints.Scope, s.hints.MaxPerLine, s.hints.PhiOnly = analysis.ScopeFunction, 4, true
		}, nil},
		{`{"ssalens.inlayHints.scope":"variable"}`, func(s *settings) { s.hints.Scope = analysis.ScopeVariable }, nil},
		{`{"ssalens":{"inlayHints":{"scope":"line","maxPerLine":-1}}}`, func(*settings) {},
			[]string{`ssalens.inlayHints.maxPerLine: -1`, `ssalens.inlayHints.scope: "line"`}},
		{`{"ssalens":{"inlayHints":{"maxPerLine":2.5}}}`, func(*settings) {}, []string{`ssalens.inlayHints.maxPerLine: 2.5`}},
		{`{"ssalens":{"diagnostics":{"uselessAssignmentSeverity":"warning"}}}`, func(s *settings) { s.uselessSeverity = analysis.SeverityWarning }, nil},
		{`{"ssalens":{"diagnostics":{"uselessAssignmentSeverity":"loud"}}}`, func(*settings) {},
			[]string{`ssalens.diagnostics.uselessAssignmentSeverity: "loud"`}},
		{`{"ssalens":{"navigation":{"standardRequests":false}}}`, func(s *settings) { s.standardRequests = false }, nil},
	}
	for _, tt := range tests {
		var v any
		if err := json.Unmarshal([]byte(tt.json), &v); err != nil {
			t.Fatal(err)
		}
		want := defaultSettings
		tt.change(&want)
		got, ignored := defaultSettings.with(v)
		if got != want {
			t.Errorf("%s: got %+v, want %+v", tt.json, got, want)
		}
		if !slices.Equal(ignored, tt.ignored) {
			t.Errorf("%s: ignored %q, want %q", tt.json, ignored, tt.ignored)
		}
	}
	if got, _ := (settings{}).with(map[string]any{"ssalens": map[string]any{"inlayHints": map[string]any{"phis": true}}}); got != (settings{hints: analysis.HintOptions{Phis: true}}) {
		t.Errorf("settings a change does not name must keep their value: %+v", got)
	}
}

func TestInitializationOptions(t *testing.T) {
	c := startInitialized(t, nil, map[string]any{"ssalens": map[string]any{"inlayHints": map[string]any{"versions": false}}})
	c.open(fixtureURI, fixture)
	got := c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}, "range": span(0, 0, 5, 0)})
	// Without version hints, a φ names the lines its operands are defined on.
	wantJSON(t, "φ hints only", got, `[
		{"label":[
			{"location":{"range":{"end":{"character":19,"line":2},"start":{"character":19,"line":2}},"uri":"file:///fixture.js"},"tooltip":"x₃ = φ of 2 values where control flow joins:\nx₁: from the branch where the condition fails (line 3), defined on line 2\nx₂: from the end of the then block (line 3), defined on line 3","value":"x"},
		{"value":" ← φ("},
		{"location":{"range":{"end":{"character":7,"line":1},"start":{"character":6,"line":1}},"uri":"file:///fixture.js"},"tooltip":"x₁: from the branch where the condition fails (line 3), defined on line 2","value":"L2"},
		{"value":","},
		{"location":{"range":{"end":{"character":12,"line":2},"start":{"character":11,"line":2}},"uri":"file:///fixture.js"},"tooltip":"x₂: from the end of the then block (line 3), defined on line 3","value":"L3"},
		{"value":")"}
		],"paddingLeft":true,"position":{"character":19,"line":2}}
	]`)

	c = startInitialized(t, nil, map[string]any{"ssalens.inlayHints.phis": false})
	c.open(fixtureURI, fixture)
	got = c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}, "range": span(2, 0, 3, 0)})
	wantJSON(t, "version hints only", got, `[
		{"kind":1,"label":"₁","position":{"character":7,"line":2},"tooltip":"reads c₁, the parameter"},
		{"kind":1,"label":"₂","position":{"character":12,"line":2},"tooltip":"defines x₂"}
	]`)
}

func TestDidChangeConfiguration(t *testing.T) {
	for _, refreshSupport := range []bool{true, false} {
		c := startInitialized(t, map[string]any{"workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": refreshSupport}}}, nil)
		c.open(fixtureURI, fixture)
		c.diagnostics(fixtureURI, 1)
		before := c.count("")
		c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"ssalens": map[string]any{
			"diagnostics": map[string]any{"uselessAssignment": false}, "inlayHints.versions": false}}})
		wantJSON(t, "diagnostics without useless assignments", c.diagnosticsAfter(before, fixtureURI, 1), `{
			"uri": "file:///fixture.js",
			"version": 1,
			"diagnostics": [
				{"range": {"start": {"line": 15, "character": 13}, "end": {"line": 15, "character": 14}}, "severity": 2,
				 "code": "temporalDeadZone", "source": "ssalens", "message": "z is read before its declaration (temporal dead zone): this throws a ReferenceError"}
			]
		}`)
		got := c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": fixtureURI}, "range": span(13, 0, 16, 0)})
		wantJSON(t, "no version hints", got, `[]`)
		if refreshSupport {
			c.waitFor(before, "workspace/inlayHint/refresh", func(m message) bool { return m.Method == "workspace/inlayHint/refresh" })
		} else if n := c.count("workspace/inlayHint/refresh"); n != 0 {
			t.Errorf("%d refresh requests to a client without refreshSupport", n)
		}
	}
}

// TestIgnoredSettingsShown: a setting whose value is of the wrong type or out of range was
// ignored without a word, from initializationOptions and didChangeConfiguration alike.
func TestIgnoredSettingsShown(t *testing.T) {
	c := startInitialized(t, nil, map[string]any{"ssalens": map[string]any{"inlayHints": map[string]any{"scope": "banana"}}})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"ssalens": map[string]any{"inlayHints": map[string]any{"maxPerLine": -3, "phis": false}}}})
	for i, want := range []string{`ssalens.inlayHints.scope: \"banana\"`, `ssalens.inlayHints.maxPerLine: -3`} {
		_, shown := c.waitFor(0, "window/showMessage "+want, func(m message) bool {
			return m.Method == "window/showMessage" && strings.Contains(string(m.Params), want)
		})
		if !strings.Contains(string(shown), `"type":2`) {
			t.Errorf("message %d: %s, want a warning", i, shown)
		}
	}
	if n := c.count("window/showMessage"); n != 2 {
		t.Errorf("%d window messages, want 2", n)
	}
}
