package server

import (
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// phase is where the session is in the LSP lifecycle.
type phase uint8

const (
	uninitialized phase = iota // until the initialize request
	running
	shutDown // after the shutdown request
	exited   // after the exit notification
)

// admit returns the error the spec names for a request that comes in the wrong phase.
func (s *Server) admit(method string) error {
	switch {
	case s.phase == uninitialized && method != "initialize":
		return jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s before initialize", method)
	case s.phase == running && method == "initialize":
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already called")
	case s.phase >= shutDown:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s after shutdown", method)
	}
	return nil
}

// initialize negotiates the position encoding, records what the client supports and takes
// the initial settings from initializationOptions.
func (s *Server) initialize(params json.RawMessage) (any, error) {
	var p initializeParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	s.client = clientCapabilities{inlayHintRefresh: p.Capabilities.Workspace.InlayHint.RefreshSupport,
		workDoneProgress: p.Capabilities.Window.WorkDoneProgress}
	enc := p.Capabilities.General.encoding()
	var ignored []string
	s.update(func(st *snapshot) {
		st.encoding = enc
		st.settings, ignored = st.settings.with(p.InitializationOptions)
	})
	s.warnIgnoredSettings(ignored)
	s.phase = running
	return initializeResult{Capabilities: capabilities(enc), ServerInfo: protocol.ServerInfo{Name: "ssalens", Version: s.config.Version}}, nil
}

// exit ends the session; the exit status is 0 if shutdown came first.
func (s *Server) exit() {
	if s.phase == exited {
		return
	}
	s.status = s.exitStatus()
	s.phase = exited
	close(s.exited)
}

func (s *Server) exitStatus() int {
	switch s.phase {
	case exited:
		return s.status
	case shutDown:
		return 0
	}
	return 1
}
