package corpus

import (
	"bytes"
	"path"
	"slices"
	"strings"
	"testing"
)

func TestFetch(t *testing.T) {
	files := Fetch(t)
	names := map[string]bool{}
	for _, f := range files {
		if names[f.Name] {
			t.Errorf("duplicate name %q", f.Name)
		}
		names[f.Name] = true
		if len(f.Src) < 100_000 || !bytes.Contains(f.Src, []byte("function")) {
			t.Errorf("%s (%s): %d bytes, not the expected library source", f.Name, f.Path, len(f.Src))
		}
	}
	if len(files) != 7 {
		t.Errorf("got %d files, want 7", len(files))
	}
}

// tsCounts are the files FetchTypeScript returns per package: .ts, .tsx and,
// among the .ts, declaration files.
var tsCounts = map[string]struct{ ts, tsx, dts int }{
	"zod":                   {332, 0, 0},
	"rxjs":                  {251, 0, 0},
	"@tanstack/query-core":  {23, 0, 0},
	"@tanstack/react-query": {18, 5, 0},
}

func TestFetchTypeScript(t *testing.T) {
	files := FetchTypeScript(t)
	names := map[string]bool{}
	type counts struct{ ts, tsx, dts, bytes int }
	got := map[string]counts{}
	for _, f := range files {
		if names[f.Name] {
			t.Errorf("duplicate name %q", f.Name)
		}
		names[f.Name] = true
		c := got[f.Package]
		switch f.Lang {
		case TypeScript:
			c.ts++
		case TSX:
			c.tsx++
		default:
			t.Errorf("%s (%s): language %v", f.Name, f.Path, f.Lang)
		}
		if f.Declaration {
			c.dts++
		}
		c.bytes += len(f.Src)
		got[f.Package] = c
		if len(f.Src) == 0 {
			t.Errorf("%s (%s): empty", f.Name, f.Path)
		}
		if !strings.HasPrefix(f.Name, path.Base(f.Package)+"/") || strings.Contains(f.Name, "/src/") {
			t.Errorf("%s: name does not start with the package's short name", f.Name)
		}
	}
	for pkg, want := range tsCounts {
		c := got[pkg]
		if c.ts != want.ts || c.tsx != want.tsx || c.dts != want.dts {
			t.Errorf("%s: %d .ts, %d .tsx, %d .d.ts; want %d, %d, %d", pkg, c.ts, c.tsx, c.dts, want.ts, want.tsx, want.dts)
		}
		t.Logf("%-22s %3d .ts %2d .tsx %2d .d.ts %8d bytes", pkg, c.ts, c.tsx, c.dts, c.bytes)
	}
	if len(got) != len(tsCounts) {
		t.Errorf("packages %v, want those of %v", got, tsCounts)
	}
}

func TestPackages(t *testing.T) {
	files := []File{
		{Package: "zod", Name: "zod/a.ts", Src: []byte("ab")},
		{Package: "zod", Name: "zod/b/c.ts", Src: []byte("c")},
		{Package: "@tanstack/react-query", Name: "react-query/d.tsx", Src: []byte("def")},
	}
	got := Packages(files)
	if len(got) != 2 || got[0].Name != "zod" || len(got[0].Files) != 2 || got[0].Size != 3 ||
		got[1].Name != "react-query" || len(got[1].Files) != 1 || got[1].Size != 3 {
		t.Errorf("Packages = %+v", got)
	}
}

func TestLangOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		lang Lang
		decl bool
	}{
		{"a.js", JavaScript, false},
		{"a.jsx", JavaScript, false},
		{"dir.ts/a.mjs", JavaScript, false},
		{"a.ts", TypeScript, false},
		{"src/a.d.ts", TypeScript, true},
		{"a.d.mts", TypeScript, true},
		{"a.cts", TypeScript, false},
		{"A.TSX", TSX, false},
		{"a.d.tsx", TSX, false}, // not a declaration file: those cannot hold JSX
		{"d.ts", TypeScript, false},
	} {
		lang, decl := LangOf(tc.name)
		if lang != tc.lang || decl != tc.decl {
			t.Errorf("LangOf(%q) = %v, %v; want %v, %v", tc.name, lang, decl, tc.lang, tc.decl)
		}
	}
}

