package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// walkTree is a project: files by slash-separated path (a path ending in / is a directory), "->"
// making a symbolic link.
var walkTree = map[string]string{
	".git/":                 "",
	".gitignore":            "*.gen.js\n/build/\ndist\n!dist/keep.js\nlib/**/tmp/\n",
	"a.js":                  "",
	"b.mjs":                 "",
	"c.cjs":                 "",
	"d.jsx":                 "",
	"readme.md":             "",
	"e.ts":                  "",
	"f.mts":                 "",
	"g.cts":                 "",
	"h.tsx":                 "",
	"e.d.ts":                "", // declaration files
	"f.d.mts":               "",
	"g.d.cts":               "",
	"styles.d.css.ts":       "",
	"app.gen.js":            "",
	"local.js":              "", // src/.gitignore's local.js is below src only
	"build/out.js":          "",
	"dist/keep.js":          "", // dist is ignored: a file in it cannot be taken back
	"node_modules/p/i.js":   "",
	".hidden/h.js":          "",
	"src/.gitignore":        "!keep.gen.js\nlocal.js\n",
	"src/.eslintrc.js":      "", // a hidden file, not a hidden directory
	"src/.cache/c.js":       "",
	"src/node_modules/x.js": "",
	"src/build/x.js":        "", // /build/ is anchored to the root
	"src/keep.gen.js":       "",
	"src/local.js":          "",
	"src/sub/local.js":      "",
	"src/sub/z.js":          "",
	"src/a-b.js":            "",
	"src/a/b.js":            "",
	"lib/y.js":              "",
	"lib/tmp/t.js":          "",
	"lib/x/tmp/t.js":        "",
	"vendor/.git/":          "", // a repository of its own: the root's *.gen.js stops there
	"vendor/v.gen.js":       "",
	"link.js":               "-> a.js",
	"linkdir":               "-> src",
	"dangling.js":           "-> nowhere.js",
}

