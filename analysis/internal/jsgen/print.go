package jsgen

import (
	"fmt"
	"strings"
)

// Print prints the program plain and instrumented, and records in Sites the offset of every
// site in the plain text. Sites no longer in the tree (after a reduction) get offset -1.
func (p *Program) Print() {
	for i := range p.Sites {
		p.Sites[i].Offset = -1
	}
	plain := &printer{sites: p.Sites}
	plain.stmts(p.Top.Body.Body)
	p.Plain = plain.String()

	inst := &printer{inst: true}
	inst.line("(function () {")
	inst.indent++
	inst.prologue(p.Top)
	inst.blockShadows(p.Top.Body)
	inst.stmts(p.Top.Body.Body)
	inst.indent--
	inst.line("})();")
	p.Instrumented = inst.String()
}

// printer writes one of the two versions. The plain printer records site offsets; the
// instrumented one rewrites reads, definitions and declarations (see the package doc).
type printer struct {
	sb     strings.Builder
	inst   bool
	sites  []Site
	indent int
}

func (p *printer) String() string { return p.sb.String() }

func (p *printer) w(s string)                { p.sb.WriteString(s) }
func (p *printer) f(format string, a ...any) { fmt.Fprintf(&p.sb, format, a...) }

// line starts a new line at the current indentation and writes s.
func (p *printer) line(s string) {
	p.newline()
	p.w(s)
}

func (p *printer) newline() {
	if p.sb.Len() > 0 {
		p.w("\n")
	}
	for range p.indent {
		p.w("  ")
	}
}

// name writes an identifier occurrence; in the plain version it records the offset of its
// sites (a compound assignment or an update reads and defines at one identifier).
func (p *printer) name(name string, sites ...int) {
	for _, site := range sites {
		if !p.inst && site > 0 {
			p.sites[site].Offset = int32(p.sb.Len())
		}
	}
	p.w(name)
}

// Statements.

func (p *printer) stmts(ss []Stmt) {
	for _, s := range ss {
		p.newline()
		p.stmt(s)
	}
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *VarDecl:
		p.varDecl(s)
	case *ExprStmt:
		p.expr(s.X)
		p.w(";")
	case *Block:
		p.block(s, nil)
	case *If:
		p.w("if (")
		p.expr(s.C)
		p.w(") ")
		p.block(s.Then, nil)
		if s.Else != nil {
			p.w(" else ")
			p.block(s.Else, nil)
		}
	case *For:
		p.w("for (")
		p.forInit(s.Init)
		p.w("; ")
		p.expr(s.Test)
		p.w("; ")
		p.expr(s.Update)
		p.w(") ")
		p.block(s.Body, nil)
	case *While:
		p.w("while (")
		p.expr(s.Test)
		p.w(") ")
		p.block(s.Body, nil)
	case *DoWhile:
		p.w("do ")
		p.block(s.Body, nil)
		p.w(" while (")
		p.expr(s.Test)
		p.w(");")
	case *ForOf:
		p.forOf(s)
	case *Labeled:
		p.f("%s: ", s.Label)
		p.stmt(s.S)
	case *Break:
		p.jump("break", s.Label)
	case *Continue:
		p.jump("continue", s.Label)
	case *Return:
		p.w("return")
		if s.X != nil {
			p.w(" ")
			p.expr(s.X)
		}
		p.w(";")
	case *Throw:
		p.w("throw ")
		p.expr(s.X)
		p.w(";")
	case *Try:
		p.try(s)
	case *Switch:
		p.w("switch (")
		p.expr(s.X)
		p.w(") {")
		for _, c := range s.Cases {
			p.indent++
			if c.Test == nil {
				p.line("default:")
			} else {
				p.line("case ")
				p.expr(c.Test)
				p.w(":")
			}
			p.indent++
			p.stmts(c.Body)
			p.indent -= 2
		}
		p.line("}")
	case *FuncDecl:
		p.function(s.F)
	case *ClassDecl:
		if p.inst {
			p.w("let " + shadowList(s.Name) + "; ")
		}
		p.w("class ")
		p.name(s.Name.V.Name, s.Name.Site)
		p.w(" {")
		p.indent++
		for _, m := range s.Members {
			p.newline()
			p.member(m)
		}
		p.indent--
		p.line("}")
	default:
		panic(fmt.Sprintf("jsgen: unknown statement %T", s))
	}
}

