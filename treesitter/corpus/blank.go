package corpus

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ssalens/ssalens/internal/npmtest"
)

// The type stripper and the TypeScript it parses with. ts-blank-space 0.9.0
// accepts typescript 5.1.6 to 6.0.x; pinning it keeps the parse, and so the
// refusals, the same on every machine.
const (
	tsBlankSpaceVersion = "0.9.0"
	blankTSVersion      = "6.0.3"
)

//go:embed blank.mjs
var blankDriver []byte

// Blanked is what ts-blank-space makes of one file.
type Blanked struct {
	File File
	// JS is File.Src with every piece of TypeScript-only syntax replaced by
	// spaces: the same length in bytes, with every line break (\n, \r, U+2028,
	// U+2029) where it was. ts-blank-space may also write ";" where erasing a
	// statement would let automatic semicolon insertion join two others, and
	// move the "(" or ")" of an arrow function's parameters where erasing a
	// type would break the line before "=>". Nil when Refused is not empty.
	JS []byte
	// Refused lists why ts-blank-space could not strip the file: syntax with
	// runtime semantics that cannot be erased in place, or a syntax error.
	Refused []Refusal
}

// Refusal is one piece of syntax ts-blank-space refuses.
type Refusal struct {
	// Kind is TypeScript's SyntaxKind of the refused node, such as
	// "EnumDeclaration", "ModuleDeclaration" (a namespace with values),
	// "PrivateKeyword" (a parameter property), "ImportEqualsDeclaration",
	// "ExportAssignment" (export =), "TypeAssertionExpression" (<T>x) or
	// "AsExpression" (an as that cannot be erased without parentheses);
	// or "SyntaxError: " and TypeScript's message.
	Kind string
	// Start and End are byte offsets into File.Src.
	Start, End int
	// Text is the start of the node's first line.
	Text string
}

func (r Refusal) String() string { return fmt.Sprintf("%s at %d: %q", r.Kind, r.Start, r.Text) }

// blankTimeout bounds the node run.
const blankTimeout = 5 * time.Minute

// Blank strips the types of files (TypeScript or TSX, by File.Lang) with
// ts-blank-space, all in one node process, and returns the results in the
// order of files. On first use it installs ts-blank-space and typescript with
// npm into the corpus cache directory; it skips the test or benchmark when
// node is missing, or npm is missing or cannot reach the registry.
func Blank(tb testing.TB, files []File) []Blanked {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Skipf("corpus: node not found, cannot run ts-blank-space: %v", err)
	}
	dir := installBlank(tb)
	driver := filepath.Join(tb.TempDir(), "blank.mjs")
	if err := os.WriteFile(driver, blankDriver, 0o644); err != nil {
		tb.Fatal(err)
	}

	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, f := range files {
		if !utf8.Valid(f.Src) {
			tb.Fatalf("corpus: %s is not valid UTF-8", f.Name)
		}
		req := struct {
			Name string `json:"name"`
			TSX  bool   `json:"tsx"`
			Src  string `json:"src"`
		}{f.Name, f.Lang == TSX, string(f.Src)}
		if err := enc.Encode(req); err != nil {
			tb.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), blankTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, driver, dir)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("corpus: node %s: %v\n%s", driver, err, stderr.Bytes())
	}

	results := make([]Blanked, 0, len(files))
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		if len(results) == len(files) {
			tb.Fatalf("corpus: ts-blank-space driver returned more than %d results", len(files))
		}
		f := files[len(results)]
		var res struct {
			JS      string `json:"js"`
			Refused []struct {
				Kind       string
				Start, End int
				Text       string
			} `json:"refused"`
		}
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			tb.Fatalf("corpus: ts-blank-space driver, result for %s: %v", f.Name, err)
		}
		b := Blanked{File: f}
		for _, r := range res.Refused {
			b.Refused = append(b.Refused, Refusal{Kind: r.Kind, Start: r.Start, End: r.End, Text: r.Text})
		}
		if len(b.Refused) == 0 {
			b.JS = []byte(res.JS)
			if len(b.JS) != len(f.Src) {
				tb.Fatalf("corpus: ts-blank-space made %d bytes of the %d of %s", len(b.JS), len(f.Src), f.Name)
			}
		}
		results = append(results, b)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(results) != len(files) {
		tb.Fatalf("corpus: ts-blank-space driver returned %d results for %d files\n%s", len(results), len(files), stderr.Bytes())
	}
	return results
}

// installBlank installs ts-blank-space and typescript into the cache
// directory unless they are there, and returns the directory.
func installBlank(tb testing.TB) string {
	tb.Helper()
	root, err := cacheDir()
	if err != nil {
		tb.Skipf("corpus: no cache directory: %v", err)
	}
	return npmtest.InstallIn(tb, filepath.Join(root, "ts-blank-space@"+tsBlankSpaceVersion),
		"ts-blank-space@"+tsBlankSpaceVersion, "typescript@"+blankTSVersion)
}