// makeTree writes tree into dir.
func makeTree(t *testing.T, dir string, tree map[string]string) {
	t.Helper()
	for path, content := range tree {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch target, link := strings.CutPrefix(content, "-> "); {
		case strings.HasSuffix(path, "/"):
			err = os.MkdirAll(full, 0o755)
		case link:
			err = os.Symlink(target, full)
		default:
			err = os.WriteFile(full, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// walked is every file the walk of the whole walkTree finds.
var walked = []string{
	"a.js", "b.mjs", "c.cjs", "d.jsx", "e.ts", "f.mts", "g.cts", "h.tsx", "lib/y.js", "local.js",
	"src/.eslintrc.js", "src/a/b.js", "src/a-b.js", "src/build/x.js", "src/keep.gen.js", "src/sub/z.js",
	"vendor/v.gen.js",
}

func TestCollectSources(t *testing.T) {
	root := t.TempDir()
	makeTree(t, root, walkTree)
	in := func(paths ...string) []string {
		var out []string
		for _, p := range paths {
			out = append(out, filepath.Join(root, filepath.FromSlash(p)))
		}
		return out
	}
	for _, tt := range []struct {
		name     string
		operands []string
		want     []string // slash-separated, relative to root
	}{
		{"the whole project", in(""), walked},
		// The root's .gitignore applies below it: *.gen.js, except what src/.gitignore takes
		// back; /build/ is the root's build only.
		{"a directory in the repository", in("src"), []string{
			"src/.eslintrc.js", "src/a/b.js", "src/a-b.js", "src/build/x.js", "src/keep.gen.js", "src/sub/z.js"}},
		{"a directory in a directory", in("src/sub"), []string{"src/sub/z.js"}},
		// What a path names is checked, whatever the rules say of it.
		{"an ignored directory", in("build"), []string{"build/out.js"}},
		{"a directory in node_modules", in("node_modules/p"), []string{"node_modules/p/i.js"}},
		{"a hidden directory", in(".hidden"), []string{".hidden/h.js"}},
		{"an ignored file", in("app.gen.js"), []string{"app.gen.js"}},
		// A walk follows no symbolic link; one named is followed.
		{"a link to a file", in("link.js"), []string{"link.js"}},
		{"a link to a directory", in("linkdir"), []string{
			"linkdir/.eslintrc.js", "linkdir/a/b.js", "linkdir/a-b.js", "linkdir/build/x.js", "linkdir/keep.gen.js", "linkdir/sub/z.js"}},
		{"a file of another language", in("readme.md"), []string{"readme.md"}},
		{"a declaration file", in("e.d.ts"), []string{"e.d.ts"}},
		{"each file once, sorted", in("src/sub/z.js", "src/sub", "a.js", "src/../a.js"), []string{"a.js", "src/sub/z.js"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range collectSources(tt.operands) {
				if s.err != nil {
					t.Errorf("%s: %v", s.path, s.err)
				}
				rel, err := filepath.Rel(root, s.path)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, filepath.ToSlash(rel))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("collectSources(%q) =\n%q\nwant\n%q", tt.operands, got, tt.want)
			}
		})
	}

	missing := filepath.Join(root, "missing.js")
	sources := collectSources([]string{missing, filepath.Join(root, "src", "sub")})
	if len(sources) != 2 || sources[0].path != missing || !os.IsNotExist(sources[0].err) || sources[1].err != nil {
		t.Errorf("collectSources with a missing file: %+v", sources)
	}
}

// TestWalkAgreesWithGit checks the walk's .gitignore decisions against Git's own: in walkTree
// made a Git repository, the files Git lists as untracked and not ignored are the files the
// walk finds, leaving aside what the walk skips for other reasons (other extensions, hidden
// directories, node_modules, symbolic links, the nested repository).
func TestWalkAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("git not found: %v", err)
	}
	root := t.TempDir()
	tree := make(map[string]string)
	for path, content := range walkTree {
		if !strings.HasPrefix(path, ".git/") && !strings.HasPrefix(path, "vendor/") && !strings.HasPrefix(content, "-> ") {
			tree[path] = content
		}
	}
	makeTree(t, root, tree)
	if out, err := exec.Command(git, "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	cmd := exec.Command(git, "-c", "core.excludesFile=/dev/null", "ls-files", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var fromGit []string
	for _, path := range strings.Fields(string(out)) {
		known := walksTo(path)
		names := strings.Split(path, "/")
		skipped := slices.ContainsFunc(names[:len(names)-1], func(dir string) bool {
			return dir == "node_modules" || strings.HasPrefix(dir, ".")
		})
		if known && !skipped {
			fromGit = append(fromGit, path)
		}
	}
	var ours []string
	for _, s := range collectSources([]string{root}) {
		rel, _ := filepath.Rel(root, s.path)
		ours = append(ours, filepath.ToSlash(rel))
	}
	slices.Sort(fromGit)
	slices.Sort(ours)
	if !slices.Equal(ours, fromGit) {
		t.Errorf("the walk finds\n%q\nGit lists\n%q", ours, fromGit)
	}
}

// TestWalksTo checks which files the walk takes by their names: those of the extensions that
// analysis.LanguageOfFile knows, but not TypeScript's declaration files.
func TestWalksTo(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"a.js", true},
		{"a.mjs", true},
		{"a.cjs", true},
		{"a.jsx", true},
		{"a.ts", true},
		{"a.mts", true},
		{"a.cts", true},
		{"a.tsx", true},
		{"A.TS", true}, // extensions in any case, as LanguageOfFile reads them
		{"src/a.test.ts", true},
		{"d.ts", true}, // a file named d, not a declaration file
		{"a.d.ts", false},
		{"a.d.mts", false},
		{"a.d.cts", false},
		{"dir.d.ts/a.ts", true}, // the directory's name does not count
		{"styles.d.css.ts", false},
		{"a.d.tsx", true}, // TypeScript has no TSX declaration files
		{"a.d.js", true},
		{"readme.md", false},
		{"a.json", false},
		{"a.js.map", false},
		{"Makefile", false},
	} {
		if got := walksTo(tt.name); got != tt.want {
			t.Errorf("walksTo(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestComparePaths(t *testing.T) {
	paths := []string{"b.js", "a/b.js", "a-b.js", "a.js", "a/a/z.js", "a", "ab/c.js"}
	slices.SortFunc(paths, comparePaths)
	want := []string{"a", "a/a/z.js", "a/b.js", "a-b.js", "a.js", "ab/c.js", "b.js"}
	if !slices.Equal(paths, want) {
		t.Errorf("sorted %q, want %q", paths, want)
	}
}
