package analysis_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// refusalsCovered are the TypeScript constructs ts-blank-space cannot erase, because they are
// code, by its refusal kinds, and the annotate golden that covers each instead.
var refusalsCovered = map[string]string{
	"EnumDeclaration":         "ts_enum.ts",
	"ModuleDeclaration":       "ts_namespace.ts",
	"PublicKeyword":           "ts_parameter_properties.ts",
	"PrivateKeyword":          "ts_parameter_properties.ts",
	"ProtectedKeyword":        "ts_parameter_properties.ts",
	"ReadonlyKeyword":         "ts_parameter_properties.ts",
	"ImportEqualsDeclaration": "ts_import_equals.ts",
	"ExportAssignment":        "ts_import_equals.ts",
	"TypeAssertionExpression": "ts_type_assertion.ts",
}

// TestTypeErasure checks that types change nothing: for every file of the TypeScript corpus
// that ts-blank-space can strip (replacing types by spaces, so that every offset stays), the
// JSON dump of the file (its functions, φs, values, uses and lines) equals the dump of its
// stripped JavaScript. The files it refuses hold constructs that are code (enums, namespaces,
// parameter properties); each kind of refusal must have its golden (refusalsCovered).
//
// tree-sitter-javascript 0.25 rejects reserved words as export names (`export { a as null }`,
// valid since ES2022), which tree-sitter-typescript accepts: the stripped JavaScript of a file
// with such names is parsed by the file's own grammar instead, and the test says so.
func TestTypeErasure(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped in -short mode")
	}
	files := corpus.FetchTypeScript(t)
	var refused []string
	for _, b := range corpus.Blank(t, files) {
		if b.JS == nil {
			var kinds []string
			for _, r := range b.Refused {
				if refusalsCovered[r.Kind] == "" {
					t.Errorf("%s: ts-blank-space refuses %v, which no golden covers", b.File.Name, r)
				}
				if !slices.Contains(kinds, r.Kind) {
					kinds = append(kinds, r.Kind)
				}
			}
			refused = append(refused, b.File.Name+" ("+strings.Join(kinds, ", ")+")")
			continue
		}
		t.Run(b.File.Name, func(t *testing.T) {
			lang, _ := analysis.LanguageOfFile(b.File.Name)
			want := dumpJSON(t, b.File.Src, lang)
			jsLang := analysis.JavaScript
			if js, err := analysis.Analyze(b.JS, analysis.Options{}); err != nil {
				t.Fatal(err)
			} else if hasSyntaxError(js) && !hasSyntaxError(mustAnalyze(t, b.JS, lang)) {
				t.Logf("the JavaScript grammar rejects the stripped file, parsed as %v instead", lang)
				jsLang = lang
			}
			got := dumpJSON(t, b.JS, jsLang)
			if bytes.Equal(want, got) {
				return
			}
			var w, g struct{ Functions []json.RawMessage }
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			for i := range max(len(w.Functions), len(g.Functions)) {
				var wf, gf json.RawMessage
				if i < len(w.Functions) {
					wf = w.Functions[i]
				}
				if i < len(g.Functions) {
					gf = g.Functions[i]
				}
				if !bytes.Equal(wf, gf) {
					t.Fatalf("function %d differs:\nTypeScript: %s\nstripped:   %s", i, wf, gf)
				}
			}
		})
	}
	t.Logf("%d of %d files refused by ts-blank-space:\n%s", len(refused), len(files), strings.Join(refused, "\n"))
}

func mustAnalyze(t *testing.T, src []byte, lang analysis.Language) *analysis.Result {
	t.Helper()
	r, err := analysis.Analyze(src, analysis.Options{Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func dumpJSON(t *testing.T, src []byte, lang analysis.Language) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := mustAnalyze(t, src, lang).DumpJSON(&buf, ""); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
