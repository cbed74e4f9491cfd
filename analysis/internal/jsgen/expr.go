package jsgen

// exprKind is one construct of the expression table.
type exprKind struct {
	name   string
	weight int
	ok     func(g *gen, c ctx) bool
	gen    func(g *gen, c ctx, d int) Expr
}

var exprTable []exprKind

func init() {
	always := func(*gen, ctx) bool { return true }
	exprTable = []exprKind{
		{"number", 3, always, func(g *gen, c ctx, d int) Expr { return Num{V: g.n(4)} }},
		{"read", 8, (*gen).hasReadable, func(g *gen, c ctx, d int) Expr { return g.read(c) }},
		{"binary", 4, always, (*gen).binary},
		{"not", 1, always, func(g *gen, c ctx, d int) Expr { return &Not{X: g.expr(c, d-1)} }},
		{"conditional", 1, always, func(g *gen, c ctx, d int) Expr {
			return &Cond{C: g.expr(c, d-1), A: g.expr(c, d-1), B: g.expr(c, d-1)}
		}},
		{"assignment", 3, (*gen).hasAssignable, (*gen).assignExpr},
		{"update", 1, (*gen).hasAssignable, func(g *gen, c ctx, d int) Expr { return g.updateExpr(c) }},
		{"call", 3, (*gen).hasCallable, (*gen).callExpr},
		{"use a class", 2, func(g *gen, c ctx) bool { return g.pickVar(c, c.usableClass) != nil }, (*gen).classExpr},
		{"immediately invoked function", 1, func(g *gen, c ctx) bool { return !c.head && g.canNest(c) }, (*gen).iife},
		{"destructuring assignment", 1, (*gen).hasAssignable, (*gen).destructureExpr},
		{"yield", 1, func(g *gen, c ctx) bool { return c.fn.generator && !c.head }, (*gen).yield},
		{"sequence", 1, always, func(g *gen, c ctx, d int) Expr { return &Seq{Xs: []Expr{g.expr(c, d-1), g.expr(c, d-1)}} }},
		{"void 0", 1, always, func(g *gen, c ctx, d int) Expr { return Undef{} }},
	}
}

// expr generates an expression of depth at most d.
func (g *gen) expr(c ctx, d int) Expr {
	if d <= 0 {
		if g.chance(0.7) && g.hasReadable(c) {
			return g.read(c)
		}
		return Num{V: g.n(4)}
	}
	total := 0
	var ok []*exprKind
	for i := range exprTable {
		if k := &exprTable[i]; k.ok(g, c) {
			ok = append(ok, k)
			total += k.weight
		}
	}
	pick := g.n(total)
	for _, k := range ok {
		if pick < k.weight {
			if x := k.gen(g, c, d); x != nil {
				return x
			}
			break
		}
		pick -= k.weight
	}
	return Num{V: g.n(4)}
}

func (g *gen) hasReadable(c ctx) bool   { return g.pickVar(c, c.readable) != nil }
func (g *gen) hasAssignable(c ctx) bool { return g.pickVar(c, c.assignable) != nil }
func (g *gen) hasCallable(c ctx) bool {
	return g.pickVar(c, func(v *Var) bool { return c.callable(v) && !v.Fn.Generator }) != nil
}

// ref makes a read of v. Static reads (see ctx.static) report the binding's only definition.
func (g *gen) ref(c ctx, v *Var) *Ref {
	r := &Ref{V: v, Site: g.site(SiteRead, v)}
	if c.static[v] || v.Kind == KFuncName || v.Kind == KAnnexB {
		r.Static = v.Decl
	}
	return r
}

func (g *gen) read(c ctx) Expr { return g.ref(c, g.pickVar(c, c.readable)) }

var binaryOps = []string{"+", "+", "-", "<", "===", "&&", "||", "??", "%"}

func (g *gen) binary(c ctx, d int) Expr {
	return &Bin{Op: binaryOps[g.n(len(binaryOps))], L: g.expr(c, d-1), R: g.expr(c, d-1)}
}

var assignOps = []string{"=", "=", "=", "+=", "-=", "&&=", "||=", "??="}

// assignExpr assigns a variable, possibly one of an enclosing function (which makes it a
// context variable), with a plain, compound or logical assignment.
func (g *gen) assignExpr(c ctx, d int) Expr {
	v := g.pickVar(c, c.assignable)
	if v == nil {
		return nil
	}
	op := assignOps[g.n(len(assignOps))]
	id := &Ident{V: v, Site: g.site(SiteDef, v)}
	if op != "=" {
		id.ReadSite = g.site(SiteRead, v)
	}
	return &Assign{Op: op, Target: id, X: g.expr(c, d-1)}
}

func (g *gen) updateExpr(c ctx) Expr {
	v := g.pickVar(c, c.assignable)
	if v == nil {
		return nil
	}
	op := "++"
	if g.chance(0.3) {
		op = "--"
	}
	return &Update{Op: op, Prefix: g.chance(0.5), Target: &Ident{V: v, Site: g.site(SiteDef, v), ReadSite: g.site(SiteRead, v)}}
}

// yield yields nothing, a value, or delegates to an array or a generator.
func (g *gen) yield(c ctx, d int) Expr {
	switch g.n(6) {
	case 0:
		return &Yield{}
	case 1:
		if gv := g.pickVar(c, func(v *Var) bool { return c.callable(v) && v.Fn.Generator }); gv != nil {
			return &Yield{X: g.call(c, gv, d-1), Delegate: true}
		}
		return &Yield{X: &Array{Elems: []Expr{g.expr(c, d-1), g.expr(c, d-1)}}, Delegate: true}
	}
	return &Yield{X: g.expr(c, d-1)}
}

