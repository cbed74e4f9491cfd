package server

import (
	"fmt"
	"path"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// diagnosticsQueue holds the documents whose diagnostics must be published again. One
// goroutine empties it, so a document's diagnostics go out in version order; a document
// changed again while its diagnostics were computed is skipped and published at its next turn,
// so only the latest version is published and bursts of edits coalesce.
type diagnosticsQueue struct {
	mu      sync.Mutex
	pending []protocol.DocumentURI
	queued  map[protocol.DocumentURI]bool
	wake    chan struct{}
}

func newDiagnosticsQueue() *diagnosticsQueue {
	return &diagnosticsQueue{queued: map[protocol.DocumentURI]bool{}, wake: make(chan struct{}, 1)}
}

func (q *diagnosticsQueue) add(uris ...protocol.DocumentURI) {
	q.mu.Lock()
	for _, uri := range uris {
		if !q.queued[uri] {
			q.queued[uri] = true
			q.pending = append(q.pending, uri)
		}
	}
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *diagnosticsQueue) take() []protocol.DocumentURI {
	q.mu.Lock()
	defer q.mu.Unlock()
	uris := q.pending
	q.pending = nil
	clear(q.queued)
	return uris
}

// idleRelease is how long after the last diagnostics the server parses whole the documents
// whose incremental parses left another tree than a whole parse gives (parseWhole), compacts
// the syntax trees of the others, and gives the memory of old versions back to the system:
// every edit makes a new analysis and drops an old one, and neither Go's heap nor the C
// allocator shrinks on its own soon (idle). A server's own (idleAfter) may be longer in tests
// that decide when the user stops typing.
const idleRelease = time.Second

func (s *Server) publishDiagnosticsLoop() {
	idle := time.NewTimer(s.idleAfter)
	defer idle.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-idle.C:
			s.idle()
			continue
		case <-s.diagnostics.wake:
		}
		for _, uri := range s.diagnostics.take() {
			s.publishDiagnostics(uri)
		}
		idle.Reset(s.idleAfter)
	}
}

// idle does what waits for the user to stop typing: the versions incremental parses left with
// another tree than a whole parse are parsed whole, the trees of the others compacted, and the
// memory of old versions given back.
func (s *Server) idle() {
	for _, f := range s.snapshot().files {
		if !s.parseWhole(f) {
			f.doc.Compact()
		}
	}
	analysis.ReleaseMemory()
}

// parseWhole makes f's version parsed whole the current one, if f is still current and its
// tree differs from the whole parse's (analysis.Document.ParsedWhole), and reports whether it
// did. Its diagnostics are published again, which asks the client to refresh its hints: once
// the user stops typing, the answers are those of the text, whatever versions led to it.
func (s *Server) parseWhole(f *file) bool {
	doc, err := f.doc.ParsedWhole()
	if err != nil || doc == nil {
		return false
	}
	whole := &file{uri: f.uri, version: f.version, doc: doc}
	whole.staleAnswered.Store(true) // the client's hints of this version are f's
	replaced := false
	s.update(func(st *snapshot) {
		if replaced = st.files[f.uri] == f; replaced {
			st.files[f.uri] = whole
		}
	})
	if !replaced {
		doc.Close()
		return false
	}
	f.doc.Close()
	s.diagnostics.add(f.uri)
	return true
}

// publishDiagnostics publishes the diagnostics of the current version of uri, or none if it
// is closed.
func (s *Server) publishDiagnostics(uri protocol.DocumentURI) {
	defer s.recoverPanic("publishing diagnostics of " + string(uri))
	st := s.snapshot()
	params := protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}}
	var ds []analysis.Diagnostic
	f := st.files[uri]
	if f != nil {
		params.Version = uint32(f.version)
		r := s.analyzed(f)
		ds = r.Diagnostics(st.settings.uselessAssignments)
		for _, d := range ds {
			if d.Code == "uselessAssignment" {
				d.Severity = st.settings.uselessSeverity
			}
			params.Diagnostics = append(params.Diagnostics, toProtocolDiagnostic(f, d, st.encoding))
		}
		if s.snapshot().files[uri] != f {
			return // changed meanwhile, and queued again
		}
		s.refreshAfterAnalysis(f)
		s.tellSkipped(uri, r.Skipped)
	} else {
		s.skipped.Delete(uri)
	}
	s.notify("textDocument/publishDiagnostics", params)
	if f != nil {
		s.reportStatus(f, ds)
	}
}

// tellSkipped shows why a document is not analyzed at all (too large), in a window message
// besides its diagnostic, once: again only after a version of it was analyzed.
func (s *Server) tellSkipped(uri protocol.DocumentURI, why string) {
	if why == "" {
		s.skipped.Delete(uri)
		return
	}
	if _, told := s.skipped.LoadOrStore(uri, true); !told {
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning,
			Message: fmt.Sprintf("ssalens: %s: %s", path.Base(string(uri)), why)})
	}
}

func toProtocolDiagnostic(f *file, d analysis.Diagnostic, enc positionEncoding) protocol.Diagnostic {
	pd := protocol.Diagnostic{
		Range:    rangeOf(f.lines(), d.Span, enc),
		Severity: protocol.DiagnosticSeverity(d.Severity),
		Code:     d.Code,
		Source:   "ssalens",
		Message:  d.Message,
	}
	if d.Unnecessary {
		pd.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	return pd
}
