package jsgen

// stmtKind is one construct of the statement table: its weight, when it may be used, and how
// it is generated (a construct may produce several statements, e.g. a counter and its loop).
type stmtKind struct {
	name   string
	weight int
	ok     func(g *gen, c ctx) bool
	gen    func(g *gen, c ctx) []Stmt
}

// stmtTable lists the statement constructs; set in init to break the initialization cycle
// through the generators that call stmt.
var stmtTable []stmtKind

func init() {
	always := func(*gen, ctx) bool { return true }
	stmtTable = []stmtKind{
		{"declare a planned let", 6, func(g *gen, c ctx) bool { return len(c.s.planned) > 0 }, (*gen).declareLetStmt},
		{"var", 4, always, (*gen).varStmt},
		{"let or const", 4, always, (*gen).letStmt},
		{"closure", 4, (*gen).canNest, (*gen).closureStmt},
		{"class", 1, (*gen).canNest, (*gen).classStmt},
		{"generator object", 1, (*gen).hasGenerator, (*gen).iteratorStmt},
		{"step a generator object", 2, (*gen).hasIterator, (*gen).stepStmt},
		{"expression", 14, always, (*gen).exprStmt},
		{"call a function not called yet", 6, (*gen).hasUncalled, (*gen).uncalledStmt},
		{"if", 5, (*gen).compound, (*gen).ifStmt},
		{"for", 3, (*gen).compound, (*gen).forStmt},
		{"closures pushed in a loop, called after it", 1, func(g *gen, c ctx) bool { return g.compound(c) && g.canNest(c) }, (*gen).closureListStmt},
		{"while", 2, (*gen).compound, (*gen).whileStmt},
		{"do-while", 2, (*gen).compound, (*gen).doWhileStmt},
		{"for-of", 3, (*gen).compound, (*gen).forOfStmt},
		{"for-in", 1, (*gen).compound, (*gen).forInStmt},
		{"labeled block", 1, (*gen).compound, (*gen).labeledBlockStmt},
		{"break or continue", 4, (*gen).canJump, (*gen).jumpStmt},
		{"return", 3, func(g *gen, c ctx) bool { return !c.fn.noReturn }, (*gen).returnStmt},
		{"throw", 2, func(g *gen, c ctx) bool { return c.fn.tries > 0 || !c.fn.top }, (*gen).throwStmt},
		{"try", 4, (*gen).compound, (*gen).tryStmt},
		{"switch", 2, (*gen).compound, (*gen).switchStmt},
		{"block", 1, (*gen).compound, (*gen).blockStmt},
		{"read in the TDZ", 2, (*gen).hasTDZ, (*gen).tdzStmt},
	}
}

// stmt generates one construct from the table.
func (g *gen) stmt(c ctx) []Stmt {
	g.budget--
	total := 0
	var ok []*stmtKind
	for i := range stmtTable {
		if k := &stmtTable[i]; k.ok(g, c) {
			ok = append(ok, k)
			total += k.weight
		}
	}
	pick := g.n(total)
	for _, k := range ok {
		if pick < k.weight {
			return k.gen(g, c)
		}
		pick -= k.weight
	}
	panic("unreachable")
}

func (g *gen) compound(c ctx) bool { return c.depth < g.cfg.BlockDepth && g.budget > 1 }
func (g *gen) canNest(c ctx) bool  { return c.fn.depth < g.cfg.FuncDepth && g.budget > 1 }

func (g *gen) nested(c ctx) int { return 1 + g.n(4) }

// subBlock generates a block in a new scope.
func (g *gen) subBlock(c ctx) *Block { return g.block(c, newScope(c.s, c.fn), g.nested(c)) }

// Declarations.

func (g *gen) declareLetStmt(c ctx) []Stmt {
	return []Stmt{g.declarePlanned(c, g.n(len(c.s.planned)))}
}

// declarePlanned declares the i-th planned let or const of the scope. Its initializer runs
// while it is still in its TDZ.
func (g *gen) declarePlanned(c ctx, i int) Stmt {
	v := c.s.planned[i]
	c.s.planned = append(c.s.planned[:i], c.s.planned[i+1:]...)
	var init Expr
	if v.Kind == KConst || g.chance(0.8) {
		init = g.expr(c, g.cfg.ExprDepth)
	}
	d := &VarDecl{Kind: v.Kind, Decls: []Declarator{{P: g.def(v), Init: init}}}
	v.declared = true
	return d
}

