package ssa

// A Reason says why something is left out of SSA form: a function that is not analyzed, or a
// binding that is not renamed (a context variable). It is data, a kind with the span and the
// name it points at, so that the words shown to the user, positions included, are written in
// one place (package analysis).
type Reason struct {
	Kind ReasonKind
	At   Span   // the cause in the source: a with statement, an eval call, an error, an assignment
	Name string // what the reason names: a function, a jump statement, an internal error
}

// ReasonKind is the kind of a Reason.
type ReasonKind uint8

const (
	NoReason ReasonKind = iota

	// Why a function is not analyzed.

	WithStatement // At: the with statement
	DirectEval    // At: the call
	SyntaxError   // At: the error, or the missing token
	NoJumpTarget  // At: the break or continue, Name: its text; tree-sitter accepts these
	TooDeep       // At: the node nested past lower's limit
	TooComplex    // At: where the work ran past its budget, Name: the stage, "lowering" or "SSA"
	InternalError // Name: the error; a bug, reported instead of a crash

	// Why a binding is not renamed.

	AssignedInNestedFunction          // Name: the nested function, At: the assignment there
	ReassignedAndReadInNestedFunction // Name: the nested function, At: the read there
	VisibleToDirectEval               // Name: the function holding the eval, At: the call
	AliasedByArguments                // Name: the function whose arguments object aliases it
	AssignedThroughWith               // Name: the function holding the with statement, At: the use
	ExportedFromNamespace             // Name: the namespace, At: the export; a property of its object
)

var reasonKindNames = [...]string{"none", "with statement", "direct eval", "syntax error", "no jump target",
	"too deep", "too complex", "internal error", "assigned in a nested function", "reassigned and read in a nested function",
	"visible to a direct eval", "aliased by arguments", "assigned through with", "exported from a namespace"}

func (k ReasonKind) String() string { return reasonKindNames[k] }

// IsSyntax reports whether r says the text is in error, as it is for a moment while it is typed.
func (r Reason) IsSyntax() bool { return r.Kind == SyntaxError || r.Kind == NoJumpTarget }

// Context reports whether b is a context variable: one that is not renamed because a call may
// change it (Why says why).
func (b *Binding) Context() bool { return b.Why.Kind != NoReason }

// Analyzed reports whether fn can be put in SSA form (NotAnalyzed says why not).
func (fn *Function) Analyzed() bool { return fn.NotAnalyzed.Kind == NoReason }
