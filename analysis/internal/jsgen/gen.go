package jsgen

import (
	"fmt"
	"math/rand/v2"
)

// Program is a generated program: its tree, its sites, and its two printed versions.
type Program struct {
	Seed  uint64
	Top   *Func  // the top level, as a function without parameters
	Sites []Site // indexed by site id; Sites[0] is unused
	// Plain is what ssalens analyzes; Instrumented is what runs. The instrumented program is
	// one expression statement calling the top level as a function, and expects the helpers
	// __r(readSite, defSite, value), __w(value, _) and __p(old, _) as globals.
	Plain, Instrumented string
}

// Config bounds the programs.
type Config struct {
	Stmts      int // statements in a program, on average
	FuncDepth  int // nesting of functions
	BlockDepth int // nesting of blocks inside one function
	ExprDepth  int // nesting of expressions
}

// DefaultConfig gives programs of 20 to 80 lines, which run in well under a millisecond.
var DefaultConfig = Config{Stmts: 40, FuncDepth: 3, BlockDepth: 4, ExprDepth: 3}

// Generate returns the program of seed under DefaultConfig.
func Generate(seed uint64) *Program { return GenerateWith(seed, DefaultConfig) }

// GenerateWith returns the program of seed under cfg, printed.
func GenerateWith(seed uint64, cfg Config) *Program {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x6a73_67656e)), cfg: cfg, sites: make([]Site, 1)}
	g.budget = cfg.Stmts/2 + g.n(cfg.Stmts+1)
	g.isolated = g.chance(0.5)
	p := &Program{Seed: seed, Top: g.program(), Sites: g.sites}
	p.Print()
	return p
}

// gen holds the state of one generation.
type gen struct {
	r      *rand.Rand
	cfg    Config
	sites  []Site
	names  int // fresh names made so far
	rank   int // functions finished so far
	budget int // statements left
	// isolated: in half the programs, nested functions use only their own variables. Captured
	// variables assigned more than once are context variables, which Definition answers with
	// every store; isolation keeps the others renamed, to put their SSA form to the test.
	isolated bool
}

func (g *gen) n(k int) int                { return g.r.IntN(k) }
func (g *gen) chance(p float64) bool      { return g.r.Float64() < p }
func (g *gen) fresh(prefix string) string { g.names++; return fmt.Sprintf("%s%d", prefix, g.names) }

func (g *gen) site(kind SiteKind, v *Var) int {
	g.sites = append(g.sites, Site{Kind: kind, Var: v, Offset: -1})
	return len(g.sites) - 1
}

// fnCtx is a function being generated.
type fnCtx struct {
	parent    *fnCtx
	f         *Func
	top       bool // the program's top level
	noReturn  bool // the top level or a static block: return is a syntax error
	generator bool
	depth     int
	// names are all names declared in the function; varNames those of its vars and function
	// declarations, which no let of the function may reuse (a let beside a hoisted var of the
	// same name is a syntax error).
	names, varNames map[string]bool
	scope           *scope // parameters, vars and the body's top level
	planned         []*Var // vars whose declaration is still to be generated
	labels          []label
	loops           int // enclosing loops: continue is allowed
	breakables      int // enclosing loops and switches: break is allowed
	tries           int // enclosing try blocks with a catch: throw is caught
	// isolated: the function reads and assigns only its own variables (and calls any
	// function), so that the variables of the functions around it stay renamed.
	isolated bool
	strict   bool // class code: no Annex B vars
}

type label struct {
	name string
	loop bool
}

// scope is a block scope, or a function's top scope.
type scope struct {
	parent  *scope
	fn      *fnCtx
	byName  map[string]*Var
	vars    []*Var
	planned []*Var // lets and consts visible (in their TDZ) but not declared yet
	// lexical are the lets and consts declared here; a switch body marks them undeclared again
	// at each case, since a case can be entered directly.
	lexical []*Var
}

func newScope(parent *scope, fn *fnCtx) *scope {
	return &scope{parent: parent, fn: fn, byName: map[string]*Var{}}
}

func (s *scope) add(v *Var) {
	s.byName[v.Name] = v
	s.vars = append(s.vars, v)
	s.fn.names[v.Name] = true
	v.owner = s.fn
	if v.Kind == KLet || v.Kind == KConst || v.Kind == KClass {
		s.lexical = append(s.lexical, v)
	}
}