// varStmt declares a planned var, a fresh one, a destructured list of fresh ones, or declares
// an existing var again.
func (g *gen) varStmt(c ctx) []Stmt {
	switch {
	case len(c.fn.planned) > 0 && g.chance(0.6):
		i := g.n(len(c.fn.planned))
		v := c.fn.planned[i]
		c.fn.planned = append(c.fn.planned[:i], c.fn.planned[i+1:]...)
		return []Stmt{g.varDecl(c, g.def(v))}
	case g.chance(0.25):
		var init Expr
		p := g.freshPattern(c, KVar, 2, func(v *Var) { v.declared = true; g.addVar(c, v) })
		if _, ok := p.(*Ident); !ok || g.chance(0.7) {
			init = g.sourceFor(c, p, 2)
		}
		return []Stmt{&VarDecl{Kind: KVar, Decls: []Declarator{{P: p, Init: init}}}}
	case g.chance(0.15):
		// var x again, or var p for a parameter p: the same variable, defined again if there is
		// an initializer.
		again := func(v *Var) bool { return (v.Kind == KVar || v.Kind == KParam) && v.owner == c.fn && !v.Counter }
		if v := g.pickVar(c, again); v != nil {
			c.fn.varNames[v.Name] = true
			return []Stmt{g.varDecl(c, g.def(v))}
		}
	}
	v := &Var{Name: g.fresh("v"), Kind: KVar, declared: true}
	g.addVar(c, v)
	return []Stmt{g.varDecl(c, g.def(v))}
}

func (g *gen) varDecl(c ctx, id *Ident) *VarDecl {
	var init Expr
	if g.chance(0.75) {
		init = g.expr(c, g.cfg.ExprDepth)
	}
	return &VarDecl{Kind: KVar, Decls: []Declarator{{P: id, Init: init}}}
}

// letStmt declares fresh lets or consts, one or two declarators, possibly destructured.
func (g *gen) letStmt(c ctx) []Stmt {
	kind := KLet
	if g.chance(0.3) {
		kind = KConst
	}
	d := &VarDecl{Kind: kind}
	for range 1 + g.n(2) {
		// The pattern is generated first to know the initializer's shape, but its variables
		// are bound (visible) only after the initializer is generated.
		var bound []*Var
		p := g.freshPattern(c, kind, 2, func(v *Var) { bound = append(bound, v) })
		var init Expr
		if _, ok := p.(*Ident); ok && kind == KLet && g.chance(0.2) {
			init = nil
		} else {
			init = g.sourceFor(c, p, 2)
		}
		for _, v := range bound {
			v.declared = true
			c.s.add(v)
		}
		d.Decls = append(d.Decls, Declarator{P: p, Init: init})
	}
	return []Stmt{d}
}

// closureStmt declares a const or let holding a function, arrow or generator.
func (g *gen) closureStmt(c ctx) []Stmt {
	kind := KConst
	if g.chance(0.3) {
		kind = KLet
	}
	o := fnOpts{}
	switch g.n(5) {
	case 0, 1:
		o.arrow = true
		o.exprBody = g.chance(0.3)
	case 2:
		o.exprName = g.chance(0.5)
	case 3:
		o.generator = true
	case 4:
		o.exprName = true
	}
	f := g.function(c, o)
	v := &Var{Name: g.fresh("h"), Kind: kind, Fn: f}
	id := g.def(v)
	c.s.add(v)
	v.declared = true
	return []Stmt{&VarDecl{Kind: kind, Decls: []Declarator{{P: id, Init: &FuncExpr{F: f}}}}}
}

// classStmt declares a class of a few members. Its name is not callable (nor readable)
// inside it: the class is not finished.
func (g *gen) classStmt(c ctx) []Stmt {
	v := &Var{Name: g.fresh("K"), Kind: KClass}
	cls := &ClassDecl{Name: g.def(v)}
	v.Class = cls
	c.s.add(v)
	ctor := false
	for range 1 + g.n(4) {
		kind := []MemberKind{Method, StaticMethod, Constructor, Field, StaticField, StaticBlock}[g.n(6)]
		if kind == Constructor {
			if ctor {
				kind = Method
			}
			ctor = true
		}
		o := fnOpts{member: kind, exprBody: kind == Field || kind == StaticField}
		cls.Members = append(cls.Members, g.function(c, o))
		cls.Members[len(cls.Members)-1].Key = g.fresh("m")
	}
	cls.rank = g.nextRank()
	v.declared = true
	return []Stmt{cls}
}

