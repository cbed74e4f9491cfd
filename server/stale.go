package server

import (
	"slices"

	"github.com/ssalens/ssalens/analysis"
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

// forward maps an offset in the older text to the newer one; false if edited text touches it.
func forward(off int32, edits []analysis.Edit) (int32, bool) {
	for _, e := range edits {
		switch {
		case uint32(off) < e.StartByte:
		case uint32(off) > e.OldEndByte:
			off += int32(e.NewEndByte) - int32(e.OldEndByte)
		default:
			return 0, false
		}
	}
	return off, true
}

// backward maps an offset in the newer text to the older one; an offset in inserted text
// maps to where the insertion starts.
func backward(off int32, edits []analysis.Edit) int32 {
	for _, e := range slices.Backward(edits) {
		switch {
		case uint32(off) < e.StartByte:
		case uint32(off) >= e.NewEndByte:
			off -= int32(e.NewEndByte) - int32(e.OldEndByte)
		default:
			off = int32(e.StartByte)
		}
	}
	return off
}

// moveHints moves hints of the older text through edits, dropping those that touch edited
// text and the definition links that do.
func moveHints(hints []analysis.Hint, edits []analysis.Edit) []analysis.Hint {
	out := hints[:0]
	for _, h := range hints {
		at, ok := forward(h.At, edits)
		if !ok {
			continue
		}
		h.At = at
		parts := make([]analysis.HintPart, len(h.Parts))
		for i, p := range h.Parts {
			if p.Def != nil {
				start, okStart := forward(p.Def.Start, edits)
				end, okEnd := forward(p.Def.End, edits)
				p.Def = nil
				if okStart && okEnd {
					p.Def = &analysis.Span{Start: start, End: end}
				}
			}
			parts[i] = p
		}
		h.Parts = parts
		out = append(out, h)
	}
	return out
}

// refreshAfterAnalysis asks the client to fetch inlay hints again if a stale answer was
// given for f, which the diagnostics publisher has just analyzed and is still current.
func (s *Server) refreshAfterAnalysis(f *file) {
	if f.staleAnswered.Load() && s.client.inlayHintRefresh {
		s.refreshInlayHints()
	}
}
