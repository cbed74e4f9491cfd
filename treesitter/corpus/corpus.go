// Package corpus provides real-world JavaScript and TypeScript files, pinned
// npm package versions, for tests and benchmarks.
//
// Files are fetched once with npm into a cache directory outside the
// repository, os.UserCacheDir()/ssalens-corpus unless SSALENS_CORPUS_DIR is
// set, and read from there on later runs. Fetch returns the JavaScript files,
// FetchTypeScript the TypeScript and TSX sources of four packages, and Blank
// strips the types of TypeScript files with ts-blank-space, installed into
// the same cache.
//
// The package depends on nothing but the standard library, npm and node.
package corpus

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// File is one corpus file.
type File struct {
	Package string // npm package name
	Version string
	// Name is short and unique, usable in test and benchmark names. The names of
	// TypeScript files are the package's short name and the path below its
	// source directory, such as "rxjs/internal/Observable.ts"; their slashes
	// make levels of subtests, so -run 'TestX/rxjs/' selects one package.
	Name string
	// Path is the file's location on disk, in the cache directory.
	Path string
	Src  []byte
	// Lang is the file's language, from its extension (LangOf).
	Lang Lang
	// Declaration marks a TypeScript declaration file (.d.ts, .d.mts,
	// .d.cts), whose Lang is TypeScript.
	Declaration bool
}

// Lang is the language of a source file, which decides the grammar that
// parses it.
type Lang uint8

const (
	JavaScript Lang = iota // .js, .mjs, .cjs, .jsx
	TypeScript             // .ts, .mts, .cts, declaration files included
	TSX                    // .tsx: TypeScript with JSX, where <T>x is no type assertion
)

func (l Lang) String() string {
	switch l {
	case JavaScript:
		return "javascript"
	case TypeScript:
		return "typescript"
	case TSX:
		return "tsx"
	}
	return fmt.Sprintf("Lang(%d)", uint8(l))
}

// LangOf returns the language of a file named name, by its extension, and
// whether it is a TypeScript declaration file. Unknown extensions are
// JavaScript.
func LangOf(name string) (lang Lang, declaration bool) {
	base := strings.ToLower(path.Base(filepath.ToSlash(name)))
	switch path.Ext(base) {
	case ".ts", ".mts", ".cts":
		ext := path.Ext(base)
		return TypeScript, strings.HasSuffix(strings.TrimSuffix(base, ext), ".d")
	case ".tsx":
		return TSX, false
	}
	return JavaScript, false
}

type pinned struct {
	pkg, version string
	files        []pinnedFile
	// dir, if set, is a directory of the package whose TypeScript files
	// (.ts and .tsx, at any depth) are all taken, named short + "/" + their
	// path below dir.
	dir, short string
	// jsDirs, if set, are directories of the package whose JavaScript files
	// are all taken, named short + "/" + their path in the package.
	jsDirs []string
}

type pinnedFile struct {
	name, path string // path inside the package
}

var packages = []pinned{
	{pkg: "lodash", version: "4.18.1", files: []pinnedFile{{"lodash", "lodash.js"}}},
	{pkg: "react-dom", version: "19.3.1", files: []pinnedFile{{"react-dom", "cjs/react-dom-client.development.js"}}},
	{pkg: "three", version: "0.187.0", files: []pinnedFile{
		{"three.module", "build/three.module.js"},
		{"three.core", "build/three.core.js"},
	}},
	{pkg: "jquery", version: "4.0.0", files: []pinnedFile{{"jquery", "dist/jquery.js"}}},
	{pkg: "moment", version: "2.31.0", files: []pinnedFile{{"moment", "moment.js"}}},
	// typescript 7 no longer ships lib/typescript.js.
	{pkg: "typescript", version: "6.0.3", files: []pinnedFile{{"typescript", "lib/typescript.js"}}},
}

// tsPackages are the TypeScript corpus: the source directories of libraries
// that publish them, with idioms from several schools (zod's schema classes
// and heavy generics, rxjs's operators and overloads, TanStack Query's
// classes and React hooks in TSX).
var tsPackages = []pinned{
	{pkg: "zod", version: "4.6.7", dir: "src", short: "zod"},
	{pkg: "rxjs", version: "7.8.2", dir: "src", short: "rxjs"},
	{pkg: "@tanstack/query-core", version: "5.108.0", dir: "src", short: "query-core"},
	{pkg: "@tanstack/react-query", version: "5.108.0", dir: "src", short: "react-query"},
}

