package analysis

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

// TestPreview checks which hints a preview of the first line shows, on sources whose later
// lines change what that line's hints would be.
func TestPreview(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the first line with the preview's hints; "" for no preview
	}{
		{"a function's own variables",
			"function f(a) { let y = a; if (a) y = 2; return y; }\nlet z = 1;\n",
			"function f(a₁) { let y₁ = a₁; if (a₁) y₂ = 2; y₃ ← φ(₁,₂) return y₃; }"},
		{"a const of the top level",
			"const c = 1, d = c;\nfunction f() { return c; }\n",
			"const c₁ = 1, d₁ = c₁;"},
		{"a let that a later function assigns",
			"let x = 1; const k = x;\nfunction f() { x = 2; }\n",
			"let x = 1; const k₁ = x;"},
		{"consts that a later eval may see",
			"const c = 1; function g(p) { return p; }\nfunction f() { return eval('c'); }\n",
			"const c = 1; function g(p₁) { return p₁; }"},
		{"consts that a later parenthesized eval, a direct one, may see",
			"const c = 1;\nfunction f(s) { return (eval)(s); }\n",
			"const c = 1;"},
		{"consts that a later eval spelled with an escape, a direct one, may see",
			"const c = 1;\nfunction f(s) { return \\u0065val(s); }\n",
			"const c = 1;"},
		{"consts that an eval in a comment may see, for all the look at the text can tell",
			"const c = 1;\nfunction f() {} // eval\n",
			"const c = 1;"},
		{"consts that a later syntax error may leave without versions",
			"const c = 1;\nfunction f() { if (c) { }\n",
			"const c = 1;"},
		{"a const that later code assigns, which throws",
			"const c = 1, d = 2, e = 3, g = 4;\nfunction f() { c = 2; d++; for (e of []); g += 1; }\n",
			"const c = 1, d = 2, e = 3, g = 4;"},
		{"consts that later code compares, reads or declares again elsewhere",
			"const c = 1, d = 2, e = 3;\nfunction f(x) { return c == x || d >= x || (() => e); }\n",
			"const c₁ = 1, d₁ = 2, e₁ = 3;"},
		{"consts that a later with may see",
			"const c = 1;\nfunction f(o) { with (o) { c; } }\n",
			"const c = 1;"},
		{"a name the rest declares",
			"function f() { return later; }\nvar later = 1;\n",
			"function f() { return later; }"},
		{"parameters that arguments aliases unless a later export makes the file strict",
			"function f(a) { a = 1; return arguments[0]; }\nexport { f };\n",
			"function f(a) { a = 1; return arguments[0]; }"},
		{"a module, strict already",
			"export function f(a) { a = 1; return arguments[0]; }\nexport { f };\n",
			"export function f(a₁) { a₂ = 1; return arguments[0]; }"},
		{"a prefix with a syntax error",
			"const c = (;\nfunction f() {}\n",
			""},
		{"a prefix that a stray brace ends",
			"const c = 1;\n}\nfunction f() {}\n",
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			lines := NewLines(src)
			end := int32(strings.IndexByte(tt.src, '\n'))
			hints, ok := previewHints(src, lines, Options{}, 0, end, HintOptions{Versions: true, Phis: true})
			got := ""
			if ok {
				got = withHints(tt.src[:end], hints)
			}
			if got != tt.want {
				t.Errorf("preview:\n got %s\nwant %s", got, tt.want)
			}
			if ok {
				assertFinal(t, src, 0, end, HintOptions{Versions: true, Phis: true}, hints)
			}
		})
	}
}

