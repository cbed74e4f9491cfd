package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// Severity numbers follow the LSP's DiagnosticSeverity.
type Severity uint8

const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInformation
	SeverityHint
)

var severityNames = [...]string{"", "error", "warning", "information", "hint"}

func (s Severity) String() string { return severityNames[s] }

// Diagnostic is a finding about the source.
type Diagnostic struct {
	Span        ssa.Span
	Severity    Severity
	Message     string
	Code        string // uselessAssignment, temporalDeadZone, notAnalyzed
	Unnecessary bool   // the code it marks can be removed
}

// Diagnostics returns the findings about the file in source order: assignments whose value no
// read can observe, reads that can see a let, const or class before its declaration, and
// functions that are not analyzed. uselessAssignments turns the first kind on or off.
func (r *Result) Diagnostics(uselessAssignments bool) []Diagnostic {
	var ds []Diagnostic
	for _, fn := range r.Funcs {
		if fn.NotAnalyzed != "" {
			ds = append(ds, Diagnostic{Span: r.header(fn), Severity: SeverityInformation, Code: "notAnalyzed",
				Message: fmt.Sprintf("%s is not analyzed: %s", describeFunc(fn), fn.NotAnalyzed)})
			continue
		}
		if uselessAssignments {
			ds = append(ds, r.uselessAssignments(fn)...)
		}
	}
	ds = append(ds, r.temporalDeadZoneReads()...)
	sortDiagnostics(ds)
	return ds
}

func describeFunc(fn *ssa.Function) string {
	if strings.HasPrefix(fn.Name, "<") {
		return "the " + strings.Trim(fn.Name, "<>") + " function"
	}
	return "function " + fn.Name
}

// header returns the span marking a function in a diagnostic: its first line.
func (r *Result) header(fn *ssa.Function) ssa.Span {
	end := fn.Span.End
	line, _ := r.Lines.Position(fn.Span.Start)
	if line+1 < r.Lines.Count() && r.Lines.Start(line+1)-1 < end {
		end = r.Lines.Start(line+1) - 1
	}
	return ssa.Span{Start: fn.Span.Start, End: end}
}

// uselessAssignments finds the stored values of fn that no read can observe. Variables that
// are never read at all (another rule's business), names starting with _, exports (importers
// read them), declarations without initializer, and function, class and import bindings are
// left out.
func (r *Result) uselessAssignments(fn *ssa.Function) []Diagnostic {
	read := make(map[*ssa.Binding]bool)
	for _, v := range fn.Values {
		if len(v.Uses) > 0 || len(r.Captured[v]) > 0 {
			read[v.Binding] = true
		}
	}
	var ds []Diagnostic
	for _, v := range fn.Values {
		b := v.Binding
		if v.Kind != ssa.ValueDef || len(v.Uses) > 0 || len(r.Captured[v]) > 0 || !read[b] ||
			strings.HasPrefix(b.Name, "_") || b.Exported || b.Kind == ssa.FunctionDecl || b.Kind == ssa.Class || b.Kind == ssa.Import ||
			declaredWithoutInitializer(v) {
			continue
		}
		ds = append(ds, Diagnostic{Span: v.Def().Span, Severity: SeverityHint, Code: "uselessAssignment", Unnecessary: true,
			Message: fmt.Sprintf("%s: this value of %s is never read", name(v), b.Name)})
	}
	return ds
}

// declaredWithoutInitializer reports whether v is the undefined that `let x;` stores.
func declaredWithoutInitializer(v *ssa.Value) bool {
	return v.Def().Span == v.Binding.Decl && isUndefinedConst(v)
}

func isUndefinedConst(v *ssa.Value) bool {
	c, ok := constant(v)
	return ok && c == "undefined"
}

// temporalDeadZoneReads finds reads of let, const and class bindings that the uninitialized
// value can reach.
func (r *Result) temporalDeadZoneReads() []Diagnostic {
	var ds []Diagnostic
	for i := range r.Occurrences {
		o := &r.Occurrences[i]
		if o.Read == nil || o.Read.Binding.Owner != o.Func {
			continue
		}
		switch o.Binding.Kind {
		case ssa.Let, ssa.Const, ssa.Class:
		default:
			continue
		}
		for _, s := range sources(o.Read) {
			if s.Uninitialized() {
				certainty := "may be"
				if o.Read.Uninitialized() {
					certainty = "is"
				}
				ds = append(ds, Diagnostic{Span: o.Span, Severity: SeverityWarning, Code: "temporalDeadZone",
					Message: fmt.Sprintf("%s %s read before its declaration (temporal dead zone): this throws a ReferenceError", o.Binding.Name, certainty)})
				break
			}
		}
	}
	return ds
}

func sortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int { return int(a.Span.Start - b.Span.Start) })
}
