package lower

import (
	"testing"

	"github.com/ssalens/ssalens/ssa"
)

// TestFunctionsLoweredOnce lowers texts whose error recovery left function declarations in
// odd places: every function must be lowered once. When the root of the tree was an ERROR
// node, its function declarations were hoisted and then lowered again where they stand, so
// that the function appeared twice in the dump and the server returned each of its hints
// twice (found in lodash.js after pasting "*   " before a line).
func TestFunctionsLoweredOnce(t *testing.T) {
	for _, src := range []string{
		"function b(o{}{* r+t",
		"function b(o{}{* r+t\nfunction c() { return 1 }\n{ function d() {} }",
		"a: function f() {}\n)",
		"switch (x) { case 1: function g() {} ) ; }",
		"export function e() {} }}",
		"if (x) function f() {} else function g() {}",
	} {
		file := Lower(mustParse(t, src))
		seen := map[ssa.Span]bool{}
		for _, fn := range file.Funcs {
			if seen[fn.Span] {
				t.Errorf("%q: function %s at %v lowered twice", src, fn.Name, fn.Span)
			}
			seen[fn.Span] = true
		}
	}
}
