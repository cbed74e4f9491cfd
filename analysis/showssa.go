package analysis

import (
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// ShowSSA returns the name and printed HIR+SSA of the innermost function at off.
func (r *Result) ShowSSA(off int32) (string, string, bool) {
	var best *ssa.Function
	for _, fn := range r.Funcs {
		if s := r.span(fn.Span); s.Start <= off && off <= s.End && (best == nil || s.Start >= r.span(best.Span).Start) {
			best = fn
		}
	}
	if best == nil {
		return "", "", false
	}
	var sb strings.Builder
	r.printFunction(&sb, best)
	return best.Name, sb.String(), true
}
