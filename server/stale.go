package server

import (
	"github.com/ssalens/ssalens/analysis"
	"slices"
)

// Answering inlay hints before the analysis.
//
// Analyzing a large file takes longer than a display frame, and a client asks for inlay hints
// right after it opens a file and after each keystroke. When the client accepts
// workspace/inlayHint/refresh, a version not analyzed yet is answered early:
//   - from the newest older version that is analyzed, its hints moved through the edits made
//     since (a hint that touches edited text is dropped);
//   - or, in a file just opened, from a preview of its first lines, which shows only the hints
//     the rest of the file cannot change (analysis.Document.PreviewHints).
//
// The client is then asked to refresh once the diagnostics publisher, which always works on
// the current version, has analyzed it. Every other request waits for the analysis of the
// version it names.

// maxStaleEdits bounds how many versions back an answer may come from.
const maxStaleEdits = 64

// staleBase returns the analysis of the newest analyzed version that f descends from, and the
// edits that turn its text into f's, in order; nil if f is analyzed already or no analyzed
// version is near.
func (f *file) staleBase() (*analysis.Result, []analysis.Edit) {
	if f.doc.Ready() != nil {
		return nil, nil
	}
	var edits []analysis.Edit
	for g, n := f, 0; n < maxStaleEdits; n++ {
		p := g.prev.Load()
		if p == nil {
			return nil, nil
		}
		for _, e := range slices.Backward(g.edits) {
			edits = append(edits, e)
		}
		if r := p.doc.Ready(); r != nil {
			slices.Reverse(edits)
			return r, edits
		}
		g = p
	}
	return nil, nil
}

// earlyHints returns the hints of [start, end] of f answered early, as said above; false if f
// is analyzed already, or the client does not accept a refresh, or there is no such answer.
func (s *Server) earlyHints(f *file, start, end int32, o analysis.HintOptions) ([]analysis.Hint, bool) {
	if !s.client.inlayHintRefresh {
		return nil, false
	}
	var hints []analysis.Hint
	if base, edits := f.staleBase(); base != nil {
		hints = base.InlayHintsAfter(edits, start, end, o)
	} else if preview, ok := f.doc.PreviewHints(start, end, o); ok {
		hints = preview
	} else {
		return nil, false
	}
	f.staleAnswered.Store(true)
	// The publisher reads staleAnswered after it has analyzed f, to ask for the refresh. If the
	// analysis was done before the store above, the publisher may have read it already: then
	// the answer is the analysis's.
	if f.doc.Ready() != nil {
		return nil, false
	}
	return hints, true
}

// refreshAfterAnalysis asks the client to fetch inlay hints again if a stale answer was
// given for f, which the diagnostics publisher has just analyzed and is still current.
func (s *Server) refreshAfterAnalysis(f *file) {
	if f.staleAnswered.Load() && s.client.inlayHintRefresh {
		s.refreshInlayHints()
	}
}
