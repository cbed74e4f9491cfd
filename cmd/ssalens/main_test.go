package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

const fixture = "../../testdata/annotate/design_if.js"

// runArgs runs the command line args and returns its stdout, stderr and exit status.
func runArgs(args ...string) (stdout, stderr string, status int) {
	var out, errs bytes.Buffer
	status = run(args, &out, &errs)
	return out.String(), errs.String(), status
}

// buildBinary builds ssalens into a temporary directory, for tests that run it as a process.
func buildBinary(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "ssalens")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// gnuTime returns the path of GNU time, which measures a process's peak memory, or skips tb
// if there is none.
func gnuTime(tb testing.TB) string {
	tb.Helper()
	const path = "/usr/bin/time"
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("%s not found (Debian: apt-get install time): %v", path, err)
	}
	return path
}

// processRun is what /usr/bin/time -v says of a process, and what it printed.
type processRun struct {
	stdout             []byte
	wall, user, system float64 // seconds
	peakMB             float64
}

// fastest returns the run of the two with the shortest wall time, the zero run counting as
// none: with -benchtime Nx, the least disturbed of N runs on a machine others use.
func (r processRun) fastest(s processRun) processRun {
	if r.wall == 0 || s.wall < r.wall {
		return s
	}
	return r
}

var timeFields = regexp.MustCompile(`(?m)^\s*(Elapsed \(wall clock\) time \(h:mm:ss or m:ss\)|User time \(seconds\)|System time \(seconds\)|Maximum resident set size \(kbytes\)): (\S+)$`)

// timeProcess runs cmd under /usr/bin/time -v; exit status 1 (findings) is success.
func timeProcess(tb testing.TB, timeCmd string, cmd *exec.Cmd) processRun {
	tb.Helper()
	timed := exec.CommandContext(context.Background(), timeCmd, append([]string{"-v"}, cmd.Args...)...)
	timed.Dir, timed.Env = cmd.Dir, cmd.Env
	var stdout, stderr bytes.Buffer
	timed.Stdout, timed.Stderr = &stdout, &stderr
	err := timed.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		tb.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr.Bytes())
	}
	r := processRun{stdout: stdout.Bytes()}
	for _, m := range timeFields.FindAllStringSubmatch(stderr.String(), -1) {
		switch value := m[2]; {
		case strings.HasPrefix(m[1], "Elapsed"):
			// h:mm:ss or m:ss.ss
			for _, part := range strings.Split(value, ":") {
				x, _ := strconv.ParseFloat(part, 64)
				r.wall = r.wall*60 + x
			}
		case strings.HasPrefix(m[1], "User"):
			r.user, _ = strconv.ParseFloat(value, 64)
		case strings.HasPrefix(m[1], "System"):
			r.system, _ = strconv.ParseFloat(value, 64)
		default:
			kb, _ := strconv.ParseFloat(value, 64)
			r.peakMB = kb / 1024
		}
	}
	if r.wall == 0 || r.peakMB == 0 {
		tb.Fatalf("no wall time or peak RSS in the output of %s -v:\n%s", timeCmd, stderr.Bytes())
	}
	return r
}

func TestAnnotate(t *testing.T) {
	out, errs, status := runArgs("annotate", fixture)
	if status != 0 || errs != "" {
		t.Fatalf("annotate: status %d, stderr %q", status, errs)
	}
	want, err := os.ReadFile(fixture + ".golden")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("annotate printed\n%s\nwant\n%s", out, want)
	}
}

