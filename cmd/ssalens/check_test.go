package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ssalens/ssalens/internal/npmtest"
)

var update = flag.Bool("update", false, "rewrite the goldens of check's formats in testdata")

// annotateDir holds the inputs of the annotate goldens, one construct each.
const annotateDir = "../../testdata/annotate"

// goldenSRCROOT stands in the SARIF goldens for the file URI of the directory they are run in.
const goldenSRCROOT = "file:///ssalens/testdata/annotate/"

// checkAnnotateFiles runs check with args on the JavaScript files of annotateDir, in that
// directory, and returns what it printed, the file URI of the directory standing as
// goldenSRCROOT.
func checkAnnotateFiles(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	dir, err := filepath.Abs(annotateDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	files, err := filepath.Glob("*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no JavaScript files in %s: %v", dir, err)
	}
	stdout, stderr, status = runArgs(append(append([]string{"check"}, args...), files...)...)
	return strings.ReplaceAll(stdout, fileURI(dir)+"/", goldenSRCROOT), stderr, status
}

// TestCheckFormats compares each format's output on the annotate inputs with its golden,
// testdata/check.FORMAT; -update rewrites them (read every change before committing).
func TestCheckFormats(t *testing.T) {
	goldens, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for format := range checkFormats {
		t.Run(format, func(t *testing.T) {
			stdout, stderr, status := checkAnnotateFiles(t, "--format", format)
			if status != exitFindings || stderr != "" {
				t.Errorf("status %d, stderr %q; want %d and nothing", status, stderr, exitFindings)
			}
			golden := filepath.Join(goldens, "check."+format)
			if *update {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if stdout != string(want) {
				t.Errorf("check --format %s differs from %s:\n%s", format, golden, stdout)
			}
		})
	}
}

// TestCheckFormatsAgree checks that the three formats report the same findings at the same
// places: the JSON's against the text's, the SARIF's line for line against the JSON's.
func TestCheckFormatsAgree(t *testing.T) {
	text, _, _ := checkAnnotateFiles(t)
	asJSON, _, _ := checkAnnotateFiles(t, "--format", "json")
	asSARIF, _, _ := checkAnnotateFiles(t, "--format", "sarif")
	var report jsonReport
	if err := json.Unmarshal([]byte(asJSON), &report); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(asSARIF), &log); err != nil {
		t.Fatal(err)
	}
	var fromJSON strings.Builder
	var diagnostics []jsonDiagnostic
	for _, f := range report.Files {
		for _, d := range f.Diagnostics {
			fromJSON.WriteString(f.Path + ":" + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column) + ": " + d.Severity + ": " + d.Message + "\n")
			diagnostics = append(diagnostics, d)
		}
	}
	if fromJSON.String() != text {
		t.Errorf("JSON findings\n%s\ntext\n%s", fromJSON.String(), text)
	}
	results := log.Runs[0].Results
	if len(results) != len(diagnostics) {
		t.Fatalf("%d SARIF results, %d JSON diagnostics", len(results), len(diagnostics))
	}
	for i, r := range results {
		d := diagnostics[i]
		region := r.Locations[0].PhysicalLocation.Region
		// The annotate inputs are ASCII but for their φ and ₁ in comments: UTF-16 columns
		// are byte columns on the lines with findings, so they must agree.
		if r.RuleID != d.Code || r.Message.Text != d.Message || region.StartLine != d.Line || region.EndLine != d.EndLine ||
			region.StartColumn != d.Column || region.EndColumn != d.EndColumn {
			t.Errorf("SARIF result %d %+v %+v, JSON %+v", i, r, region, d)
		}
	}
}

