package analysis

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/ssalens/ssalens/lower"
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
	Code        string // uselessAssignment, temporalDeadZone, constantAssignment, notAnalyzed, syntaxError, internalError
	Unnecessary bool   // the code it marks can be removed
}

// Diagnostics returns the findings about the file in source order: assignments whose value no
// read can observe, reads and assignments that can meet a let, const, class or parameter
// before its declaration (the temporal dead zone), assignments to constants, and functions
// that are not analyzed.
// uselessAssignments turns the first kind on or off.
func (r *Result) Diagnostics(uselessAssignments bool) []Diagnostic {
	if r.Skipped != "" {
		return []Diagnostic{{Severity: SeverityInformation, Code: "notAnalyzed", Message: r.Skipped}}
	}
	var ds []Diagnostic
	if r.moving != nil {
		ds = r.movedDiagnostics(uselessAssignments)
	} else {
		r.funcDiagsMu.Lock()
		defer r.funcDiagsMu.Unlock()
		for _, fn := range r.Funcs {
			ds = append(ds, r.keptFuncDiagnostics(fn, uselessAssignments)...)
		}
	}
	for _, b := range r.brokenInText {
		ds = append(ds, Diagnostic{Span: r.firstLine(b.at), Severity: SeverityInformation, Code: "syntaxError",
			Message: fmt.Sprintf("%s: %s shows the analysis of the last version that parsed", b.why, describeFunc(b.fn))})
	}
	sortDiagnostics(ds)
	return ds
}

// movedDiagnostics is Diagnostics for a moved Result m: the findings of the Result that
// analyzed its functions, moved with the text, without those an edit touched, as m's own
// kept and span would leave them out and move them. Made once by that Result, for a text
// typed into for a while, instead of at every keystroke (typescript.js: 60 ms). Why a function
// is not analyzed is worked out again, in m's text.
func (m *Result) movedDiagnostics(uselessAssignments bool) []Diagnostic {
	a := m.analyzed
	a.funcDiagsMu.Lock()
	defer a.funcDiagsMu.Unlock()
	var ds []Diagnostic
	for _, fn := range m.Funcs {
		if !fn.Analyzed() {
			ds = append(ds, m.notAnalyzedDiagnostic(fn))
			continue
		}
		for _, d := range a.keptFuncDiagnostics(fn, uselessAssignments) {
			if s, ok := forwardSpan(d.Span, m.moving.edits); ok {
				d.Span = s
				ds = append(ds, d)
			}
		}
	}
	return ds
}

// NotAnalyzedDiagnostics returns those of Diagnostics that say a function is not analyzed and
// why (code notAnalyzed), without the data flow that finds the others.
func (r *Result) NotAnalyzedDiagnostics() []Diagnostic {
	if r.Skipped != "" {
		return r.Diagnostics(false)
	}
	var ds []Diagnostic
	for _, fn := range r.Funcs {
		if !fn.Analyzed() {
			if d := r.notAnalyzedDiagnostic(fn); d.Code == "notAnalyzed" {
				ds = append(ds, d)
			}
		}
	}
	sortDiagnostics(ds)
	return ds
}

// funcDiagnostics returns the findings about fn's own code: why it is not analyzed, or its
// reads and assignments in the temporal dead zone, its assignments to constants and, if
// uselessAssignments is set, its useless assignments.
func (r *Result) funcDiagnostics(fn *ssa.Function, uselessAssignments bool) []Diagnostic {
	if !fn.Analyzed() {
		return []Diagnostic{r.notAnalyzedDiagnostic(fn)}
	}
	fn.Materialize()
	var ds []Diagnostic
	early := r.deadZoneAssignments(fn)
	if uselessAssignments {
		ds = r.uselessAssignments(fn, early)
	}
	ds = append(ds, r.temporalDeadZoneReads(fn, early)...)
	ds = append(ds, r.deadZoneReadsOnCreation(fn)...)
	return append(ds, r.constantAssignments(fn)...)
}

// constantAssignments finds the assignments in fn to bindings that cannot change (lower's
// AssignConstant): a const, an import, the name a class or a named function expression in
// strict code binds to itself. Each throws a TypeError. In TypeScript the compiler reports
// every one of them as an error (ts2588, ts2632, ts2629, ts2630), as the editor shows beside
// these diagnostics: a second report of one mistake is noise, so they are left to it, as
// typescript-eslint leaves ESLint's no-const-assign and its kin to it.
func (r *Result) constantAssignments(fn *ssa.Function) []Diagnostic {
	if r.File.TypeScript() {
		return nil
	}
	var ds []Diagnostic
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if in.Op != ssa.OpIntrinsic || in.Intrinsic != ssa.IntrinsicAssignConstant {
				continue
			}
			name := strings.TrimPrefix(in.Text, ssa.IntrinsicAssignConstant.String()+" ")
			ds = append(ds, Diagnostic{Span: in.Span, Severity: SeverityWarning, Code: "constantAssignment",
				Message: fmt.Sprintf("%s cannot be assigned (a constant): this throws a TypeError", name)})
		}
	}
	return ds
}

