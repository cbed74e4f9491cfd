package server

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// settings are the user's choices, from initializationOptions and
// workspace/didChangeConfiguration.
type settings struct {
	hints              analysis.HintOptions // ssalens.inlayHints.*
	uselessAssignments bool                 // ssalens.diagnostics.uselessAssignment
}

var defaultSettings = settings{hints: analysis.HintOptions{Versions: true, Phis: true}, uselessAssignments: true}

// with returns s changed by the settings in v, a JSON value such as
// {"ssalens":{"inlayHints":{"versions":false}}} or {"ssalens.inlayHints.versions":false}: objects
// and dotted keys mix freely, the "ssalens" prefix may be left out, and settings that v does
// not name keep their value.
func (s settings) with(v any) settings {
	flat := map[string]any{}
	flatten("", v, flat)
	for key, value := range flat {
		on, isBool := value.(bool)
		if !isBool {
			continue
		}
		switch strings.TrimPrefix(key, "ssalens.") {
		case "inlayHints.versions":
			s.hints.Versions = on
		case "inlayHints.phis":
			s.hints.Phis = on
		case "diagnostics.uselessAssignment":
			s.uselessAssignments = on
		}
	}
	return s
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
	s.update(func(st *snapshot) {
		st.settings = st.settings.with(p.Settings)
		for uri := range st.files {
			uris = append(uris, uri)
		}
	})
	s.diagnostics.add(uris...)
	if s.client.inlayHintRefresh {
		go s.refreshInlayHints()
	}
	return nil
}

func (s *Server) refreshInlayHints() {
	if _, err := s.conn.Call(s.ctx, "workspace/inlayHint/refresh", nil, nil); err != nil {
		s.logf("workspace/inlayHint/refresh: %v", err)
	}
}
