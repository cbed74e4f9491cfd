package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestAnnotate(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"annotate", "../../testdata/annotate/design_if.js"}, &out); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../testdata/annotate/design_if.js.golden")
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("annotate printed\n%s\nwant\n%s", out.String(), want)
	}
}

func TestDumpJSON(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"dump", "--json", "--func", "f", "../../testdata/annotate/design_if.js"}, &out); err != nil {
		t.Fatal(err)
	}
	want := `{"functions":[{"name":"f","line":1,"analyzed":true,"reason":"","blocks":3,` +
		`"phis":[{"var":"x","version":3,"line":3,"operands":[1,2]}],` +
		`"values":[{"var":"c","version":1,"kind":"param","line":1,"uses":[{"line":3,"col":6}]},` +
		`{"var":"x","version":1,"kind":"def","line":2,"uses":[]},` +
		`{"var":"x","version":2,"kind":"def","line":3,"uses":[]},` +
		`{"var":"x","version":3,"kind":"phi","line":3,"uses":[{"line":4,"col":9}]}]}]}` + "\n"
	if out.String() != want {
		t.Errorf("dump --json printed\n%s\nwant\n%s", out.String(), want)
	}
	var parsed map[string]any
	if err := json.Unmarshal(out.Bytes(), &parsed); err != nil {
		t.Error(err)
	}
}

func TestDumpText(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"dump", "--func", "f", "../../testdata/annotate/design_if.js"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"function f\n", "x$3: phi(bb0: x$1, bb1: x$2)", "Return $"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("dump lacks %q:\n%s", want, out.String())
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/tdz.js"
	if err := os.WriteFile(file, []byte("function f() {\n  return x;\n  let x = 1;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run([]string{"check", file}, &out)
	if !errors.Is(err, errFindings) {
		t.Errorf("check returned %v, want findings", err)
	}
	if want := file + ":2:10: warning: x is read before its declaration (temporal dead zone): this throws a ReferenceError\n"; out.String() != want {
		t.Errorf("check printed %q, want %q", out.String(), want)
	}
	out.Reset()
	if err := run([]string{"check", "../../testdata/annotate/design_if.js"}, &out); err != nil || out.Len() != 0 {
		t.Errorf("check of a clean file: %v, %q", err, out.String())
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"annotate"}, {"annotate", "a.js", "b.js"}, {"dump", "--nope", "a.js"}, {"check"}} {
		if err := run(args, &bytes.Buffer{}); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want the usage error", args, err)
		}
	}
	if err := run([]string{"annotate", "/no/such/file.js"}, &bytes.Buffer{}); err == nil || errors.Is(err, errUsage) {
		t.Errorf("annotate of a missing file: %v", err)
	}
	if err := run([]string{"dump", "--func", "nope", "../../testdata/annotate/design_if.js"}, &bytes.Buffer{}); err == nil {
		t.Error("dump of a missing function succeeded")
	}
}
