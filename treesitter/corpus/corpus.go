// Package corpus provides real-world JavaScript files, pinned npm package
// versions, for tests and benchmarks.
//
// Files are fetched once with npm into a cache directory outside the
// repository, os.UserCacheDir()/ssalens-corpus unless SSALENS_CORPUS_DIR is
// set, and read from there on later runs.
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
	// Name is short and unique, usable in benchmark names.
	Name string
	// Path is the file's location on disk, in the cache directory.
	Path string
	Src  []byte
}

type pinned struct {
	pkg, version string
	files        []pinnedFile
}

type pinnedFile struct {
	name, path string // path inside the package
}

var packages = []pinned{
	{"lodash", "4.18.1", []pinnedFile{{"lodash", "lodash.js"}}},
	{"react-dom", "19.3.1", []pinnedFile{{"react-dom", "cjs/react-dom-client.development.js"}}},
	{"three", "0.187.0", []pinnedFile{
		{"three.module", "build/three.module.js"},
		{"three.core", "build/three.core.js"},
	}},
	{"jquery", "4.0.0", []pinnedFile{{"jquery", "dist/jquery.js"}}},
	{"moment", "2.31.0", []pinnedFile{{"moment", "moment.js"}}},
	// typescript 7 no longer ships lib/typescript.js.
	{"typescript", "6.0.3", []pinnedFile{{"typescript", "lib/typescript.js"}}},
}

// npmTimeout bounds one npm pack, so that a hanging network turns into a
// skip instead of a test timeout.
const npmTimeout = 3 * time.Minute

var (
	mu     sync.Mutex
	loaded []File
	// unavailable remembers why fetching failed, so that later callers in
	// the same process skip at once instead of waiting for npm again.
	unavailable error
)

// Fetch returns all corpus files, fetching missing packages first. It skips
// the test or benchmark when the files are not cached and npm or the network
// is unavailable. The returned Src slices are shared; do not modify them.
func Fetch(tb testing.TB) []File {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if loaded != nil {
		return loaded
	}
	if unavailable != nil {
		tb.Skipf("corpus: %v", unavailable)
	}
	root, err := cacheDir()
	if err != nil {
		tb.Skipf("corpus: no cache directory: %v", err)
	}
	var files []File
	for _, p := range packages {
		dir := filepath.Join(root, p.pkg+"@"+p.version)
		if !complete(dir, p) {
			if err := fetch(root, dir, p); err != nil {
				if errors.As(err, new(npmUnavailableError)) {
					unavailable = err
					tb.Skipf("corpus: %v", err)
				}
				tb.Fatalf("corpus: %v", err)
			}
		}
		for _, f := range p.files {
			file := File{Package: p.pkg, Version: p.version, Name: f.name, Path: filepath.Join(dir, filepath.FromSlash(f.path))}
			if file.Src, err = os.ReadFile(file.Path); err != nil {
				tb.Fatalf("corpus: %v", err)
			}
			files = append(files, file)
		}
	}
	loaded = files
	return files
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
	for _, f := range p.files {
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
	tmp, err := os.MkdirTemp(root, ".fetch-"+p.pkg+"-")
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
	tr := tar.NewReader(gz)
	for len(wanted) > 0 {
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
		if h.Typeflag != tar.TypeReg || !wanted[name] {
			continue
		}
		delete(wanted, name)
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), tr); err != nil {
			return err
		}
	}
	if len(wanted) > 0 {
		return fmt.Errorf("tarball lacks %v", slices.Sorted(maps.Keys(wanted)))
	}
	return nil
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