func (g *gen) hasGenerator(c ctx) bool {
	return g.pickVar(c, func(v *Var) bool { return c.callable(v) && v.Fn.Generator }) != nil
}

// iteratorStmt creates a generator object, stepped later by stepStmt.
func (g *gen) iteratorStmt(c ctx) []Stmt {
	gv := g.pickVar(c, func(v *Var) bool { return c.callable(v) && v.Fn.Generator })
	call := g.call(c, gv, 1)
	v := &Var{Name: g.fresh("it"), Kind: KConst, Iter: true}
	id := g.def(v)
	c.s.add(v)
	v.declared = true
	return []Stmt{&VarDecl{Kind: KConst, Decls: []Declarator{{P: id, Init: call}}}}
}

func (g *gen) hasIterator(c ctx) bool {
	return g.pickVar(c, func(v *Var) bool { return v.Iter && v.declared }) != nil
}

// stepStmt runs a generator object to its next yield, or ends it (running its finally blocks).
func (g *gen) stepStmt(c ctx) []Stmt {
	it := g.pickVar(c, func(v *Var) bool { return v.Iter && v.declared })
	method := "next"
	if g.chance(0.2) {
		method = "return"
	}
	r := &Ref{V: it, Site: g.site(SiteRead, it)}
	return []Stmt{&ExprStmt{X: &Call{F: &Member{X: r, Name: method}}}}
}

func uncalled(c ctx) func(*Var) bool {
	return func(v *Var) bool { return c.callable(v) && v.Fn.calls == 0 }
}

func (g *gen) hasUncalled(c ctx) bool { return g.pickVar(c, uncalled(c)) != nil }

func (g *gen) uncalledStmt(c ctx) []Stmt { return []Stmt{g.callStmt(c, g.pickVar(c, uncalled(c)))} }

// callStmt calls the function v holds; a generator is run to its end by a for-of loop.
func (g *gen) callStmt(c ctx, v *Var) Stmt {
	if !v.Fn.Generator {
		return &ExprStmt{X: g.call(c, v, 1)}
	}
	body := newScope(c.s, c.fn)
	x := &Var{Name: g.fresh("c"), Kind: KConst, declared: true}
	id := g.def(x)
	body.add(x)
	return &ForOf{Decl: HeadConst, P: id, X: g.call(c, v, 1), Body: &Block{}}
}

// Expressions as statements.

func (g *gen) exprStmt(c ctx) []Stmt {
	var x Expr
	switch g.n(10) {
	case 0, 1, 2:
		x = g.assignExpr(c, g.cfg.ExprDepth)
	case 3:
		x = g.updateExpr(c)
	case 4, 5, 6:
		x = g.callExpr(c, g.cfg.ExprDepth)
	case 7:
		x = g.destructureExpr(c, g.cfg.ExprDepth)
	case 8:
		if c.fn.generator {
			x = &Yield{X: g.expr(c, 2)}
		}
	}
	if x == nil {
		x = g.expr(c, g.cfg.ExprDepth)
	}
	return []Stmt{&ExprStmt{X: x}}
}

// Control flow.

func (g *gen) ifStmt(c ctx) []Stmt {
	s := &If{C: g.expr(c, 2), Then: g.subBlock(c)}
	if g.chance(0.5) {
		s.Else = g.subBlock(c)
	}
	return []Stmt{s}
}

// loop runs body with c inside a loop, labeled with probability; it returns the label.
func (g *gen) loop(c ctx, body func(label string) Stmt) Stmt {
	lbl := ""
	if g.chance(0.3) {
		lbl = g.fresh("L")
		c.fn.labels = append(c.fn.labels, label{lbl, true})
	}
	c.fn.loops++
	c.fn.breakables++
	s := body(lbl)
	c.fn.loops--
	c.fn.breakables--
	if lbl != "" {
		c.fn.labels = c.fn.labels[:len(c.fn.labels)-1]
		return &Labeled{Label: lbl, S: s}
	}
	return s
}

func (g *gen) bound() Num { return Num{V: 1 + g.n(3)} }

// forStmt is a counted loop; the counter is a let (one binding per iteration, which closures
// capture, copied into the next iteration's before the update runs) or a var (one binding for
// all). The head may declare a second variable, and its test and update may do more.
func (g *gen) forStmt(c ctx) []Stmt { return g.forLoop(c, nil) }

