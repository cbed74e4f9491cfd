// Package mutate makes the broken programs that real editing makes, for fuzzing: it deletes,
// duplicates and swaps tokens of a program, comments code out and back in, unbalances
// brackets and truncates it at a token. The byte-level fuzzer (analysis.FuzzAnalyze) rarely
// reaches these: a random byte flip seldom yields a program whose parse recovers the way an
// editor's half-typed code does.
package mutate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	ts "github.com/ssalens/ssalens/treesitter"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// Bases returns the programs mutations start from: the functions of the corpus files (40 to
// 4,000 bytes) and the programs of test262-parser-tests. It skips tb without the corpus.
func Bases(tb testing.TB) [][]byte {
	tb.Helper()
	var bases [][]byte
	for _, f := range corpus.Fetch(tb) {
		bases = append(bases, Functions(f.Src, 40, 4000)...)
	}
	for _, f := range corpus.FetchTest262(tb) {
		bases = append(bases, f.Src)
	}
	return bases
}

// Token is a leaf of a program's syntax tree: a token or a comment, [Start, End) of the source.
type Token struct {
	Start, End int
	Comment    bool
}

// Tokens returns the tokens of src, in order; nil if it cannot be parsed.
func Tokens(src []byte) []Token {
	tree, err := ts.Parse(ts.JavaScript, src)
	if err != nil {
		return nil
	}
	defer tree.Close()
	var toks []Token
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		switch {
		case n.Flags&ts.Extra != 0 && n.Kind == ts.KindComment:
			toks = append(toks, Token{Start: int(n.Start), End: int(n.End), Comment: true})
		case n.FirstChild < 0 && n.End > n.Start && n.Flags&ts.Missing == 0:
			toks = append(toks, Token{Start: int(n.Start), End: int(n.End)})
		}
	}
	slices.SortStableFunc(toks, func(a, b Token) int { return a.Start - b.Start })
	return slices.CompactFunc(toks, func(a, b Token) bool { return b.Start < a.End }) // comments hold no tokens
}

// Functions returns the source of the functions of src, declarations as they are and
// expressions assigned to a variable, that are between min and max bytes long.
func Functions(src []byte, min, max int) [][]byte {
	tree, err := ts.Parse(ts.JavaScript, src)
	if err != nil {
		return nil
	}
	defer tree.Close()
	var out [][]byte
	for i := range tree.Nodes {
		n := &tree.Nodes[i]
		if size := int(n.End - n.Start); size < min || size > max {
			continue
		}
		text := src[n.Start:n.End]
		switch n.Kind {
		case ts.KindFunctionDeclaration, ts.KindGeneratorFunctionDeclaration, ts.KindClassDeclaration:
			out = append(out, text)
		case ts.KindFunctionExpression, ts.KindGeneratorFunction, ts.KindArrowFunction, ts.KindClass:
			out = append(out, slices.Concat([]byte("x = "), text, []byte(";\n")))
		}
	}
	return out
}

// Kind is a kind of mutation.
type Kind uint8

const (
	Delete     Kind = iota // delete a token
	Duplicate              // type a token again after itself
	Swap                   // swap two tokens near each other
	CommentOut             // comment out a run of tokens, or a line
	Uncomment              // remove a comment's markers, leaving its text as code
	Unbalance              // delete or add a bracket
	Truncate               // cut the program after a token
	Insert                 // type a token from elsewhere in the program
	numKinds
)

var kindNames = [...]string{"delete", "duplicate", "swap", "comment out", "uncomment", "unbalance", "truncate", "insert"}

func (k Kind) String() string { return kindNames[k] }

// Mutate returns src changed by one to three mutations chosen by rng, and what they were.
func Mutate(src []byte, rng *rand.Rand) ([]byte, string) {
	var what []string
	for range 1 + rng.IntN(3) {
		toks := Tokens(src)
		if len(toks) == 0 {
			break
		}
		k := Kind(rng.IntN(int(numKinds)))
		var d string
		src, d = apply(src, toks, k, rng)
		what = append(what, d)
	}
	return src, strings.Join(what, "; ")
}

// Truncations returns src cut after each of its tokens.
func Truncations(src []byte) [][]byte {
	var out [][]byte
	for _, t := range Tokens(src) {
		out = append(out, src[:t.End])
	}
	return out
}

var brackets = []string{"{", "}", "(", ")", "[", "]", "${", "`"}

func apply(src []byte, toks []Token, k Kind, rng *rand.Rand) ([]byte, string) {
	i := rng.IntN(len(toks))
	t := toks[i]
	text := string(src[t.Start:t.End])
	switch k {
	case Delete:
		return splice(src, t.Start, t.End, ""), fmt.Sprintf("delete %q at %d", text, t.Start)
	case Duplicate:
		return splice(src, t.End, t.End, text), fmt.Sprintf("duplicate %q at %d", text, t.Start)
	case Swap:
		j := min(len(toks)-1, i+1+rng.IntN(4))
		u := toks[j]
		if j == i {
			return src, "swap nothing"
		}
		out := slices.Concat(src[:t.Start], src[u.Start:u.End], src[t.End:u.Start], src[t.Start:t.End], src[u.End:])
		return out, fmt.Sprintf("swap %q at %d and %q at %d", text, t.Start, src[u.Start:u.End], u.Start)
	case CommentOut:
		if rng.IntN(2) == 0 {
			return splice(src, t.Start, t.Start, "// "), fmt.Sprintf("comment out the line from %d", t.Start)
		}
		end := toks[min(len(toks)-1, i+rng.IntN(12))].End
		return slices.Concat(src[:t.Start], []byte("/* "), src[t.Start:end], []byte(" */"), src[end:]),
			fmt.Sprintf("comment out %d–%d", t.Start, end)
	case Uncomment:
		for range len(toks) {
			if c := toks[i]; c.Comment {
				body := string(src[c.Start:c.End])
				switch {
				case strings.HasPrefix(body, "//"):
					body = body[2:]
				case strings.HasPrefix(body, "/*"):
					body = strings.TrimSuffix(body[2:], "*/")
				}
				return splice(src, c.Start, c.End, body), fmt.Sprintf("uncomment %d–%d", c.Start, c.End)
			}
			i = (i + 1) % len(toks)
		}
		return src, "uncomment nothing"
	case Unbalance:
		for range len(toks) {
			if b := string(src[toks[i].Start:toks[i].End]); slices.Contains(brackets, b) {
				if rng.IntN(2) == 0 {
					return splice(src, toks[i].Start, toks[i].End, ""), fmt.Sprintf("delete bracket %q at %d", b, toks[i].Start)
				}
				b = brackets[rng.IntN(len(brackets))]
				return splice(src, toks[i].Start, toks[i].Start, b), fmt.Sprintf("add bracket %q at %d", b, toks[i].Start)
			}
			i = (i + 1) % len(toks)
		}
		return src, "unbalance nothing"
	case Truncate:
		return src[:t.End:t.End], fmt.Sprintf("truncate after %d", t.End)
	default: // Insert
		u := toks[rng.IntN(len(toks))]
		return splice(src, t.Start, t.Start, string(src[u.Start:u.End])+" "), fmt.Sprintf("insert %q at %d", src[u.Start:u.End], t.Start)
	}
}

func splice(src []byte, start, end int, insert string) []byte {
	return slices.Concat(src[:start], []byte(insert), src[end:])
}
