package server

import (
	"fmt"
	"path"
	"runtime/metrics"
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

// waiting reports whether documents wait for their diagnostics to be published.
func (q *diagnosticsQueue) waiting() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending) > 0
}

func (q *diagnosticsQueue) take() []protocol.DocumentURI {
	q.mu.Lock()
	defer q.mu.Unlock()
	uris := q.pending
	q.pending = nil
	clear(q.queued)
	return uris
}

// The server's idle work comes in three steps, each after a longer quiet since the last
// diagnostics:
//   - Between two keystrokes (collectDelay), the garbage of the versions the last ones replaced
//     is collected, on a goroutine of its own, once it fills a quarter of the room the
//     collector leaves the heap (collectionDue): the next keystroke then starts on a heap with
//     room for its version, instead of analyzing it beside a collection that garbage starts
//     (BenchmarkTypeThenFreshHints). Not at every keystroke: a collection marks the whole
//     heap, which for typescript.js takes 150 ms of processor time, three times the keystroke's
//     analysis. What the next version needs of the current one is made then too
//     (prepareEdits), not beside the next keystroke: the C tree that an edit that cannot be
//     spliced re-parses from, and, for a file just opened, the summaries of the functions the
//     first keystroke copies.
//   - At a pause (idleDelay), the versions whose incremental parses left another tree than a
//     whole parse gives are parsed whole (parseWhole), the syntax trees of the others compacted,
//     and what that left collected (idle).
//   - Once the user stopped (releaseDelay more), the free memory goes back to the system:
//     neither Go's heap nor the C allocator shrinks on its own soon. Not at every pause, since
//     the next keystroke faults the pages in again, which costs it a fifth to a third more
//     (BenchmarkPauseThenFreshHints).
//
// Tests that decide when the user pauses make a server's own delay (idleAfter) longer.
const (
	collectDelay = 50 * time.Millisecond
	idleDelay    = time.Second
	releaseDelay = 10 * time.Second
)

func (s *Server) publishDiagnosticsLoop() {
	quiet, idle, release := time.NewTimer(collectDelay), time.NewTimer(s.idleAfter), time.NewTimer(releaseDelay)
	release.Stop()
	defer quiet.Stop()
	defer idle.Stop()
	defer release.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-quiet.C:
			if !s.diagnostics.waiting() {
				s.collect()
				s.prepareEdits()
			}
			continue
		case <-idle.C:
			s.idle()
			release.Reset(releaseDelay)
			continue
		case <-release.C:
			analysis.ReleaseMemory()
			continue
		case <-s.diagnostics.wake:
		}
		for _, uri := range s.diagnostics.take() {
			s.publishDiagnostics(uri)
		}
		release.Stop()
		quiet.Reset(collectDelay)
		idle.Reset(s.idleAfter)
	}
}

// collect starts a garbage collection if one is due, unless the one it started last is still
// running.
func (s *Server) collect() {
	if collectionDue() && s.collecting.CompareAndSwap(false, true) {
		go func() {
			defer s.collecting.Store(false)
			analysis.CollectGarbage()
		}()
	}
}

// collectionDue reports whether the garbage since the last collection fills a quarter of the
// room the collector leaves the heap: it starts on its own at seven tenths of the room at the
// earliest, so a keystroke that allocates less than the rest (a few megabytes against a room
// as large as the live heap; typescript.js: 35 of 300) runs without a collection beside it. A
// half would let more garbage stay between collections, a tenth more memory than a quarter
// does, for a few percent less processor time (typescript.js typed into at 80 words a minute).
func collectionDue() bool {
	garbage, room := heapGarbage()
	return garbage > 0 && garbage >= room/4
}

// heapGarbage returns the bytes allocated on the heap since the last collection, besides those
// it found live, and the room the collector leaves them before it collects on its own.
func heapGarbage() (garbage, room uint64) {
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(samples)
	live, goal, heap := samples[0].Value.Uint64(), samples[1].Value.Uint64(), samples[2].Value.Uint64()
	return heap - min(heap, live), goal - min(goal, live)
}

// prepareEdits makes, on goroutines of their own, what the next edit of each file needs
// (analysis.Document.PrepareEdit).
func (s *Server) prepareEdits() {
	for _, f := range s.snapshot().files {
		go f.doc.PrepareEdit()
	}
}

// idle does what waits for the user to pause: the versions incremental parses left with
// another tree than a whole parse are parsed whole, the trees of the others compacted, and the
// old versions collected, but for the spare node array the next keystroke's parse writes into
// (analysis.CollectGarbage: typescript.js's keystroke after a pause took 104 ms instead of 56,
// with a new 64 MB array); the release that follows a longer quiet frees it.
func (s *Server) idle() {
	for _, f := range s.snapshot().files {
		if !s.parseWhole(f) {
			f.doc.Compact()
		}
	}
	analysis.CollectGarbage()
}

// parseWhole makes f's version parsed whole the current one, if f is still current and its
// tree differs from the whole parse's (analysis.Document.ParsedWhole), and reports whether it
// did. Its diagnostics are published again, which asks the client to refresh its hints: once
// the user stops typing, the answers are those of the text, whatever versions led to it.
func (s *Server) parseWhole(f *file) bool {
	doc := f.doc.ParsedWhole()
	if doc == nil {
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
