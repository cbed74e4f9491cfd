package main

import (
	"bytes"
	"slices"
	"strings"
)

// This file reads .gitignore files and matches paths against them as Git does (gitignore(5),
// Git's wildmatch): blank lines and # comments, ! negation, a trailing / for directories only,
// a pattern with a / at its start or in its middle anchored to its file's directory and any
// other matched against the last name of the path at any depth, * ? and [...] (ranges, ! or ^
// to negate, [:alpha:] and the other POSIX classes) within one name, ** as a whole name
// matching any number of directories, \ quoting the next character, and the deeper file's
// last matching pattern deciding. Names compare byte for byte, as Git does with
// core.ignoreCase off. No library was small and kept up: go-git's matcher comes with all of
// go-git, the small ones have not changed in years and lack nested files or ** rules.

// ignoreFile is the patterns of one .gitignore file.
type ignoreFile struct {
	// prefix is the file's directory relative to the walk's root, slash-separated and ending
	// with a slash ("" for the root itself): the paths below it are matched without it.
	prefix   string
	patterns []ignorePattern
}

// ignorePattern is one line of a .gitignore file.
type ignorePattern struct {
	// names are the pattern's slash-separated names, a ** name matching any number of names.
	names []glob
	// basename is set for a pattern without a slash but a trailing one: it matches the last
	// name of a path at any depth; the others match the whole path below their file.
	basename bool
	negate   bool // the line started with !: the paths it matches are not ignored
	dirOnly  bool // the line ended with /: it matches directories only
}

// glob is one name of a pattern: a sequence of tokens, or a ** name.
type glob struct {
	tokens     []token
	doubleStar bool
}

// token is one element of a glob: a byte, ? (any byte), * (any bytes), or [...] (a class).
type token struct {
	kind  tokenKind
	b     byte
	class *[256]bool // the bytes [...] matches, negation applied
}

type tokenKind uint8

const (
	literal tokenKind = iota
	anyByte
	star
	class
)

// parseIgnore parses the text of a .gitignore file.
func parseIgnore(text []byte) []ignorePattern {
	text = bytes.TrimPrefix(text, []byte("\uFEFF"))
	var patterns []ignorePattern
	for line := range bytes.Lines(text) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if p, ok := parsePattern(string(line)); ok {
			patterns = append(patterns, p)
		}
	}
	return patterns
}

// parsePattern parses one line; false for a blank line, a comment or a pattern that can never
// match (an unterminated [ or a trailing \), which Git ignores too.
func parsePattern(line string) (ignorePattern, bool) {
	if strings.HasPrefix(line, "#") {
		return ignorePattern{}, false
	}
	line = trimTrailingSpaces(line)
	var p ignorePattern
	if rest, ok := strings.CutPrefix(line, "!"); ok {
		p.negate, line = true, rest
	}
	if rest, ok := strings.CutSuffix(line, "/"); ok {
		p.dirOnly, line = true, rest
	}
	if line == "" {
		return ignorePattern{}, false
	}
	// A slash before the end anchors the pattern; a leading one only says so.
	p.basename = !strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	for name := range strings.SplitSeq(line, "/") {
		g, ok := parseGlob(name)
		if !ok {
			return ignorePattern{}, false
		}
		p.names = append(p.names, g)
	}
	// A trailing ** matches what is inside a directory, not the directory itself: one name,
	// then any number.
	if n := len(p.names); n > 1 && p.names[n-1].doubleStar {
		p.names = append(p.names[:n-1], glob{tokens: []token{{kind: star}}}, p.names[n-1])
	}
	if !p.basename {
		p.names = literalPrefixQuirk(p.names, line)
	}
	return p, true
}

