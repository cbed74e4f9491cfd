package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Decoding the whole text a didOpen carries.
//
// A didOpen carries the whole text of a document: 1.6 MB of JSON for three.core.js.
// encoding/json reads its input twice, a validity check and then the decoding, about 11–20 ms
// for that text on the machine measured, on the goroutine that reads the messages, after the
// connection read the message twice already to find the params. Those params are valid JSON
// (jsonrpc2.DecodeMessage checked the message), so decodeDidOpen walks them, skipping each
// string with bytes.IndexByte, and unquotes the text itself if its bytes are valid UTF-8, as a
// client's encoder writes them: 4× faster (BenchmarkDecodeDidOpen). encoding/json decodes
// everything else: the small members, and the whole params wherever they are not as expected
// (a member that is not an object, an escaped key), so that the result, and the error, are
// json.Unmarshal's (FuzzDecodeDidOpen).

// decodeDidOpen decodes the params of a didOpen into p, as decodeParams does.
func decodeDidOpen(params json.RawMessage, p *protocol.DidOpenTextDocumentParams) error {
	if !decodeDidOpenFast(params, p) {
		*p = protocol.DidOpenTextDocumentParams{}
		return decodeParams(params, p)
	}
	return nil
}

// decodeDidOpenFast is decodeDidOpen for params as expected; false if they are not.
func decodeDidOpenFast(params []byte, p *protocol.DidOpenTextDocumentParams) bool {
	return eachMember(params, func(key string, _, doc []byte) bool {
		if !strings.EqualFold(key, "textDocument") || bytes.Equal(doc, []byte("null")) {
			return true
		}
		// The members but the text, decoded by encoding/json, as one object; the text, the
		// last member whose key matches it, as encoding/json would.
		rest := []byte{'{'}
		var text []byte
		ok := eachMember(doc, func(key string, member, value []byte) bool {
			if strings.EqualFold(key, "text") {
				text = value
				return true
			}
			if len(rest) > 1 {
				rest = append(rest, ',')
			}
			rest = append(rest, member...)
			return true
		})
		rest = append(rest, '}')
		if !ok || json.Unmarshal(rest, &p.TextDocument) != nil {
			return false
		}
		if text == nil {
			return true
		}
		s, ok := unquote(text)
		if !ok {
			return json.Unmarshal(text, &p.TextDocument.Text) == nil
		}
		p.TextDocument.Text = s
		return true
	})
}

// eachMember calls f with the key, the text (`"key": value`) and the value of each member of
// obj, a valid JSON value, in order, while f returns true. It returns false if obj is not an
// object, a key has an escape, or f returned false.
func eachMember(obj []byte, f func(key string, member, value []byte) bool) bool {
	i := skipBlanks(obj, 0)
	if i == len(obj) || obj[i] != '{' {
		return false
	}
	i = skipBlanks(obj, i+1)
	if i < len(obj) && obj[i] == '}' {
		return true
	}
	for i < len(obj) {
		start := i
		end := skipString(obj, i) // the key
		key := obj[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		i = skipBlanks(obj, end)
		i = skipBlanks(obj, i+1) // the colon
		end = skipValue(obj, i)
		if !f(string(key), obj[start:end], obj[i:end]) {
			return false
		}
		i = skipBlanks(obj, end)
		if obj[i] == '}' {
			return true
		}
		i = skipBlanks(obj, i+1) // the comma
	}
	return false
}

// skipValue returns the end of the valid JSON value that starts at data[i].
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for {
			switch data[i] {
			case '"':
				i = skipString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	for i < len(data) && !isDelimiter(data[i]) {
		i++
	}
	return i
}

// skipString returns the end of the valid JSON string that starts at data[i].
func skipString(data []byte, i int) int {
	for i++; ; {
		j := bytes.IndexByte(data[i:], '"')
		end := i + j
		backslashes := 0
		for k := end - 1; k >= i && data[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return end + 1
		}
		i = end + 1
	}
}

func isDelimiter(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

func skipBlanks(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// unquote decodes the valid JSON string quoted, if its bytes are valid UTF-8: the string
// encoding/json gives, a lone surrogate escaped with \u as U+FFFD.
func unquote(quoted []byte) (string, bool) {
	if len(quoted) < 2 || quoted[0] != '"' {
		return "", false
	}
	raw := quoted[1 : len(quoted)-1]
	if !utf8.Valid(raw) {
		return "", false
	}
	var sb strings.Builder
	sb.Grow(len(raw))
	for {
		j := bytes.IndexByte(raw, '\\')
		if j < 0 {
			sb.Write(raw)
			return sb.String(), true
		}
		sb.Write(raw[:j])
		raw = raw[j:]
		if raw[1] == 'u' {
			r, n := escapedRune(raw)
			sb.WriteRune(r)
			raw = raw[n:]
			continue
		}
		c := raw[1]
		switch c {
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		}
		sb.WriteByte(c) // `"`, `\` and `/` stand for themselves
		raw = raw[2:]
	}
}

// escapedRune decodes the \uXXXX escape that esc starts with, and the one after it if the two
// are a surrogate pair, and returns the rune and the bytes read: U+FFFD for a lone surrogate.
func escapedRune(esc []byte) (rune, int) {
	r := hex4(esc[2:6])
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if len(esc) >= 12 && esc[6] == '\\' && esc[7] == 'u' {
		if pair := utf16.DecodeRune(r, hex4(esc[8:12])); pair != unicode.ReplacementChar {
			return pair, 12
		}
	}
	return unicode.ReplacementChar, 6
}

func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
