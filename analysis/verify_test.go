package analysis

import (
	"strings"
	"testing"
)

// TestVerifyReportsInternalError corrupts the SSA form of a built function, as a bug in the
// builder would, and checks that verify mode reports it as an internal error of that function
// instead of answering from it.
func TestVerifyReportsInternalError(t *testing.T) {
	src := []byte("function f(c) {\n  let x = 1;\n  if (c) x = 2;\n  return x;\n}\nfunction g() { return 1; }\n")
	r, err := Analyze(src, Options{Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	if ds := r.Diagnostics(true); len(ds) != 0 {
		t.Fatalf("a correct build has diagnostics: %+v", ds)
	}
	f := r.Funcs[1]
	phi := f.Blocks[len(f.Blocks)-1].Phis[0]
	phi.Operands[0], phi.Operands[1] = phi.Operands[1], phi.Operands[0]
	buildAll(r.Funcs, true, nil)
	ds := r.Diagnostics(true)
	if len(ds) != 1 || ds[0].Code != "internalError" || ds[0].Severity != SeverityError ||
		!strings.HasPrefix(ds[0].Message, "function f is not analyzed: internal error: f: ") {
		t.Fatalf("diagnostics %+v", ds)
	}
	if !r.Funcs[2].Analyzed() {
		t.Errorf("g is not analyzed: %v", r.Funcs[2].NotAnalyzed)
	}
}