// keptFuncDiagnostics is funcDiagnostics for the Diagnostics of r, not moved, whose caller
// holds funcDiagsMu: those of an analyzed function are made once, or carried over from the
// function it is a copy of (carryDiagnostics), and serve the Results moved from r too
// (movedDiagnostics). Why a function is not analyzed is worked out every time.
func (r *Result) keptFuncDiagnostics(fn *ssa.Function, uselessAssignments bool) []Diagnostic {
	if !fn.Analyzed() { // a function the verifier finds fault with stops being analyzed
		return r.funcDiagnostics(fn, uselessAssignments)
	}
	if c, ok := r.funcDiags[fn]; ok && c.uselessAssignments == uselessAssignments {
		return c.ds
	}
	ds := r.funcDiagnostics(fn, uselessAssignments)
	if r.funcDiags == nil {
		r.funcDiags = make(map[*ssa.Function]funcDiagnostics, len(r.Funcs))
	}
	r.funcDiags[fn] = funcDiagnostics{uselessAssignments, ds}
	return ds
}

// funcDiagnostics are the findings about an analyzed function's own code, as Diagnostics
// made them.
type funcDiagnostics struct {
	uselessAssignments bool
	ds                 []Diagnostic
}

// carryDiagnostics gives r, not yet shared, the findings prev made about the functions that
// r's lowering copied from prev's, shifted with them. They depend on nothing but the
// function's own code: its instructions, SSA values and variables, which the copy has as they
// were. It runs on the way to every keystroke's answers, so it is a pass over plain maps, and
// it does not wait for prev's Diagnostics under way: r then makes its own.
func (r *Result) carryDiagnostics(prev *Result, copied []lower.Copied) {
	if !prev.funcDiagsMu.TryLock() {
		return
	}
	defer prev.funcDiagsMu.Unlock()
	if len(prev.funcDiags) == 0 {
		return
	}
	r.funcDiags = make(map[*ssa.Function]funcDiagnostics, len(r.Funcs))
	for _, c := range copied {
		d, ok := prev.funcDiags[c.Of]
		if !ok {
			continue
		}
		if len(d.ds) > 0 {
			d.ds = slices.Clone(d.ds)
			for i := range d.ds {
				d.ds[i].Span = c.Move.Span(d.ds[i].Span)
			}
		}
		r.funcDiags[c.Func] = d
	}
}

// notAnalyzedDiagnostic says why fn is not analyzed, marking the first line of the cause (a
// syntax error, a with statement, an eval call), or fn's first line for an internal error.
func (r *Result) notAnalyzedDiagnostic(fn *ssa.Function) Diagnostic {
	d := Diagnostic{Span: r.firstLine(r.span(fn.NotAnalyzed.At)), Severity: SeverityInformation, Code: "notAnalyzed",
		Message: fmt.Sprintf("%s is not analyzed: %s", describeFunc(fn), r.notAnalyzed(fn))}
	if fn.NotAnalyzed.Kind == ssa.InternalError {
		d.Severity, d.Code = SeverityError, "internalError"
	}
	return d
}

// brokenFunc is a function that a syntax error keeps from being analyzed, where the error is
// in the text, and why, as its diagnostic says.
type brokenFunc struct {
	fn  *ssa.Function
	at  Span
	why string
}

// brokenAfter returns the functions that a syntax error breaks, for a Result moved to this one's
// text through edits, which keeps their last good analysis.
func (r *Result) brokenAfter(edits []Edit) []brokenFunc {
	var broken []brokenFunc
	for _, fn := range r.Funcs {
		if fn.NotAnalyzed.IsSyntax() {
			at, why := errorAt(r.Src, fn, edits), r.notAnalyzed(fn)
			if at != fn.NotAnalyzed.At {
				why = "syntax error at " + r.position(at.Start)
			}
			broken = append(broken, brokenFunc{fn, at, why})
		}
	}
	return broken
}

