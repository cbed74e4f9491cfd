package server

import (
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
	if !ok {
		s.unsupported[uri] = true
		s.notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeWarning,
			Message: "ssalens: " + string(uri) + " is not analyzed: its language " + quoteID(id) +
				" is none of javascript, javascriptreact, typescript and typescriptreact"})
		return opts, false
	}
	delete(s.unsupported, uri)
	opts.Language = lang
	return opts, true
}

func quoteID(id string) string {
	if id == "" {
		return "(no languageId)"
	}
	return `"` + id + `"`
}