func (p *printer) jump(keyword, label string) {
	p.w(keyword)
	if label != "" {
		p.w(" " + label)
	}
	p.w(";")
}

// block prints a block; in the instrumented version extra runs first at its top.
func (p *printer) block(b *Block, extra func()) {
	p.w("{")
	p.indent++
	if p.inst {
		if extra != nil {
			extra()
		}
		p.blockShadows(b)
	}
	p.stmts(b.Body)
	p.indent--
	p.line("}")
}

// blockShadows declares, at the top of a block, the shadows of its function declarations:
// they are hoisted, defined at their name before anything in the block runs.
func (p *printer) blockShadows(b *Block) {
	if len(b.Funcs) == 0 {
		return
	}
	p.line("let ")
	for i, v := range b.Funcs {
		if i > 0 {
			p.w(", ")
		}
		p.f("%s = %d", v.Shadow(), v.Decl)
	}
	p.w(";")
}

// prologue declares, at the top of a function body, the function's vars (their declarations
// become assignments in the instrumented version) with their shadows set to the declaration
// site, and the shadows of the parameters.
func (p *printer) prologue(f *Func) {
	var parts []string
	for _, v := range f.Vars {
		if v.Decl == 0 {
			panic("jsgen: var " + v.Name + " has no declaration site")
		}
		parts = append(parts, v.Name, fmt.Sprintf("%s = %d", v.Shadow(), v.Decl))
	}
	for _, prm := range f.Params {
		for _, id := range idents(prm.P) {
			parts = append(parts, fmt.Sprintf("%s = %d", id.V.Shadow(), id.Site))
		}
	}
	if len(parts) > 0 {
		p.line("var " + strings.Join(parts, ", ") + ";")
	}
}

// shadowList returns "x$ = s, y$ = t" for the identifiers of patterns.
func shadowList(ps ...Pattern) string {
	var parts []string
	for _, pat := range ps {
		for _, id := range idents(pat) {
			parts = append(parts, fmt.Sprintf("%s = %d", id.V.Shadow(), id.Site))
		}
	}
	return strings.Join(parts, ", ")
}

// varDecl prints a declaration statement. Instrumented, a var declaration becomes an
// assignment (the var itself is declared in the prologue), and a let or const is preceded by
// the declaration of its shadows.
func (p *printer) varDecl(d *VarDecl) {
	if !p.inst {
		p.declList(d)
		p.w(";")
		return
	}
	if d.Kind == KVar {
		p.varAssignments(d)
		p.w(";")
		return
	}
	p.w("let " + shadowList(declPatterns(d)...) + "; ")
	p.declList(d)
	p.w(";")
}

// varAssignments prints the stores of a var declaration as a comma list of assignments.
func (p *printer) varAssignments(d *VarDecl) {
	n := 0
	for _, dc := range d.Decls {
		if dc.Init == nil {
			continue
		}
		if n > 0 {
			p.w(", ")
		}
		n++
		p.w("(")
		p.assign("=", dc.P, dc.Init)
		p.w(")")
	}
}

// forInit prints a for loop's declaration. Instrumented, a let list starts with the shadows,
// so that each iteration copies them with the loop variables, and a var list becomes
// assignments.
func (p *printer) forInit(d *VarDecl) {
	switch {
	case !p.inst:
		p.declList(d)
	case d.Kind == KVar:
		p.varAssignments(d)
	default:
		p.w("let " + shadowList(declPatterns(d)...) + ", ")
		p.declarators(d)
	}
}

