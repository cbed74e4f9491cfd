// Package treesitter parses JavaScript (including JSX) with tree-sitter and
// hands the syntax tree to Go as a flat array of nodes.
//
// Parsing itself is done by tree-sitter's C library through
// github.com/tree-sitter/go-tree-sitter and the tree-sitter-javascript
// grammar. Walking that tree from Go with go-tree-sitter's node API is as
// expensive as parsing it: every call that returns a node allocates, every
// Kind() builds a string, and each step is a cgo call. So right after
// parsing, a single C walk copies the whole tree into Tree.Nodes, a slice of
// fixed-size Node values in preorder that refer to each other by index.
// Everything after that (the lowering to IR, analyses) reads plain Go memory:
// kinds and fields are small integers compared against the Kind* and Field*
// variables of this package, and text is sliced out of Tree.Src.
//
// Because Nodes is in preorder, the subtree of node i is the contiguous range
// Nodes[i:t.SubtreeEnd(i)].
//
// The C tree is kept alive next to the flat copy only so that Tree.Reparse can
// reuse it for incremental parsing after an edit; Tree.Close frees it.
package treesitter
