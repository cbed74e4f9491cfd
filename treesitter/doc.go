// Package treesitter parses source files with tree-sitter and hands the syntax tree to Go as a
// flat array of nodes whose kinds and fields are the project's own. It is the only package that
// faces a grammar.
//
// Parsing itself is done by tree-sitter's C library through github.com/tree-sitter/go-tree-sitter
// and a grammar (Grammar: JavaScript is tree-sitter-javascript with JSX; TypeScript and TSX are
// tree-sitter-typescript's two languages, which embed an older tree-sitter-javascript, so the
// same JavaScript may parse to other shapes, pinned by TestGrammarDrift). Walking that tree from
// Go with go-tree-sitter's node API is as expensive as parsing it: every call that returns a node
// allocates, every Kind() builds a string, and each step is a cgo call. So right after parsing, a
// walk in C copies the whole tree into Tree.Nodes, a slice of fixed-size Node values in
// preorder that refer to each other by index. Everything after that (the lowering, analyses)
// reads plain Go memory, and text is sliced out of Tree.Src.
//
// That walk reads tree-sitter's subtrees and the grammar's alias and field tables itself,
// through the library's own internal headers (internal/tree-sitter, copied unchanged from the
// version go-tree-sitter compiles). The public TSTreeCursor shows the same nodes, but finds
// every next one again from the top of its stack, through the balanced trees of hidden nodes a
// repetition makes, and computes rows and columns the flat tree does not keep: the walk took a
// fifth of a cold analysis outside the parse, and now takes a third to a half of that.
//
// A large tree is copied on every processor. tree-sitter counts the visible nodes below each
// subtree, so where a subtree's nodes land in preorder is known before it is walked: one walk
// goes down from the root as far as subtrees of at most a 64th of the tree, and leaves each of
// those as a job; the processors then share the jobs out, each writing its own range of Nodes
// (typescript.js: 125 ms on one processor, 77 on two).
//
// Each grammar numbers its symbols and fields in its own way, and the same construct can have
// different ids in two grammars. The walk translates them, through tables each Grammar builds
// once by name, into the project's kinds and fields (Kind, Field, generated into kinds_gen.go
// from the grammars' node-types.json by internal/kindgen): Kind… for named node kinds, Token…
// for keyword tokens, TokenKind for the others. Code that reads trees compares small integers
// and works with every grammar alike.
//
// Because Nodes is in preorder, the subtree of node i is the contiguous range
// Nodes[i:t.SubtreeEnd(i)].
//
// The C tree is kept alive next to the flat copy only so that Tree.Reparse can reuse it for
// incremental parsing after an edit; Tree.Close frees it. A caller that will not re-parse
// (`ssalens check`) uses ParseOnce instead: its walk, alone on one processor, frees each
// subtree once visited and gives the memory back as it goes, so that the C tree and the flat
// one are never whole at once (typescript.js: 209 MB and 64 MB; the process peaks at 223 MiB
// instead of 283).
//
// tree-sitter parses on one processor, and its parse is most of what opening or checking a
// large file costs. ParseInPieces (and ParseOnce) parse a large source on every processor:
// cut, between two statements of one statement list, into pieces that each parse alone as a
// program, and the rest, closed up over the gap (tree-sitter's included ranges), as one more.
// The pieces' flat trees are then joined into the whole source's (pieces.go: the cuts are kept
// only where the trees prove that the whole parse would say the same, and TestPiecesEqualWhole
// checks node for node that it does). Such a tree has no C tree to re-parse from:
// Tree.ParseWhole parses the source whole, in the background, for the next version. By the
// same argument, on one side only, ParsePrefix parses the start of a large source alone, up to
// a statement of its top level, for the first hints of a file just opened (prefix.go).
//
// The same argument makes a keystroke cheap. tree-sitter's incremental parse costs far more
// than the edit: it never reuses a fragile node, and most repetition nodes of a statement list
// are, so it descends to every statement of the lists around the edit and lexes the first
// token of each again (a third of lodash.js for a space typed in it). Tree.Reparse first parses
// alone the statements the edit touches, from the end of the statement before to the start of
// the one after, and puts their nodes in place of the old ones in a copy of the flat tree
// (splice.go: again only where the piece's own tree proves the places at its ends, and
// TestSpliceEqualsWhole checks against whole parses); lodash.js: 0.61 ms instead of 7.8. A
// spliced tree has no C tree either: it keeps the last one and the edits since, from which
// Tree.ParseWhole re-parses, between keystrokes, for an edit that cannot be spliced.
package treesitter
