package server

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

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
	// unfocused are the moves whose refocus has not ended, each where it put the cursor, moved
	// with the edits made since: a refocus that a later move and an edit overtook still
	// focuses where its own move was.
	unfocused []cursorMove
}

// cursorMove is one notification of the cursor: the count of moves it makes, and where it put
// the cursor.
type cursorMove struct {
	n  uint64
	at protocol.Position
}

// unfocusedAt returns where move n put the cursor, in the current text, if its refocus has not
// ended.
func (c *cursor) unfocusedAt(n uint64) (protocol.Position, bool) {
	for _, m := range c.unfocused {
		if m.n == n {
			return m.at, true
		}
	}
	return protocol.Position{}, false
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
	unfocused := make([]cursorMove, len(c.unfocused)) // the old slice is the snapshot's before
	for i, m := range c.unfocused {
		unfocused[i] = cursorMove{m.n, forward(m.at)}
	}
	c.unfocused = unfocused
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
	var moves uint64
	var scope analysis.Scope
	s.update(func(st *snapshot) {
		c := st.cursors[uri]
		c.at = p.Position
		c.moves++
		moves = c.moves
		scope = st.settings.hints.Scope
		if scope == analysis.ScopeFile {
			c.focus, c.hasFocus, c.focused = c.at, true, c.moves
		} else {
			c.unfocused = append(slices.Clip(c.unfocused), cursorMove{c.moves, c.at})
		}
		st.setCursor(uri, &c)
	})
	if scope != analysis.ScopeFile {
		go s.refocus(uri, moves)
	}
	return nil
}

// refocus moves the focus of uri to where move n put the cursor, unless a later move has set it
// already or the variable scope finds no variable there, and asks the client to fetch the hints
// again if that changes them. The position is read with the version of the document it is in:
// if an edit comes before the focus is set, it has moved the position, which is read again. A
// refocus that ran late, after a later move that found no variable and an edit, took the later
// move's position for its own and lost the focus (TestFocusMovesWithEdits in CI, under load).
func (s *Server) refocus(uri protocol.DocumentURI, n uint64) {
	defer s.recoverPanic("focusing the hints of " + string(uri))
	for {
		st := s.snapshot()
		c, f := st.cursors[uri], st.files[uri]
		at, unfocused := c.unfocusedAt(n)
		if f == nil || !unfocused {
			return
		}
		r := f.result()
		scope := st.settings.hints.Scope
		next := r.FocusAt(scope, offset(f.lines(), at, st.encoding))
		changed, edited := false, false
		s.update(func(st *snapshot) {
			latest, ok := st.cursors[uri]
			if now := st.files[uri]; !ok || now == nil || now.doc != f.doc {
				edited = ok && now != nil
				return
			}
			latest.unfocused = slices.DeleteFunc(slices.Clone(latest.unfocused), func(m cursorMove) bool { return m.n == n })
			if !next.Empty() && latest.focused < n {
				changed = !latest.hasFocus || !r.FocusAt(scope, offset(f.lines(), latest.focus, st.encoding)).Equal(next)
				latest.focus, latest.hasFocus, latest.focused = at, true, n
			}
			st.setCursor(uri, &latest)
		})
		if !edited {
			if changed && s.client.inlayHintRefresh {
				s.refreshInlayHints()
			}
			return
		}
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
