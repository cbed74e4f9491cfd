package jsgen

// Kind says how a variable is declared; it decides where its shadow lives.
type Kind uint8

const (
	KVar      Kind = iota // var: hoisted to the function, shadow in the function's prologue
	KLet                  // let: shadow declared just before the declaration
	KConst                // const: like let, never assigned
	KParam                // parameter: shadow in the body's prologue
	KFunc                 // function declaration: shadow at the top of its scope
	KCatch                // catch parameter: shadow at the top of the catch block
	KFuncName             // a named function expression's own name: read with its static site
	// KAnnexB is the var that a function declared in a block also makes in its function, in
	// sloppy code (ECMAScript Annex B.3.3): undefined until the declaration is evaluated, then
	// the function. Both values are defined at the declaration's name: read with its static site.
	KAnnexB
	KClass // a class declaration's name: like a let; shadow declared just before it
)

var kindNames = [...]string{"var", "let", "const", "param", "function", "catch", "fname", "annexB", "class"}

func (k Kind) String() string { return kindNames[k] }

// Var is one declared variable.
type Var struct {
	Name string
	Kind Kind
	// Decl is the site of its declaration: where the value before any assignment of a var is
	// defined, and the definition of a function declaration.
	Decl int
	// Fn is the function the variable holds, for callables (function declarations and
	// const/let holders of closures); calls go only through such variables.
	Fn *Func
	// Iter marks a const holding a generator object, stepped with .next().
	Iter bool
	// List marks a const holding an array of closures: pushed in a loop, called after it.
	List bool
	// Class is the class a class declaration's name holds.
	Class *ClassDecl
	// Counter marks a loop counter: only its loop header assigns it.
	Counter bool
	// AnnexB is, for a function declared in a block, the var it also makes in its function.
	AnnexB *Var

	declared bool   // generation: its declaration has been generated (let, const: out of the TDZ)
	owner    *fnCtx // generation: the function whose scope declares it
}

// Same reports whether v and w are one variable: the same, or a function declared in a block
// and the var it also makes (whose reads report the declaration's site).
func (v *Var) Same(w *Var) bool { return v == w || v.AnnexB == w || w.AnnexB == v }

// Shadow is the name of the variable holding the site of the variable's current value.
func (v *Var) Shadow() string { return v.Name + "$" }

// SiteKind tells reads from definitions.
type SiteKind uint8

const (
	SiteDef SiteKind = iota
	SiteRead
)

// Site is a definition or a read of a variable. Offset is the byte offset of its identifier in
// the plain program, set when the plain program is printed.
type Site struct {
	Kind   SiteKind
	Var    *Var
	Offset int32
}

// Expressions.
type (
	Expr interface{ expr() }

	Num   struct{ V int }
	Undef struct{} // void 0: `undefined` would be a global read
	// Ref reads a variable. Static, when not zero, is the site to report instead of the
	// shadow: for reads whose shadow is not reachable yet (in parameter defaults) or that
	// have none (a named function expression's name).
	Ref struct {
		V      *Var
		Site   int
		Static int
	}
	Bin struct {
		Op   string
		L, R Expr
	}
	Not  struct{ X Expr }
	Cond struct{ C, A, B Expr }
	// Assign is Target Op X. Op is "=" for a pattern target, else one of = += -= &&= ||= ??=.
	Assign struct {
		Op     string
		Target Pattern
		X      Expr
	}
	Update struct {
		Op     string // ++ or --
		Prefix bool
		Target *Ident
	}
	Call struct {
		F        Expr // a Ref to a callable, a Member, or a FuncExpr (immediately invoked)
		Args     []Expr
		Optional bool // F?.(Args)
	}
	Member struct {
		X    Expr
		Name string
	}
	FuncExpr struct{ F *Func }
	// New is new F(Args).
	New struct {
		F    Expr
		Args []Expr
	}
	Array  struct{ Elems []Expr }
	Object struct{ Props []Prop }
	Yield  struct {
		X        Expr
		Delegate bool // yield* X
	}
	Seq struct{ Xs []Expr }
)

// Prop is a property of an object literal.
type Prop struct {
	Key string
	X   Expr
}

// Patterns: binding and assignment targets.
type (
	Pattern interface{ pattern() }
	// Ident is a target identifier: a definition site, and for compound assignments and
	// updates also a read site at the same offset.
	Ident struct {
		V        *Var
		Site     int
		ReadSite int
	}
	// ArrayPat is [elems..., ...Rest]; ObjectPat is {props..., ...Rest}.
	ArrayPat struct {
		Elems []PatElem
		Rest  *Ident
	}
	ObjectPat struct {
		Props []PatProp
		Rest  *Ident
	}
)

// PatElem is one element of an array pattern; a nil P is a hole.
type PatElem struct {
	P       Pattern
	Default Expr
}

// PatProp is one property of an object pattern; an Ident P named Key prints as shorthand.
type PatProp struct {
	Key     string
	P       Pattern
	Default Expr
}