// TestSARIFShape checks the structure that code-scanning tools rely on, in the output of a
// run that also has a file it cannot read: what the SARIF 2.1.0 schema requires and what ties
// results to rules and places.
func TestSARIFShape(t *testing.T) {
	stdout, _, status := checkAnnotateFiles(t, "--format", "sarif", "missing.js")
	if status != exitError {
		t.Errorf("status %d, want %d", status, exitError)
	}
	var log map[string]any
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	// get returns the value at a path of keys and indexes, failing the test if it is missing.
	get := func(v any, path ...any) any {
		t.Helper()
		for _, k := range path {
			switch k := k.(type) {
			case string:
				m, ok := v.(map[string]any)
				if !ok || m[k] == nil {
					t.Fatalf("no %q in %v", k, v)
				}
				v = m[k]
			case int:
				a, ok := v.([]any)
				if !ok || k >= len(a) {
					t.Fatalf("no [%d] in %v", k, v)
				}
				v = a[k]
			}
		}
		return v
	}
	positive := func(v any) int {
		t.Helper()
		n, ok := v.(float64)
		if !ok || n < 1 || n != float64(int(n)) {
			t.Fatalf("%v is not an integer ≥ 1", v)
		}
		return int(n)
	}
	if get(log, "version") != "2.1.0" || !strings.Contains(get(log, "$schema").(string), "sarif-schema-2.1.0") {
		t.Errorf("version %v, $schema %v", log["version"], log["$schema"])
	}
	runs := get(log, "runs").([]any)
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	run := runs[0]
	driver := get(run, "tool", "driver")
	if get(driver, "name") != "ssalens" || get(driver, "version") != version {
		t.Errorf("driver %v", driver)
	}
	var ids []string
	for i := range get(driver, "rules").([]any) {
		rule := get(driver, "rules", i)
		ids = append(ids, get(rule, "id").(string))
		for _, key := range []string{"shortDescription", "fullDescription"} {
			if get(rule, key, "text") == "" {
				t.Errorf("rule %v has no %s", get(rule, "id"), key)
			}
		}
	}
	if want := []string{"uselessAssignment", "temporalDeadZone", "constantAssignment", "notAnalyzed", "syntaxError", "internalError"}; !slices.Equal(ids, want) {
		t.Errorf("rules %q, want %q", ids, want)
	}
	if get(run, "columnKind") != "utf16CodeUnits" || get(run, "originalUriBaseIds", srcRoot, "uri") != goldenSRCROOT {
		t.Errorf("columnKind %v, originalUriBaseIds %v", get(run, "columnKind"), get(run, "originalUriBaseIds"))
	}
	invocation := get(run, "invocations", 0)
	if get(invocation, "executionSuccessful") != false ||
		get(invocation, "toolExecutionNotifications", 0, "locations", 0, "physicalLocation", "artifactLocation", "uri") != "missing.js" ||
		get(invocation, "toolExecutionNotifications", 0, "level") != "error" {
		t.Errorf("invocation %v", invocation)
	}
	levels := map[string]bool{}
	results := get(run, "results").([]any)
	for i := range results {
		r := get(results, i)
		id := get(r, "ruleId").(string)
		if index := int(get(r, "ruleIndex").(float64)); index >= len(ids) || ids[index] != id {
			t.Errorf("result %d: ruleIndex %d is not rule %s", i, index, id)
		}
		level := get(r, "level").(string)
		levels[level] = true
		if level != "note" && level != "warning" && level != "error" || get(r, "message", "text") == "" {
			t.Errorf("result %d: level %q, message %v", i, level, get(r, "message"))
		}
		at := get(r, "locations", 0, "physicalLocation")
		if uri := get(at, "artifactLocation", "uri").(string); !strings.HasSuffix(uri, ".js") || get(at, "artifactLocation", "uriBaseId") != srcRoot {
			t.Errorf("result %d: artifactLocation %v", i, get(at, "artifactLocation"))
		}
		startLine, startColumn := positive(get(at, "region", "startLine")), positive(get(at, "region", "startColumn"))
		endLine, endColumn := positive(get(at, "region", "endLine")), positive(get(at, "region", "endColumn"))
		if endLine < startLine || endLine == startLine && endColumn < startColumn {
			t.Errorf("result %d: region ends before it starts: %v", i, get(at, "region"))
		}
	}
	if !levels["note"] || !levels["warning"] {
		t.Errorf("the annotate inputs should give notes and warnings, got %v", levels)
	}
}

