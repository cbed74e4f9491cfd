// Package jsgen generates random, terminating, deterministic JavaScript programs for a dynamic
// soundness oracle of ssalens's reaching definitions.
//
// The idea: an SSA builder claims, for every read of a local variable, which definitions may
// reach it. Running the program and watching which definition each read actually sees gives
// facts that the claim must cover. A program is generated as a small AST (ast.go) and printed
// twice (print.go):
//
//   - the plain program, which ssalens analyzes; while printing it the generator records the
//     byte offset of every site: each definition (the identifier of a declaration, assignment,
//     update, destructuring target, parameter, catch parameter, for-in/of binding, function
//     declaration name) and each read;
//   - the instrumented program, which does the same thing and also logs, at every read, the
//     site of the definition whose value the read sees.
//
// The instrumentation keeps, next to every variable x, a shadow variable x$ declared in the same
// scope with the same lifetime (a let beside a let, in the same block; a var of the same
// function; for parameters, catch parameters and for-in/of bindings, a let or var at the top of
// their body), so closures, loop iterations and block re-entries share or split it exactly as
// they share or split x. Each definition also stores its site id in the shadow, and each read
// becomes __r(readSite, x$, x), which logs the pair and returns x. A var's shadow starts as the
// site of its declaration, which is where ssalens puts version 0 (undefined); a let's shadow is
// declared just before the let, so both are in their temporal dead zone together and a read
// that throws logs nothing. Targets inside patterns become setters, ({set v(t){x = t; x$ = s}}).v,
// so each element's store and its site are recorded in the order the pattern runs.
//
// Generation (gen.go, stmt.go, expr.go) draws from tables of constructs: loops with break and
// continue to labels, switch with fall-through and assigning case tests, try/catch/finally with
// returns and throws (and destructurings that throw midway), closures reading and writing
// captured variables (some pushed in a loop and called after it), generators stepped by hand or
// by for-of, classes (methods, constructors, field initializers, static blocks), short-circuit
// operators, logical assignments and optional calls, destructuring with defaults and rest in
// declarations, parameters, assignments, for heads and catch clauses, var hoisting and var
// redeclaration, reads in the temporal dead zone (inside try/catch), shadowing, functions
// declared in blocks (Annex B), nested functions and arrows. In half the programs nested
// functions touch only their own variables, so that more variables stay renamed.
//
// Programs terminate by construction: every loop is bounded by a counter only its header
// touches, and a function may only call functions whose generation finished before its own, so
// the call graph is acyclic. A fuel counter in the driver bounds the remaining blow-up. Nothing
// reads the clock or Math.random, so a seed is a reproduction. Reduce (reduce.go) shrinks a
// program while a miss persists.
package jsgen
