package analysis

import (
	"fmt"
	"strings"

	"github.com/ssalens/ssalens/lower"
	"github.com/ssalens/ssalens/ssa"
)

// The words for why a function is not analyzed and why a variable is not renamed: the
// lowering records each reason as data (ssa.Reason), and this is the one place that says it.

// notAnalyzed says why fn is not analyzed.
func (r *Result) notAnalyzed(fn *ssa.Function) string {
	why := fn.NotAnalyzed
	at := r.position(why.At.Start)
	switch why.Kind {
	case ssa.WithStatement:
		return "contains a with statement at " + at
	case ssa.DirectEval:
		return "contains a direct eval at " + at
	case ssa.SyntaxError:
		if why.Name != "" {
			return "syntax error at " + at + ": " + why.Name
		}
		return "syntax error at " + at
	case ssa.NoJumpTarget:
		return "syntax error at " + at + ": no target for " + why.Name
	case ssa.TooDeep:
		return fmt.Sprintf("nested more than %d levels deep at %s", lower.MaxNesting, at)
	case ssa.TooComplex:
		if why.Name == "lowering" {
			return fmt.Sprintf("too complex: its control flow grows faster than its text, past %d instructions and blocks per syntax node (at %s)",
				lower.WorkPerNode, at)
		}
		return fmt.Sprintf("too complex: its SSA form would take more than %d values and φ operands per instruction", ssa.BuildWorkPerUnit)
	case ssa.InternalError:
		return "internal error: " + why.Name
	}
	return why.Kind.String()
}

// notRenamed says why the context variable b is not renamed.
func notRenamed(b *ssa.Binding) string {
	why := b.Why
	switch why.Kind {
	case ssa.AssignedThroughWith:
		return "it may be assigned through the with statement in " + why.Name
	case ssa.AliasedByArguments:
		return "in sloppy code it is aliased by the arguments object of " + why.Name
	case ssa.VisibleToDirectEval:
		return "it is visible to the direct eval in " + why.Name
	case ssa.AssignedInNestedFunction:
		return "it is assigned in the nested function " + why.Name
	case ssa.ReassignedAndReadInNestedFunction:
		return "it is assigned more than once and read in the nested function " + why.Name
	case ssa.ExportedFromNamespace:
		return "it is exported from the namespace " + why.Name + ", a property of the namespace's object that every declaration of the namespace shares"
	}
	return why.Kind.String()
}

// describeFunc names fn for a sentence: function f, the module function.
func describeFunc(fn *ssa.Function) string {
	if strings.HasPrefix(fn.Name, "<") {
		return "the " + strings.Trim(fn.Name, "<>") + " function"
	}
	return "function " + fn.Name
}