// test262 is test262-parser-tests: the programs of test262 that a parser must accept (pass/)
// and those it must reject (early/: early errors; fail/: syntax errors). pass-explicit/ holds
// the pass/ programs again, written out, and is left out.
var test262 = pinned{pkg: "test262-parser-tests", version: "0.0.5", short: "test262", jsDirs: []string{"pass", "early", "fail"}}

// manifest is the file, in a package directory, that lists the files
// extracted from a pinned directory, one slash-separated path a line.
const manifest = ".ssalens-files"

// npmTimeout bounds one npm pack, so that a hanging network turns into a
// skip instead of a test timeout.
const npmTimeout = 3 * time.Minute

var (
	mu            sync.Mutex
	loaded        []File
	loadedTS      []File
	loadedTest262 []File
	// unavailable remembers why fetching failed, so that later callers in
	// the same process skip at once instead of waiting for npm again.
	unavailable error
)

// Fetch returns all JavaScript corpus files, fetching missing packages first.
// It skips the test or benchmark when the files are not cached and npm or the
// network is unavailable. The returned Src slices are shared; do not modify
// them.
func Fetch(tb testing.TB) []File {
	tb.Helper()
	return load(tb, packages, &loaded)
}

// FetchTypeScript returns the TypeScript corpus: every .ts and .tsx file
// below src/ of zod 4.6.7, rxjs 7.8.2, @tanstack/query-core 5.108.0 and
// @tanstack/react-query 5.108.0, sorted by package and path, with Lang set
// from the extension. Like Fetch, it fetches missing packages first and
// skips without npm or network; the Src slices are shared.
func FetchTypeScript(tb testing.TB) []File {
	tb.Helper()
	return load(tb, tsPackages, &loadedTS)
}

// Package is the files of one package of a corpus.
type Package struct {
	Name  string // the files' short package name, such as "zod" or "react-query"
	Files []File
	Size  int64 // bytes in all
}

// Packages groups files by package, keeping their order: the TypeScript corpus is many small
// files, which benchmarks measure a package at a time.
func Packages(files []File) []Package {
	var pkgs []Package
	for i, f := range files {
		if i == 0 || f.Package != files[i-1].Package {
			name, _, _ := strings.Cut(f.Name, "/")
			pkgs = append(pkgs, Package{Name: name})
		}
		p := &pkgs[len(pkgs)-1]
		p.Files = append(p.Files, f)
		p.Size += int64(len(f.Src))
	}
	return pkgs
}

// FetchTest262 returns the programs of test262-parser-tests 0.0.5, named
// "test262/" + their path: "test262/pass/…" a parser must accept,
// "test262/early/…" and "test262/fail/…" it must reject (a name ending in
// .module.js is a module). Like Fetch, it fetches the package first and skips
// without npm or network.
func FetchTest262(tb testing.TB) []File {
	tb.Helper()
	return load(tb, []pinned{test262}, &loadedTest262)
}

func load(tb testing.TB, pkgs []pinned, cache *[]File) []File {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if *cache != nil {
		return *cache
	}
	if unavailable != nil {
		tb.Skipf("corpus: %v", unavailable)
	}
	root, err := cacheDir()
	if err != nil {
		tb.Skipf("corpus: no cache directory: %v", err)
	}
	var files []File
	for _, p := range pkgs {
		dir := filepath.Join(root, strings.ReplaceAll(p.pkg, "/", "+")+"@"+p.version)
		if !complete(dir, p) {
			if err := fetch(root, dir, p); err != nil {
				if errors.As(err, new(npmUnavailableError)) {
					unavailable = err
					tb.Skipf("corpus: %v", err)
				}
				tb.Fatalf("corpus: %v", err)
			}
		}
		list, err := p.list(dir)
		if err != nil {
			tb.Fatalf("corpus: %v", err)
		}
		for _, f := range list {
			file := File{Package: p.pkg, Version: p.version, Name: f.name, Path: filepath.Join(dir, filepath.FromSlash(f.path))}
			file.Lang, file.Declaration = LangOf(f.path)
			if file.Src, err = os.ReadFile(file.Path); err != nil {
				tb.Fatalf("corpus: %v", err)
			}
			files = append(files, file)
		}
	}
	*cache = files
	return files
}

// list returns the files of p in its package directory dir: the pinned
// files, or those the manifest of a pinned directory names.
func (p pinned) list(dir string) ([]pinnedFile, error) {
	if p.dir == "" && p.jsDirs == nil {
		return p.files, nil
	}
	data, err := os.ReadFile(filepath.Join(dir, manifest))
	if err != nil {
		return nil, err
	}
	var files []pinnedFile
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		rel := line
		if p.dir != "" {
			rel = strings.TrimPrefix(line, p.dir+"/")
		}
		files = append(files, pinnedFile{name: p.short + "/" + rel, path: line})
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: empty manifest %s", p.pkg, filepath.Join(dir, manifest))
	}
	return files, nil
}