func TestDumpJSON(t *testing.T) {
	out, errs, status := runArgs("dump", "--json", "--func", "f", fixture)
	if status != 0 || errs != "" {
		t.Fatalf("dump --json: status %d, stderr %q", status, errs)
	}
	want := `{"functions":[{"name":"f","line":1,"analyzed":true,"reason":"","blocks":3,` +
		`"phis":[{"var":"x","declared":{"line":2,"col":7},"version":3,"line":3,"operands":[1,2]}],` +
		`"values":[{"var":"c","declared":{"line":1,"col":12},"version":1,"kind":"param","line":1,"col":12,"uses":[{"line":3,"col":7}]},` +
		`{"var":"x","declared":{"line":2,"col":7},"version":1,"kind":"def","line":2,"col":7,"uses":[]},` +
		`{"var":"x","declared":{"line":2,"col":7},"version":2,"kind":"def","line":3,"col":12,"uses":[]},` +
		`{"var":"x","declared":{"line":2,"col":7},"version":3,"kind":"phi","line":3,"col":20,"uses":[{"line":4,"col":10}]}]}]}` + "\n"
	if out != want {
		t.Errorf("dump --json printed\n%s\nwant\n%s", out, want)
	}
	var parsed map[string]any
	if err := json.Unmarshal([]byte(out), &parsed); err != nil {
		t.Error(err)
	}

	// Two variables of one name are told apart by where they are declared.
	shadowing := filepath.Join(t.TempDir(), "shadowing.js")
	if err := os.WriteFile(shadowing, []byte("function f() { let x = 1; { let x = 2; } return x; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runArgs("dump", "--json", shadowing)
	for _, want := range []string{`{"var":"x","declared":{"line":1,"col":20},"version":1,`, `{"var":"x","declared":{"line":1,"col":33},"version":1,`} {
		if !strings.Contains(out, want) {
			t.Errorf("dump --json lacks %s:\n%s", want, out)
		}
	}
}

func TestDumpText(t *testing.T) {
	out, errs, status := runArgs("dump", "--func", "f", fixture)
	if status != 0 || errs != "" {
		t.Fatalf("dump: status %d, stderr %q", status, errs)
	}
	for _, want := range []string{"function f\n", "x$3: phi(bb0: x$1, bb1: x$2)", "Return $"} {
		if !strings.Contains(out, want) {
			t.Errorf("dump lacks %q:\n%s", want, out)
		}
	}
}

func TestDumpDot(t *testing.T) {
	out, errs, status := runArgs("dump", "--dot", "--func", "f", fixture)
	if status != 0 || errs != "" {
		t.Fatalf("dump --dot: status %d, stderr %q", status, errs)
	}
	want := `digraph "f" {
	node [shape=box, fontname="monospace"];
	bb0 [label="bb0 (entry)\l  Param c₁\l  $0 = Const 1\l  StoreLocal x₁ = $0\l  $1 = LoadLocal c₁\l  If $1 then bb1 else bb2\l"];
	bb1 [label="bb1 (then)\l  $2 = Const 2\l  StoreLocal x₂ = $2\l  Goto bb2\l"];
	bb2 [label="bb2 (join)\l  x₃ ← φ(₁,₂)\l  $3 = LoadLocal x₃\l  Return $3\l"];
	bb0 -> bb1 [label="then"];
	bb0 -> bb2 [label="else"];
	bb1 -> bb2;
}
`
	if out != want {
		t.Errorf("dump --dot printed\n%s\nwant\n%s", out, want)
	}
}

// help returns a help text as printed: ssalens's own for "", else the command's.
func help(name string) string {
	var b bytes.Buffer
	if name == "" {
		writeHelp(&b)
	} else {
		lookup(name).writeHelp(&b)
	}
	return b.String()
}

// TestCommandLine runs whole command lines: where the output goes and the exit status.
func TestCommandLine(t *testing.T) {
	tdz := filepath.Join(t.TempDir(), "tdz.js")
	if err := os.WriteFile(tdz, []byte("function f() {\n  return x;\n  let x = 1;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tdzWarning := tdz + ":2:10: warning: x is read before its declaration (temporal dead zone): this throws a ReferenceError\n"
	const missing = "/no/such/file.js"
	readError := func(file string) string { // in the system's words
		_, err := os.ReadFile(file)
		return err.Error()
	}
	missingError := readError(missing)
	statError := func(path string) string { // what check says of a path it cannot find
		_, err := os.Stat(path)
		return err.Error()
	}
	usage := func(prefix, msg, help string) string {
		return prefix + ": " + msg + "\nRun '" + help + "' for usage.\n"
	}
	for _, tt := range []struct {
		args           []string
		stdout, stderr string
		status         int
	}{
		// Help goes to stdout and exits 0.
		{args: []string{"--help"}, stdout: help("")},
		{args: []string{"-h"}, stdout: help("")},
		{args: []string{"help"}, stdout: help("")},
		{args: []string{"help", "check"}, stdout: help("check")},
		{args: []string{"check", "--help"}, stdout: help("check")},
		{args: []string{"check", "-h"}, stdout: help("check")},
		{args: []string{"check", fixture, "--help"}, stdout: help("check")},
		{args: []string{"dump", "-help"}, stdout: help("dump")},
		{args: []string{"serve", "--help"}, stdout: help("serve")},
		{args: []string{"help", "help"}, stdout: help("help")},
		// No command: the help on stderr, and the status of bad usage.
		{args: nil, stderr: help(""), status: 2},

		{args: []string{"--version"}, stdout: "ssalens " + version + "\n"},
		{args: []string{"version"}, stdout: "ssalens " + version + "\n"},
		{args: []string{"--version", "check"}, stderr: usage("ssalens", "--version takes no command", "ssalens help"), status: 2},
		{args: []string{"version", "x"}, stderr: usage("ssalens version", `unexpected argument "x"`, "ssalens help version"), status: 2},

		// Usage errors name the command and the help to read.
		{args: []string{"frobnicate"}, stderr: usage("ssalens", `unknown command "frobnicate"`, "ssalens help"), status: 2},
		{args: []string{"help", "frobnicate"}, stderr: usage("ssalens", `unknown command "frobnicate"`, "ssalens help"), status: 2},
		{args: []string{"help", "check", "dump"}, stderr: usage("ssalens help", "expected at most one command, got 2 arguments", "ssalens help help"), status: 2},
		// Flags are named as the help names them, whatever the user typed.
		{args: []string{"--nope"}, stderr: usage("ssalens", "flag provided but not defined: --nope", "ssalens help"), status: 2},
		{args: []string{"check", "-nope", fixture}, stderr: usage("ssalens check", "flag provided but not defined: --nope", "ssalens help check"), status: 2},
		{args: []string{"dump", fixture, "--func"}, stderr: usage("ssalens dump", "flag needs an argument: --func", "ssalens help dump"), status: 2},
		{args: []string{"check", "--jobs", "abc", fixture}, stderr: usage("ssalens check", `invalid value "abc" for flag --jobs: not a whole number`, "ssalens help check"), status: 2},
		{args: []string{"dump", "--dot", "--json", fixture}, stderr: usage("ssalens dump", "--json and --dot exclude each other", "ssalens help dump"), status: 2},
		{args: []string{"check"}, stderr: usage("ssalens check", "no files given", "ssalens help check"), status: 2},
		{args: []string{"annotate"}, stderr: usage("ssalens annotate", "no file given", "ssalens help annotate"), status: 2},
		{args: []string{"annotate", "a.js", "b.js"}, stderr: usage("ssalens annotate", "expected one file, got 2", "ssalens help annotate"), status: 2},
		{args: []string{"serve", "x"}, stderr: usage("ssalens serve", `unexpected argument "x"`, "ssalens help serve"), status: 2},

		// Unreadable files and other failures: the command and the error, status 2.
		{args: []string{"annotate", missing}, stderr: "ssalens annotate: " + missingError + "\n", status: 2},
		{args: []string{"dump", "--func", "nope", fixture}, stderr: "ssalens dump: " + fixture + `: no function named "nope"` + "\n", status: 2},

		// check: 1 on a warning; 2 when a path cannot be read, after checking the others.
		{args: []string{"check", fixture}},
		{args: []string{"check", tdz}, stdout: tdzWarning, status: 1},
		{args: []string{"check", filepath.Dir(tdz)}, stdout: tdzWarning, status: 1},
		{args: []string{"check", "--jobs", "1", "--format", "text", tdz}, stdout: tdzWarning, status: 1},
		{args: []string{"check", missing}, stderr: "ssalens check: " + statError(missing) + "\n", status: 2},
		{args: []string{"check", missing, tdz}, stdout: tdzWarning, stderr: "ssalens check: " + statError(missing) + "\n", status: 2},
		{args: []string{"check", "--format", "xml", tdz}, stderr: usage("ssalens check", `unknown format "xml": text, json or sarif`, "ssalens help check"), status: 2},
		{args: []string{"check", "--jobs", "0", tdz}, stderr: usage("ssalens check", "--jobs must be at least 1, not 0", "ssalens help check"), status: 2},
		// After --, everything is a path.
		{args: []string{"check", "--", "--help"}, stderr: "ssalens check: " + statError("--help") + "\n", status: 2},
	} {
		stdout, stderr, status := runArgs(tt.args...)
		if stdout != tt.stdout || stderr != tt.stderr || status != tt.status {
			t.Errorf("ssalens %s:\nstdout %q\nstderr %q\nstatus %d\nwant\nstdout %q\nstderr %q\nstatus %d",
				strings.Join(tt.args, " "), stdout, stderr, status, tt.stdout, tt.stderr, tt.status)
		}
	}
}

// TestHelp checks what the help texts say: every command with its summary, and for each command
// its usage line, flags, examples and exit statuses.
func TestHelp(t *testing.T) {
	top := help("")
	for _, want := range []string{
		"Usage:\n  ssalens COMMAND [FLAGS] [ARGUMENTS]\n  ssalens --version\n  ssalens --help\n",
		"Exit status:\n  0  success; check found no warning or error\n  1  check found a warning or an error\n  2  bad usage, or a file could not be read or parsed\n",
		"Run 'ssalens help COMMAND'",
	} {
		if !strings.Contains(top, want) {
			t.Errorf("ssalens --help lacks %q:\n%s", want, top)
		}
	}
	for _, cmd := range commands {
		if !strings.Contains(top, "  "+cmd.name+" ") || !strings.Contains(top, cmd.summary+"\n") {
			t.Errorf("ssalens --help lacks %s and its summary %q", cmd.name, cmd.summary)
		}
		text := help(cmd.name)
		for _, want := range []string{"Usage: ssalens " + cmd.name, "\nFlags:\n", "  -h, --help  ", "\nExamples:\n  ssalens " + cmd.name, "\nExit status:\n  0  "} {
			if !strings.Contains(text, want) {
				t.Errorf("ssalens help %s lacks %q:\n%s", cmd.name, want, text)
			}
		}
	}
	if text := help("dump"); !strings.Contains(text, "  --func NAME  only the functions named NAME\n") || !strings.Contains(text, "  --json       print one JSON object\n") {
		t.Errorf("ssalens help dump lacks its flags:\n%s", text)
	}
	if text := help("check"); !strings.Contains(text, "\n  1  a warning or an error\n") {
		t.Errorf("ssalens help check lacks status 1:\n%s", text)
	}
}

// TestCheckVerifyCorpus runs `ssalens check --verify` over the JavaScript corpus: the SSA
// verifier checks every function built, and none may be reported as an internal error.
func TestCheckVerifyCorpus(t *testing.T) {
	args := []string{"check", "--verify"}
	for _, f := range corpus.Fetch(t) {
		args = append(args, f.Path)
	}
	out, errs, status := runArgs(args...)
	if status == exitError || errs != "" || strings.Contains(out, "internal error") {
		t.Fatalf("check --verify: status %d, stderr %q, internal errors:\n%s", status, errs, grepLines(out, "internal error"))
	}
}

// grepLines returns the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// TestLanguageByExtensionAndFlag checks that the commands parse a file in the language of its
// extension, and in the one --lang names whatever the extension.
func TestLanguageByExtensionAndFlag(t *testing.T) {
	dir := t.TempDir()
	src := "function f(x: number) { let y = <number>x; return y; }\n"
	for _, name := range []string{"a.ts", "a.txt", "a.tsx"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const analyzed = "function f(x₁: number) { let y₁ = <number>x₁; return y₁; }\n"
	for _, tt := range []struct {
		args []string
		want string // the output of annotate, or "" for a syntax error in f, which stderr says
	}{
		{[]string{"a.ts"}, analyzed},
		{[]string{"a.txt"}, ""},                       // JavaScript: types are syntax errors
		{[]string{"a.tsx"}, ""},                       // TSX: <number>x is an element
		{[]string{"--lang", "ts", "a.txt"}, analyzed}, // the flag wins
		{[]string{"a.ts", "--lang=js"}, ""},
	} {
		args := append([]string{"annotate"}, tt.args...)
		for i, a := range args {
			if strings.HasPrefix(a, "a.") {
				args[i] = filepath.Join(dir, a)
			}
		}
		out, errs, status := runArgs(args...)
		if status != 0 || (tt.want == "") != strings.Contains(errs, ": information: function f is not analyzed: syntax error at 1:") {
			t.Fatalf("%v: status %d, stderr %q", tt.args, status, errs)
		}
		if tt.want != "" && out != tt.want || tt.want == "" && out != src {
			t.Errorf("%v printed %q", tt.args, out)
		}
	}
	for _, cmd := range []string{"annotate", "dump", "check"} {
		_, errs, status := runArgs(cmd, "--lang", "go", filepath.Join(dir, "a.ts"))
		if status != exitError || !strings.Contains(errs, `unknown language "go": want js, ts or tsx`) {
			t.Errorf("%s --lang go: status %d, stderr %q", cmd, status, errs)
		}
	}
	if out, _, status := runArgs("check", filepath.Join(dir, "a.ts"), filepath.Join(dir, "a.txt")); status != exitOK ||
		strings.Contains(out, "a.ts:") || !strings.Contains(out, "a.txt:1:") {
		t.Errorf("check a.ts a.txt: status %d, output %q; want a syntax error in a.txt only", status, out)
	}
}

// TestStandardInput: - names standard input, for annotate, dump and check, which print it as
// -; annotate prints the functions not analyzed on stderr, as check prints them.
func TestStandardInput(t *testing.T) {
	src := "function f(n) {\n  let i = 0;\n  while (i < n) i++;\n  return i;\n}\nfunction g( {\n"
	file := filepath.Join(t.TempDir(), "a.js")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	const notAnalyzed = ":6:1: information: the module function is not analyzed: syntax error at 6:1\n"
	fromStdin := func(args ...string) (stdout, stderr string, status int) {
		in, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		saved := os.Stdin
		os.Stdin = in
		defer func() { os.Stdin = saved }()
		return runArgs(append(args, "-")...)
	}
	for _, args := range [][]string{{"annotate"}, {"dump"}, {"check"}} {
		fromFile, fileErrs, fileStatus := runArgs(append(args, file)...)
		out, errs, status := fromStdin(args...)
		if out != strings.ReplaceAll(fromFile, file, "-") || errs != strings.ReplaceAll(fileErrs, file, "-") || status != fileStatus {
			t.Errorf("%s -: status %d, stdout\n%s\nstderr %q\nwant, as of the file: status %d, stdout\n%s\nstderr %q", args[0], status, out, errs, fileStatus, fromFile, fileErrs)
		}
		if args[0] == "annotate" && (fileErrs != file+notAnalyzed || !strings.Contains(fromFile, "i₂ ← φ(₁,₃)")) {
			t.Errorf("annotate %s: stdout\n%s\nstderr %q, want the φ of i, and %q", file, fromFile, fileErrs, file+notAnalyzed)
		}
	}
	// ./- names a file, which is checked beside standard input.
	t.Chdir(filepath.Dir(file))
	if err := os.WriteFile("-", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := fromStdin("check", "./-")
	if want := "-" + notAnalyzed + "./-" + notAnalyzed; out != want {
		t.Errorf("check ./- -: stdout %q, want %q", out, want)
	}
	// SARIF would read a URI - as a file of that name: standard input has none.
	out, _, _ = fromStdin("check", "--format", "sarif")
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct{ ArtifactLocation map[string]any }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("check --format sarif -: want one result, got %v:\n%s", err, out)
	}
	got, _ := json.Marshal(log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation)
	if want := `{"description":{"text":"standard input"}}`; string(got) != want {
		t.Errorf("check --format sarif -: artifactLocation %s, want %s", got, want)
	}
}