func declPatterns(d *VarDecl) []Pattern {
	var ps []Pattern
	for _, dc := range d.Decls {
		ps = append(ps, dc.P)
	}
	return ps
}

// declList prints "kind p = init, ..." without the semicolon.
func (p *printer) declList(d *VarDecl) {
	p.w([...]string{KVar: "var", KLet: "let", KConst: "const"}[d.Kind] + " ")
	p.declarators(d)
}

func (p *printer) declarators(d *VarDecl) {
	for i, dc := range d.Decls {
		if i > 0 {
			p.w(", ")
		}
		p.pattern(dc.P, false)
		if dc.Init != nil {
			p.w(" = ")
			p.expr(dc.Init)
		}
	}
}

func (p *printer) forOf(s *ForOf) {
	p.w("for (")
	keyword := [...]string{HeadAssign: "", HeadVar: "var ", HeadLet: "let ", HeadConst: "const "}[s.Decl]
	lexical := s.Decl == HeadLet || s.Decl == HeadConst
	switch {
	case !p.inst:
		p.w(keyword)
		p.pattern(s.P, false)
	case lexical:
		p.w(keyword)
		p.pattern(s.P, false)
	default:
		p.pattern(s.P, true)
	}
	if s.In {
		p.w(" in ")
	} else {
		p.w(" of ")
	}
	p.expr(s.X)
	p.w(") ")
	var extra func()
	if lexical {
		extra = func() { p.line("let " + shadowList(s.P) + ";") }
	}
	p.block(s.Body, extra)
}

func (p *printer) try(s *Try) {
	p.w("try ")
	p.block(s.Body, nil)
	if s.Catch != nil {
		p.w(" catch ")
		var extra func()
		if s.Param != nil {
			p.w("(")
			p.pattern(s.Param, false)
			p.w(") ")
			extra = func() { p.line("let " + shadowList(s.Param) + ";") }
		}
		p.block(s.Catch, extra)
	}
	if s.Finally != nil {
		p.w(" finally ")
		p.block(s.Finally, nil)
	}
}

// function prints a function declaration or expression (without parentheses).
func (p *printer) function(f *Func) {
	if f.Arrow {
		p.params(f)
		p.w(" => ")
		if f.ExprBody && !p.inst {
			p.w("(")
			p.expr(f.Body.Body[0].(*Return).X)
			p.w(")")
			return
		}
	} else {
		p.w("function")
		if f.Generator {
			p.w("*")
		}
		if f.Name != nil {
			p.w(" ")
			p.name(f.Name.V.Name, f.Name.Site)
		}
		p.params(f)
		p.w(" ")
	}
	p.block(f.Body, func() { p.prologue(f) })
}

// member prints a class member.
func (p *printer) member(f *Func) {
	switch f.Member {
	case StaticMethod, StaticField, StaticBlock:
		p.w("static ")
	}
	switch f.Member {
	case Field, StaticField:
		p.w(f.Key + " = ")
		p.expr(f.Body.Body[0].(*Return).X)
		p.w(";")
		return
	case StaticBlock:
	case Constructor:
		p.w("constructor")
		p.params(f)
		p.w(" ")
	default:
		p.w(f.Key)
		p.params(f)
		p.w(" ")
	}
	p.block(f.Body, func() { p.prologue(f) })
}

func (p *printer) params(f *Func) {
	p.w("(")
	for i, prm := range f.Params {
		if i > 0 {
			p.w(", ")
		}
		if prm.Rest {
			p.w("...")
		}
		p.pattern(prm.P, false)
		if prm.Default != nil {
			p.w(" = ")
			p.expr(prm.Default)
		}
	}
	p.w(")")
}

// Patterns.