// TestPreviewHintsAreFinal checks that a preview shows only hints that the analysis of the
// whole file gives, on every corpus file, for the first lines and for ranges further on, as
// each kind of hint setting asks. A preview that shows nothing would pass: the test also
// wants three.core.js's first lines, all consts, previewed in full.
func TestPreviewHintsAreFinal(t *testing.T) {
	files := append(corpus.Fetch(t), corpus.FetchTypeScript(t)...)
	settings := []HintOptions{
		{Versions: true, Phis: true},
		{Phis: true, PhiOnly: true},
		{Versions: true, Phis: true, MaxPerLine: 3},
	}
	shown, final := 0, 0
	for _, f := range files {
		opts := Options{Language: Language(f.Lang)}
		full, err := Analyze(f.Src, opts)
		if err != nil {
			t.Fatal(err)
		}
		lines := full.Lines
		for _, fromLine := range []int{0, 40, 200, 1000, 3000} {
			if fromLine >= lines.Count() {
				continue
			}
			start := lines.Start(fromLine)
			end := int32(len(f.Src))
			if fromLine+60 < lines.Count() {
				end = lines.Start(fromLine + 60)
			}
			for _, o := range settings {
				hints, ok := previewHints(f.Src, lines, opts, start, end, o)
				if !ok {
					continue
				}
				want := full.InlayHints(start, end, o)
				if missing := notIn(hints, want); len(missing) > 0 {
					t.Errorf("%s, lines %d–%d, %+v: the preview shows %d hints the analysis does not give, the first %s",
						f.Name, fromLine, fromLine+60, o, len(missing), describeHint(full, missing[0]))
				}
				shown += len(hints)
				final += len(want)
				if f.Name == "three.core" && fromLine == 0 && len(hints) != len(want) {
					t.Errorf("three.core, first lines, %+v: the preview shows %d hints of %d", o, len(hints), len(want))
				}
			}
		}
	}
	t.Logf("the previews showed %d hints of the %d of their ranges", shown, final)
}

// assertFinal fails if hints, a preview's of [start, end], has a hint that the analysis of
// the whole of src does not give.
func assertFinal(t *testing.T, src []byte, start, end int32, o HintOptions, hints []Hint) {
	t.Helper()
	full, err := Analyze(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if missing := notIn(hints, full.InlayHints(start, end, o)); len(missing) > 0 {
		t.Errorf("the preview shows %s, which the analysis does not", describeHint(full, missing[0]))
	}
}

// notIn returns the hints of got that want does not have.
func notIn(got, want []Hint) []Hint {
	var missing []Hint
	for _, h := range got {
		if !slices.ContainsFunc(want, func(w Hint) bool { return sameHint(h, w) }) {
			missing = append(missing, h)
		}
	}
	return missing
}

func describeHint(r *Result, h Hint) string {
	line, col := r.Lines.Position(h.At, UTF8)
	return fmt.Sprintf("%q at %d:%d", h.Label(), line+1, col+1)
}

// withHints returns text with each hint's label at its place, a φ's after a space.
func withHints(text string, hints []Hint) string {
	var sb strings.Builder
	last := int32(0)
	for _, h := range hints {
		if int(h.At) > len(text) {
			break
		}
		sb.WriteString(text[last:h.At])
		if h.Kind == HintPhi {
			sb.WriteByte(' ')
		}
		sb.WriteString(h.Label())
		last = h.At
	}
	sb.WriteString(text[last:])
	return sb.String()
}

// TestPreviewNotForFilesNotAnalyzed checks that a document that may be too large to analyze,
// which then shows no hints at all, gets no preview: here, one past a small memory limit.
func TestPreviewNotForFilesNotAnalyzed(t *testing.T) {
	src := []byte(strings.Repeat("const c = 1;\nfunction f(a) { return a; }\n", 5000))
	o := HintOptions{Versions: true, Phis: true}
	if _, ok := NewDocument(src, Options{}).PreviewHints(0, 40, o); !ok {
		t.Fatal("no preview of a document within the memory limit")
	}
	doc := NewDocument(src, Options{MemoryLimit: int64(len(src)) * bytesPerNode / 2})
	if _, ok := doc.PreviewHints(0, 40, o); ok {
		t.Error("a preview of a document that may be past the memory limit")
	}
}
