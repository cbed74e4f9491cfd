package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ignoreCases are paths matched against one .gitignore file: the examples of gitignore(5) and
// cases of Git's wildmatch tests (t3070).
var ignoreCases = []struct {
	gitignore string
	path      string
	isDir     bool
	want      bool // ignored, unless a parent is (then it is not walked)
}{
	// No slash: the last name, at any depth; files and directories.
	{"foo", "foo", file, true},
	{"foo", "a/b/foo", dir, true},
	{"foo", "foobar", file, false},
	{"foo", "foo/bar", file, false}, // the directory foo is ignored, and not walked
	{"*.min.js", "dist/app.min.js", file, true},
	{"*.min.js", "app.js", file, false},
	// A trailing slash: directories only.
	{"build/", "build", dir, true},
	{"build/", "src/build", dir, true},
	{"build/", "build", file, false},
	// A slash at the start or in the middle anchors the pattern to the file's directory.
	{"/build", "build", dir, true},
	{"/build", "src/build", dir, false},
	{"doc/frotz/", "doc/frotz", dir, true},
	{"doc/frotz/", "a/doc/frotz", dir, false},
	{"doc/frotz", "doc/frotz", file, true},
	{"a/*.js", "a/x.js", file, true},
	{"a/*.js", "a/b/x.js", file, false}, // * does not cross a slash
	{"a/?.js", "a/x.js", file, true},
	{"a/?.js", "a/xy.js", file, false},
	// ** as a whole name.
	{"**/foo", "foo", dir, true},
	{"**/foo", "a/b/foo", file, true},
	{"**/foo/bar", "x/foo/bar", file, true},
	{"**/foo/bar", "x/foo/baz", file, false},
	{"abc/**", "abc/x", file, true},
	{"abc/**", "abc/x/y.js", file, true},
	{"abc/**", "abc", dir, false}, // what is inside, not the directory: a ! can take files back
	{"a/**/b", "a/b", file, true},
	{"a/**/b", "a/x/b", file, true},
	{"a/**/b", "a/x/y/b", file, true},
	{"a/**/b", "a/x/y/c", file, false},
	{"a/**/**/b", "a/b", file, true},
	{"**", "a/b/c", file, true},
	{"/**", "a", file, true},
	// ** inside a name is *.
	{"a**b", "axxb", file, true},
	{"a/x**/b", "a/xyz/b", file, true},
	// … except the first wildcard of an anchored pattern: Git matches the pattern's literal
	// start apart, and a ** right after it crosses slashes as at the start of a pattern.
	{"a/x**/b", "a/x/y/b", file, true},
	{"a/x**/b", "a/xy/b", file, true},
	{"a/x**/b", "a/x/b", file, true},
	{"a/x***/b", "a/x/y/z/b", file, true},
	{"a**/b", "a/q/b", file, true},
	{"/x**/b", "x/y/b", file, true},
	{"a/x**", "a/xy/z", file, true},
	{"a/x**b", "a/x/b", file, false},
	{"a/**x/b", "a/y/x/b", file, false},
	{"a/*/x**/b", "a/q/x/y/b", file, false},
	{"a/*/x**/b", "a/q/xy/b", file, true},
	{`a/\x**/b`, "a/x/y/b", file, false},
	{"a/x**/b/**", "a/x/b", dir, false},
	// Classes.
	{"[abc].js", "b.js", file, true},
	{"[abc].js", "d.js", file, false},
	{"[a-c].js", "b.js", file, true},
	{"[!a-c].js", "b.js", file, false},
	{"[^a-c].js", "d.js", file, true},
	{"[]a].js", "].js", file, true},
	{"[a-].js", "-.js", file, true},
	{"[[:digit:]].js", "7.js", file, true},
	{"[[:digit:]x].js", "x.js", file, true},
	{"[[:upper:]].js", "a.js", file, false},
	{"[[:a]b:]", "[b:]", file, true}, // [[:a] is the class {[, :, a}, then b:]
	{"[[:a]b:]", "ab:]", file, true},
	{"[[:a]b:]", "xb:]", file, false},
	{`[\]].js`, "].js", file, true},
	{"a[/]b", "a/b", file, false}, // a class never matches a slash
	// Never matching: an unterminated class, an unknown POSIX class, a trailing backslash.
	{"[abc", "[abc", file, false},
	{"[[:nope:]]", "a", file, false},
	{`foo\`, `foo\`, file, false},
	// Quoting.
	{`\*.js`, "*.js", file, true},
	{`\*.js`, "a.js", file, false},
	{`\#notes`, "#notes", file, true},
	{`\!important`, "!important", file, true},
	{"foo\\ ", "foo ", file, true},
	// Comments, blank lines, trailing spaces, CRLF, a byte order mark.
	{"# foo", "# foo", file, false},
	{"\n\nfoo", "foo", file, true},
	{"foo   ", "foo", file, true},
	{"foo\r\nbar\r\n", "bar", file, true},
	{"\uFEFFfoo", "foo", file, true},
	// Negation: the last matching line decides.
	{"*.js\n!keep.js", "keep.js", file, false},
	{"*.js\n!keep.js", "drop.js", file, true},
	{"!keep.js\n*.js", "keep.js", file, true},
	{"abc/**\n!abc/keep.js", "abc/keep.js", file, false},
	{"*\n!*/\n!*.js", "src", dir, false},
	{"*\n!*/\n!*.js", "src/a.js", file, false},
	{"*\n!*/\n!*.js", "src/a.txt", file, true},
}

const dir, file = true, false

func TestIgnorePattern(t *testing.T) {
	for _, tt := range ignoreCases {
		stack := ignoreStack{{patterns: parseIgnore([]byte(tt.gitignore))}}
		if got := stack.ignored(tt.path, tt.isDir); got != tt.want {
			t.Errorf("%q: ignored(%q, dir %v) = %v, want %v", tt.gitignore, tt.path, tt.isDir, got, tt.want)
		}
	}
}

// TestIgnoreStack checks that a deeper .gitignore file decides over its parents' and that its
// patterns are relative to its own directory.
func TestIgnoreStack(t *testing.T) {
	stack := ignoreStack{
		{prefix: "", patterns: parseIgnore([]byte("*.gen.js\n/top.js\nlib/vendor/\n"))},
		{prefix: "lib/", patterns: parseIgnore([]byte("!keep.gen.js\n/local.js\nvendor.js\n"))},
	}
	for _, tt := range []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"a.gen.js", false, true},
		{"lib/a.gen.js", false, true},
		{"lib/keep.gen.js", false, false}, // taken back by lib/.gitignore
		{"keep.gen.js", false, true},      // lib/.gitignore says nothing outside lib
		{"top.js", false, true},
		{"lib/top.js", false, false},
		{"lib/local.js", false, true},
		{"local.js", false, false},
		{"lib/x/local.js", false, false},
		{"lib/x/vendor.js", false, true},
		{"lib/vendor", true, true},
	} {
		if got := stack.ignored(tt.path, tt.isDir); got != tt.want {
			t.Errorf("ignored(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestGlobBound checks that a pattern with many stars against a long name that almost matches
// is answered without backtracking into every way of splitting the name.
func TestGlobBound(t *testing.T) {
	p, ok := parsePattern(strings.Repeat("*a", 30) + "b")
	if !ok {
		t.Fatal("pattern not parsed")
	}
	if p.match(strings.Repeat("a", 5000), false) {
		t.Error("matched a name without b")
	}
	deep, ok := parsePattern(strings.Repeat("**/a/", 30) + "b")
	if !ok {
		t.Fatal("pattern not parsed")
	}
	if deep.match(strings.Repeat("a/", 2000)+"c", false) {
		t.Error("matched a path without b")
	}
}

// TestIgnoreCasesAgreeWithGit asks Git itself (git check-ignore, in a repository made for each
// case) whether it ignores the path of each of ignoreCases, where a path under an ignored
// directory counts as ignored: the cases say what Git does, not what we think it does.
func TestIgnoreCasesAgreeWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("git not found: %v", err)
	}
	for _, tt := range ignoreCases {
		repo := t.TempDir()
		if out, err := exec.Command(git, "init", "-q", repo).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		if err := os.WriteFile(filepath.Join(repo, ".gitignore"), []byte(tt.gitignore), 0o644); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(repo, filepath.FromSlash(tt.path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if tt.isDir {
			err = os.Mkdir(path, 0o755)
		} else {
			err = os.WriteFile(path, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "-c", "core.excludesFile=/dev/null", "check-ignore", "-q", "--", tt.path)
		cmd.Dir = repo
		err = cmd.Run()
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			t.Fatalf("git check-ignore %q: %v", tt.path, err)
		}
		gitIgnores := err == nil
		stack := ignoreStack{{patterns: parseIgnore([]byte(tt.gitignore))}}
		ours := stack.ignored(tt.path, tt.isDir)
		for i := range len(tt.path) {
			if tt.path[i] == '/' && stack.ignored(tt.path[:i], true) {
				ours = true
			}
		}
		if ours != gitIgnores {
			t.Errorf("%q: %q ignored: ours %v, git %v", tt.gitignore, tt.path, ours, gitIgnores)
		}
	}
}