// checkBlanked checks that b.JS keeps every byte offset of the source: the same length,
// line breaks in place, and only spaces, or the ";", "(" and ")" ts-blank-space may add,
// where it differs.
func checkBlanked(t *testing.T, b Blanked) {
	t.Helper()
	src, js := b.File.Src, b.JS
	if len(js) != len(src) {
		t.Errorf("%s: %d bytes blanked, %d in the source", b.File.Name, len(js), len(src))
		return
	}
	for i := range src {
		if src[i] == js[i] {
			continue
		}
		if src[i] == '\n' || src[i] == '\r' || js[i] == '\n' || js[i] == '\r' || !strings.ContainsRune(" ;()", rune(js[i])) {
			t.Errorf("%s: byte %d (line %d) is %q, was %q", b.File.Name, i, bytes.Count(src[:i], []byte{'\n'})+1, js[i], src[i])
			return
		}
	}
	// Multi-byte line separators stay as they were.
	for _, sep := range []string{"\u2028", "\u2029"} {
		if bytes.Count(src, []byte(sep)) != bytes.Count(js, []byte(sep)) {
			t.Errorf("%s: a %U was blanked", b.File.Name, []rune(sep)[0])
		}
	}
}

func TestBlank(t *testing.T) {
	file := func(name, src string) File {
		lang, decl := LangOf(name)
		return File{Name: name, Src: []byte(src), Lang: lang, Declaration: decl}
	}
	cases := []struct {
		file    File
		js      string // "" if refused
		refused []string
	}{
		{file("annotation.ts", "let x: number = 1;\n"), "let x         = 1;\n", nil},
		{file("generic.ts", "function id<T>(x: T): T { return x!; }\n"),
			"function id   (x   )    { return x ; }\n", nil},
		// Erasing non-ASCII text keeps its byte length; U+2028 stays.
		{file("unicode.ts", "let s: \"é\u2028😀\" | 'ß' = t as 'é';\n"),
			"let s  " + strings.Repeat(" ", len("\"é")) + "\u2028" + strings.Repeat(" ", len("😀\" | 'ß'")) + " = t" + strings.Repeat(" ", len(" as 'é'")) + ";\n", nil},
		{file("interface.ts", "interface I { x: number }\nconst y = 1\n"), "                         \nconst y = 1\n", nil},
		{file("enum.ts", "enum E { A }\n"), "", []string{"EnumDeclaration"}},
		{file("declare.ts", "declare enum E { A }\ndeclare namespace N { const x: number }\n"),
			"                    \n                                       \n", nil},
		{file("namespace.ts", "namespace N { export const x = 1; }\n"), "", []string{"ModuleDeclaration"}},
		{file("param.ts", "class C { constructor(private x: number) {} }\n"), "", []string{"PrivateKeyword"}},
		{file("equals.ts", "import fs = require('fs');\nexport = fs;\n"), "", []string{"ImportEqualsDeclaration", "ExportAssignment"}},
		{file("assertion.ts", "let y = <number>x;\n"), "", []string{"TypeAssertionExpression"}},
		// ts-blank-space 0.9.0 leaves the type arguments of a JSX element, which is not
		// JavaScript; it does not report them either.
		{file("component.tsx", "const a = <A<string> b={c as any} />;\n"), "const a = <A<string> b={c       } />;\n", nil},
		{file("syntax.ts", "let = ;\n"), "", []string{"SyntaxError: Expression expected."}},
	}
	files := make([]File, len(cases))
	for i, c := range cases {
		files[i] = c.file
	}
	for i, b := range Blank(t, files) {
		c := cases[i]
		var kinds []string
		for _, r := range b.Refused {
			kinds = append(kinds, r.Kind)
		}
		if !slices.Equal(kinds, c.refused) {
			t.Errorf("%s: refused %v, want %v", c.file.Name, b.Refused, c.refused)
		}
		if c.refused == nil {
			if string(b.JS) != c.js {
				t.Errorf("%s: blanked\n%q\nwant\n%q", c.file.Name, b.JS, c.js)
			}
			checkBlanked(t, b)
		} else if b.JS != nil {
			t.Errorf("%s: refused, but JS %q", c.file.Name, b.JS)
		}
	}
}

// TestBlankCorpus blanks the TypeScript corpus, checks that every stripped file keeps every
// byte offset, and logs the files ts-blank-space refuses, and why.
func TestBlankCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("ts-blank-space on the corpus skipped in -short mode")
	}
	files := FetchTypeScript(t)
	refused := map[string]int{}
	n := 0
	for _, b := range Blank(t, files) {
		if len(b.Refused) == 0 {
			checkBlanked(t, b)
			continue
		}
		n++
		kinds := map[string]int{}
		for _, r := range b.Refused {
			kinds[r.Kind]++
			refused[r.Kind]++
		}
		t.Logf("refused %s: %v; first %v", b.File.Name, kinds, b.Refused[0])
	}
	t.Logf("ts-blank-space refuses %d of %d files: %v", n, len(files), refused)
}
