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
	text := sb.String()
	if k, ok := r.keptFunc(fn); ok { // under the function's line, as a reason it is not analyzed is
		head, body, _ := strings.Cut(text, "\n")
		text = head + "\n  " + k.note(r) + "\n" + body
	}
	return fn.Name, text, true
}