// wants reports whether the tarball entry name (package-relative) is one of
// p's files.
func (p pinned) wants(name string) bool {
	if p.jsDirs != nil {
		lang, _ := LangOf(name)
		first, _, _ := strings.Cut(name, "/")
		return lang == JavaScript && strings.HasSuffix(name, ".js") && slices.Contains(p.jsDirs, first)
	}
	if p.dir == "" {
		for _, f := range p.files {
			if f.path == name {
				return true
			}
		}
		return false
	}
	if !strings.HasPrefix(name, p.dir+"/") {
		return false
	}
	lang, _ := LangOf(name)
	return lang != JavaScript
}

func cacheDir() (string, error) {
	if dir := os.Getenv("SSALENS_CORPUS_DIR"); dir != "" {
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "ssalens-corpus"), nil
}

// complete reports whether dir holds every file of p. A package directory
// only ever appears by rename after a full extraction, so this is
// all-or-nothing unless someone deleted files by hand.
func complete(dir string, p pinned) bool {
	files, err := p.list(dir)
	if err != nil {
		return false
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.path))); err != nil {
			return false
		}
	}
	return true
}

// npmUnavailableError means the package could not be downloaded, as opposed
// to a download that lacks the pinned files.
type npmUnavailableError struct{ err error }

func (e npmUnavailableError) Error() string { return e.err.Error() }

// fetch downloads p with npm pack and extracts its pinned files into dir.
// Everything happens in a temporary directory that is renamed to dir at the
// end, so an interrupted fetch leaves no partial package behind, and
// concurrent test processes fetching the same package both succeed.
func fetch(root, dir string, p pinned) error {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return npmUnavailableError{fmt.Errorf("npm not found, cannot fetch %s@%s: %v", p.pkg, p.version, err)}
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(root, ".fetch-"+strings.ReplaceAll(p.pkg, "/", "+")+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	ctx, cancel := context.WithTimeout(context.Background(), npmTimeout)
	defer cancel()
	spec := p.pkg + "@" + p.version
	// Few, short retries: without network, npm's defaults take over a minute
	// per package before giving up.
	cmd := exec.CommandContext(ctx, npm, "pack", spec, "--pack-destination", tmp,
		"--prefer-offline", "--fetch-retries=1", "--fetch-retry-mintimeout=2000", "--fetch-retry-maxtimeout=10000")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return npmUnavailableError{fmt.Errorf("npm pack %s: %v\n%s", spec, err, out)}
	}
	tarballs, err := filepath.Glob(filepath.Join(tmp, "*.tgz"))
	if err != nil || len(tarballs) != 1 {
		return fmt.Errorf("npm pack %s: expected one tarball in %s, found %v", spec, tmp, tarballs)
	}
	extracted := filepath.Join(tmp, "package")
	if err := extract(tarballs[0], extracted, p); err != nil {
		return fmt.Errorf("%s: %v", spec, err)
	}
	if err := os.Rename(extracted, dir); err != nil {
		if complete(dir, p) { // another process won the race
			return nil
		}
		return err
	}
	return nil
}

// extract writes the pinned files of p from the npm tarball into dir.
func extract(tarball, dir string, p pinned) error {
	f, err := os.Open(tarball)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	wanted := map[string]bool{}
	for _, pf := range p.files {
		wanted[pf.path] = true
	}
	var got []string
	tr := tar.NewReader(gz)
	for p.dir != "" || p.jsDirs != nil || len(wanted) > 0 {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		// npm tarballs put everything under one top-level directory,
		// usually "package/".
		_, name, _ := strings.Cut(path.Clean(h.Name), "/")
		if h.Typeflag != tar.TypeReg || !p.wants(name) || slices.Contains(got, name) {
			continue
		}
		delete(wanted, name)
		got = append(got, name)
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), tr); err != nil {
			return err
		}
	}
	if len(wanted) > 0 {
		return fmt.Errorf("tarball lacks %v", slices.Sorted(maps.Keys(wanted)))
	}
	if p.dir == "" && p.jsDirs == nil {
		return nil
	}
	if len(got) == 0 {
		return fmt.Errorf("tarball has no files below %s/%v", p.dir, p.jsDirs)
	}
	// The manifest is written last: a directory without it is incomplete.
	slices.Sort(got)
	return os.WriteFile(filepath.Join(dir, manifest), []byte(strings.Join(got, "\n")+"\n"), 0o644)
}

func writeFile(name string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
