package server

import (
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// snapshot is the session's state at one moment: the open documents, the settings and the
// position encoding. It is never modified once published; a notification publishes a new
// one, and a request answers from the snapshot that was current when it arrived.
type snapshot struct {
	files    map[protocol.DocumentURI]*file
	settings settings
	encoding positionEncoding
	cursors  map[protocol.DocumentURI]cursor // cursor.go
	// unsupported are the open documents of languages ssalens does not analyze, with their
	// languageId (language.go).
	unsupported map[protocol.DocumentURI]string
}

func (s *Server) snapshot() *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// update publishes a copy of the current snapshot changed by change.
func (s *Server) update(change func(*snapshot)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := *s.state
	next.files = make(map[protocol.DocumentURI]*file, len(s.state.files))
	for uri, f := range s.state.files {
		next.files[uri] = f
	}
	change(&next)
	s.state = &next
}

// file returns the open document uri; asking about another one is InvalidParams, and the
// message says why: no document named, one of a language not analyzed, or one not open.
func (st *snapshot) file(uri protocol.DocumentURI) (*file, error) {
	if f := st.files[uri]; f != nil {
		return f, nil
	}
	if id, ok := st.unsupported[uri]; ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s", notAnalyzedLanguage(uri, id))
	}
	if uri == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "the params name no document: textDocument.uri is missing or empty")
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s is not open", uri)
}

// position decodes TextDocumentPositionParams and returns the document and the byte offset
// they name.
func (st *snapshot) position(params json.RawMessage) (*file, int32, error) {
	var p protocol.TextDocumentPositionParams
	if err := decodeParams(params, &p); err != nil {
		return nil, 0, err
	}
	return st.offset(p)
}

func (st *snapshot) offset(p protocol.TextDocumentPositionParams) (*file, int32, error) {
	f, err := st.file(p.TextDocument.URI)
	if err != nil {
		return nil, 0, err
	}
	return f, offset(f.lines(), p.Position, st.encoding), nil
}
