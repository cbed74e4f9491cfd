package treesitter

import "bytes"

// Parsing the first lines of a large source alone.
//
// An editor asks for the inlay hints of the lines it shows as soon as it opens a file, and
// parsing a large file whole takes longer than a user waits for them. The start of a source,
// up to a statement of its top level, parses alone as it does in the whole source: tree-sitter
// reads left to right, and where the prefix's last statement ends with its own `;` or `}` and
// the text after it starts with a statement keyword that cannot continue it, the parser is
// between two statements of the top level whatever comes after. This is the argument of the
// pieces (pieces.go), needed on one side only: nothing comes before a prefix.
//
//	source:  S₁ S₂ … Sₖ |cut  Sₖ₊₁ …
//	parsed:  S₁ S₂ … Sₖ        (the whole parse's, node for node, offsets included)

// ParsePrefix parses the start of src, up to the first statement of its top level that starts
// at or after offset end, or all of src if none does. It returns nil if that prefix is longer
// than max bytes, or its tree does not prove the cut: it has an error, or its last statement
// does not end with a `;` or `}`. The tree's Src is the prefix, and its statements are the
// whole parse's, node for node.
func ParsePrefix(g *Grammar, src []byte, end, max uint32) (*Tree, error) {
	cut, ok := prefixCut(src, end, max)
	if !ok {
		return nil, nil
	}
	prefix := src[:cut]
	nodes, err := consumeParse(g, prefix)
	if err != nil {
		return nil, err
	}
	if nodes[0].Flags&HasError != 0 {
		return nil, nil
	}
	if int(cut) < len(src) {
		if _, lastNonExtra := childrenBefore(nodes, 0, -1); !endsStatement(nodes, lastNonExtra) {
			return nil, nil
		}
	}
	return &Tree{Src: prefix, Nodes: nodes, Grammar: g, id: treeIDs.Add(1)}, nil
}

// prefixCut returns where the prefix ParsePrefix parses ends: the first candidate for a cut
// (pieces.go) of the top level at or after end, or the end of src; false if it is past max.
// Only the first max bytes are scanned: the scan reads left to right, so its candidates there
// are those of the whole source, but for a word that the end of the scan cuts short.
func prefixCut(src []byte, end, max uint32) (uint32, bool) {
	scanned := src[:min(uint64(len(src)), uint64(max))]
	whole := len(scanned) == len(src)
	for c := range cutCandidates(scanned) {
		if c.list == 0 && c.at >= end && (whole || int(c.at)+len("function") < len(scanned)) {
			return c.at, true
		}
	}
	return uint32(len(src)), whole
}

// CodeWords calls f with the name each word of src outside comments, strings and the text of
// template literals spells (IdentifierName), as the scan of the cut candidates (pieces.go)
// reads them, while f returns true, and with whether the word looks assigned: an assignment
// operator or ++ or -- next to it, or `of` or `in` after it, as in a for statement's head. It
// reports whether the scan read all of src with its brackets balanced. The scan guesses where
// regular expressions are, so it may take code for a regular expression or a string; and a
// word assigned by a destructuring pattern (`[a, b] = pair`) does not look assigned.
func CodeWords(src []byte, f func(name []byte, assigned bool) bool) (balanced bool) {
	return scan(src, func(cutCandidate) bool { return true }, func(word []byte, at int) bool {
		assigned := looksAssigned(src, at, at+len(word))
		if bytes.IndexByte(word, '\\') >= 0 {
			word = IdentifierName(word)
		}
		return f(word, assigned)
	})
}

// looksAssigned reports whether the word src[start:end] looks assigned, as CodeWords says.
func looksAssigned(src []byte, start, end int) bool {
	n := start
	for n > 0 && isBlank(src[n-1]) {
		n--
	}
	if n >= 2 && (src[n-1] == '+' || src[n-1] == '-') && src[n-2] == src[n-1] {
		return true
	}
	for end < len(src) && isBlank(src[end]) {
		end++
	}
	after := src[end:]
	if len(after) == 0 {
		return false
	}
	switch after[0] {
	case '=', '+', '-', '*', '/', '%', '&', '|', '^', '<', '>', '?':
		for _, op := range assignmentOperators {
			if bytes.HasPrefix(after, []byte(op)) {
				return op != "=" || len(after) == 1 || after[1] != '=' && after[1] != '>'
			}
		}
	case 'o', 'i':
		for _, w := range []string{"of", "in"} {
			if bytes.HasPrefix(after, []byte(w)) && (len(after) == len(w) || !wordBytes[after[len(w)]]) {
				return true
			}
		}
	}
	return false
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// assignmentOperators are the operators that assign the word before them, longest first, so
// that `>>>=` is not taken for `>`.
var assignmentOperators = []string{">>>=", "**=", "<<=", ">>=", "&&=", "||=", "??=",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--", "="}

// HasWord reports whether word occurs in src as a whole word, in code, comments or strings.
func HasWord(src []byte, word string) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(word))
		if j < 0 {
			return false
		}
		at, after := i+j, i+j+len(word)
		if (at == 0 || !wordBytes[src[at-1]]) && (after == len(src) || !wordBytes[src[after]]) {
			return true
		}
		i = after
	}
}
