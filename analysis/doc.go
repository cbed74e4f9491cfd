// Package analysis turns a JavaScript source file into the per-document results that the
// command line and the language server show: it parses and lowers the file (package
// treesitter), builds SSA form for every function that can be analyzed (package ssa), and
// indexes the outcome by source position.
//
// The index is a list of occurrences (each place of a variable in the source, with the SSA
// value it reads and the one it defines) sorted by offset, and a list of join points (where
// φs are shown). A read of a variable captured from an enclosing function, when that variable
// has a single definition that happens before the closure is created, is linked to the
// enclosing function's value, so that the inner use shows the outer version. Everything here is in byte offsets; line and column conversion is
// done by Lines, and the server converts to its clients' encodings.
package analysis
