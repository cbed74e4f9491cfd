// Package analysis turns a source file into the results that the command line and the language
// server show: it parses the file (package treesitter), lowers it (package lower), builds SSA
// form for every function that can be analyzed (package ssa), and indexes the outcome by source
// position. Everything it returns is in byte offsets of the source; Lines converts them to lines
// and columns (in bytes or UTF-16 units) for the command line and the server alike.
//
// The index is a list of occurrences (each place of a variable in the source, with the SSA value
// it reads and the one it defines) sorted by offset, and a list of join points (where φs are
// shown). A read of a variable captured from an enclosing function, when lower found that the
// variable's single definition runs before the closure is created, is linked to the enclosing
// function's value, so that the inner use shows the outer version.
//
// Each feature is a file of its own, named for it: inlayhints.go, hover.go, definition.go,
// references.go, highlights.go, diagnostics.go, showssa.go, annotate.go and dump.go. They render
// values, φs and edges through one renderer (render.go) and word the reasons the lowering
// records (why a function is not analyzed, why a variable is not renamed) in one place
// (reasons.go).
//
// A Document is one version of an edited file: its next version is made from an edit, and its
// analysis is computed once, on first use, from the previous version's where the edit allows.
// Until the first version of a large file is analyzed, a preview of its first lines gives the
// hints there that the rest of the file cannot change (preview.go).
package analysis