// literalPrefixQuirk makes the names of an anchored pattern what Git matches. Git compares
// the pattern's start up to its first wildcard as a string, and hands the rest to wildmatch as
// if it were a pattern of its own; so when that first wildcard is a ** that ends a name but
// does not start it (a/x**/b), wildmatch takes it for a ** at the start of a pattern, which
// crosses slashes: a/x**/b matches a/x/b, a/xy/b and a/x/y/b, as the names a, x*, ** and b do.
// Any other ** within a name is a *, as gitignore(5) says.
func literalPrefixQuirk(names []glob, pattern string) []glob {
	first := strings.IndexAny(pattern, `*?[\`)
	if first < 0 || pattern[first] != '*' || first == 0 || pattern[first-1] == '/' {
		return names
	}
	end := first
	for end < len(pattern) && pattern[end] == '*' {
		end++
	}
	if end-first < 2 || end < len(pattern) && pattern[end] != '/' {
		return names
	}
	i := strings.Count(pattern[:first], "/") // the name the ** ends
	star := names[i]                         // its literal start, then one * for the **
	return slices.Concat(names[:i], []glob{star, {doubleStar: true}}, names[i+1:])
}

// trimTrailingSpaces removes the spaces at the end of line that no backslash quotes.
func trimTrailingSpaces(line string) string {
	end := len(line)
	for end > 0 && line[end-1] == ' ' {
		// The space is quoted if an odd number of backslashes precede it.
		n := 0
		for n < end-1 && line[end-2-n] == '\\' {
			n++
		}
		if n%2 == 1 {
			break
		}
		end--
	}
	return line[:end]
}

// parseGlob parses one name of a pattern; false if it can never match.
func parseGlob(name string) (glob, bool) {
	if len(name) >= 2 && strings.Trim(name, "*") == "" {
		return glob{doubleStar: true}, true
	}
	var g glob
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '\\':
			i++
			if i == len(name) {
				return glob{}, false
			}
			g.tokens = append(g.tokens, token{kind: literal, b: name[i]})
		case '?':
			g.tokens = append(g.tokens, token{kind: anyByte})
		case '*':
			if n := len(g.tokens); n == 0 || g.tokens[n-1].kind != star {
				g.tokens = append(g.tokens, token{kind: star})
			}
		case '[':
			set, end, ok := parseClass(name, i)
			if !ok {
				return glob{}, false
			}
			g.tokens = append(g.tokens, token{kind: class, class: set})
			i = end
		default:
			g.tokens = append(g.tokens, token{kind: literal, b: c})
		}
	}
	return g, true
}

// posixClasses are the [:name:] classes of a bracket expression.
var posixClasses = map[string]func(c byte) bool{
	"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
	"alpha":  isAlpha,
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 0x20 || c == 0x7f },
	"digit":  isDigit,
	"graph":  func(c byte) bool { return c > 0x20 && c < 0x7f },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"print":  func(c byte) bool { return c >= 0x20 && c < 0x7f },
	"punct":  func(c byte) bool { return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c) },
	"space":  func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"xdigit": func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' },
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseClass parses the bracket expression that starts at name[open], as Git's wildmatch
// does: ! or ^ first negates it, a ] right after the [ (and the negation) is a member, a-z is
// a range, [:alpha:] a POSIX class, \ quotes the next byte. It returns the bytes it matches
// and the offset of its closing ]; false if it is not closed or names an unknown class.
func parseClass(name string, open int) (*[256]bool, int, bool) {
	var set [256]bool
	i := open + 1
	negate := i < len(name) && (name[i] == '!' || name[i] == '^')
	if negate {
		i++
	}
	first := true
	for ; i < len(name) && (first || name[i] != ']'); i++ {
		first = false
		c := name[i]
		switch {
		case c == '\\':
			i++
			if i == len(name) {
				return nil, 0, false
			}
			c = name[i]
		case c == '[' && i+1 < len(name) && name[i+1] == ':':
			// A [: up to the next ] is a class if a : ends it too; else the [ is a member.
			end := strings.IndexByte(name[i+2:], ']')
			if end < 0 {
				return nil, 0, false
			}
			if className, ok := strings.CutSuffix(name[i+2:i+2+end], ":"); ok {
				in, ok := posixClasses[className]
				if !ok {
					return nil, 0, false
				}
				for b := range 256 {
					set[b] = set[b] || in(byte(b))
				}
				i += 2 + end
				continue
			}
		}
		if i+2 < len(name) && name[i+1] == '-' && name[i+2] != ']' {
			i += 2
			hi := name[i]
			if hi == '\\' {
				i++
				if i == len(name) {
					return nil, 0, false
				}
				hi = name[i]
			}
			for b := int(c); b <= int(hi); b++ {
				set[b] = true
			}
			continue
		}
		set[c] = true
	}
	if i == len(name) {
		return nil, 0, false
	}
	if negate {
		for b := range set {
			set[b] = !set[b]
		}
	}
	set['/'] = false
	return &set, i, true
}

// match reports whether t matches the one byte c.
func (t token) match(c byte) bool {
	switch t.kind {
	case literal:
		return t.b == c
	case anyByte:
		return true
	case class:
		return t.class[c]
	}
	return false
}

// match reports whether the glob matches name, one name of a path. A * can stand for any
// bytes; on a mismatch, only the last * takes one byte more, which is enough since any
// earlier * could take those bytes as well: the work is at most len(tokens) × len(name).
func (g glob) match(name string) bool {
	if g.doubleStar {
		return true
	}
	ti, ni := 0, 0
	starT, starN := -1, 0
	for ni < len(name) {
		switch {
		case ti < len(g.tokens) && g.tokens[ti].kind == star:
			starT, starN = ti, ni
			ti++
		case ti < len(g.tokens) && g.tokens[ti].match(name[ni]):
			ti++
			ni++
		case starT >= 0:
			starN++
			ti, ni = starT+1, starN
		default:
			return false
		}
	}
	for ti < len(g.tokens) && g.tokens[ti].kind == star {
		ti++
	}
	return ti == len(g.tokens)
}

// match reports whether the pattern matches path, slash-separated and relative to the
// directory of the pattern's file. The ** names are to the path's names what * is to a name's
// bytes, with the same bound on the work.
func (p *ignorePattern) match(path string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if p.basename {
		return p.names[0].match(path[strings.LastIndexByte(path, '/')+1:])
	}
	names := strings.Split(path, "/")
	pi, ni := 0, 0
	starP, starN := -1, 0
	for ni < len(names) {
		switch {
		case pi < len(p.names) && p.names[pi].doubleStar:
			starP, starN = pi, ni
			pi++
		case pi < len(p.names) && p.names[pi].match(names[ni]):
			pi++
			ni++
		case starP >= 0:
			starN++
			pi, ni = starP+1, starN
		default:
			return false
		}
	}
	for pi < len(p.names) && p.names[pi].doubleStar {
		pi++
	}
	return pi == len(p.names)
}

// ignoreStack is the .gitignore files of a directory and of its parents, the root's first.
type ignoreStack []*ignoreFile

// ignored reports whether the files of the stack exclude path, relative to the walk's root:
// the last pattern that matches it in the deepest file with one decides.
func (s ignoreStack) ignored(path string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		f := s[i]
		rel, ok := strings.CutPrefix(path, f.prefix)
		if !ok {
			continue
		}
		for j := len(f.patterns) - 1; j >= 0; j-- {
			if p := &f.patterns[j]; p.match(rel, isDir) {
				return !p.negate
			}
		}
	}
	return false
}