// forLoop generates a for loop; tail, if set, generates the last statements of its body.
func (g *gen) forLoop(c ctx, tail func(c ctx) []Stmt) []Stmt {
	hs := newScope(c.s, c.fn)
	kind := KLet
	if g.chance(0.3) {
		kind = KVar
	}
	declare := func(v *Var) {
		if kind == KVar {
			g.addVar(c, v)
		} else {
			hs.add(v)
		}
	}
	i := &Var{Name: g.fresh("i"), Kind: kind, Counter: true, declared: true}
	init := &VarDecl{Kind: kind, Decls: []Declarator{{P: g.def(i), Init: Num{V: 0}}}}
	declare(i)
	hc := c
	hc.s = hs
	if g.chance(0.3) {
		x := g.expr(hc, 1)
		v := &Var{Name: g.fresh([...]string{KVar: "v", KLet: "l"}[kind]), Kind: kind, declared: true}
		init.Decls = append(init.Decls, Declarator{P: g.def(v), Init: x})
		declare(v)
	}
	s := &For{Init: init}
	s.Test = &Bin{Op: "<", L: g.ref(hc, i), R: g.bound()}
	if g.chance(0.2) {
		s.Test = &Seq{Xs: []Expr{g.expr(hc, 2), s.Test}}
	}
	up := &Ident{V: i, Site: g.site(SiteDef, i), ReadSite: g.site(SiteRead, i)}
	if g.chance(0.7) {
		s.Update = &Update{Op: "++", Prefix: g.chance(0.3), Target: up}
	} else {
		s.Update = &Assign{Op: "+=", Target: up, X: Num{V: 1}}
	}
	if g.chance(0.2) {
		s.Update = &Seq{Xs: []Expr{s.Update, g.expr(hc, 2)}}
	}
	return []Stmt{g.loop(c, func(string) Stmt {
		s.Body = g.blockTail(hc, newScope(hs, c.fn), g.nested(c), tail)
		return s
	})}
}

// closureListStmt pushes a closure into an array on every iteration of a loop and calls them
// all after it: each closure sees the bindings of its own iteration, after later changes. The
// closures cannot reach the current function (not finished), which alone calls them.
func (g *gen) closureListStmt(c ctx) []Stmt {
	list := &Var{Name: g.fresh("q"), Kind: KConst, declared: true, List: true}
	decl := &VarDecl{Kind: KConst, Decls: []Declarator{{P: g.def(list), Init: &Array{}}}}
	c.s.add(list)
	var f *Func
	loop := g.forLoop(c, func(bc ctx) []Stmt {
		f = g.function(bc, fnOpts{arrow: g.chance(0.6)})
		push := &Member{X: g.ref(bc, list), Name: "push"}
		return []Stmt{&ExprStmt{X: &Call{F: push, Args: []Expr{&FuncExpr{F: f}}}}}
	})
	body := newScope(c.s, c.fn)
	q := &Var{Name: g.fresh("h"), Kind: KConst, declared: true, Fn: f}
	id := g.def(q)
	body.add(q)
	bc := c
	bc.s = body
	call := &ForOf{Decl: HeadConst, P: id, X: g.ref(c, list), Body: &Block{Body: []Stmt{&ExprStmt{X: g.call(bc, q, 1)}}}}
	return append(append([]Stmt{decl}, loop...), call)
}

// counter declares a loop counter before a while or do-while loop.
func (g *gen) counter(c ctx) (*Var, Stmt) {
	kind := KLet
	if g.chance(0.3) {
		kind = KVar
	}
	k := &Var{Name: g.fresh("k"), Kind: kind, Counter: true, declared: true}
	id := g.def(k)
	if kind == KVar {
		g.addVar(c, k)
	} else {
		c.s.add(k)
	}
	return k, &VarDecl{Kind: kind, Decls: []Declarator{{P: id, Init: Num{V: 0}}}}
}

func (g *gen) counterUpdate(k *Var, prefix bool) *Update {
	return &Update{Op: "++", Prefix: prefix, Target: &Ident{V: k, Site: g.site(SiteDef, k), ReadSite: g.site(SiteRead, k)}}
}

func (g *gen) whileStmt(c ctx) []Stmt {
	k, decl := g.counter(c)
	s := &While{Test: &Bin{Op: "<", L: g.counterUpdate(k, false), R: g.bound()}}
	return []Stmt{decl, g.loop(c, func(string) Stmt {
		s.Body = g.subBlock(c)
		return s
	})}
}

