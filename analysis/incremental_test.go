package analysis_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/ssa"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// TestIncrementalEqualsFull edits documents at random, analyzing each version from the
// previous one (which re-parses incrementally and copies the functions the edit does not
// touch), and checks every result against an analysis of the same text from scratch: the
// annotated source, the diagnostics and the JSON dump must be equal, and every function must
// pass the SSA oracles. Versions with syntax errors are only checked by the oracles: tree-sitter
// may recover from an error differently when it re-parses incrementally (treesitter's
// TestLowerFromEqualsLower compares reuse on the same tree, errors included).
func TestIncrementalEqualsFull(t *testing.T) {
	var files []string
	for _, ext := range []string{"js", "ts", "tsx"} {
		matches, _ := filepath.Glob("../testdata/annotate/*." + ext)
		files = append(files, matches...)
	}
	var sources [][]byte
	var langs []analysis.Language
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lang, _ := analysis.LanguageOfFile(f)
		sources = append(sources, src)
		langs = append(langs, lang)
	}
	sources = append(sources, []byte(`let shared = 1, other;
function a(x) { let y = x + shared; if (x) y = 2; return y; }
function b(z) { other = z; return () => other + shared; }
const c = (w) => { for (const v of w) shared += v; return shared; };
class K { m(q) { return q ?? shared; } }
function d() { return b(a(1)); }
`))
	langs = append(langs, analysis.JavaScript)
	rng := rand.New(rand.NewPCG(1, 2))
	for i, src := range sources {
		editsEqualFull(t, fmt.Sprintf("source %d", i), src, analysis.Options{Language: langs[i]}, 30, rng)
	}
}

// TestIncrementalFromPiecesEqualsFull is TestIncrementalEqualsFull on the corpus files that
// open parsed in pieces (treesitter.ParseInPieces): the first edit re-parses from the whole
// parse made for it in the background, or waits for it.
func TestIncrementalFromPiecesEqualsFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range corpus.Fetch(t) {
		if len(f.Src) < 128<<10 || len(f.Src) > 1<<20 {
			continue // small files are parsed whole; large ones take seconds an edit
		}
		editsEqualFull(t, f.Name, f.Src, analysis.Options{}, 6, rng)
	}
}

// editsEqualFull makes steps random edits to a document of src, and checks each version's
// analysis, made from the previous one's, against one from scratch.
func editsEqualFull(t *testing.T, name string, src []byte, opts analysis.Options, steps int, rng *rand.Rand) {
	t.Helper()
	inserts := []string{" ", "\n", "x", "let q = 0;", "shared = 2;", "}", "{", "(", "function e(p) { return p; }", "/*", "// ", "other", "'", "`"}
	doc := analysis.NewDocument(src, opts)
	defer doc.Close()
	doc.Result()
	text := src
	for step := range steps {
		p := rng.IntN(len(text) + 1)
		var next []byte
		if rng.IntN(3) == 0 && p < len(text) {
			end := min(len(text), p+1+rng.IntN(8))
			next = slices.Concat(text[:p], text[end:])
		} else {
			next = slices.Concat(text[:p], []byte(inserts[rng.IntN(len(inserts))]), text[p:])
		}
		doc = doc.Edit(next, changed(text, next))
		text = next
		got := doc.Result()
		if step%3 == 1 && step < steps-1 {
			continue // its copies are left not made, for the next versions to copy (ssa.Copy)
		}
		want, err := analysis.Analyze(text, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, got)
		if hasSyntaxError(want) || hasSyntaxError(got) {
			continue
		}
		if g, w := got.Annotate(), want.Annotate(); g != w {
			t.Fatalf("%s, edit %d at %d: annotations differ:\n%s", name, step, p, lineDiff(w, g))
		}
		if g, w := diagnosticsText(got), diagnosticsText(want); g != w {
			t.Fatalf("%s, edit %d: diagnostics differ:\n%s\nwant\n%s", name, step, g, w)
		}
		var gj, wj bytes.Buffer
		if err := got.DumpJSON(&gj, ""); err != nil {
			t.Fatal(err)
		}
		if err := want.DumpJSON(&wj, ""); err != nil {
			t.Fatal(err)
		}
		if gj.String() != wj.String() {
			t.Fatalf("%s, edit %d: JSON dumps differ:\n%s", name, step, lineDiff(strings.ReplaceAll(wj.String(), "},{", "},\n{"), strings.ReplaceAll(gj.String(), "},{", "},\n{")))
		}
	}
}

func hasSyntaxError(r *analysis.Result) bool {
	for _, fn := range r.Funcs {
		if k := fn.NotAnalyzed.Kind; k == ssa.SyntaxError || k == ssa.NoJumpTarget {
			return true
		}
	}
	return false
}

func diagnosticsText(r *analysis.Result) string {
	var sb strings.Builder
	for _, d := range r.Diagnostics(true) {
		sb.WriteString(d.Message)
		sb.WriteString("@")
		sb.WriteString(string(rune('0' + d.Span.Start%10)))
		sb.WriteString("\n")
	}
	return sb.String()
}

// TestCarriedDiagnostics edits a function's body and checks the findings of the new version,
// which it carries over from the old one for the functions it copies, or clones around the
// edited function (lower's spine.go), against those of a fresh analysis, spans and all.
func TestCarriedDiagnostics(t *testing.T) {
	const src = `function outer(p) {
  let a = 1; a = 2;
  function inner(q) { return q;| }
  const c = () => d;
  let d = 3; d = 4;
  return [a, d, inner, c, p];
}
function after() { let e = 1; e = 2; return e; }
`
	for _, text := range []string{" + 1", "\n  ", ""} {
		at := strings.Index(src, "|")
		old := []byte(strings.Replace(src, "|", "", 1))
		next := []byte(src[:at] + text + src[at+1:])
		doc := analysis.NewDocument(old, analysis.Options{})
		if len(doc.Result().Diagnostics(true)) == 0 {
			t.Fatal("no findings to carry")
		}
		doc = doc.Edit(next, changed(old, next))
		got := doc.Result().Diagnostics(true)
		doc.Close()
		fresh, err := analysis.Analyze(next, analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := fresh.Diagnostics(true); !slices.Equal(got, want) {
			t.Errorf("after inserting %q: diagnostics\n%v\nwant\n%v", text, got, want)
		}
	}
}
