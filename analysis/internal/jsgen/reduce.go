package jsgen

// Reduce shrinks the program while keep holds: it deletes statements one at a time, and
// replaces compound statements by their bodies, keeping each change after which keep still
// holds, until no change does. Sites keep their ids, so keep can ask whether the same read
// still sees the same definition. It never leaves a variable used but not declared (which
// would make it a global). The program is printed again after each change.
func (p *Program) Reduce(keep func(*Program) bool) {
	shared := sharedNames(p)
	try := func(list *[]Stmt, repl []Stmt, i int) bool {
		old := *list
		*list = append(append(old[:i:i], repl...), old[i+1:]...)
		if p.wellScoped() {
			p.Print()
			if keep(p) {
				return true
			}
		}
		*list = old
		return false
	}
	for changed := true; changed; {
		changed = false
		for _, list := range p.stmtLists() {
			for i := len(*list) - 1; i >= 0; i-- {
				if i >= len(*list) {
					continue
				}
				if !declaresShared((*list)[i], shared) && try(list, nil, i) {
					changed = true
					continue
				}
				for _, body := range inner((*list)[i]) {
					if declares(body) {
						continue // moved out of its block, it would change what names mean
					}
					if try(list, body, i) {
						changed = true
						break
					}
				}
			}
		}
	}
	p.Print()
}

// sharedNames returns the names that more than one variable of the program has.
func sharedNames(p *Program) map[string]bool {
	vars := map[string]*Var{}
	shared := map[string]bool{}
	for _, s := range p.Sites[1:] {
		if v, ok := vars[s.Var.Name]; ok && !v.Same(s.Var) {
			shared[s.Var.Name] = true
		}
		vars[s.Var.Name] = s.Var
	}
	return shared
}

// declaresShared reports whether s declares a variable whose name another variable has:
// without the declaration, the other one's name could mean something else (a function in a
// block makes a var of its function only when no let of an enclosing block has its name).
func declaresShared(s Stmt, shared map[string]bool) bool {
	var pats []Pattern
	switch s := s.(type) {
	case *VarDecl:
		for _, d := range s.Decls {
			pats = append(pats, d.P)
		}
	case *ClassDecl:
		pats = append(pats, s.Name)
	case *FuncDecl:
		pats = append(pats, s.F.Name)
	}
	for _, p := range pats {
		for _, id := range idents(p) {
			if shared[id.V.Name] {
				return true
			}
		}
	}
	return false
}

// declares reports whether the statements declare a let, const, class or function, which a
// block scopes (and, for a function, whose shadow the block declares).
func declares(ss []Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *VarDecl:
			if s.Kind != KVar {
				return true
			}
		case *ClassDecl, *FuncDecl:
			return true
		}
	}
	return false
}

// inner returns the statement lists that could replace s.
func inner(s Stmt) [][]Stmt {
	switch s := s.(type) {
	case *Block:
		return [][]Stmt{s.Body}
	case *If:
		out := [][]Stmt{s.Then.Body}
		if s.Else != nil {
			out = append(out, s.Else.Body)
		}
		return out
	case *Labeled:
		return [][]Stmt{{s.S}}
	case *Try:
		out := [][]Stmt{s.Body.Body}
		if s.Finally != nil {
			out = append(out, append(append([]Stmt(nil), s.Body.Body...), s.Finally.Body...))
		}
		return out
	case *For:
		return [][]Stmt{s.Body.Body}
	case *While:
		return [][]Stmt{s.Body.Body}
	case *DoWhile:
		return [][]Stmt{s.Body.Body}
	case *ForOf:
		return [][]Stmt{s.Body.Body}
	}
	return nil
}

// stmtLists returns every statement list of the program, outer ones first.
func (p *Program) stmtLists() []*[]Stmt {
	var out []*[]Stmt
	walk(p.Top, func(n any) {
		switch n := n.(type) {
		case *Block:
			out = append(out, &n.Body)
		case *Case:
			out = append(out, &n.Body)
		}
	})
	return out
}