// Statements.
type (
	Stmt interface{ stmt() }

	// VarDecl declares with Kind KVar, KLet or KConst.
	VarDecl struct {
		Kind  Kind
		Decls []Declarator
	}
	ExprStmt struct{ X Expr }
	Block    struct {
		Body []Stmt
		// Funcs are the function declarations of the block (for the shadows at its top).
		Funcs []*Var
	}
	If struct {
		C          Expr
		Then, Else *Block
	}
	// For is a counted loop: for (let i = 0; i < N; i++).
	For struct {
		Init   *VarDecl
		Test   Expr
		Update Expr
		Body   *Block
	}
	While struct {
		Test Expr
		Body *Block
	}
	DoWhile struct {
		Body *Block
		Test Expr
	}
	// ForOf is for-of, or for-in if In. Decl is KVar, KLet, KConst, or Assign for a head
	// without a declaration.
	ForOf struct {
		In   bool
		Decl HeadKind
		P    Pattern
		X    Expr
		Body *Block
	}
	Labeled struct {
		Label string
		S     Stmt
	}
	Break    struct{ Label string }
	Continue struct{ Label string }
	Return   struct{ X Expr }
	Throw    struct{ X Expr }
	// Try has a catch clause if Catch is set (Param may be nil: catch without a binding), a
	// finally clause if Finally is set.
	Try struct {
		Body    *Block
		Param   Pattern // an identifier or an object pattern
		Catch   *Block
		Finally *Block
	}
	Switch struct {
		X     Expr
		Cases []Case
	}
	FuncDecl struct{ F *Func }
	// ClassDecl declares a class. Its members are functions of their own, in strict code:
	// methods, a constructor, field initializers (run by new), static blocks and static field
	// initializers (run where the class is declared).
	ClassDecl struct {
		Name    *Ident
		Members []*Func
		rank    int // generation: like a function's
	}
)

// MemberKind says what class member a function is.
type MemberKind uint8

const (
	NotMember    MemberKind = iota
	Method                  // key(params) {…}, called on an instance
	StaticMethod            // static key(params) {…}, called on the class
	Constructor             // constructor(params) {…}
	Field                   // key = x;, run by new
	StaticField             // static key = x;, run where the class is declared
	StaticBlock             // static {…}, run where the class is declared
)

// HeadKind is how a for-in/of head binds.
type HeadKind uint8

const (
	HeadAssign HeadKind = iota
	HeadVar
	HeadLet
	HeadConst
)

// Declarator is one binding of a declaration; Init may be nil for var and let.
type Declarator struct {
	P    Pattern
	Init Expr
}

// Case is one clause of a switch; a nil Test is the default clause.
type Case struct {
	Test Expr
	Body []Stmt
}

// Func is a function: a declaration, an expression, an arrow or a generator.
type Func struct {
	Name      *Ident // the declared name, or a named function expression's own name
	Arrow     bool
	Generator bool
	ExprBody  bool // an arrow whose body is one return: printed plain as an expression body
	// Member is the kind of class member the function is, and Key its name.
	Member MemberKind
	Key    string
	Params []Param
	Body   *Block
	// Vars are the var-kind variables of the function and the function declarations of its
	// body's top level: their shadows (and, for vars, their declarations) go in the prologue.
	Vars []*Var

	rank  int // generation: the order in which generation finished, 0 while generating
	calls int // generation: call sites generated so far
}

// Param is one parameter with an optional default, or a rest parameter.
type Param struct {
	P       Pattern
	Default Expr
	Rest    bool
}

func (Num) expr()       {}
func (Undef) expr()     {}
func (*Ref) expr()      {}
func (*Bin) expr()      {}
func (*Not) expr()      {}
func (*Cond) expr()     {}
func (*Assign) expr()   {}
func (*Update) expr()   {}
func (*Call) expr()     {}
func (*Member) expr()   {}
func (*FuncExpr) expr() {}
func (*New) expr()      {}
func (*Array) expr()    {}
func (*Object) expr()   {}
func (*Yield) expr()    {}
func (*Seq) expr()      {}

func (*Ident) pattern()     {}
func (*ArrayPat) pattern()  {}
func (*ObjectPat) pattern() {}

func (*VarDecl) stmt()   {}
func (*ExprStmt) stmt()  {}
func (*Block) stmt()     {}
func (*If) stmt()        {}
func (*For) stmt()       {}
func (*While) stmt()     {}
func (*DoWhile) stmt()   {}
func (*ForOf) stmt()     {}
func (*Labeled) stmt()   {}
func (*Break) stmt()     {}
func (*Continue) stmt()  {}
func (*Return) stmt()    {}
func (*Throw) stmt()     {}
func (*Try) stmt()       {}
func (*Switch) stmt()    {}
func (*FuncDecl) stmt()  {}
func (*ClassDecl) stmt() {}
