package lower

import (
	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Classes: a class is one value made from its decorators, its heritage and its members, in
// their order. Methods, field initializers and static blocks are functions of their own; only
// decorators and computed keys are evaluated in the enclosing function.

// method lowers a method definition, appending to args the values it is made of: its parts
// evaluated in the current function (outsideParts), and its body, a nested function.
func (fs *funcState) method(n int32, args []ssa.Temp) []ssa.Temp {
	t := fs.lw.t
	for part := range outsideParts(t, n) {
		if t.Nodes[part].Kind == ts.KindDecorator {
			args = append(args, fs.sequence(part))
		} else {
			args = append(args, fs.expr(part))
		}
	}
	name := ""
	if key := fs.field(n, ts.FieldName); key >= 0 && t.Nodes[key].Kind != ts.KindComputedPropertyName {
		name = string(t.Text(key))
	}
	return append(args, fs.closure(n, name))
}

// outsideParts yields, in the order they run, the parts of function node n that the function
// around it evaluates when it makes the closure: a method's decorators, its computed key and
// its parameters' decorators. They are the outer function's code, not n's.
func outsideParts(t *ts.Tree, n int32) func(func(int32) bool) {
	return func(yield func(int32) bool) {
		if t.Nodes[n].Kind != ts.KindMethodDefinition {
			return
		}
		for c := range children(t, n) {
			if t.Nodes[c].Kind == ts.KindDecorator && !yield(c) {
				return
			}
		}
		if key := t.ChildByField(n, ts.FieldName); key >= 0 && t.Nodes[key].Kind == ts.KindComputedPropertyName && !yield(key) {
			return
		}
		if list := t.ChildByField(n, ts.FieldParameters); list >= 0 {
			for p := range children(t, list) {
				for c := range children(t, p) {
					if t.Nodes[c].Kind == ts.KindDecorator && !yield(c) {
						return
					}
				}
			}
		}
	}
}

// decorators evaluates the decorators of the class or member n, in order, appending their
// values to args.
func (fs *funcState) decorators(n int32, args []ssa.Temp) []ssa.Temp {
	for c := range fs.children(n) {
		if fs.lw.t.Nodes[c].Kind == ts.KindDecorator {
			args = append(args, fs.sequence(c))
		}
	}
	return args
}

// class lowers a class declaration or expression named hint (or its own name). The class's
// own name is bound inside the class too, to the class itself: a method that reads it is not
// affected by an assignment to the declared name outside. The class's decorators are
// evaluated before that binding exists, and see the name outside; decorators written before
// `export` belong to the exported class.
func (fs *funcState) class(n int32, hint string) ssa.Temp {
	t := fs.lw.t
	name := hint
	id := fs.field(n, ts.FieldName)
	if id >= 0 {
		name = string(t.Text(id))
	}
	var args []ssa.Temp
	if p := t.Nodes[n].Parent; p >= 0 && t.Nodes[p].Kind == ts.KindExportStatement {
		args = fs.decorators(p, args)
	}
	args = fs.decorators(n, args)
	var self *ssa.Binding
	if id >= 0 {
		fs.openScope()
		self = fs.scope.declare(t.Text(id), ssa.Class, fs.span(id))
		if fs.lw.selfNames == nil {
			fs.lw.selfNames = make(map[*ssa.Binding]bool)
		}
		fs.lw.selfNames[self] = true
	}
	for c := range fs.children(n) {
		switch t.Nodes[c].Kind {
		case ts.KindClassHeritage:
			if s := superclass(t, c); s >= 0 {
				args = append(args, fs.expr(s))
			}
		case ts.KindClassBody:
			for m := range fs.children(c) {
				args = fs.member(m, name, args)
			}
		}
	}
	v := fs.intrinsic(ssa.IntrinsicClass, "Class "+name, n, args...)
	if self != nil {
		// A declaration's name is its outer binding's place (stmt stores it); the inner
		// binding is set where the class is complete.
		at := fs.span(id)
		if k := t.Nodes[n].Kind; k == ts.KindClassDeclaration || k == ts.KindAbstractClassDeclaration {
			at = point(t.Nodes[n].End)
		}
		fs.storeBinding(self, at, v)
		fs.closeScope()
	}
	return v
}

// member lowers one member of a class body, appending the values it is made of to args.
func (fs *funcState) member(m int32, class string, args []ssa.Temp) []ssa.Temp {
	t := fs.lw.t
	switch t.Nodes[m].Kind {
	case ts.KindMethodDefinition:
		return fs.method(m, args)
	case ts.KindFieldDefinition, ts.KindPublicFieldDefinition:
		if isAmbientField(t, m) {
			return args // declare and abstract fields define nothing
		}
		args = fs.decorators(m, args)
		prop := memberKey(t, m)
		name := class + "." + string(t.Text(prop))
		if prop >= 0 && t.Nodes[prop].Kind == ts.KindComputedPropertyName {
			args = append(args, fs.expr(prop))
			name = class + "[]"
		}
		value := fs.field(m, ts.FieldValue)
		if value < 0 {
			return append(args, fs.undefined(m))
		}
		return append(args, fs.cur.Closure(fs.lw.lowerInitializer(fs, m, value, name), fs.span(m)))
	case ts.KindClassStaticBlock:
		return append(args, fs.cur.Closure(fs.lw.lowerStaticBlock(fs, m), fs.span(m)))
	case ts.KindDecorator: // TypeScript's method decorators precede the method in the class body
		return append(args, fs.sequence(m))
	}
	if isTypeOnly(t.Nodes[m].Kind) {
		return args // signatures and index signatures
	}
	return append(args, fs.expr(m))
}
