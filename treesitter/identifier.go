package treesitter

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// IdentifierName returns the name an identifier's text spells: its escapes (`\u0061`,
// `\u{61}`) decoded, so that `\u0061` and `a` are one variable. A malformed escape, which
// is a syntax error, stays as it is. Without an escape, it is text itself: the lowering looks
// up every identifier by its name, and a map lookup by string(name) does not allocate.
func IdentifierName(text []byte) []byte {
	if bytes.IndexByte(text, '\\') < 0 {
		return text
	}
	name := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		r, n := escapedCodePoint(text[i:])
		if n == 0 {
			name = append(name, text[i])
			i++
			continue
		}
		name = utf8.AppendRune(name, r)
		i += n
	}
	return name
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