// wellScoped reports whether every variable the program uses is still declared.
func (p *Program) wellScoped() bool {
	declared := map[*Var]bool{}
	var used []*Var
	declare := func(pat Pattern) {
		for _, id := range idents(pat) {
			declared[id.V] = true
		}
	}
	walk(p.Top, func(n any) {
		switch n := n.(type) {
		case *Func:
			if n.Name != nil {
				declared[n.Name.V] = true
				if a := n.Name.V.AnnexB; a != nil {
					declared[a] = true
				}
			}
			for _, prm := range n.Params {
				declare(prm.P)
			}
		case *VarDecl:
			for _, d := range n.Decls {
				declare(d.P)
			}
		case *ForOf:
			if n.Decl != HeadAssign {
				declare(n.P)
			}
		case *Try:
			if n.Param != nil {
				declare(n.Param)
			}
		case *ClassDecl:
			declared[n.Name.V] = true
		case *Ref:
			used = append(used, n.V)
		case *Ident:
			used = append(used, n.V)
		}
	})
	for _, v := range used {
		if !declared[v] {
			return false
		}
	}
	return true
}

// walk calls visit on every node of the function f, in source order, parents first.
func walk(f *Func, visit func(any)) {
	var fn func(*Func)
	var stmt func(Stmt)
	var expr func(Expr)
	var pat func(Pattern)
	block := func(b *Block) {
		if b != nil {
			visit(b)
			for _, s := range b.Body {
				stmt(s)
			}
		}
	}
	fn = func(f *Func) {
		visit(f)
		if f.Name != nil {
			visit(f.Name)
		}
		for _, prm := range f.Params {
			pat(prm.P)
			if prm.Default != nil {
				expr(prm.Default)
			}
		}
		block(f.Body)
	}
	pat = func(p Pattern) {
		switch p := p.(type) {
		case *Ident:
			visit(p)
		case *ArrayPat:
			for _, e := range p.Elems {
				if e.P != nil {
					pat(e.P)
				}
				if e.Default != nil {
					expr(e.Default)
				}
			}
			if p.Rest != nil {
				visit(p.Rest)
			}
		case *ObjectPat:
			for _, pr := range p.Props {
				pat(pr.P)
				if pr.Default != nil {
					expr(pr.Default)
				}
			}
			if p.Rest != nil {
				visit(p.Rest)
			}
		}
	}
	expr = func(e Expr) {
		visit(e)
		switch e := e.(type) {
		case *Bin:
			expr(e.L)
			expr(e.R)
		case *Not:
			expr(e.X)
		case *Cond:
			expr(e.C)
			expr(e.A)
			expr(e.B)
		case *Assign:
			pat(e.Target)
			expr(e.X)
		case *Update:
			visit(e.Target)
		case *Call:
			expr(e.F)
			for _, a := range e.Args {
				expr(a)
			}
		case *Member:
			expr(e.X)
		case *FuncExpr:
			fn(e.F)
		case *New:
			expr(e.F)
			for _, a := range e.Args {
				expr(a)
			}
		case *Array:
			for _, x := range e.Elems {
				expr(x)
			}
		case *Object:
			for _, pr := range e.Props {
				expr(pr.X)
			}
		case *Yield:
			if e.X != nil {
				expr(e.X)
			}
		case *Seq:
			for _, x := range e.Xs {
				expr(x)
			}
		}
	}
	stmt = func(s Stmt) {
		visit(s)
		switch s := s.(type) {
		case *VarDecl:
			for _, d := range s.Decls {
				pat(d.P)
				if d.Init != nil {
					expr(d.Init)
				}
			}
		case *ExprStmt:
			expr(s.X)
		case *Block:
			for _, x := range s.Body {
				stmt(x)
			}
		case *If:
			expr(s.C)
			block(s.Then)
			block(s.Else)
		case *For:
			stmt(s.Init)
			expr(s.Test)
			expr(s.Update)
			block(s.Body)
		case *While:
			expr(s.Test)
			block(s.Body)
		case *DoWhile:
			block(s.Body)
			expr(s.Test)
		case *ForOf:
			pat(s.P)
			expr(s.X)
			block(s.Body)
		case *Labeled:
			stmt(s.S)
		case *Return:
			if s.X != nil {
				expr(s.X)
			}
		case *Throw:
			expr(s.X)
		case *Try:
			block(s.Body)
			if s.Param != nil {
				pat(s.Param)
			}
			block(s.Catch)
			block(s.Finally)
		case *Switch:
			expr(s.X)
			for i := range s.Cases {
				c := &s.Cases[i]
				visit(c)
				if c.Test != nil {
					expr(c.Test)
				}
				for _, x := range c.Body {
					stmt(x)
				}
			}
		case *FuncDecl:
			fn(s.F)
		case *ClassDecl:
			visit(s.Name)
			for _, m := range s.Members {
				fn(m)
			}
		}
	}
	fn(f)
}
