package analysis_test

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/treesitter"
)

// TestDocumentEdits edits a document several times, analyzing only some versions, and checks
// each analysis against one of the same text from scratch.
func TestDocumentEdits(t *testing.T) {
	texts := []string{
		"function f(c) {\n  let x = 1;\n  return x;\n}\n",
		"function f(c) {\n  let x = 1;\n  if (c) x = 2;\n  return x;\n}\n",
		"function f(c) {\n  let x = 1;\n  if (c) x = 2;\n  return x + y;\n}\n",
		"function f(c) {\n  let x = 1;\n  if (c) x = 2\n  return x + y;\n}\nfunction g() {}\n",
		"function g() {}\n",
	}
	doc := analysis.NewDocument([]byte(texts[0]), analysis.Options{})
	for i, text := range texts {
		if i > 0 {
			doc = doc.Edit([]byte(text), changed([]byte(texts[i-1]), []byte(text)))
		}
		if i%2 == 1 {
			continue // left unparsed: the next version re-parses from the one before
		}
		want, err := analysis.Analyze([]byte(text), analysis.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := doc.Result().Annotate(); got != want.Annotate() {
			t.Errorf("version %d:\n%s\nwant\n%s", i, got, want.Annotate())
		}
		if doc.Ready() == nil {
			t.Errorf("version %d is analyzed but not ready", i)
		}
	}
}

// TestDocumentSuccessors analyzes two successors of one version at once: one re-parses from
// it, the other finds its tree given up and parses from scratch; both must be right.
func TestDocumentSuccessors(t *testing.T) {
	text := []byte(strings.Repeat("let a = 1; a++;\n", 200))
	base := analysis.NewDocument(text, analysis.Options{})
	texts := []string{strings.Repeat("let a = 1; a++;\n", 201), strings.Repeat("let b = 1; b--;\n", 200)}
	docs := []*analysis.Document{base.Edit([]byte(texts[0]), changed(text, []byte(texts[0]))), base.Edit([]byte(texts[1]), changed(text, []byte(texts[1])))}
	var wg sync.WaitGroup
	for _, d := range docs {
		wg.Go(func() { d.Result() })
	}
	wg.Wait()
	base.Close()
	for i, d := range docs {
		want, _ := analysis.Analyze([]byte(texts[i]), analysis.Options{})
		if d.Result().Annotate() != want.Annotate() {
			t.Errorf("successor %d analyzed wrong", i)
		}
	}
}

// TestTooLarge checks that a source over MaxSize is left alone with a reason, and that
// editing it down to a smaller size analyzes it again.
func TestTooLarge(t *testing.T) {
	huge := []byte("let x = 1;\n" + strings.Repeat("// padding\n", analysis.MaxSize/11+1))
	r, err := analysis.Analyze(huge, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds := r.Diagnostics(true)
	if len(r.Funcs) != 0 || len(ds) != 1 || !strings.Contains(ds[0].Message, "more than the 32 MiB") || r.Annotate() != string(huge) {
		t.Errorf("too large a file: %d functions, diagnostics %+v", len(r.Funcs), ds)
	}
	doc := analysis.NewDocument(huge, analysis.Options{})
	if doc.Result().Skipped == "" {
		t.Error("the document of a too large file is analyzed")
	}
	small := doc.Edit([]byte("let x = 1;\nx;\n"), changed(huge, []byte("let x = 1;\nx;\n")))
	if got := small.Result().Annotate(); got != "let x₁ = 1;\nx₁;\n" {
		t.Errorf("after the edit: %q", got)
	}
}

// TestParsedWhole edits a text with syntax errors where tree-sitter's incremental parse keeps
// another tree than its whole parse of the new text (testdata/recovery/reparse_differs.js, with
// "ed]; " replaced by "function "): ParsedWhole gives that version parsed whole, analyzed as
// Analyze does, once; and nothing for a version whose tree is the whole parse's.
func TestParsedWhole(t *testing.T) {
	prev, err := os.ReadFile("../testdata/recovery/reparse_differs.js")
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(prev, []byte("ed]; "))
	next := slices.Concat(prev[:at], []byte("function "), prev[at+5:])
	doc := analysis.NewDocument(prev, analysis.Options{})
	if whole := doc.ParsedWhole(); whole != nil {
		t.Error("ParsedWhole of a version not analyzed yet")
	}
	doc.Result()
	if whole := doc.ParsedWhole(); whole != nil {
		t.Error("ParsedWhole of a version parsed whole already")
	}
	edited := doc.Edit(next, analysis.Edit{StartByte: uint32(at), OldEndByte: uint32(at + 5), NewEndByte: uint32(at + 9)})
	incremental := edited.Result().File.Tree
	wholeTree, err := treesitter.Parse(treesitter.JavaScript, next)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(incremental.Nodes, wholeTree.Nodes) {
		t.Fatal("tree-sitter's incremental parse of this edit is its whole parse now: the test needs another")
	}
	whole := edited.ParsedWhole()
	if whole == nil {
		t.Fatal("ParsedWhole gave no version")
	}
	want, err := analysis.Analyze(next, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := whole.Result(); !slices.Equal(got.File.Tree.Nodes, wholeTree.Nodes) || got.Annotate() != want.Annotate() {
		t.Errorf("the version parsed whole is not the whole parse's, or not analyzed as Analyze does:\n%s\nwant\n%s", got.Annotate(), want.Annotate())
	}
	for _, d := range []*analysis.Document{edited, whole} {
		if again := d.ParsedWhole(); again != nil {
			t.Error("ParsedWhole gave a version twice")
		}
	}
}