// errorAt returns where the syntax error that breaks fn is: the error tree-sitter found, or
// the last of edits, which made it, if the error holds that edit or is a token missing after
// it in fn. Error recovery can give up on a whole statement, a whole function, or a whole
// file: an unclosed { in zod's schemas.ts makes the TypeScript grammar's tree one error node
// from the first byte to the last, and a generic arrow typed into a TSX function one of the
// whole statement that declares the function. It can also wait for the token that closes an
// edit until the end of the file: the } of an if typed into a function. An edit that starts
// with a line break and an indent (a line opened below, then typed) is where its text is. An
// error inside the text of any of the edits is where tree-sitter found it: the last edit may be
// elsewhere (a line deleted above `let ab return x`, which lacks a ; at ab's end).
func errorAt(src []byte, fn *ssa.Function, edits []Edit) Span {
	at := fn.NotAnalyzed.At
	for i, e := range edits {
		typed, ok := forwardSpan(Span{Start: int32(e.StartByte), End: int32(e.NewEndByte)}, edits[i+1:])
		if ok && typed.Start <= at.Start && at.End <= typed.End {
			return at
		}
	}
	if len(edits) == 0 {
		return at
	}
	e := edits[len(edits)-1]
	edit := Span{Start: int32(e.StartByte), End: int32(e.NewEndByte)}
	holds := at.Start <= edit.Start && edit.End <= at.End
	missingAfter := at.Start == at.End && edit.End <= at.Start && fn.Span.Start <= edit.Start && edit.End <= fn.Span.End
	if !holds && !missingAfter {
		return at
	}
	if edit.End <= int32(len(src)) {
		if text := bytes.TrimLeft(src[edit.Start:edit.End], " \t\r\n"); len(text) > 0 {
			edit.Start = edit.End - int32(len(text))
		}
	}
	return edit
}

// firstLine returns the part of s, a span of Src, on its first line.
func (r *Result) firstLine(s ssa.Span) ssa.Span {
	line := r.Lines.Line(s.Start) // the next line, from 0
	if line < r.Lines.Count() && r.Lines.Start(line)-1 < s.End {
		s.End = r.Lines.Start(line) - 1
	}
	return s
}

// uselessAssignments finds the stored values of fn that no read can observe. Variables that
// are never read at all (another rule's business), names starting with _, exports (importers
// read them), declarations without initializer, the definitions that function, class, enum
// and namespace declarations make, and import bindings are left out. A variable that a nested function
// reads is read whenever that function is called, which may be after any of its definitions:
// those are never reported, even when the read does not show the value (the closure is
// created before the definition, as a hoisted function declaration is).
// Neither are the assignments in early (deadZoneAssignments), which throw instead.
func (r *Result) uselessAssignments(fn *ssa.Function, early map[*ssa.Instr]string) []Diagnostic {
	read := make(map[*ssa.Binding]bool)
	for _, v := range fn.Values {
		if len(v.Uses) > 0 {
			read[v.Binding] = true
		}
	}
	var ds []Diagnostic
	for _, v := range fn.Values {
		b := v.Binding
		if v.Kind != ssa.ValueDef || len(v.Uses) > 0 || b.ReadNested || !read[b] ||
			strings.HasPrefix(b.Name, "_") || b.Exported || b.Kind == ssa.Import ||
			r.declaredWithoutInitializer(v) || isDeclaration(v) || isArgumentsObject(v) || early[v.Instr] != "" {
			continue
		}
		ds = append(ds, Diagnostic{Span: v.Def().Span, Severity: SeverityHint, Code: "uselessAssignment", Unnecessary: true,
			Message: fmt.Sprintf("%s: this value of %s is never read", name(v), b.Name)})
	}
	return ds
}

// isDeclaration reports whether v is the function or class that a declaration of its binding
// defines, as opposed to a later assignment to that binding. The binding inside a class
// declaration is set where the class is complete, at the empty span after it (lower's class).
// TypeScript's enums and namespaces cannot be assigned: each definition is a declaration.
func isDeclaration(v *ssa.Value) bool {
	b, at := v.Binding, v.Def().Span
	switch b.Kind {
	case ssa.FunctionDecl:
		return at == b.Decl
	case ssa.Class:
		return at == b.Decl || at.Start == at.End
	case ssa.Enum, ssa.Namespace:
		return true
	}
	return false
}

// isArgumentsObject reports whether v is the arguments object that a var named arguments holds
// on entry to its function (lower's argumentsVar), which no code assigns.
func isArgumentsObject(v *ssa.Value) bool {
	in := v.Instr
	if in.Op != ssa.OpStoreLocal || len(in.Args) != 1 {
		return false
	}
	for i := range v.Block.Instrs {
		if d := &v.Block.Instrs[i]; d.Dest == in.Args[0] {
			return d.Op == ssa.OpIntrinsic && d.Intrinsic == ssa.IntrinsicArguments
		}
	}
	return false
}

