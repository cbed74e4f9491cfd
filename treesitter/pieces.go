package treesitter

import (
	"bytes"
	"cmp"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Parsing a large source in pieces, one per processor.
//
// Tree-sitter parses on one processor, and its parse is most of what opening or checking a
// large file costs. A list of statements, though, parses statement by statement: where one
// statement ends with its own `;` or `}` and the next starts with a keyword that cannot
// continue it (`function`, `const`, …), the parser is between two statements whatever comes
// before or after. So a large source is cut at such places, all in one statement list (a
// module's top level, a bundle's or an IIFE's body): the text between the first and the last
// cut is parsed in pieces, each alone as a program, and the rest as one more, closed up over
// the gap by tree-sitter's included ranges, which keep its offsets; each on its own processor.
// The pieces' statements then go into the outer tree's statement list, at the gap:
//
//	source:  A  |cut₁  M₁  |cut₂  M₂  |cut₃  B
//	parsed:  A B (the outer text)   M₁   M₂
//	joined:  A's statements, M₁'s, M₂'s, B's, in the statement list A and B share; M₁'s
//	         and M₂'s offsets shifted by cut₁ and cut₂
//
// A cut is kept only if the trees prove it: every piece parses without an error, the gap in
// the outer tree is between two statements of one statement list (a program or a block), and
// on each side of every cut the statement before ends with a `;` or `}` token and the one
// after starts with one of the keywords. Else the source is parsed whole. The joined tree is
// the whole parse's, node for node, which TestPiecesEqualWhole checks on every corpus file.

// piecesMin is the size of the smallest source parsed in pieces.
const piecesMin = 128 << 10

// statementKeywords start a statement and cannot continue the one before it. (`while` is
// left out: it continues a do statement.)
var statementKeywords = []string{"function", "class", "const", "let", "var", "export", "if", "for", "return", "switch", "try", "throw"}

var statementKeywordKinds = func() []Kind {
	ks := make([]Kind, len(statementKeywords))
	for i, w := range statementKeywords {
		ks[i] = TokenKind(w)
	}
	return ks
}()

var semicolonKind, closeBraceKind = TokenKind(";"), TokenKind("}")

// ParseInPieces is Parse for a caller that does not re-parse at once: a source of piecesMin
// bytes or more is parsed in pieces on every processor (GOMAXPROCS). Such a tree has no C
// tree: ParseWhole parses the source whole for the Reparse of a later version that cannot be
// spliced, which calls it first if no one did. A source that does not cut is parsed whole.
func ParseInPieces(g *Grammar, src []byte) (*Tree, error) {
	nodes, err := parsePieces(g, src, piecesOf(src), false)
	if err != nil {
		return nil, err
	}
	if nodes == nil {
		return parse(g, src, nil, nil)
	}
	return &Tree{Src: src, Nodes: nodes, Grammar: g, id: treeIDs.Add(1), whole: &wholeParse{cancel: new(atomic.Int32), holders: 1}}, nil
}

// ParsedWholeLater reports whether t was made without its C tree, which ParseWhole makes: from
// pieces (ParseInPieces), or spliced by Reparse (splice.go).
func (t *Tree) ParsedWholeLater() bool { return t.whole != nil }

// parsePieces parses src cut at cuts and joins the pieces' trees; nil if there are fewer than
// two cuts or the trees do not prove them (see above). With release, each piece's walk
// consumes its C tree (see flattenFrom).
func parsePieces(g *Grammar, src []byte, cuts []uint32, release bool) ([]Node, error) {
	if len(cuts) < 2 {
		return nil, nil
	}
	first, last := cuts[0], cuts[len(cuts)-1]
	texts := [][]byte{src} // the outer text: src without what is between the first and last cut
	for i := range len(cuts) - 1 {
		texts = append(texts, src[cuts[i]:cuts[i+1]])
	}
	trees := make([][]Node, len(texts))
	errs := make([]error, len(texts))
	var wg sync.WaitGroup
	for i, text := range texts {
		wg.Go(func() {
			var ranges []sitter.Range
			if i == 0 {
				atFirst := advance(sitter.Point{}, src, 0, first)
				atLast := advance(atFirst, src, first, last)
				ranges = []sitter.Range{
					{EndByte: uint(first), EndPoint: atFirst},
					{StartByte: uint(last), EndByte: uint(len(src)), StartPoint: atLast, EndPoint: advance(atLast, src, last, uint32(len(src)))},
				}
			}
			ts, err := parseC(g, text, nil, nil, ranges)
			if err != nil {
				errs[i] = err
				return
			}
			if release {
				defer ts.Close() // what the walk left of it
			} else {
				// Freeing a tree takes a tenth of its parse, which nothing needs to wait for.
				defer func() { go ts.Close() }()
			}
			trees[i], errs[i] = flattenFrom(ts, g, nil, release)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, t := range trees {
		if t[0].Flags&HasError != 0 {
			return nil, nil
		}
	}
	mids := trees[1:]
	for _, m := range mids {
		_, lastNonExtra := childrenBefore(m, 0, -1)
		if !startsWithKeyword(m, m[0].FirstChild) || !endsStatement(m, lastNonExtra) {
			return nil, nil
		}
	}
	outer := trees[0]
	gap := findGap(outer, last)
	if gap.after < 0 {
		return nil, nil
	}
	return join(outer, gap, mids, cuts), nil
}

// outerGap is where, in the outer tree, the pieces go: before node after, a statement of the
// statement list list; before is the child of list just before it.
type outerGap struct{ list, before, after int32 }

// findGap finds the gap at offset at of the outer tree; after is -1 if the gap is not between
// two statements of a statement list whose first ends a statement and whose second starts one
// with a keyword.
func findGap(outer []Node, at uint32) outerGap {
	none := outerGap{after: -1}
	// The outermost node starting at at is the first in preorder.
	first, found := slices.BinarySearchFunc(outer, at, func(n Node, at uint32) int { return cmp.Compare(n.Start, at) })
	if !found {
		return none
	}
	i := int32(first)
	list := outer[i].Parent
	if list < 0 || (outer[list].Kind != KindProgram && outer[list].Kind != KindStatementBlock) {
		return none
	}
	before, lastNonExtra := childrenBefore(outer, list, i)
	if before < 0 || !startsWithKeyword(outer, i) || !endsStatement(outer, lastNonExtra) {
		return none
	}
	return outerGap{list: list, before: before, after: i}
}

// childrenBefore returns the last child of node parent before child stop (-1: of all its
// children), and the last that is not a comment; -1 for none.
func childrenBefore(nodes []Node, parent, stop int32) (last, lastNonExtra int32) {
	last, lastNonExtra = -1, -1
	for c := nodes[parent].FirstChild; c >= 0 && c != stop; c = nodes[c].NextSibling {
		last = c
		if nodes[c].Flags&Extra == 0 {
			lastNonExtra = c
		}
	}
	return last, lastNonExtra
}

// startsWithKeyword reports whether node i's first token is one of statementKeywords.
func startsWithKeyword(nodes []Node, i int32) bool {
	if i < 0 {
		return false
	}
	for nodes[i].FirstChild >= 0 {
		i = nodes[i].FirstChild
	}
	return slices.Contains(statementKeywordKinds, nodes[i].Kind)
}

// endsStatement reports whether node i is a statement whose last token is a `;` or a `}`.
func endsStatement(nodes []Node, i int32) bool {
	if i < 0 || !nodes[i].Kind.IsNamed() {
		return false
	}
	last := lastToken(nodes, i)
	return last == semicolonKind || last == closeBraceKind
}

// join puts the statements of mids, the pieces cut at cuts[i] to cuts[i+1], into the outer
// tree at gap, and returns the tree of the whole source.
func join(outer []Node, gap outerGap, mids [][]Node, cuts []uint32) []Node {
	shift := int32(0) // how many nodes the outer ones from gap.after on move
	for _, m := range mids {
		shift += int32(len(m)) - 1
	}
	ins := gap.after
	nodes := make([]Node, int32(len(outer))+shift)
	moveIndex := func(i int32) int32 {
		if i >= ins {
			return i + shift
		}
		return i
	}
	for i, n := range outer[:ins] {
		n.FirstChild, n.NextSibling = moveIndex(n.FirstChild), moveIndex(n.NextSibling)
		nodes[i] = n
	}
	next := ins // where the next piece's first statement goes
	nodes[gap.before].NextSibling = next
	for j, m := range mids {
		base := next - 1 // m's node i goes to base + i
		next += int32(len(m)) - 1
		// m's last statement is followed by the next piece's first, or the outer tree's after the gap.
		placePiece(nodes, m, base, cuts[j], gap.list, next)
		nodes[gap.list].ChildCount += m[0].ChildCount
	}
	for i, n := range outer[ins:] {
		n.Parent = moveIndex(n.Parent)
		n.FirstChild, n.NextSibling = moveIndex(n.FirstChild), moveIndex(n.NextSibling)
		nodes[ins+shift+int32(i)] = n
	}
	return nodes
}

// placePiece writes the nodes of m, the tree of a piece of the source parsed alone from offset
// at, but its root, into nodes from base+1 on: the root's children become children of list,
// the last of them followed by node after.
func placePiece(nodes, m []Node, base int32, at uint32, list, after int32) {
	for i, n := range m[1:] {
		top := n.Parent == 0
		n.Start += at
		n.End += at
		if top {
			n.Parent = list
		} else {
			n.Parent += base
		}
		if n.FirstChild >= 0 {
			n.FirstChild += base
		}
		switch {
		case n.NextSibling >= 0:
			n.NextSibling += base
		case top:
			n.NextSibling = after
		}
		nodes[base+1+int32(i)] = n
	}
}

// piecesOf returns where to cut src to parse it on every processor; nil for a source under
// piecesMin.
func piecesOf(src []byte) []uint32 {
	if len(src) < piecesMin || len(src) > math.MaxUint32 {
		return nil
	}
	return cutPoints(src, runtime.GOMAXPROCS(0))
}

// cutPoints returns where to cut src to parse it on processors: as many statement starts,
// first on their lines, in one statement list, as there are processors, so that the outer
// text and each piece between two cuts are about as long. The candidates come from a scan
// of the text that follows comments, strings, template literals, regular expressions (guessed
// from the token before a slash) and brackets; only the trees decide whether a cut holds.
func cutPoints(src []byte, processors int) []uint32 {
	if processors < 2 {
		return nil
	}
	lists := make(map[int32][]uint32)
	for c := range cutCandidates(src) {
		lists[c.list] = append(lists[c.list], c.at)
	}
	var best []uint32
	bestLargest := uint32(len(src))
	for _, list := range slices.Sorted(maps.Keys(lists)) { // in order, for the same cuts every time
		if cuts := cutsIn(lists[list], uint32(len(src)), uint32(processors)); len(cuts) >= 2 {
			if l := largestPiece(cuts, uint32(len(src))); l < bestLargest {
				best, bestLargest = cuts, l
			}
		}
	}
	return best
}

// cutsIn picks the cuts for n processors among the candidates at of one list, in a source of
// size bytes: the first near size/2n and the last near size - size/2n, so that the outer text
// keeps half a piece at each end, and the others evenly between.
func cutsIn(at []uint32, size, n uint32) []uint32 {
	var cuts []uint32
	for k := range n {
		target := size/(2*n) + k*(size-size/n)/(n-1)
		i, _ := slices.BinarySearch(at, target)
		if i == len(at) || (i > 0 && target-at[i-1] < at[i]-target) {
			i--
		}
		if len(cuts) == 0 || at[i] > cuts[len(cuts)-1] {
			cuts = append(cuts, at[i])
		}
	}
	return cuts
}

// largestPiece returns the size of the largest piece cuts make of a source of size bytes: the
// pieces are parsed at the same time, so the largest decides how long the parse takes.
func largestPiece(cuts []uint32, size uint32) uint32 {
	largest := cuts[0] + size - cuts[len(cuts)-1]
	for i := 1; i < len(cuts); i++ {
		largest = max(largest, cuts[i]-cuts[i-1])
	}
	return largest
}

// cutCandidate is the first word of a line, one of statementKeywords, after a `;` or `}`,
// directly in the braces numbered list (0: the top level).
type cutCandidate struct {
	at   uint32
	list int32
}

// cutCandidates yields the candidates for a cut in src, in order.
func cutCandidates(src []byte) func(yield func(cutCandidate) bool) {
	return func(yield func(cutCandidate) bool) { scan(src, yield, nil) }
}

// scan reads src as cutCandidates says, giving yield each candidate for a cut and, if not nil,
// visit each word outside comments, strings and the text of template literals, with its offset;
// it stops when either returns false. It returns whether it read all of src with its brackets
// balanced.
func scan(src []byte, yield func(cutCandidate) bool, visit func(word []byte, at int) bool) (balanced bool) {
	type open struct {
		c  byte // '{', '(', '[', '`' (a template literal) or '$' (a substitution in one)
		id int32
	}
	var stack []open
	unopened := false // a closing bracket that nothing opened
	ids := int32(0)
	last := byte(';') // the last byte of the last token: ';' stands for the start
	var word []byte   // the last token, if a word
	for i := 0; i < len(src); {
		c := src[i]
		if len(stack) > 0 && stack[len(stack)-1].c == '`' {
			switch {
			case c == '\\':
				i += 2
			case c == '`':
				stack = stack[:len(stack)-1]
				last, word = '`', nil
				i++
			case c == '$' && i+1 < len(src) && src[i+1] == '{':
				ids++
				stack = append(stack, open{'$', ids})
				last, word = '{', nil
				i += 2
			default:
				i++
			}
			continue
		}
		switch {
		case c == '\n':
			i++
			if (last == ';' || last == '}') && (len(stack) == 0 || stack[len(stack)-1].c == '{') {
				if at := statementKeywordAt(src, i); at >= 0 {
					list := int32(0)
					if len(stack) > 0 {
						list = stack[len(stack)-1].id
					}
					if !yield(cutCandidate{at: uint32(at), list: list}) {
						return false
					}
				}
			}
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = skipTo(src, i+2, bytes.IndexByte(src[i+2:], '\n'), 0)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = skipTo(src, i+2, bytes.Index(src[i+2:], []byte("*/")), 2)
		case c == '/' && regexAfter(last, word):
			i = skipQuoted(src, i, '/')
			last, word = 'a', nil
		case c == '\'' || c == '"':
			i = skipQuoted(src, i, c)
			last, word = 'a', nil
		case c == '`':
			ids++
			stack = append(stack, open{'`', ids})
			i++
		case c == '{' || c == '(' || c == '[':
			ids++
			stack = append(stack, open{c, ids})
			last, word = c, nil
			i++
		case c == '}' || c == ')' || c == ']':
			if len(stack) == 0 {
				unopened = true
			} else {
				stack = stack[:len(stack)-1]
			}
			last, word = c, nil
			i++
		case wordBytes[c] || escapeAt(src, i):
			start := i
			for i < len(src) && (wordBytes[src[i]] || escapeAt(src, i)) {
				i++
			}
			last, word = 'a', src[start:i]
			if visit != nil && !visit(word, start) {
				return false
			}
		default:
			last, word = c, nil
			i++
		}
	}
	return len(stack) == 0 && !unopened
}

// escapeAt reports whether src[i] starts a \u escape, which only a word can have outside
// strings.
func escapeAt(src []byte, i int) bool {
	return src[i] == '\\' && i+1 < len(src) && src[i+1] == 'u'
}

// skipQuoted returns the offset after the string or regular expression that starts at src[i]
// with quote and ends with it (or, unterminated, at the end of the line).
func skipQuoted(src []byte, i int, quote byte) int {
	inClass := false // in a regular expression's [...]
	for i++; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case c == '\n':
			return i
		case quote == '/' && c == '[':
			inClass = true
		case quote == '/' && c == ']':
			inClass = false
		case c == quote && !inClass:
			return i + 1
		}
	}
	return i
}

// regexAfter reports whether a slash after the token that ends with last (word, if a word)
// starts a regular expression rather than a division.
func regexAfter(last byte, word []byte) bool {
	if word != nil {
		return slices.Contains(regexKeywords, string(word))
	}
	return last != 'a' && last != ')' && last != ']' && last != '}' && last != '`'
}

var regexKeywords = []string{"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await", "instanceof"}

// statementKeywordAt returns the offset of the first word of the line that starts at src[i],
// if the word is one of statementKeywords; else -1.
func statementKeywordAt(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	j := i
	for j < len(src) && wordBytes[src[j]] {
		j++
	}
	if j > i && slices.Contains(statementKeywords, string(src[i:j])) {
		return i
	}
	return -1
}

// wordBytes marks the bytes words are made of: identifiers, keywords, numbers.
var wordBytes = func() (is [256]bool) {
	for c := range is {
		is[c] = c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	return is
}()

// skipTo returns the offset past a comment whose end, after bytes long, was found found bytes
// after from; the end of src if it was not found (found < 0).
func skipTo(src []byte, from, found, after int) int {
	if found < 0 {
		return len(src)
	}
	return from + found + after
}
