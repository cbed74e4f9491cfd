package server

import (
	"github.com/ssalens/ssalens/analysis"
	"slices"
)

// Answering inlay hints from an older analysis.
//
// Analyzing a large file again takes longer than a display frame, and a client asks for inlay
// hints right after each keystroke. When the client accepts workspace/inlayHint/refresh, a
// version not analyzed yet is answered from the newest older version that is, its hints moved
// through the edits made since (a hint that touches edited text is dropped), and the client is
// asked to refresh once the diagnostics publisher, which always works on the current version,
// has analyzed it. Every other request waits for the analysis of the version it names.

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

// refreshAfterAnalysis asks the client to fetch inlay hints again if a stale answer was
// given for f, which the diagnostics publisher has just analyzed and is still current.
func (s *Server) refreshAfterAnalysis(f *file) {
	if f.staleAnswered.Load() && s.client.inlayHintRefresh {
		s.refreshInlayHints()
	}
}