// declaredWithoutInitializer reports whether v is the undefined that `let x;` stores.
func (r *Result) declaredWithoutInitializer(v *ssa.Value) bool {
	c := r.constant(v)
	return v.Def().Span == v.Binding.Decl && c != nil && c.Op == ssa.OpUndefined
}

// temporalDeadZoneReads finds the reads of let, const and class bindings in fn that the
// uninitialized value can reach (the data flow of deadzone.go answers for a context variable,
// which has no values), the reads of parameters in the defaults of the parameters
// before them, and the assignments in early, to let and class bindings that may not be
// initialized yet (deadZoneAssignments). A read lowered more than once (in a finally block) is
// reported once. Those the TypeScript compiler reports are left to it (leftToCompiler).
func (r *Result) temporalDeadZoneReads(fn *ssa.Function, early map[*ssa.Instr]string) []Diagnostic {
	var ds []Diagnostic
	// Made at the first candidate: the values the uninitialized value reaches, the reads
	// reported, and the questions about context variables.
	var uninitialized map[*ssa.Value]bool
	var reported map[Span]bool
	var ask *deadZoneAsk
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			p := &b.Instrs[i].Place
			if r.leftToCompiler(p) {
				continue
			}
			if certainty := early[&b.Instrs[i]]; certainty != "" {
				ds = append(ds, deadZoneDiagnostic(p, certainty, "assigned"))
				continue
			}
			if !b.Instrs[i].Reads() || p.Binding == nil || p.Binding.Owner != fn {
				continue
			}
			switch p.Binding.Kind {
			case ssa.Let, ssa.Const, ssa.Class:
			case ssa.Param: // before its own Param, only the defaults of the parameters before it run
			default:
				continue
			}
			if reported == nil {
				reported = make(map[Span]bool)
			}
			if p.Value == nil { // not renamed: a context variable, which the SSA form does not follow
				if p.Binding.Kind != ssa.Param {
					if ask == nil {
						ask = r.deadZoneAsker(fn)
					}
					ask.ask(p.Binding, b, i, func(certainty string) {
						if !reported[p.Span] {
							reported[p.Span] = true
							ds = append(ds, deadZoneDiagnostic(p, certainty, "read"))
						}
					})
				}
				continue
			}
			if uninitialized == nil {
				uninitialized = uninitializedReach(fn)
			}
			if uninitialized[p.Value] && !reported[p.Span] {
				reported[p.Span] = true
				certainty := "may be"
				if p.Value.Uninitialized() {
					certainty = "is"
				}
				ds = append(ds, deadZoneDiagnostic(p, certainty, "read"))
			}
		}
	}
	if ask != nil {
		ask.flow()
	}
	return ds
}

// leftToCompiler reports whether the TypeScript compiler reports p as an error, as it does in
// TypeScript every use of a let, const, class or parameter that comes before its declaration
// in the text, in the function that declares it or in a closure that runs where it is made
// (ts2448, ts2449, ts2373): the editor shows that error beside these diagnostics, and a second
// report of one mistake is noise. ssalens still reports the uses after the declaration that
// control flow brings back into its dead zone (a switch case, a loop), which the compiler sees
// only with strictNullChecks (ts2454).
func (r *Result) leftToCompiler(p *ssa.Place) bool {
	return r.File.TypeScript() && p.Binding != nil && p.Span.Start < p.Binding.Decl.Start
}

// deadZoneDiagnostic is the warning that p's binding is ("is" or "may be" certainty) read or
// assigned (what) in its temporal dead zone.
func deadZoneDiagnostic(p *ssa.Place, certainty, what string) Diagnostic {
	return Diagnostic{Span: p.Span, Severity: SeverityWarning, Code: "temporalDeadZone",
		Message: fmt.Sprintf("%s %s %s before its declaration (temporal dead zone): this throws a ReferenceError", p.Binding.Name, certainty, what)}
}