func (g *gen) doWhileStmt(c ctx) []Stmt {
	k, decl := g.counter(c)
	s := &DoWhile{}
	return []Stmt{decl, g.loop(c, func(string) Stmt {
		s.Body = g.subBlock(c)
		s.Test = &Bin{Op: "<", L: g.counterUpdate(k, true), R: g.bound()}
		return s
	})}
}

// forOfStmt iterates an array literal or a generator object.
func (g *gen) forOfStmt(c ctx) []Stmt { return g.forInOf(c, false) }

// forInStmt iterates the keys of an object literal.
func (g *gen) forInStmt(c ctx) []Stmt { return g.forInOf(c, true) }

// forInOf generates a for-of or for-in loop. Its head declares a const or let (one binding per
// iteration, in the body's scope; a default in the head reads the bindings before it with
// their static sites, since their shadows are declared in the body), declares a var, or
// assigns existing variables. The elements of an iterated array have the head's shape.
func (g *gen) forInOf(c ctx, in bool) []Stmt {
	s := &ForOf{In: in, Decl: HeadKind(g.n(4))}
	body := newScope(c.s, c.fn)
	gen := g.pickVar(c, func(v *Var) bool { return c.callable(v) && v.Fn.Generator })
	useGen := !in && gen != nil && g.chance(0.4)
	depth := 2
	if in || useGen {
		depth = 0 // keys and yielded values have no shape to destructure
	}
	if s.Decl == HeadAssign {
		if s.P = g.assignTarget(c, depth, false); s.P == nil {
			s.Decl = HeadVar
		}
	}
	switch s.Decl {
	case HeadVar:
		s.P = g.freshPattern(c, KVar, depth, func(v *Var) { v.declared = true; g.addVar(c, v) })
	case HeadLet, HeadConst:
		hc := c
		hc.s, hc.static, hc.head = body, map[*Var]bool{}, true
		s.P = g.freshPattern(hc, [...]Kind{HeadLet: KLet, HeadConst: KConst}[s.Decl], depth, func(v *Var) {
			v.declared = true
			body.add(v)
			hc.static[v] = true
		})
	}
	switch {
	case in:
		o := &Object{}
		for i := range 1 + g.n(3) {
			o.Props = append(o.Props, Prop{Key: string(rune('a' + i)), X: g.expr(c, 1)})
		}
		s.X = o
	case useGen:
		s.X = g.call(c, gen, 1)
	default:
		a := &Array{}
		for range 1 + g.n(3) {
			a.Elems = append(a.Elems, g.sourceFor(c, s.P, 1))
		}
		s.X = a
	}
	return []Stmt{g.loop(c, func(string) Stmt {
		s.Body = g.block(c, body, g.nested(c))
		return s
	})}
}

func (g *gen) labeledBlockStmt(c ctx) []Stmt {
	lbl := g.fresh("B")
	c.fn.labels = append(c.fn.labels, label{lbl, false})
	b := g.subBlock(c)
	c.fn.labels = c.fn.labels[:len(c.fn.labels)-1]
	return []Stmt{&Labeled{Label: lbl, S: b}}
}

func (g *gen) canJump(c ctx) bool { return c.fn.breakables > 0 || len(c.fn.labels) > 0 }

// jumpStmt breaks or continues, to the innermost construct or to a label, mostly under a
// condition so the code after it stays live.
func (g *gen) jumpStmt(c ctx) []Stmt {
	var opts []Stmt
	if c.fn.breakables > 0 {
		opts = append(opts, &Break{})
	}
	if c.fn.loops > 0 {
		opts = append(opts, &Continue{})
	}
	for _, l := range c.fn.labels {
		opts = append(opts, &Break{Label: l.name})
		if l.loop {
			opts = append(opts, &Continue{Label: l.name})
		}
	}
	return []Stmt{g.maybeIf(c, opts[g.n(len(opts))])}
}

// maybeIf puts s under a condition, usually.
func (g *gen) maybeIf(c ctx, s Stmt) Stmt {
	if g.chance(0.7) {
		return &If{C: g.expr(c, 2), Then: &Block{Body: []Stmt{s}}}
	}
	return s
}

func (g *gen) returnStmt(c ctx) []Stmt {
	r := &Return{}
	if g.chance(0.7) {
		r.X = g.expr(c, g.cfg.ExprDepth)
	}
	return []Stmt{g.maybeIf(c, r)}
}

