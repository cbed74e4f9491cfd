package treesitter

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
)

// IdentifierName returns the name an identifier's text spells: its escapes (`\u0061`,
// `\u{61}`) decoded, so that `\u0061` and `a` are one variable. A malformed escape, which
// is a syntax error, stays as it is.
func IdentifierName(text []byte) string {
	if bytes.IndexByte(text, '\\') < 0 {
		return string(text)
	}
	var sb strings.Builder
	for i := 0; i < len(text); {
		r, n := escapedCodePoint(text[i:])
		if n == 0 {
			sb.WriteByte(text[i])
			i++
			continue
		}
		sb.WriteRune(r)
		i += n
	}
	return sb.String()
}

// escapedCodePoint decodes the \uXXXX or \u{X…} escape that text starts with, and returns
// the code point and the bytes it takes; 0 bytes if text starts with none.
func escapedCodePoint(text []byte) (rune, int) {
	if len(text) < 3 || text[0] != '\\' || text[1] != 'u' {
		return 0, 0
	}
	digits, n := text[2:], 0
	if digits[0] == '{' {
		end := bytes.IndexByte(digits, '}')
		if end < 2 {
			return 0, 0
		}
		digits, n = digits[1:end], 2+end+1
	} else {
		if len(digits) < 4 {
			return 0, 0
		}
		digits, n = digits[:4], 6
	}
	v, err := strconv.ParseUint(string(digits), 16, 32)
	if err != nil || v > unicode.MaxRune {
		return 0, 0
	}
	return rune(v), n
}
