package lower

import (
	"testing"

	"github.com/ssalens/ssalens/ssa"
)

// TestArgumentsAliasParameters: in sloppy code, a use of arguments anywhere in a function with
// simple parameters, inside a block or an arrow too, makes its parameters context variables.
// A use inside a block once looked for them in the block's scope and renamed them.
func TestArgumentsAliasParameters(t *testing.T) {
	for _, src := range []string{
		"function g(a) { arguments[0] = 2; return a; }",
		"function g(a) { if (1) { arguments[0] = 2; } return a; }",
		"function g(a) { { let b; (() => arguments[0] = b)(); } return a; }",
	} {
		file := Lower(mustParse(t, src))
		g := file.Funcs[1]
		if a := g.Bindings[0]; a.Name != "a" || a.Why.Kind != ssa.AliasedByArguments {
			t.Errorf("%q: %s is %v, want aliased by arguments", src, a.Name, a.Why.Kind)
		}
	}
}
