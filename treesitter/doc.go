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
//
// Lower then resolves scopes and lowers every function to the HIR of package
// ssa (scope.go, lower.go, stmt.go, expr.go): one ssa.Function per function,
// class member, field initializer and static block, and one for the top
// level. After an edit, LowerFrom lowers the new tree from the previous
// version's functions: only the functions that contain the edit are lowered
// again; a function the edit does not touch, whose syntax tree, role and
// outside names are unchanged, is copied with its SSA form
// (ssa.Function.Clone) instead (reuse.go).
package treesitter