// visible returns the variables visible in s, the innermost of each name, innermost first.
func (s *scope) visible() []*Var {
	seen := map[string]bool{}
	var out []*Var
	for sc := s; sc != nil; sc = sc.parent {
		for _, v := range sc.vars {
			if !seen[v.Name] {
				seen[v.Name] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// ctx is where a statement or expression is generated.
type ctx struct {
	s     *scope
	fn    *fnCtx
	depth int // block nesting inside the function
	// guarded: inside try { … } catch {} generated for a read in the TDZ.
	guarded bool
	// static are the bindings of a parameter list or a for head being generated: their shadows
	// are declared in the body, so a default reads them with their static site.
	static map[*Var]bool
	// head: in a parameter list or a for head; no closures, no yield.
	head bool
}

func (c ctx) readable(v *Var) bool {
	switch {
	case c.fn.isolated && v.owner != c.fn:
		return false
	case v.Fn != nil || v.Iter || v.List || v.Class != nil:
		return false
	case v.Kind == KLet || v.Kind == KConst:
		return v.declared || c.guarded
	}
	return true
}

func (c ctx) assignable(v *Var) bool {
	if v.Counter || v.Fn != nil || v.Iter || v.List || c.static[v] || c.fn.isolated && v.owner != c.fn {
		return false
	}
	switch v.Kind {
	case KVar, KParam, KCatch:
		return true
	case KLet:
		return v.declared || c.guarded
	}
	return false
}

// callable: a function whose generation is finished (so it cannot reach the caller, which is
// not), held by a variable out of its TDZ.
func (c ctx) callable(v *Var) bool {
	return v.Fn != nil && v.Fn.rank > 0 && (v.Kind == KFunc || v.declared)
}

// usableClass: a class whose generation is finished, out of its TDZ.
func (c ctx) usableClass(v *Var) bool { return v.Class != nil && v.Class.rank > 0 && v.declared }

func (g *gen) pickVar(c ctx, ok func(*Var) bool) *Var {
	var vs []*Var
	for _, v := range c.s.visible() {
		if ok(v) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return nil
	}
	return vs[g.n(len(vs))]
}

// program generates the top level.
func (g *gen) program() *Func {
	f := &Func{}
	fc := &fnCtx{f: f, top: true, noReturn: true, names: map[string]bool{}, varNames: map[string]bool{}}
	fc.scope = newScope(nil, fc)
	c := ctx{s: fc.scope, fn: fc}
	g.planVars(c)
	f.Body = g.block(c, fc.scope, 8+g.n(10))
	f.Body.Body = append(f.Body.Body, g.leftoverVars(c)...)
	f.rank = g.nextRank()
	return f
}

func (g *gen) nextRank() int {
	g.rank++
	return g.rank
}

// fnOpts says what kind of function to generate.
type fnOpts struct {
	arrow, generator bool
	exprName         bool // a function expression with its own name
	exprBody         bool // an arrow with an expression body
	member           MemberKind
}

// function generates a function in c.
func (g *gen) function(c ctx, o fnOpts) *Func {
	f := &Func{}
	g.fill(c, f, o)
	return f
}

// fill generates the function f in c. A declaration's variable holds f while its body is
// generated: f is not finished (rank 0), so the body cannot call it, nor read it as a value.
func (g *gen) fill(c ctx, f *Func, o fnOpts) {
	f.Arrow, f.Generator, f.ExprBody, f.Member = o.arrow, o.generator, o.exprBody, o.member
	fc := &fnCtx{parent: c.fn, f: f, generator: o.generator, depth: c.fn.depth + 1,
		names: map[string]bool{}, varNames: map[string]bool{}, isolated: g.isolated,
		strict: c.fn.strict || o.member != NotMember, noReturn: o.member == StaticBlock}
	outer := c.s
	if o.exprName {
		ns := newScope(outer, fc)
		v := &Var{Name: g.fresh("n"), Kind: KFuncName, declared: true}
		v.Decl = g.site(SiteDef, v)
		ns.add(v)
		f.Name = &Ident{V: v, Site: v.Decl}
		outer = ns
	}
	fc.scope = newScope(outer, fc)
	pc := ctx{s: fc.scope, fn: fc, head: true, static: map[*Var]bool{}}
	hasParams := o.member != Field && o.member != StaticField && o.member != StaticBlock
	for range g.n(4) {
		if hasParams {
			f.Params = append(f.Params, g.param(pc))
		}
	}
	if hasParams && g.chance(0.1) {
		v := &Var{Name: g.fresh("p"), Kind: KParam}
		id := g.def(v)
		g.bindParam(pc)(v)
		f.Params = append(f.Params, Param{P: id, Rest: true})
	}
	bc := ctx{s: fc.scope, fn: fc}
	if o.exprBody {
		f.Body = &Block{Body: []Stmt{&Return{X: g.expr(bc, g.cfg.ExprDepth)}}}
	} else {
		g.planVars(bc)
		f.Body = g.block(bc, fc.scope, 2+g.n(5))
		f.Body.Body = append(f.Body.Body, g.leftoverVars(bc)...)
	}
	f.rank = g.nextRank()
}

// param generates one parameter: its default first (it runs before the parameter is bound),
// then its pattern. A pattern parameter always has a default, so calls may leave it out.
func (g *gen) param(c ctx) Param {
	if g.chance(0.25) {
		p := g.freshPattern(c, KParam, 2, g.bindParam(c))
		return Param{P: p, Default: g.literalFor(p)}
	}
	var d Expr
	if g.chance(0.3) {
		d = g.expr(c, 1)
	}
	v := &Var{Name: g.fresh("p"), Kind: KParam}
	id := g.def(v)
	g.bindParam(c)(v)
	return Param{P: id, Default: d}
}

func (g *gen) bindParam(c ctx) func(*Var) {
	return func(v *Var) {
		v.declared = true
		c.s.add(v)
		c.static[v] = true
	}
}

// def makes the definition site of a newly declared v, which is also its declaration.
func (g *gen) def(v *Var) *Ident {
	site := g.site(SiteDef, v)
	if v.Decl == 0 {
		v.Decl = site
	}
	return &Ident{V: v, Site: site}
}

// planVars declares, at the start of a function, vars whose declaration comes later: reads
// before it see the hoisted undefined. Some reuse the name of a variable of an enclosing
// function, which they then shadow in the whole function.
func (g *gen) planVars(c ctx) {
	for range g.n(3) {
		name := g.fresh("v")
		if g.chance(0.3) {
			if v := g.pickVar(c, func(v *Var) bool { return !c.fn.names[v.Name] }); v != nil {
				name = v.Name
			}
		}
		v := &Var{Name: name, Kind: KVar}
		g.addVar(c, v)
		c.fn.planned = append(c.fn.planned, v)
	}
}

// addVar declares a var in the function's scope.
func (g *gen) addVar(c ctx, v *Var) {
	c.fn.scope.add(v)
	c.fn.varNames[v.Name] = true
	c.fn.f.Vars = append(c.fn.f.Vars, v)
}

// leftoverVars declares the planned vars no statement declared, at the end of the function.
func (g *gen) leftoverVars(c ctx) []Stmt {
	var out []Stmt
	for _, v := range c.fn.planned {
		out = append(out, &VarDecl{Kind: KVar, Decls: []Declarator{{P: g.def(v)}}})
	}
	c.fn.planned = nil
	return out
}

// block generates a block of about n statements in scope s (a new scope for a block, the
// function's scope for its body). Lets planned at its start are in their TDZ until declared;
// function declarations are generated first, since they are hoisted and may be called from
// anywhere in the block, and are placed at random positions.
func (g *gen) block(c ctx, s *scope, n int) *Block { return g.blockTail(c, s, n, nil) }

// blockTail is block whose last statements, if tail is set, come from tail.
func (g *gen) blockTail(c ctx, s *scope, n int, tail func(c ctx) []Stmt) *Block {
	c.s = s
	c.depth++
	b := &Block{}
	g.planLets(c)
	funcs := g.hoistedFuncs(c, b)
	for i := 0; i < n && (g.budget > 0 || c.fn.top && c.depth == 1); i++ {
		b.Body = append(b.Body, g.stmt(c)...)
	}
	b.Body = append(b.Body, g.leftoverLets(c)...)
	b.Body = append(b.Body, g.callUncalled(c, s)...)
	if tail != nil {
		b.Body = append(b.Body, tail(c)...)
	}
	for _, fd := range funcs {
		i := g.n(len(b.Body) + 1)
		b.Body = append(b.Body[:i], append([]Stmt{fd}, b.Body[i:]...)...)
	}
	return b
}

// callUncalled calls, usually, the functions declared in s that no statement calls, so that
// fewer functions are dead code.
func (g *gen) callUncalled(c ctx, s *scope) []Stmt {
	var out []Stmt
	for _, v := range s.vars {
		if c.callable(v) && v.Fn.calls == 0 && g.chance(0.8) {
			out = append(out, g.callStmt(c, v))
		}
	}
	return out
}

// planLets declares lets and consts visible from the start of the block, in their TDZ until
// a statement declares them; some shadow a variable of an enclosing scope.
func (g *gen) planLets(c ctx) {
	for range g.n(3) {
		kind := KLet
		if g.chance(0.3) {
			kind = KConst
		}
		name := g.fresh([...]string{KLet: "l", KConst: "c"}[kind])
		if g.chance(0.3) {
			// Not a closure list's name: the loop's body reads it without looking it up.
			reuse := g.pickVar(c, func(v *Var) bool {
				return c.s.byName[v.Name] == nil && !c.fn.varNames[v.Name] && !v.List
			})
			if reuse != nil {
				name = reuse.Name
			}
		}
		v := &Var{Name: name, Kind: kind}
		c.s.add(v)
		c.s.planned = append(c.s.planned, v)
	}
}

// leftoverLets declares the planned lets no statement declared.
func (g *gen) leftoverLets(c ctx) []Stmt {
	var out []Stmt
	for len(c.s.planned) > 0 {
		out = append(out, g.declarePlanned(c, 0))
	}
	return out
}

// hoistedFuncs generates the block's function declarations. In a nested block of sloppy code a
// plain function is also a var of its function (Annex B.3.3), and has a fresh name. A generator,
// a function in strict code, or a function named like a let, const, class or parameter of an
// enclosing scope of the same function makes no such var (it would clash): those may reuse a
// visible name, which outside the block keeps its meaning.
func (g *gen) hoistedFuncs(c ctx, b *Block) []Stmt {
	if c.fn.depth >= g.cfg.FuncDepth || !g.chance(0.35) {
		return nil
	}
	// All are declared before any is generated: a reused name means the function in the whole
	// block, bodies included.
	var opts []fnOpts
	for range 1 + g.n(2) {
		o := fnOpts{generator: g.chance(0.2)}
		nested := c.s != c.fn.scope
		name, annex := g.fresh("f"), nested && !o.generator && !c.fn.strict
		if nested && g.chance(0.3) {
			if r := g.pickVar(c, func(v *Var) bool { return reusableWithoutVar(c, v, o.generator) }); r != nil {
				name, annex = r.Name, false
			}
		}
		v := &Var{Name: name, Kind: KFunc, declared: true}
		v.Fn = &Func{Name: g.def(v)}
		c.s.add(v)
		if annex || !nested {
			c.fn.varNames[v.Name] = true
		}
		if annex {
			v.AnnexB = &Var{Name: v.Name, Kind: KAnnexB, Decl: v.Decl, declared: true}
			c.fn.scope.add(v.AnnexB)
		}
		b.Funcs = append(b.Funcs, v)
		opts = append(opts, o)
	}
	var out []Stmt
	for i, v := range b.Funcs {
		g.fill(c, v.Fn, opts[i])
		out = append(out, &FuncDecl{F: v.Fn})
	}
	return out
}

// reusableWithoutVar reports whether a function declared in the current block (a generator if
// generator) may take the name of v, and makes no Annex B var if it does.
func reusableWithoutVar(c ctx, v *Var, generator bool) bool {
	if c.s.byName[v.Name] != nil || c.fn.varNames[v.Name] || v.List {
		return false
	}
	if generator || c.fn.strict {
		return true
	}
	switch v.Kind {
	case KParam:
		return v.owner == c.fn
	case KLet, KConst, KClass:
		return v.owner == c.fn && c.fn.scope.byName[v.Name] != v // in a block: the var would clash
	}
	return false
}

// freshPattern generates a target of fresh variables of kind k, calling bind for each as it is
// bound, so a default can read those bound before it. Nested patterns get literal defaults.
func (g *gen) freshPattern(c ctx, k Kind, depth int, bind func(*Var)) Pattern {
	fresh := func() Pattern {
		v := &Var{Name: g.fresh([...]string{KVar: "v", KLet: "l", KConst: "c", KParam: "p"}[k]), Kind: k}
		id := g.def(v)
		bind(v)
		return id
	}
	if depth <= 0 || g.chance(0.3) {
		return fresh()
	}
	elem := func() (Pattern, Expr) {
		if depth > 1 && g.chance(0.2) {
			p := g.freshPattern(c, k, depth-1, bind)
			return p, g.literalFor(p)
		}
		var d Expr
		if g.chance(0.4) {
			d = g.expr(c, 1)
		}
		return fresh(), d
	}
	rest := func() *Ident {
		if g.chance(0.15) {
			return fresh().(*Ident)
		}
		return nil
	}
	if g.chance(0.5) {
		ap := &ArrayPat{}
		for i := range 1 + g.n(3) {
			if i > 0 && g.chance(0.1) {
				ap.Elems = append(ap.Elems, PatElem{})
				continue
			}
			p, d := elem()
			ap.Elems = append(ap.Elems, PatElem{P: p, Default: d})
		}
		ap.Rest = rest()
		return ap
	}
	op := &ObjectPat{}
	for i := range 1 + g.n(3) {
		key := string(rune('a' + i))
		p, d := elem()
		if id, ok := p.(*Ident); ok && g.chance(0.5) && id.V.Kind == k {
			key = id.V.Name // shorthand
		}
		op.Props = append(op.Props, PatProp{Key: key, P: p, Default: d})
	}
	op.Rest = rest()
	return op
}

// literalFor returns a value of the pattern's shape made of numbers only.
func (g *gen) literalFor(p Pattern) Expr {
	switch p := p.(type) {
	case *ArrayPat:
		a := &Array{}
		for _, e := range p.Elems {
			if e.P == nil {
				a.Elems = append(a.Elems, Num{V: 0})
			} else {
				a.Elems = append(a.Elems, g.literalFor(e.P))
			}
		}
		return a
	case *ObjectPat:
		o := &Object{}
		for _, pr := range p.Props {
			o.Props = append(o.Props, Prop{Key: pr.Key, X: g.literalFor(pr.P)})
		}
		return o
	}
	return Num{V: g.n(4)}
}

// sourceFor returns a value the pattern can destructure: any expression for an identifier; for
// an array or object pattern, an array or object that leaves some elements out (so defaults
// run) but never one a nested pattern without a default needs.
func (g *gen) sourceFor(c ctx, p Pattern, d int) Expr {
	if _, ok := p.(*ArrayPat); ok && c.fn.tries > 0 && g.chance(0.03) {
		// Not iterable: a TypeError in the middle of a destructuring, after the elements before
		// it are assigned, which the enclosing try catches.
		return Num{V: 5}
	}
	switch p := p.(type) {
	case *ArrayPat:
		a := &Array{}
		n := len(p.Elems)
		if g.chance(0.4) {
			n = g.n(n + 1)
		}
		for _, e := range p.Elems[:n] {
			if e.P == nil {
				a.Elems = append(a.Elems, Num{V: 0})
			} else {
				a.Elems = append(a.Elems, g.sourceFor(c, e.P, d))
			}
		}
		if p.Rest != nil && n == len(p.Elems) {
			for range g.n(3) {
				a.Elems = append(a.Elems, g.expr(c, d))
			}
		}
		return a
	case *ObjectPat:
		o := &Object{}
		for _, pr := range p.Props {
			if pr.Default == nil || g.chance(0.6) {
				o.Props = append(o.Props, Prop{Key: pr.Key, X: g.sourceFor(c, pr.P, d)})
			}
		}
		if p.Rest != nil && g.chance(0.7) {
			o.Props = append(o.Props, Prop{Key: "z", X: g.expr(c, d)})
		}
		return o
	}
	return g.expr(c, d)
}