// callExpr calls a finished function through the variable holding it.
func (g *gen) callExpr(c ctx, d int) Expr {
	v := g.pickVar(c, func(v *Var) bool { return c.callable(v) && !v.Fn.Generator })
	if v == nil {
		return nil
	}
	return g.call(c, v, d-1)
}

// call calls the function v holds with some of its arguments, shaped for its parameters, of
// depth at most d.
func (g *gen) call(c ctx, v *Var, d int) *Call {
	v.Fn.calls++
	call := &Call{F: g.ref(c, v), Args: g.args(c, v.Fn, d)}
	switch {
	case v.Fn.Generator: // its generator object is iterated or stepped
	case g.chance(0.1):
		call.Optional = true
	case g.chance(0.1):
		// c ? f : undefined, called with ?.: the arguments run only if the callee is there.
		call.F = &Cond{C: g.expr(c, 1), A: call.F, B: Undef{}}
		call.Optional = true
	}
	return call
}

// args returns arguments for some of f's parameters, shaped for them; a rest parameter takes
// any number.
func (g *gen) args(c ctx, f *Func, d int) []Expr {
	var args []Expr
	for _, p := range f.Params[:g.n(len(f.Params)+1)] {
		if p.Rest {
			for range g.n(3) {
				args = append(args, g.expr(c, d))
			}
			break
		}
		args = append(args, g.sourceFor(c, p.P, d))
	}
	return args
}

// classExpr calls a static method of a class, or creates an instance (running its field
// initializers and constructor) and maybe calls a method on it.
func (g *gen) classExpr(c ctx, d int) Expr {
	v := g.pickVar(c, c.usableClass)
	var static, methods []*Func
	var ctor *Func
	for _, m := range v.Class.Members {
		switch m.Member {
		case StaticMethod:
			static = append(static, m)
		case Method:
			methods = append(methods, m)
		case Constructor:
			ctor = m
		}
	}
	if len(static) > 0 && g.chance(0.5) {
		m := static[g.n(len(static))]
		return &Call{F: &Member{X: g.ref(c, v), Name: m.Key}, Args: g.args(c, m, d-1)}
	}
	n := &New{F: g.ref(c, v)}
	if ctor != nil {
		n.Args = g.args(c, ctor, d-1)
	}
	if len(methods) > 0 && g.chance(0.6) {
		m := methods[g.n(len(methods))]
		return &Call{F: &Member{X: n, Name: m.Key}, Args: g.args(c, m, d-1)}
	}
	return n
}

// iife generates a function or arrow and calls it at once.
func (g *gen) iife(c ctx, d int) Expr {
	f := g.function(c, fnOpts{arrow: g.chance(0.6)})
	return &Call{F: &FuncExpr{F: f}, Args: g.args(c, f, d-1)}
}

// destructureExpr assigns existing variables through an array or object pattern.
func (g *gen) destructureExpr(c ctx, d int) Expr {
	p := g.assignTarget(c, 2, true)
	if p == nil {
		return nil
	}
	return &Assign{Op: "=", Target: p, X: g.sourceFor(c, p, d-1)}
}

// assignTarget generates a target made of existing assignable variables (the same one may
// appear twice), or nil if there is none. With force, it is a pattern.
func (g *gen) assignTarget(c ctx, depth int, force bool) Pattern {
	if depth <= 0 || (!force && g.chance(0.4)) {
		v := g.pickVar(c, c.assignable)
		if v == nil {
			return nil
		}
		return &Ident{V: v, Site: g.site(SiteDef, v)}
	}
	elem := func() (Pattern, Expr) {
		p := g.assignTarget(c, depth-1, false)
		switch {
		case p == nil:
			return nil, nil
		case !isIdent(p):
			return p, g.literalFor(p)
		case g.chance(0.4):
			return p, g.expr(c, 1)
		}
		return p, nil
	}
	if g.chance(0.5) {
		ap := &ArrayPat{}
		for range 1 + g.n(3) {
			if p, d := elem(); p != nil {
				ap.Elems = append(ap.Elems, PatElem{P: p, Default: d})
			}
		}
		if len(ap.Elems) == 0 {
			return nil
		}
		if g.chance(0.15) {
			if v := g.pickVar(c, c.assignable); v != nil {
				ap.Rest = &Ident{V: v, Site: g.site(SiteDef, v)}
			}
		}
		return ap
	}
	op := &ObjectPat{}
	for i := range 1 + g.n(3) {
		if p, d := elem(); p != nil {
			key := string(rune('a' + i))
			if id, ok := p.(*Ident); ok && g.chance(0.5) {
				key = id.V.Name
				for _, q := range op.Props {
					if q.Key == key {
						key = string(rune('a' + i))
					}
				}
			}
			op.Props = append(op.Props, PatProp{Key: key, P: p, Default: d})
		}
	}
	if len(op.Props) == 0 {
		return nil
	}
	if g.chance(0.15) {
		if v := g.pickVar(c, c.assignable); v != nil {
			op.Rest = &Ident{V: v, Site: g.site(SiteDef, v)}
		}
	}
	return op
}

func isIdent(p Pattern) bool {
	_, ok := p.(*Ident)
	return ok
}
