package server

import (
	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
)

// positionEncoding is how the character of an LSP position counts: in UTF-16 code units (the
// LSP default) or in bytes of UTF-8.
type positionEncoding string

const (
	utf16Encoding positionEncoding = "utf-16"
	utf8Encoding  positionEncoding = "utf-8"
)

func (e positionEncoding) columns() analysis.Encoding {
	if e == utf8Encoding {
		return analysis.UTF8
	}
	return analysis.UTF16
}

// The conversions between LSP positions and byte offsets into a document version, through the
// line index that analysis keeps for it.

func offset(lines *analysis.Lines, p protocol.Position, enc positionEncoding) int32 {
	return lines.Offset(p.Line, p.Character, enc.columns())
}

func position(lines *analysis.Lines, off int32, enc positionEncoding) protocol.Position {
	line, col := lines.Position(off, enc.columns())
	return protocol.Position{Line: line, Character: col}
}

func rangeOf(lines *analysis.Lines, span analysis.Span, enc positionEncoding) protocol.Range {
	return protocol.Range{Start: position(lines, span.Start, enc), End: position(lines, span.End, enc)}
}