func (g *gen) throwStmt(c ctx) []Stmt {
	return []Stmt{g.maybeIf(c, &Throw{X: g.expr(c, 2)})}
}

// tryStmt generates try/catch, try/finally or try/catch/finally.
func (g *gen) tryStmt(c ctx) []Stmt {
	s := &Try{}
	form := g.n(3) // 0: catch, 1: finally, 2: both
	if form != 1 {
		c.fn.tries++
	}
	s.Body = g.subBlock(c)
	if form != 1 {
		c.fn.tries--
		cs := newScope(c.s, c.fn)
		switch {
		case g.chance(0.15):
			s.Param = g.catchPattern(c, cs)
		case g.chance(0.8):
			v := &Var{Name: g.fresh("e"), Kind: KCatch, declared: true}
			s.Param = g.def(v)
			cs.add(v)
		}
		s.Catch = g.block(c, cs, g.nested(c))
	}
	if form != 0 {
		s.Finally = g.subBlock(c)
	}
	return []Stmt{s}
}

// catchPattern destructures the exception: {a: e1, b: e2 = d} works on any thrown value but
// null and undefined. Like a for head's, its defaults read its bindings with their static
// sites, since their shadows are declared in the catch block.
func (g *gen) catchPattern(c ctx, cs *scope) Pattern {
	hc := c
	hc.s, hc.static, hc.head = cs, map[*Var]bool{}, true
	op := &ObjectPat{}
	for i := range 1 + g.n(2) {
		var d Expr
		if g.chance(0.5) {
			d = g.expr(hc, 1)
		}
		v := &Var{Name: g.fresh("e"), Kind: KCatch, declared: true}
		op.Props = append(op.Props, PatProp{Key: string(rune('a' + i)), P: g.def(v), Default: d})
		cs.add(v)
		hc.static[v] = true
	}
	return op
}

// switchStmt generates a switch whose cases fall through unless they end in break. Its lets
// are marked undeclared again at each case, since a case can be entered directly.
func (g *gen) switchStmt(c ctx) []Stmt {
	s := &Switch{X: g.expr(c, 2)}
	ss := newScope(c.s, c.fn)
	sc := c
	sc.s = ss
	sc.depth++
	g.planLets(sc)
	c.fn.breakables++
	n := 1 + g.n(4)
	dflt := g.n(n + 2) // the default clause's index, if it is below n
	for i := range n {
		for _, v := range ss.lexical {
			v.declared = false
		}
		var cs Case
		if i != dflt {
			cs.Test = Num{V: g.n(4)}
			if g.chance(0.2) {
				cs.Test = g.expr(sc, 1)
			}
		}
		for range g.n(3) {
			if g.budget > 0 {
				cs.Body = append(cs.Body, g.stmt(sc)...)
			}
		}
		if i == n-1 {
			cs.Body = append(cs.Body, g.leftoverLets(sc)...)
		}
		if g.chance(0.5) {
			cs.Body = append(cs.Body, &Break{})
		}
		s.Cases = append(s.Cases, cs)
	}
	c.fn.breakables--
	return []Stmt{s}
}

func (g *gen) blockStmt(c ctx) []Stmt { return []Stmt{g.subBlock(c)} }

func tdzVar(v *Var) bool {
	return (v.Kind == KLet || v.Kind == KConst) && !v.declared && v.Fn == nil && !v.Iter
}

func (g *gen) hasTDZ(c ctx) bool { return g.pickVar(c, tdzVar) != nil }

// tdzStmt reads or assigns a let or const that may be in its TDZ, inside try { } catch { }:
// the ReferenceError is caught, or, from a closure called later, the read succeeds.
func (g *gen) tdzStmt(c ctx) []Stmt {
	v := g.pickVar(c, tdzVar)
	gc := c
	gc.guarded = true
	var x Expr
	switch {
	case v.Kind == KLet && g.chance(0.3):
		x = &Assign{Op: "=", Target: &Ident{V: v, Site: g.site(SiteDef, v)}, X: g.expr(c, 1)}
	case g.chance(0.5):
		x = &Bin{Op: "+", L: g.ref(gc, v), R: g.expr(c, 1)}
	default:
		x = g.ref(gc, v)
	}
	return []Stmt{&Try{Body: &Block{Body: []Stmt{&ExprStmt{X: x}}}, Catch: &Block{}}}
}
