package server

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// settings are the user's choices, from initializationOptions and
// workspace/didChangeConfiguration.
type settings struct {
	hints              analysis.HintOptions // ssalens.inlayHints.*; Cursor is set per request
	uselessAssignments bool                 // ssalens.diagnostics.uselessAssignment
	// uselessSeverity is the severity of useless-assignment findings
	// (ssalens.diagnostics.uselessAssignmentSeverity), hint unless the user wants them listed
	// with the problems.
	uselessSeverity analysis.Severity
	// standardRequests answers textDocument/definition and references
	// (ssalens.navigation.standardRequests); users who prefer their editor's own answers there
	// turn it off and use ssalens/reachingDefinitions and ssalens/valueReferences.
	standardRequests bool
}

var defaultSettings = settings{hints: analysis.HintOptions{Versions: true, Phis: true}, uselessAssignments: true,
	uselessSeverity: analysis.SeverityHint, standardRequests: true}

// settingKeys set each setting, by its key without the "ssalens." prefix, from a JSON value,
// and report whether they took it: a value of the wrong type or out of range is ignored.
var settingKeys = map[string]func(s *settings, v any) bool{
	"inlayHints.versions":                   boolSetting(func(s *settings) *bool { return &s.hints.Versions }),
	"inlayHints.phis":                       boolSetting(func(s *settings) *bool { return &s.hints.Phis }),
	"inlayHints.phiOnly":                    boolSetting(func(s *settings) *bool { return &s.hints.PhiOnly }),
	"diagnostics.uselessAssignment":         boolSetting(func(s *settings) *bool { return &s.uselessAssignments }),
	"navigation.standardRequests":           boolSetting(func(s *settings) *bool { return &s.standardRequests }),
	"inlayHints.scope":                      scopeSetting,
	"inlayHints.maxPerLine":                 maxPerLineSetting,
	"diagnostics.uselessAssignmentSeverity": severitySetting,
}

func boolSetting(field func(*settings) *bool) func(*settings, any) bool {
	return func(s *settings, v any) bool {
		on, ok := v.(bool)
		if ok {
			*field(s) = on
		}
		return ok
	}
}

// scopeSetting takes file, function or variable.
func scopeSetting(s *settings, v any) bool {
	name, _ := v.(string)
	scope, ok := analysis.ParseScope(name)
	if ok {
		s.hints.Scope = scope
	}
	return ok
}

// maxPerLineSetting takes a whole number, 0 for no cap.
func maxPerLineSetting(s *settings, v any) bool {
	n, ok := v.(float64)
	if ok = ok && n >= 0 && n == float64(int(n)); ok {
		s.hints.MaxPerLine = int(n)
	}
	return ok
}

// severitySetting takes hint, information, warning or error.
func severitySetting(s *settings, v any) bool {
	name, _ := v.(string)
	for sev := analysis.SeverityError; sev <= analysis.SeverityHint; sev++ {
		if sev.String() == name {
			s.uselessSeverity = sev
			return true
		}
	}
	return false
}

// with returns s changed by the settings in v, a JSON value such as
// {"ssalens":{"inlayHints":{"versions":false}}} or {"ssalens.inlayHints.versions":false}: objects
// and dotted keys mix freely, the "ssalens" prefix may be left out, and settings that v does
// not name keep their value. It also returns the values it ignored, those of known settings
// that are of the wrong type or out of range, each as key: value, in the order of the keys.
func (s settings) with(v any) (settings, []string) {
	flat := map[string]any{}
	flatten("", v, flat)
	var ignored []string
	for _, key := range slices.Sorted(maps.Keys(flat)) {
		name := strings.TrimPrefix(key, "ssalens.")
		if set := settingKeys[name]; set != nil && !set(&s, flat[key]) {
			value, _ := json.Marshal(flat[key])
			ignored = append(ignored, "ssalens."+name+": "+string(value))
		}
	}
	return s, ignored
}

// warnIgnoredSettings tells the user which settings' values were ignored, if any.
func (s *Server) warnIgnoredSettings(ignored []string) {
	if len(ignored) == 0 {
		return
	}
	msg := "ssalens: ignored settings whose value is of the wrong type or out of range: " + strings.Join(ignored, ", ")
	s.logf("%s", msg)
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg})
}

// flatten records the leaves of v under their dotted paths.
func flatten(path string, v any, into map[string]any) {
	obj, ok := v.(map[string]any)
	if !ok {
		if path != "" {
			into[path] = v
		}
		return
	}
	for k, child := range obj {
		if path != "" {
			k = path + "." + k
		}
		flatten(k, child, into)
	}
}

type didChangeConfigurationParams struct {
	Settings any `json:"settings"`
}

// didChangeConfiguration applies the new settings, asks the client to fetch inlay hints again
// and re-publishes diagnostics.
func (s *Server) didChangeConfiguration(_ context.Context, params json.RawMessage) error {
	var p didChangeConfigurationParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	var uris []protocol.DocumentURI
	var ignored []string
	s.update(func(st *snapshot) {
		st.settings, ignored = st.settings.with(p.Settings)
		for uri := range st.files {
			uris = append(uris, uri)
		}
	})
	s.warnIgnoredSettings(ignored)
	s.diagnostics.add(uris...)
	if s.client.inlayHintRefresh {
		s.refreshInlayHints()
	}
	return nil
}

// refreshInlayHints asks the client to fetch inlay hints again, without waiting for its answer:
// a client may answer late or never, and nothing may wait on it (a publisher of diagnostics
// that waited stopped for good when a client did not answer). While one request is unanswered,
// the next ones are folded into one, sent once it is answered, so that a client that never
// answers costs one goroutine.
func (s *Server) refreshInlayHints() {
	s.refresh.Lock()
	defer s.refresh.Unlock()
	if s.refresh.pending {
		s.refresh.again = true
		return
	}
	s.refresh.pending = true
	go func() {
		for {
			if _, err := s.conn.Call(s.ctx, "workspace/inlayHint/refresh", nil, nil); err != nil {
				s.logf("workspace/inlayHint/refresh: %v", err)
			}
			s.refresh.Lock()
			again := s.refresh.again
			s.refresh.pending, s.refresh.again = again, false
			s.refresh.Unlock()
			if !again {
				return
			}
		}
	}()
}