// pattern prints a binding or assignment target. With setters (instrumented assignments),
// each identifier becomes a setter that stores the value and the site, in the order the
// pattern runs.
func (p *printer) pattern(pat Pattern, setters bool) {
	switch pat := pat.(type) {
	case *Ident:
		if setters && p.inst {
			p.f("({set v(__v) { %s = __v; %s = %d; }}).v", pat.V.Name, pat.V.Shadow(), pat.Site)
			return
		}
		p.name(pat.V.Name, pat.Site, pat.ReadSite)
	case *ArrayPat:
		p.w("[")
		for i, e := range pat.Elems {
			if i > 0 {
				p.w(", ")
			}
			if e.P == nil {
				continue // a hole
			}
			p.pattern(e.P, setters)
			p.dflt(e.Default)
		}
		if n := len(pat.Elems); n > 0 && pat.Elems[n-1].P == nil {
			p.w(",") // a trailing hole needs its own comma
		}
		p.rest(pat.Rest, len(pat.Elems) > 0, setters)
		p.w("]")
	case *ObjectPat:
		p.w("{")
		for i, pr := range pat.Props {
			if i > 0 {
				p.w(", ")
			}
			if id, ok := pr.P.(*Ident); ok && id.V.Name == pr.Key && !(setters && p.inst) {
				p.name(id.V.Name, id.Site)
			} else {
				p.w(pr.Key + ": ")
				p.pattern(pr.P, setters)
			}
			p.dflt(pr.Default)
		}
		p.rest(pat.Rest, len(pat.Props) > 0, setters)
		p.w("}")
	default:
		panic(fmt.Sprintf("jsgen: unknown pattern %T", pat))
	}
}

func (p *printer) rest(r *Ident, comma, setters bool) {
	if r == nil {
		return
	}
	if comma {
		p.w(", ")
	}
	p.w("...")
	p.pattern(r, setters)
}

func (p *printer) dflt(d Expr) {
	if d != nil {
		p.w(" = ")
		p.expr(d)
	}
}

// Expressions: every compound expression is parenthesized, in both versions alike.

func (p *printer) expr(e Expr) {
	switch e := e.(type) {
	case Num:
		p.f("%d", e.V)
	case Undef:
		p.w("(void 0)")
	case *Ref:
		p.read(e.V, e.Site, e.Static)
	case *Bin:
		p.w("(")
		p.expr(e.L)
		p.f(" %s ", e.Op)
		p.expr(e.R)
		p.w(")")
	case *Not:
		p.w("(!")
		p.expr(e.X)
		p.w(")")
	case *Cond:
		p.w("(")
		p.expr(e.C)
		p.w(" ? ")
		p.expr(e.A)
		p.w(" : ")
		p.expr(e.B)
		p.w(")")
	case *Assign:
		p.w("(")
		p.assign(e.Op, e.Target, e.X)
		p.w(")")
	case *Update:
		p.update(e)
	case *Call:
		p.expr(e.F)
		if e.Optional {
			p.w("?.")
		}
		p.w("(")
		p.exprs(e.Args)
		p.w(")")
	case *Member:
		p.expr(e.X)
		p.w("." + e.Name)
	case *FuncExpr:
		p.w("(")
		p.function(e.F)
		p.w(")")
	case *New:
		p.w("(new ")
		if _, ok := e.F.(*Ref); ok && p.inst {
			p.w("(")
			p.expr(e.F)
			p.w(")")
		} else {
			p.expr(e.F)
		}
		p.w("(")
		p.exprs(e.Args)
		p.w("))")
	case *Array:
		p.w("[")
		p.exprs(e.Elems)
		p.w("]")
	case *Object:
		p.w("{")
		for i, pr := range e.Props {
			if i > 0 {
				p.w(", ")
			}
			p.w(pr.Key + ": ")
			p.expr(pr.X)
		}
		p.w("}")
	case *Yield:
		p.w("(yield")
		if e.Delegate {
			p.w("*")
		}
		if e.X != nil {
			p.w(" ")
			p.expr(e.X)
		}
		p.w(")")
	case *Seq:
		p.w("(")
		p.exprs(e.Xs)
		p.w(")")
	default:
		panic(fmt.Sprintf("jsgen: unknown expression %T", e))
	}
}

