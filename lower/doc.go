// Package lower turns a syntax tree (package treesitter) into the HIR of package ssa: one
// control-flow graph per function, in which every read and write of a local variable is an
// explicit instruction on a place (LoadLocal, StoreLocal), ready for SSA construction.
//
// # Functions
//
// Every function-like construct becomes an ssa.Function of its own: function declarations and
// expressions, arrows, methods and accessors, class field initializers and static blocks, and
// the top level of the file (<module>). The enclosing function creates the closure (an
// OpFunction instruction) where JavaScript evaluates it; a hoisted function declaration at the
// start of its scope.
//
// # Scopes
//
// Names are resolved while lowering, by JavaScript's rules (scope.go). When a function or a
// block is entered, all its declarations are entered into its scope first: var and function
// declarations hoist to the function, let, const and class to their block. A read before the
// declaration therefore finds the binding and sees its value before any definition, version 0,
// which is undefined for a var and the temporal dead zone for a let. A name no scope declares
// is a global, never renamed. A loop that enters a block again puts the block's let, const and
// class bindings back in their dead zone (OpUninit), so that one iteration's values cannot
// reach the next.
//
// # Statements and expressions
//
// Each construct has its lowerer, found by its name (whileStmt, tryStmt, shortCircuit), whose
// doc comment draws the blocks it makes, in the style of golang.org/x/tools/go/ssa's builder:
//
//	    ...cond...
//	    If cond then then else join
//	then:
//	    ...body...
//	    Goto join
//	join:
//
// The files follow the construct families: statement.go (blocks, declarations, if, switch,
// with, export), loop.go (loops, labels, break, continue), exception.go (try, catch, finally,
// throw, return), expression.go, pattern.go (destructuring and default values), class.go,
// jsx.go, function.go (functions and parameters).
//
// Where paths join, the join block records where its φs are shown (Block.Anchor) and a loop
// header is marked (Block.LoopHeader); predecessors are ordered by where their edge leaves in
// the source, which fixes the order of φ operands that users read.
//
// # What is not analyzed
//
// A function whose own code has a syntax error, a with statement or a direct eval, or nests
// deeper than MaxNesting, is lowered all the same, so that the functions nested in it resolve
// their names, but carries a NotAnalyzed reason (an ssa.Reason: a kind and a span, worded for
// users by package analysis). A break or continue without a target is refused the same way.
// A function whose lowering runs past its work budget (budget.go) is refused as too complex,
// and its lowering stops there, as at MaxNesting.
//
// # Context variables
//
// A variable that a nested function assigns, or that is assigned more than once and read in a
// nested function, is a context variable (React Compiler's rule): a call may change it, so it
// is not renamed. The rule is applied to a function's variables as soon as it is finished
// (context.go): only the functions nested in it can use them, and they are finished before it.
// The function can then be built while the rest of the file is lowered (LowerFrom's ready).
// Once every function is lowered, a last step records, for each captured read of a variable
// defined once, whether that definition runs before the closure is created; only then does
// the read show the outer version.
//
// # Reuse after an edit
//
// LowerFrom lowers the next version of a file from the previous one: a function the edit does
// not touch is copied with its SSA form (reuse.go), provided its syntax tree, its shape and the
// resolution of the names it uses from outside are unchanged. A copy's bodies are made when
// first needed (ssa.Copy): the lowering resolves a copy's outside names where it meets the
// function, and reads the copy's uses of the variables around it, from a summary of the
// function copied, when the function around it is finished. An edit inside a function's body
// lowers that function alone, and clones the functions around it with their positions moved,
// if it uses their variables as it did (spine.go). The result equals a fresh lowering;
// TestLowerFromEqualsLower checks it on random edits, TestLowerSpine on the edits that must
// lower more.
//
// The lowering reads the project's node kinds (treesitter.Kind), not a grammar's symbols, so
// the same code lowers every grammar's trees: JavaScript's, TypeScript's and TSX's. What only
// TypeScript has (types, which make no code; enums, namespaces, parameter properties, import =,
// which do) and the helpers that read both grammars' shapes of the same JavaScript are in
// typescript.go.
package lower
