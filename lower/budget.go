package lower

import (
	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// The work budget. Every syntax node is lowered once, apart from the re-evaluations each
// construct documents (an invalid assignment target is evaluated once, a finally block is
// lowered once and dispatches to where each way into it was going), and each costs a bounded
// number of instructions and blocks, with one exception: a finally block makes a dispatch block
// for every distinct jump out of its try statement, so that n jumps out of n nested try
// statements make n² blocks. The budget makes the bound hold whatever the input: a function
// whose lowering makes more instructions and blocks than WorkPerNode per syntax node of its
// own (its nested functions aside), plus WorkBase, is not analyzed (ssa.TooComplex), and its
// lowering stops where the budget ran out, as at MaxNesting. No function of the corpus comes
// near it: the most any takes is 1.3 per node.
const (
	WorkPerNode = 16
	WorkBase    = 1024
)

// workBudget returns how many instructions and blocks the lowering of the function node may
// make.
func workBudget(t *ts.Tree, node int32) int {
	nodes := 0
	walk(t, node, func(i int32) bool {
		nodes++
		return i == node || !isFunctionNode(t.Nodes[i].Kind)
	})
	return WorkPerNode*nodes + WorkBase
}

// withinBudget reports whether the function's lowering has made no more than its budget
// allows; once it has, the function is not analyzed and node, where the lowering was going
// next, is not lowered.
func (fs *funcState) withinBudget(node int32) bool {
	if fs.fn.Made() <= fs.budget {
		return true
	}
	fs.refuse(ssa.TooComplex, fs.span(node), "lowering")
	return false
}

// walk visits node and the nodes below it in preorder; when visit returns false for a node,
// the nodes below it are skipped. It follows child and sibling links, so that skipping a
// subtree costs nothing (Tree.SubtreeEnd climbs to an ancestor with a next sibling, as far
// as the root from the last node of a deep subtree).
func walk(t *ts.Tree, node int32, visit func(int32) bool) {
	for i := node; ; {
		if visit(i) && t.Nodes[i].FirstChild >= 0 {
			i = t.Nodes[i].FirstChild
			continue
		}
		for i != node && t.Nodes[i].NextSibling < 0 {
			i = t.Nodes[i].Parent
		}
		if i == node {
			return
		}
		i = t.Nodes[i].NextSibling
	}
}