// TestSARIFSchema validates check's SARIF output against the SARIF 2.1.0 JSON schema, as
// Microsoft's @microsoft/jest-sarif ships it (sarif-2.1.0-rtm.5.json, the schema of the
// OASIS standard, JSON Schema draft 4), with ajv, set up as that package sets it up; both are installed with npm
// into os.UserCacheDir()/ssalens-sarif (SSALENS_SARIF_DIR overrides it) on first use. The
// log is check's of the annotate inputs, TypeScript and TSX included. It is skipped without
// node, npm or the registry.
func TestSARIFSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("SARIF schema validation skipped in -short mode")
	}
	// ".": the directory's TypeScript and TSX files too.
	stdout, _, _ := checkAnnotateFiles(t, "--format", "sarif", "missing.js", ".")
	if !strings.Contains(stdout, `"uri": "ts_annotations.ts"`) {
		t.Fatalf("no result in ts_annotations.ts:\n%s", stdout)
	}
	dir := npmtest.Install(t, "ssalens-sarif", "SSALENS_SARIF_DIR", "@microsoft/jest-sarif@1.0.0-beta.0", "ajv@6.12.6")
	const validate = `
const Ajv = require("ajv");
const schema = require(process.argv[1]);
const log = JSON.parse(require("fs").readFileSync(0, "utf8"));
// A draft-04 schema, read as @microsoft/jest-sarif reads it.
const ajv = new Ajv({ allErrors: true, schemaId: "auto", validateSchema: false });
ajv.addMetaSchema(require("ajv/lib/refs/json-schema-draft-04.json"));
if (!ajv.validate(schema, log)) {
  console.log(ajv.errorsText(ajv.errors, { separator: "\n" }));
  process.exit(1);
}
`
	schema := filepath.Join(dir, "node_modules", "@microsoft", "jest-sarif", "lib", "schemas", "sarif-2.1.0-rtm.5.json")
	cmd := exec.Command("node", "-e", validate, schema)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	cmd.Stdin = strings.NewReader(stdout)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the SARIF output does not validate against %s: %v\n%s", schema, err, out)
	}
	// The validator rejects what the schema does not allow.
	cmd = exec.Command("node", "-e", validate, schema)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	cmd.Stdin = strings.NewReader(strings.Replace(stdout, `"startLine": `, `"startLine": -`, 1))
	if err := cmd.Run(); err == nil {
		t.Error("a negative startLine validates")
	}
}

// TestCheckJobs checks that the output does not depend on the number of workers: the same
// bytes, in every format, for 1 to 8 workers over all the test inputs.
func TestCheckJobs(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif"} {
		want, wantErr, wantStatus := runArgs("check", "--jobs", "1", "--format", format, "../../testdata", "/no/such/dir")
		if !strings.Contains(want, "testdata/annotate") || !strings.Contains(wantErr, "/no/such/dir") {
			t.Fatalf("check --format %s ../../testdata: stdout lacks the annotate inputs or stderr the missing directory:\n%s\n%s", format, want, wantErr)
		}
		for jobs := 2; jobs <= 8; jobs++ {
			got, gotErr, gotStatus := runArgs("check", "--jobs", strconv.Itoa(jobs), "--format", format, "/no/such/dir", "../../testdata")
			if got != want || gotErr != wantErr || gotStatus != wantStatus {
				t.Errorf("check --format %s --jobs %d differs from --jobs 1:\n%s\n%s\nstatus %d", format, jobs, got, gotErr, gotStatus)
			}
		}
	}
}

// TestCheckMixedLanguages checks a directory of JavaScript, TypeScript and TSX files: each is
// parsed in the language of its extension, where the same text is a syntax error in one
// language and not in another; declaration files are not checked, though their text would
// have a syntax error; --lang parses every file in its language.
func TestCheckMixedLanguages(t *testing.T) {
	const (
		ts  = "function f(x: number) { let y = <number>x; y = 1; return y; }\n" // <number>x: an element in TSX
		tsx = "function g<T,>(x: T) { let y = <p>{x}</p>; y = null; return y; }\n"
	)
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{
		"a.js": ts, "src/b.ts": ts, "src/c.mts": ts, "src/d.cts": ts, "src/e.tsx": ts, "src/f.tsx": tsx, "g.ts": tsx,
		"types/h.d.ts": tsx, "types/i.d.mts": tsx, "types/j.d.cts": tsx, "types/k.d.css.ts": tsx,
	})
	const (
		analyzedF = "1:29: hint: y₁: this value of y is never read"
		analyzedG = "1:28: hint: y₁: this value of y is never read"
		notJS     = "1:12: information: function f is not analyzed: syntax error at 1:12"
		notTSX    = "1:25: information: function f is not analyzed: syntax error at 1:25"
		notTS     = "1:1: information: the module function is not analyzed: syntax error at 1:1"
	)
	for _, tt := range []struct {
		lang string
		want []string // path: finding, in the order of the paths
	}{
		{"", []string{"a.js:" + notJS, "g.ts:" + notTS, "src/b.ts:" + analyzedF, "src/c.mts:" + analyzedF,
			"src/d.cts:" + analyzedF, "src/e.tsx:" + notTSX, "src/f.tsx:" + analyzedG}},
		{"ts", []string{"a.js:" + analyzedF, "g.ts:" + notTS, "src/b.ts:" + analyzedF, "src/c.mts:" + analyzedF,
			"src/d.cts:" + analyzedF, "src/e.tsx:" + analyzedF, "src/f.tsx:" + notTS}},
	} {
		args := []string{"check", dir}
		if tt.lang != "" {
			args = []string{"check", "--lang", tt.lang, dir}
		}
		out, errs, status := runArgs(args...)
		want := dir + string(filepath.Separator) + strings.Join(tt.want, "\n"+dir+string(filepath.Separator)) + "\n"
		if out != filepath.FromSlash(want) || errs != "" || status != exitOK {
			t.Errorf("%q: status %d, stderr %q, stdout\n%s\nwant\n%s", args, status, errs, out, want)
		}
	}
}

