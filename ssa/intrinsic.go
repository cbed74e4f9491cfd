package ssa

// Intrinsic names the computation of an OpIntrinsic instruction: every expression form that is
// neither a variable access, an operator, a call nor a property access.
type Intrinsic uint8

const (
	IntrinsicNone Intrinsic = iota
	IntrinsicArray
	IntrinsicObject
	IntrinsicTemplate
	IntrinsicSpread
	IntrinsicAwait
	IntrinsicYield
	IntrinsicYieldDelegate
	IntrinsicThis
	IntrinsicSuper
	IntrinsicMetaProperty  // new.target, import.meta
	IntrinsicDynamicImport // import(…)
	IntrinsicClass         // the class value, made from its heritage, decorators and members
	IntrinsicDelete        // delete of a property
	IntrinsicRestProperties
	IntrinsicRestElements
	IntrinsicJSX
	IntrinsicImport            // the value an import binding holds
	IntrinsicCallee            // a named function expression's own value
	IntrinsicIgnoredAssignment // an assignment to a named function expression's own name
	IntrinsicForIn
	IntrinsicForOf
	IntrinsicForAwaitOf
	IntrinsicIterNext
	IntrinsicIterValue
	IntrinsicCaughtValue
	IntrinsicException // the exception a finally block rethrows
	IntrinsicCompletion
	IntrinsicSyntax    // a node the lowering does not know (an ERROR node, say): its parts, evaluated
	IntrinsicEnum      // a TypeScript enum's new object
	IntrinsicNamespace // a TypeScript namespace's new object
	IntrinsicArguments // a function's arguments object, which a var named arguments holds
	// IntrinsicAssignConstant is an assignment to a binding that cannot change (a const, an
	// import, the name a class or, in strict code, a named function expression binds to
	// itself): it throws a TypeError and stores nothing.
	IntrinsicAssignConstant
)

var intrinsicNames = [...]string{"", "Array", "Object", "Template", "Spread", "Await", "Yield", "YieldDelegate",
	"This", "Super", "MetaProperty", "DynamicImport", "Class", "Delete", "RestProperties", "RestElements", "JSX",
	"Import", "Callee", "IgnoredAssignment", "ForIn", "ForOf", "ForAwaitOf", "IterNext", "IterValue",
	"CaughtValue", "Exception", "Completion", "Syntax", "Enum", "Namespace", "Arguments", "AssignConstant"}

func (i Intrinsic) String() string { return intrinsicNames[i] }

// Operator is the operator of an OpUnary or OpBinary instruction.
type Operator uint8

const (
	OperatorNone Operator = iota // a syntax error left the operator out
	OperatorAdd
	OperatorSub
	OperatorMul
	OperatorDiv
	OperatorRem
	OperatorExp
	OperatorShl
	OperatorShr
	OperatorUShr
	OperatorBitAnd
	OperatorBitOr
	OperatorBitXor
	OperatorEq
	OperatorNotEq
	OperatorStrictEq
	OperatorStrictNotEq
	OperatorLess
	OperatorLessEq
	OperatorGreater
	OperatorGreaterEq
	OperatorIn
	OperatorInstanceof
	OperatorAnd     // && (only in compound assignments; && itself lowers to branches)
	OperatorOr      // ||
	OperatorNullish // ??
	OperatorNot
	OperatorBitNot
	OperatorTypeof
	OperatorVoid
	OperatorDelete
	operatorCount
)

var operatorNames = [operatorCount]string{"", "+", "-", "*", "/", "%", "**", "<<", ">>", ">>>", "&", "|", "^",
	"==", "!=", "===", "!==", "<", "<=", ">", ">=", "in", "instanceof", "&&", "||", "??", "!", "~",
	"typeof", "void", "delete"}

func (o Operator) String() string { return operatorNames[o] }

// Operators maps the source text of each operator to it.
var Operators = func() map[string]Operator {
	m := make(map[string]Operator, operatorCount)
	for o := OperatorNone + 1; o < operatorCount; o++ {
		m[operatorNames[o]] = o
	}
	return m
}()
