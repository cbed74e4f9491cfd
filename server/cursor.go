package server

import (
	"context"
	"encoding/json"
	"maps"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// The cursor, for inlay hints narrowed to what it is in (ssalens.inlayHints.scope).
//
// The LSP does not tell a server where the cursor is, so both clients send the notification
// ssalens/didChangeCursor {textDocument: {uri}, position} as it moves. A document whose cursor
// the server was never told shows the whole file's hints, whatever the scope. When a move
// changes which hints the scope shows, the server asks the client to fetch them again.

const didChangeCursorMethod = "ssalens/didChangeCursor"

type didChangeCursorParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Position     protocol.Position               `json:"position"`
}

// cursor is where the cursor of one document is, and where its hints are focused.
type cursor struct {
	at protocol.Position
	// focus is the position the hints are narrowed from. It follows at once the analysis has
	// seen where at is, except that it stays on the last variable the cursor was on while the
	// cursor is on none, so that a variable's web stays in view while the cursor moves off it.
	focus    protocol.Position
	hasFocus bool
	// moves counts the notifications, and focused is the move the focus is from, so that a
	// move never takes the focus from a later one.
	moves, focused uint64
}

// move moves the cursor and the focus with the text that edits, in order, changed from the
// text of the lines before to the one of after: the variable the hints are focused on keeps
// its hints when a line is added above it, until the client says where the cursor is now.
func (c *cursor) move(before, after *analysis.Lines, edits []analysis.Edit, enc positionEncoding) {
	forward := func(p protocol.Position) protocol.Position {
		off := offset(before, p, enc)
		for _, e := range edits {
			switch {
			case uint32(off) >= e.OldEndByte:
				off += int32(e.NewEndByte) - int32(e.OldEndByte)
			case uint32(off) > e.StartByte: // in the replaced text: after what replaced it
				off = int32(e.NewEndByte)
			}
		}
		return position(after, off, enc)
	}
	c.at, c.focus = forward(c.at), forward(c.focus)
}

// setCursor sets the cursor of uri, or forgets it (nil), copying the map of the published
// snapshot it came from.
func (st *snapshot) setCursor(uri protocol.DocumentURI, c *cursor) {
	st.cursors = maps.Clone(st.cursors)
	if st.cursors == nil {
		st.cursors = map[protocol.DocumentURI]cursor{}
	}
	if c == nil {
		delete(st.cursors, uri)
	} else {
		st.cursors[uri] = *c
	}
}

// didChangeCursor records where the cursor is. Under a scope that depends on it, the focus
// moves once the analysis of the document says what the cursor is on.
func (s *Server) didChangeCursor(_ context.Context, params json.RawMessage) error {
	var p didChangeCursorParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	uri := p.TextDocument.URI
	if _, err := s.snapshot().file(uri); err != nil {
		return err
	}
	var c cursor
	var f *file
	var scope analysis.Scope
	s.update(func(st *snapshot) {
		c = st.cursors[uri]
		c.at = p.Position
		c.moves++
		f = st.files[uri]
		scope = st.settings.hints.Scope
		if scope == analysis.ScopeFile {
			c.focus, c.hasFocus, c.focused = c.at, true, c.moves
		}
		st.setCursor(uri, &c)
	})
	if scope != analysis.ScopeFile {
		go s.refocus(uri, c, f)
	}
	return nil
}

// refocus moves the focus of uri to where the cursor c is in f, the version of the document the
// cursor was moved in, unless a later move has set it already or the variable scope finds no
// variable there, and asks the client to fetch the hints again if that changes them. If the
// document changed meanwhile, the edits have moved the cursor, and it refocuses from there:
// c's position is f's, and taken as the focus of a later version it would point elsewhere
// (found by TestFocusMovesWithEdits in CI, under load).
func (s *Server) refocus(uri protocol.DocumentURI, c cursor, f *file) {
	defer s.recoverPanic("focusing the hints of " + string(uri))
	if st := s.snapshot(); f == nil || st.cursors[uri].focused > c.moves {
		return
	}
	r := f.result()
	st := s.snapshot()
	scope := st.settings.hints.Scope
	next := r.FocusAt(scope, offset(f.lines(), c.at, st.encoding))
	if next.Empty() {
		return
	}
	changed := false
	var moved *cursor // the cursor, moved by edits made since f
	var now *file
	s.update(func(st *snapshot) {
		latest, ok := st.cursors[uri]
		if !ok || latest.focused > c.moves {
			return
		}
		if now = st.files[uri]; now == nil || now.doc != f.doc {
			moved = &latest
			return
		}
		changed = !latest.hasFocus || !r.FocusAt(scope, offset(f.lines(), latest.focus, st.encoding)).Equal(next)
		latest.focus, latest.hasFocus, latest.focused = c.at, true, c.moves
		st.setCursor(uri, &latest)
	})
	if moved != nil {
		if now != nil {
			s.refocus(uri, *moved, now)
		}
		return
	}
	if changed && s.client.inlayHintRefresh {
		s.refreshInlayHints()
	}
}

// hintOptions returns the settings' hint options for f, focused where its cursor is: on the
// whole file for a document whose cursor is unknown.
func (st *snapshot) hintOptions(f *file) analysis.HintOptions {
	o := st.settings.hints
	c, ok := st.cursors[f.uri]
	switch {
	case !ok:
		o.Scope = analysis.ScopeFile
	case c.hasFocus:
		o.Cursor = offset(f.lines(), c.focus, st.encoding)
	default:
		o.Cursor = offset(f.lines(), c.at, st.encoding)
	}
	return o
}
