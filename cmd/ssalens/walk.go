package main

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ssalens/ssalens/analysis"
)

// walksTo reports whether check takes a file it finds in a directory: a file of a language
// analysis.LanguageOfFile knows by its extension (.js .mjs .cjs .jsx, .ts .mts .cts, .tsx),
// but no TypeScript declaration file, which declares types and has no function bodies to
// analyze.
func walksTo(name string) bool {
	_, known := analysis.LanguageOfFile(name)
	return known && !isDeclarationFile(name)
}

// isDeclarationFile reports whether name is a TypeScript declaration file as TypeScript's
// isDeclarationFileName decides: x.d.ts, x.d.mts, x.d.cts, and any .ts file whose name has
// .d. in it, such as x.d.css.ts, the declarations of x.css (allowArbitraryExtensions). There
// is no .d.tsx.
func isDeclarationFile(name string) bool {
	base := filepath.Base(name)
	return strings.HasSuffix(base, ".d.mts") || strings.HasSuffix(base, ".d.cts") ||
		strings.HasSuffix(base, ".ts") && strings.Contains(base, ".d.")
}

// A source is one file to check, or a path that could not be read.
type source struct {
	path string // as given, or joined to the directory given
	key  string // the clean path, which orders the sources
	size int64
	err  error
}

// collectSources returns the files that the operands name: a file as it is, whatever its
// extension, and in a directory, at any depth, the files walksTo takes, except in
// node_modules and hidden directories and what .gitignore files exclude. The .gitignore files
// are those of the directory and of its subdirectories, and those of its parents up to the
// root of the Git repository around it, if any; a nested repository starts afresh, as in Git.
// A symbolic link to a file counts as the file; one to a directory is not followed. A path
// that cannot be read is a source with its error. The sources are sorted by path, each once,
// so that the output does not depend on the order of the operands or of the work.
func collectSources(operands []string) []source {
	var sources []source
	for _, op := range operands {
		info, err := os.Stat(op)
		switch {
		case op == stdin:
			sources = append(sources, source{path: op})
		case err != nil:
			sources = append(sources, source{path: op, err: err})
		case info.IsDir():
			sources = walkDir(op, sources)
		default:
			sources = append(sources, source{path: op, size: info.Size()})
		}
	}
	for i := range sources {
		if sources[i].path != stdin { // standard input's key, "", is no file's: ./- names a file
			sources[i].key = filepath.Clean(sources[i].path)
		}
	}
	slices.SortStableFunc(sources, func(a, b source) int { return comparePaths(a.key, b.key) })
	return slices.CompactFunc(sources, func(a, b source) bool { return a.key == b.key })
}

// comparePaths orders paths by name, directory by directory: a slash sorts before any other
// byte, so that a/b comes before a-b and a directory's files stay together.
func comparePaths(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			switch {
			case a[i] == filepath.Separator:
				return -1
			case b[i] == filepath.Separator:
				return 1
			}
			return cmp.Compare(a[i], b[i])
		}
	}
	return cmp.Compare(len(a), len(b))
}

// A walk is the walk of one directory operand.
type walk struct {
	sources []source
}

// walkDir appends the sources of directory dir to sources.
func walkDir(dir string, sources []source) []source {
	w := &walk{sources: sources}
	root, rel := repositoryRoot(dir)
	var stack ignoreStack
	if root != "" {
		// The .gitignore files of the parents, from the repository's root down; dir's own is
		// read with its entries.
		parent := root
		prefix := ""
		for name := range strings.SplitSeq(rel, "/") {
			if name == "" {
				break
			}
			stack = w.readIgnore(parent, prefix, stack)
			parent = filepath.Join(parent, name)
			prefix += name + "/"
		}
	}
	w.dir(dir, rel, stack)
	return w.sources
}

// repositoryRoot returns the root of the Git repository around dir (the nearest parent,
// dir included, that holds .git) and dir's slash-separated path relative to it, ending with
// a slash unless empty; "" and "" when dir is in no repository.
func repositoryRoot(dir string) (root, rel string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			r, err := filepath.Rel(d, abs)
			if err != nil || r == "." {
				return d, ""
			}
			return d, filepath.ToSlash(r) + "/"
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// readIgnore appends the .gitignore file of directory dir, whose path relative to the walk's
// root is prefix, to stack if there is one.
func (w *walk) readIgnore(dir, prefix string, stack ignoreStack) ignoreStack {
	name := filepath.Join(dir, ".gitignore")
	text, err := os.ReadFile(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return stack
	case err != nil:
		w.sources = append(w.sources, source{path: name, err: err})
		return stack
	}
	if patterns := parseIgnore(text); len(patterns) > 0 {
		// The stack's array is shared with the parent directory's: a sibling must not write
		// over this file.
		stack = append(stack[:len(stack):len(stack)], &ignoreFile{prefix: prefix, patterns: patterns})
	}
	return stack
}

// dir walks directory dir, whose path relative to the walk's root is prefix, with the
// .gitignore files of its parents.
func (w *walk) dir(dir, prefix string, stack ignoreStack) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.sources = append(w.sources, source{path: dir, err: err})
		return
	}
	for _, e := range entries {
		if e.Name() == ".git" {
			stack, prefix = nil, "" // a repository of its own: its parents' rules stop here
		}
	}
	stack = w.readIgnore(dir, prefix, stack)
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(dir, name)
		isDir := e.IsDir()
		if isDir && (name == "node_modules" || strings.HasPrefix(name, ".")) || stack.ignored(prefix+name, isDir) {
			continue
		}
		if isDir {
			w.dir(path, prefix+name+"/", stack)
			continue
		}
		// A symbolic link is not followed, as ripgrep does not: a file linked to from inside
		// the tree would be checked twice. One named is (collectSources).
		if !walksTo(name) || e.Type()&fs.ModeSymlink != 0 {
			continue
		}
		info, err := os.Stat(path)
		switch {
		case err != nil:
			w.sources = append(w.sources, source{path: path, err: err})
		case info.Mode().IsRegular():
			w.sources = append(w.sources, source{path: path, size: info.Size()})
		}
	}
}