// TestCheckProgress runs check with stderr taken for a terminal 40 columns wide: besides the
// error about a missing file, stderr has progress lines, each drawn over the last, at most 39
// columns, counting the files to analyze, the last cleared; stdout, the error and the status
// are those of a run without a terminal.
func TestCheckProgress(t *testing.T) {
	args := []string{"--jobs", "2", annotateDir, "/no/such/file.js"}
	var stdout, stderr bytes.Buffer
	status := checkCommand.run(args, &stdout, &stderr, 40)
	want, wantErr, wantStatus := runArgs(append([]string{"check"}, args...)...)
	if stdout.String() != want || status != wantStatus {
		t.Errorf("with a terminal: status %d, stdout\n%s\nwant status %d, stdout\n%s", status, stdout.String(), wantStatus, want)
	}
	progress, found := strings.CutPrefix(stderr.String(), wantErr)
	if !found {
		t.Errorf("stderr %q does not start with %q", stderr.String(), wantErr)
	}
	const clear = "\r\x1b[K"
	if !strings.HasPrefix(progress, clear) || !strings.HasSuffix(progress, clear) {
		t.Fatalf("progress %q does not start and end with %q", progress, clear)
	}
	entries, err := os.ReadDir(annotateDir)
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, e := range entries {
		if walksTo(e.Name()) {
			files++
		}
	}
	line := regexp.MustCompile(`^\[(\d+)/` + strconv.Itoa(files) + `\]( …?[^ ]+\.(js|ts|tsx))?$`)
	drawn := 0
	for _, l := range strings.Split(progress, clear) {
		if l == "" {
			continue
		}
		drawn++
		if !line.MatchString(l) || utf8.RuneCountInString(l) > 39 {
			t.Errorf("progress line %q", l)
		}
	}
	if drawn == 0 {
		t.Error("no progress line drawn")
	}
}

func TestProgressLine(t *testing.T) {
	for _, tt := range []struct {
		columns int
		done    int
		running []string
		want    string
	}{
		{80, 0, nil, "[0/12]"},
		{80, 3, []string{"src/app.js", "lib/x.js"}, "[3/12] src/app.js"},
		{20, 3, []string{"src/app.js"}, "[3/12] src/app.js"},
		{17, 3, []string{"src/app.js"}, "[3/12] …c/app.js"},
		{18, 3, []string{"src/αβγδεζηθ.js"}, "[3/12] …γδεζηθ.js"},
		{9, 3, []string{"src/app.js"}, "[3/12]"},
	} {
		p := progress{columns: tt.columns, total: 12, done: tt.done, running: tt.running}
		if got := p.line(); got != tt.want || utf8.RuneCountInString(got) >= tt.columns {
			t.Errorf("%d columns, %d done, %q: %q, want %q", tt.columns, tt.done, tt.running, got, tt.want)
		}
	}
}

// TestCheckColumnsAfterByteOrderMark checks that the columns of a file's first line count from
// after its byte order mark, in every format, as editors, tsc and ESLint count them.
func TestCheckColumnsAfterByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bom.js")
	src := "function bom(){let q=1;q=2;return q}\n" // the first q is at byte column 20
	if err := os.WriteFile(file, []byte(byteOrderMark+src), 0o644); err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]string{
		"text":  ":1:20: hint: q₁",
		"json":  `"column": 20,`,
		"sarif": `"startColumn": 20,`,
	} {
		stdout, stderr, _ := runArgs("check", "--format", format, file)
		if !strings.Contains(stdout, want) {
			t.Errorf("check --format %s: no %q in\n%s%s", format, want, stdout, stderr)
		}
	}
}
