package analysis

import (
	"fmt"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// Unrenamed says, once for a file, why some of its variables show no versions: a variable
// without hints looks like something ssalens missed until its hover is read.
type Unrenamed struct {
	// Summary counts them: 12 globals, 3 context variables, 1 function not analyzed; "" when
	// every variable is renamed.
	Summary string
	// Details are the reasons, a few of each kind, one a line.
	Details string
	// Items are every global (at its first occurrence), context variable (at its declaration)
	// and function not analyzed (at the cause), with why, in that order; the variables of a
	// function not analyzed count with it.
	Items []Located
}

// isArgumentsObjectName reports whether o is an undeclared arguments that names the arguments
// object of a function around it, the nearest one that is not an arrow function; the
// lowering leaves it a global.
func isArgumentsObjectName(o *Occurrence) bool {
	if o.Binding.Kind != ssa.Global || o.Binding.Name != "arguments" {
		return false
	}
	for f := o.Func; f.Parent != nil; f = f.Parent {
		if !f.Arrow {
			return true
		}
	}
	return false
}

// detailsPerKind bounds the reasons of one kind that Details lists.
const detailsPerKind = 5

// Unrenamed returns why variables of the file show no versions.
func (r *Result) Unrenamed() Unrenamed {
	if r.Skipped != "" {
		return Unrenamed{Summary: r.Skipped, Details: r.Skipped}
	}
	var globals, contexts, funcs []Located
	seen := make(map[*ssa.Binding]bool)
	occurrences := r.Occurrences()
	for i := range occurrences {
		o := &occurrences[i]
		b := o.Binding
		if seen[b] || !o.Func.Analyzed() {
			continue // a function not analyzed is reported once, with its reason
		}
		switch {
		case isArgumentsObjectName(o):
			continue // no global: the hover says what it is
		case b.Kind == ssa.Global:
			globals = append(globals, Located{Span: o.Span, Label: fmt.Sprintf("%s — a global: no declaration in this file", b.Name),
				Detail: r.lineText(o.Span.Start)})
		case b.Context():
			contexts = append(contexts, Located{Span: r.span(b.Decl), Label: fmt.Sprintf("%s — a context variable: %s", b.Name, notRenamed(b)),
				Detail: r.sourceLine(b.Decl.Start)})
		default:
			continue
		}
		seen[b] = true
	}
	for _, fn := range r.Funcs {
		if !fn.Analyzed() {
			funcs = append(funcs, Located{Span: r.span(fn.NotAnalyzed.At), Label: fmt.Sprintf("%s — not analyzed: %s", describeFunc(fn), r.notAnalyzed(fn)),
				Detail: r.sourceLine(fn.NotAnalyzed.At.Start)})
		}
	}
	for _, b := range r.brokenInText { // its hints show the last version that parsed
		funcs = append(funcs, Located{Span: b.at, Label: fmt.Sprintf("%s — not analyzed: %s; it shows the last version that parsed", describeFunc(b.fn), b.why),
			Detail: r.lineText(b.at.Start)})
	}
	sortLocated(contexts)
	u := Unrenamed{Items: append(append(globals, contexts...), funcs...)}
	var counts, details []string
	for _, kind := range []struct {
		items []Located
		what  string
	}{{globals, "global"}, {contexts, "context variable"}, {funcs, "function"}} {
		if len(kind.items) == 0 {
			continue
		}
		count := plural(len(kind.items), kind.what)
		if kind.what == "function" {
			count += " not analyzed"
		}
		counts = append(counts, count)
		details = append(details, count+":")
		for _, it := range kind.items[:min(len(kind.items), detailsPerKind)] {
			details = append(details, "  "+it.Label)
		}
		if n := len(kind.items) - detailsPerKind; n > 0 {
			details = append(details, fmt.Sprintf("  and %d more", n))
		}
	}
	u.Summary = strings.Join(counts, ", ")
	u.Details = strings.Join(details, "\n")
	return u
}
