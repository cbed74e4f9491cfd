package treesitter

import "bytes"

// lexable returns src as tree-sitter's grammars should read it. JavaScript ends a line at a
// carriage return alone, which the grammars take for a space: `return⏎a = 1` with a CR alone
// then returns a = 1 instead of nothing (a missed automatic semicolon), and a // comment runs
// on past it. JavaScript allows a NUL character in strings, templates and comments, where
// tree-sitter's lexers take it for the end of the input. So the parser reads a copy of the same
// length with a line feed for each carriage return alone and U+0001 for each NUL (which, like
// NUL, is an error anywhere else), or src itself if it has neither; offsets are the same, and
// Tree.Src keeps the text as it is.
func lexable(src []byte) []byte {
	if bytes.IndexByte(src, 0) < 0 && !hasLoneCR(src) {
		return src
	}
	out := bytes.Clone(src)
	for i, c := range out {
		switch {
		case c == 0:
			out[i] = 1
		case c == '\r' && (i+1 == len(out) || out[i+1] != '\n'):
			out[i] = '\n'
		}
	}
	return out
}

// hasLoneCR reports whether src has a carriage return not followed by a line feed.
func hasLoneCR(src []byte) bool {
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 == len(src) || src[i+1] != '\n' {
			return true
		}
		next := bytes.IndexByte(src[i+1:], '\r')
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}
