package analysis_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/analysis"
)

var update = flag.Bool("update", false, "write the .golden files of testdata/annotate and testdata/lower; read every change before committing it")

// TestAnnotate compares `ssalens annotate` of each testdata/annotate/*.js, *.ts and *.tsx with
// its .golden file, and checks the SSA form of every function built on the way.
func TestAnnotate(t *testing.T) {
	testGolden(t, "annotate", (*analysis.Result).Annotate)
}

// TestLower compares `ssalens dump` of each testdata/lower/*.js, one file per construct
// family, with its .golden file: the HIR and SSA form the lowering builds for each construct.
func TestLower(t *testing.T) {
	testGolden(t, "lower", func(r *analysis.Result) string {
		var sb strings.Builder
		if err := r.Dump(&sb, ""); err != nil {
			t.Fatal(err)
		}
		return sb.String()
	})
}

// testGolden analyzes each testdata/dir/*.js, *.ts and *.tsx in the language of its extension,
// checks the SSA form of every function built, and compares render's output with the file's
// .golden.
func testGolden(t *testing.T, dir string, render func(*analysis.Result) string) {
	var files []string
	for _, ext := range []string{"js", "ts", "tsx"} {
		matches, err := filepath.Glob(filepath.Join("../testdata", dir, "*."+ext))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	if len(files) == 0 {
		t.Fatal("no inputs")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".js"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			lang, _ := analysis.LanguageOfFile(file)
			r, err := analysis.Analyze(src, analysis.Options{Language: lang})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, r)
			got := render(r)
			golden := file + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it, then read it)", err)
			}
			if d := lineDiff(string(want), got); d != "" {
				t.Errorf("%s differs from %s (- want, + got):\n%s", file, golden, d)
			}
		})
	}
}

// lineDiff returns the lines that differ between want and got, with their line numbers, or "".
func lineDiff(want, got string) string {
	w := strings.Split(want, "\n")
	g := strings.Split(got, "\n")
	var sb strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&sb, "line %d:\n- %s\n+ %s\n", i+1, wl, gl)
		}
	}
	return sb.String()
}
