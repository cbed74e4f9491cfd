package server

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// Showing that an analysis is under way.
//
// Analyzing a large file again takes seconds (typescript.js: about two). When an analysis the
// diagnostics publisher waits for runs longer than progressDelay, the server tells the client
// in two ways: LSP work-done progress ($/progress, for clients that announced
// window.workDoneProgress), which editors show in their own progress area, and the
// notification ssalens/status, which the ssalens clients show in their status item with, once
// the analysis is done, how many functions of the file are not analyzed.

// progressDelay is how long an analysis runs before the client is told; a server whose own is
// zero (tests) always tells.
const progressDelay = 200 * time.Millisecond

// statusParams are the params of the ssalens/status notification.
type statusParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Version      int32                           `json:"version"`
	Analyzing    bool                            `json:"analyzing"`
	NotAnalyzed  int                             `json:"notAnalyzed"` // functions, once analyzed
	// Kept counts those of NotAnalyzed that a syntax error breaks and that show the analysis
	// of the last version that parsed: their variables have versions on screen.
	Kept int `json:"kept,omitempty"`
}

// progressBegin and progressEnd are the values of $/progress that begin and end a report.
type progressBegin struct {
	Kind    string `json:"kind"` // "begin"
	Title   string `json:"title"`
	Message string `json:"message,omitempty"`
}

type progressEnd struct {
	Kind    string `json:"kind"` // "end"
	Message string `json:"message,omitempty"`
}

type progressParams struct {
	Token string `json:"token"`
	Value any    `json:"value"`
}

var progressTokens atomic.Int64

// analyzed returns the analysis of f, telling the client when it takes long (see above). It
// never waits for the client: the report goes on while the diagnostics are published.
func (s *Server) analyzed(f *file) *analysis.Result {
	if r := f.doc.Ready(); r != nil {
		return r
	}
	done := make(chan struct{})
	told := make(chan struct{}) // closed once ssalens/status analyzing is sent, or never will be
	go func() {
		if s.progressDelay > 0 {
			select {
			case <-done:
				close(told)
				return
			case <-time.After(s.progressDelay):
			}
		}
		s.notify("ssalens/status", statusParams{TextDocument: protocol.TextDocumentIdentifier{URI: f.uri}, Version: f.version, Analyzing: true})
		close(told)
		if s.client.workDoneProgress {
			s.workDoneProgress(f, done)
		}
	}()
	r := f.result()
	close(done)
	<-told // so that the client hears "analyzing" before "done"
	return r
}

// workDoneProgress reports the analysis of f with $/progress until done is closed.
func (s *Server) workDoneProgress(f *file, done <-chan struct{}) {
	token := fmt.Sprintf("ssalens/analysis/%d", progressTokens.Add(1))
	// The client must have created the token before it takes reports of it.
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	if _, err := s.conn.Call(ctx, "window/workDoneProgress/create", map[string]string{"token": token}, nil); err != nil {
		return
	}
	select {
	case <-done:
		return // over before the client was ready to hear of it
	default:
	}
	// The file's name alone: editors show the report in the status bar, where a path is too long.
	s.notify("$/progress", progressParams{Token: token, Value: progressBegin{Kind: "begin", Title: "ssalens", Message: "analyzing " + filepath.Base(f.uri.Filename())}})
	<-done
	s.notify("$/progress", progressParams{Token: token, Value: progressEnd{Kind: "end"}})
}

// reportStatus tells the client, after the diagnostics of f, how many of its functions are not
// analyzed, and how many of those show the last version that parsed.
func (s *Server) reportStatus(f *file, ds []analysis.Diagnostic) {
	n, kept := 0, 0
	for _, d := range ds {
		switch d.Code {
		case "syntaxError":
			kept++
			n++
		case "notAnalyzed", "internalError":
			n++
		}
	}
	s.notify("ssalens/status", statusParams{TextDocument: protocol.TextDocumentIdentifier{URI: f.uri}, Version: f.version, NotAnalyzed: n, Kept: kept})
}