// deadZoneReadsOnCreation finds the reads of fn's let, const and class bindings in the
// functions nested in fn that run where fn creates them, when they can be uninitialized at
// that point: a class's static field initializers and static blocks run when the class is
// defined, and a function expression called where it is written runs there. Their reads of
// fn's variables are captured reads, which no single definition may stand for (a closure
// usually runs later), so temporalDeadZoneReads does not see them. Reads in the functions
// nested in those are left out: they may run later.
func (r *Result) deadZoneReadsOnCreation(fn *ssa.Function) []Diagnostic {
	var runs []runOnCreation
	var closures map[ssa.Temp]*ssa.Function // made at the first closure: most functions make none
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			in := &b.Instrs[i]
			switch {
			case in.Op == ssa.OpFunction:
				if closures == nil {
					closures = make(map[ssa.Temp]*ssa.Function)
				}
				closures[in.Dest] = in.Func
			case in.Op == ssa.OpCall && closures[in.Args[0]] != nil:
				runs = append(runs, runOnCreation{closures[in.Args[0]], b, i, nil})
			case in.Op == ssa.OpIntrinsic && in.Intrinsic == ssa.IntrinsicClass:
				for _, a := range in.Args {
					if f := closures[a]; f != nil && f.RunsWhenCreated {
						runs = append(runs, runOnCreation{f, b, i, in})
					}
				}
			}
		}
	}
	if len(runs) == 0 {
		return nil
	}
	var ds []Diagnostic
	ask := r.deadZoneAsker(fn)
	for _, run := range runs {
		run.inner.Materialize()
		for _, ib := range run.inner.Blocks {
			for i := range ib.Instrs {
				if p := &ib.Instrs[i].Place; ib.Instrs[i].Reads() && p.Binding.Owner == fn && run.mayMeetDeadZone(p.Binding) && !r.leftToCompiler(p) {
					ask.ask(p.Binding, run.block, run.index, func(certainty string) { ds = append(ds, deadZoneDiagnostic(p, certainty, "read")) })
				}
			}
		}
	}
	ask.flow()
	return ds
}

// runOnCreation is a function nested in another that runs before instruction index of block
// of that one: class, for a static member, is the instruction that makes its class.
type runOnCreation struct {
	inner *ssa.Function
	block *ssa.Block
	index int
	class *ssa.Instr
}

// mayMeetDeadZone reports whether a read of b, a variable of the function the run is in, can
// meet b uninitialized. A static member reads the class's own name as the binding inside the
// class, which is set before the static members run, although the instruction that makes the
// class precedes the store.
func (run runOnCreation) mayMeetDeadZone(b *ssa.Binding) bool {
	switch b.Kind {
	case ssa.Let, ssa.Const:
		return true
	case ssa.Class:
		return run.class == nil || b.Decl.Start < run.class.Span.Start || b.Decl.End > run.class.Span.End
	}
	return false
}

// deadZoneAssignments returns the assignments of fn to its own let and class bindings that
// can meet the binding uninitialized, each with "is" or "may be": those
// before the declaration in the text, and those in a switch case that control can reach
// without passing the declaration in an earlier case. A declaration's own store is at the
// binding's Decl (a class's inner binding's at the empty span after it); a const has no other.
func (r *Result) deadZoneAssignments(fn *ssa.Function) map[*ssa.Instr]string {
	var early map[*ssa.Instr]string // made at the first: most functions have none
	var ask *deadZoneAsk
	for _, b := range fn.Blocks {
		for i := range b.Instrs {
			in := &b.Instrs[i]
			if !isAssignment(fn, in) {
				continue
			}
			if ask == nil {
				ask = r.deadZoneAsker(fn)
			}
			ask.ask(in.Place.Binding, b, i, func(certainty string) {
				if early == nil {
					early = make(map[*ssa.Instr]string)
				}
				early[in] = certainty
			})
		}
	}
	if ask != nil {
		ask.flow()
	}
	return early
}

// isAssignment reports whether in assigns a let or class binding of fn, other than where it
// is declared.
func isAssignment(fn *ssa.Function, in *ssa.Instr) bool {
	p := &in.Place
	if in.Op != ssa.OpStoreLocal || p.Binding == nil || p.Binding.Owner != fn || p.Span == p.Binding.Decl || p.Span.Start == p.Span.End {
		return false
	}
	return p.Binding.Kind == ssa.Let || p.Binding.Kind == ssa.Class
}

// uninitializedReach returns the values of fn that an uninitialized value reaches through φs,
// themselves included: those with an uninitialized value among their ssa.Sources. One pass
// over the φ web answers every read, where asking Sources per read would walk the web again
// for each (quadratic in a function with many joins).
func uninitializedReach(fn *ssa.Function) map[*ssa.Value]bool {
	reach := make(map[*ssa.Value]bool)
	var work []*ssa.Value
	for _, v := range fn.Values {
		if v.Uninitialized() {
			reach[v] = true
			work = append(work, v)
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range v.Uses {
			if u.Phi != nil && !reach[u.Phi.Value] {
				reach[u.Phi.Value] = true
				work = append(work, u.Phi.Value)
			}
		}
	}
	return reach
}

func sortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int { return int(a.Span.Start - b.Span.Start) })
}
