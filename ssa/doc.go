// Package ssa defines the HIR that ssalens lowers every JavaScript function to, and turns it into
// static single assignment form.
//
// # The HIR
//
// A Function is a control-flow graph of Blocks kept in reverse postorder, the entry first. A
// Block has ordered predecessors, φs (filled by Build), straight-line Instrs and one Terminal.
// Instructions are three-address code over function-local temporaries ($0, $1, …); local
// variables are only read and written through instructions that carry a Place: LoadLocal reads
// one, StoreLocal and Param define one. A Place names a Binding (one declared variable) and the
// source span of that occurrence. The order of a block's predecessors is meaningful: the i-th
// operand of each of its φs is the value that flows in along the edge from Preds[i].
//
// Functions are written with NewFunction, Function.NewBlock, the Block emitters and the
// terminator methods, then sealed with Function.Finish, which derives predecessor lists from the
// terminals, drops unreachable blocks and orders the rest in reverse postorder.
//
// # SSA construction
//
// Build follows Braun et al., "Simple and Efficient Construction of Static Single Assignment
// Form" (CC 2013), the algorithm of React Compiler's EnterSSA: blocks are filled in reverse
// postorder; a block is sealed once all of its predecessors are filled; a read in an unsealed
// block creates an incomplete φ that is completed when the block is sealed. Trivial φs (those
// that merge a single value besides themselves) are removed as soon as they are complete, and
// the removal is retried on their φ users. Reads walk single-predecessor chains in a loop and
// keep the pending φs on an explicit stack, so Build's Go stack does not grow with the depth
// of the CFG. Removed φs forward to their replacement until Build returns; by then every Place,
// φ operand and use list refers only to live values.
//
// Trivial-φ removal alone leaves redundant φ sets on irreducible CFGs (Braun et al. Fig. 4),
// and only there. On an irreducible CFG, Build therefore ends with the SCC pass of Braun et al. §3.2 in the form of Wagner's thesis
// (Fig. 4.2): the φ graph is split into strongly connected components, which are visited
// operands first; a component whose operands from outside it are a single value is replaced by
// that value, and otherwise its inner φs are examined again. The result is pruned and minimal.
//
// Bindings that are globals, that belong to an enclosing function, or that are context
// variables (assigned from a nested function) are not renamed: their Places keep a nil Value.
// A read that no definition reaches sees the binding's initial value, version 0.
//
// # Checking
//
// Verify checks the SSA invariants of a built Function and reports each violation with the
// function, block and value it concerns. Package ssa/cytron is an independent reference
// builder (Cytron et al. with liveness pruning) used as an oracle for the number of φs.
package ssa
