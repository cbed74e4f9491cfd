package server

import (
	"maps"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// documentOptions returns the analysis options of a document opened with languageId id: its
// language picks the grammar (javascript and javascriptreact, typescript, typescriptreact).
// A document of any other language is not analyzed: the client's log says so once, when it is
// opened, and its text notifications are ignored until it is closed.
func (s *Server) documentOptions(uri protocol.DocumentURI, id string) (analysis.Options, bool) {
	opts := s.config.Analysis
	lang, ok := analysis.LanguageOfID(id)
	s.setUnsupported(uri, id, !ok)
	if !ok {
		s.notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeWarning,
			Message: "ssalens: " + notAnalyzedLanguage(uri, id)})
		return opts, false
	}
	opts.Language = lang
	return opts, true
}

// setUnsupported records whether the document uri, opened with languageId id, is of a
// language ssalens does not analyze.
func (s *Server) setUnsupported(uri protocol.DocumentURI, id string, unsupported bool) {
	if _, was := s.snapshot().unsupported[uri]; !was && !unsupported {
		return
	}
	s.update(func(st *snapshot) {
		st.unsupported = maps.Clone(st.unsupported)
		if unsupported {
			if st.unsupported == nil {
				st.unsupported = map[protocol.DocumentURI]string{}
			}
			st.unsupported[uri] = id
		} else {
			delete(st.unsupported, uri)
		}
	})
}

// isUnsupported reports whether uri is an open document of a language ssalens does not analyze.
func (s *Server) isUnsupported(uri protocol.DocumentURI) bool {
	_, ok := s.snapshot().unsupported[uri]
	return ok
}

// notAnalyzedLanguage says that the document uri is not analyzed for its languageId id.
func notAnalyzedLanguage(uri protocol.DocumentURI, id string) string {
	return string(uri) + " is not analyzed: its language " + quoteID(id) +
		" is none of javascript, javascriptreact, typescript and typescriptreact"
}

func quoteID(id string) string {
	if id == "" {
		return "(no languageId)"
	}
	return `"` + id + `"`
}