// exprs prints xs separated by commas: arguments, elements, a sequence.
func (p *printer) exprs(xs []Expr) {
	for i, x := range xs {
		if i > 0 {
			p.w(", ")
		}
		p.expr(x)
	}
}

// read prints a read of v: instrumented, __r(site, shadow, v) logs the site of the value seen.
func (p *printer) read(v *Var, site, static int) {
	if !p.inst {
		p.name(v.Name, site)
		return
	}
	shadow := v.Shadow()
	if static != 0 {
		shadow = fmt.Sprint(static)
	}
	p.f("__r(%d, %s, %s)", site, shadow, v.Name)
}

// assign prints target op x without parentheses. Instrumented, a plain identifier store
// becomes x = __w(value, x$ = site): the value is computed first, then the site recorded, then
// stored, with nothing in between that could run other code; a compound assignment reads
// (logging) before computing; a pattern store goes through setters.
func (p *printer) assign(op string, target Pattern, x Expr) {
	id, isIdent := target.(*Ident)
	if !p.inst {
		p.pattern(target, false)
		p.f(" %s ", op)
		p.expr(x)
		return
	}
	if !isIdent {
		p.pattern(target, true)
		p.w(" = ")
		p.expr(x)
		return
	}
	v := id.V
	switch op {
	case "=":
		p.f("%s = __w(", v.Name)
		p.expr(x)
		p.f(", %s = %d)", v.Shadow(), id.Site)
	case "+=", "-=":
		p.f("%s = __w(", v.Name)
		p.read(v, id.ReadSite, 0)
		p.f(" %c ", op[0])
		p.expr(x)
		p.f(", %s = %d)", v.Shadow(), id.Site)
	case "&&=", "||=", "??=":
		p.read(v, id.ReadSite, 0)
		p.f(" %s (%s = __w(", op[:2], v.Name)
		p.expr(x)
		p.f(", %s = %d))", v.Shadow(), id.Site)
	default:
		panic("jsgen: unknown assignment operator " + op)
	}
}

// update prints ++x, x++, --x or x--. Instrumented, the old value is read once with logging
// (__r) and once plainly to compute the new one; __p returns its first argument, the old value,
// and a comma expression returns the new one.
func (p *printer) update(u *Update) {
	v := u.Target.V
	if !p.inst {
		p.w("(")
		if u.Prefix {
			p.w(u.Op)
		}
		p.name(v.Name, u.Target.Site, u.Target.ReadSite)
		if !u.Prefix {
			p.w(u.Op)
		}
		p.w(")")
		return
	}
	store := func() {
		p.f("%s = __w(+%s %c 1, %s = %d)", v.Name, v.Name, u.Op[0], v.Shadow(), u.Target.Site)
	}
	if u.Prefix {
		p.w("(")
		p.read(v, u.Target.ReadSite, 0)
		p.w(", ")
		store()
		p.w(")")
		return
	}
	p.w("__p(+")
	p.read(v, u.Target.ReadSite, 0)
	p.w(", ")
	store()
	p.w(")")
}

// idents returns the identifiers of a pattern in order.
func idents(pat Pattern) []*Ident {
	var out []*Ident
	var walk func(Pattern)
	walk = func(pat Pattern) {
		switch pat := pat.(type) {
		case *Ident:
			out = append(out, pat)
		case *ArrayPat:
			for _, e := range pat.Elems {
				if e.P != nil {
					walk(e.P)
				}
			}
			if pat.Rest != nil {
				out = append(out, pat.Rest)
			}
		case *ObjectPat:
			for _, pr := range pat.Props {
				walk(pr.P)
			}
			if pat.Rest != nil {
				out = append(out, pat.Rest)
			}
		}
	}
	walk(pat)
	return out
}
