package analysis

import (
	"strings"
)

// ShowSSA returns the name and printed HIR+SSA of the innermost function at off.
func (r *Result) ShowSSA(off int32) (string, string, bool) {
	fn := r.innermostFunc(off)
	if fn == nil {
		return "", "", false
	}
	var sb strings.Builder
	r.printFunction(&sb, fn)
	return fn.Name, sb.String(), true
}
