package analysis_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

// FuzzAnalyze checks that no input makes the analysis panic and that whatever it builds
// passes the SSA oracles. Its seeds are the annotate test inputs and a few broken programs.
func FuzzAnalyze(f *testing.F) {
	files, _ := filepath.Glob("../testdata/annotate/*.js")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{
		"function f( {\n let x = 1; return x\n}\nfunction g(y) { y = 2; return y }",
		"for (let i = 0; i < n; i++) { continue outer; }",
		"try { return } finally { break }",
		"\xff\xfe let x = 1; x",
		"switch (x) { case 1: let y = 1; case 2: y = 2; break; default: y; }",
		"a: b: for (;;) { for (;;) { if (c) continue a; else break b; } }",
		"({a = 1, b: [c, ...d] = e, ...f} = g);",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		r, err := analysis.Analyze(src, analysis.Options{})
		if err != nil {
			return
		}
		checkResult(t, r)
		r.Annotate()
	})
}
