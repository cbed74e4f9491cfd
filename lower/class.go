package lower

import (
	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Classes: a class is one value made from its heritage, its decorators and its members, in
// their order. Methods, field initializers and static blocks are functions of their own; only
// computed keys are evaluated in the enclosing function.

// method lowers a method definition: its computed key in the current function, its body as a
// nested function.
func (fs *funcState) method(n int32) ssa.Temp {
	t := fs.lw.t
	name := ""
	if key := fs.field(n, ts.FieldName); key >= 0 {
		if t.Nodes[key].Kind == ts.KindComputedPropertyName {
			fs.expr(key)
		} else {
			name = string(t.Text(key))
		}
	}
	return fs.closure(n, name)
}

// class lowers a class declaration or expression named hint (or its own name); a class
// expression's name is bound inside the class only.
func (fs *funcState) class(n int32, hint string) ssa.Temp {
	t := fs.lw.t
	name := hint
	id := fs.field(n, ts.FieldName)
	if id >= 0 {
		name = string(t.Text(id))
	}
	var args []ssa.Temp
	saved := fs.scope
	var self *ssa.Binding
	if id >= 0 && t.Nodes[n].Kind == ts.KindClass {
		// A class expression's name is bound inside the class only.
		fs.scope = &scope{parent: saved, fs: fs}
		self = fs.scope.declare(t.Text(id), ssa.Class, fs.span(id))
	}
	for c := range fs.children(n) {
		switch t.Nodes[c].Kind {
		case ts.KindClassHeritage, ts.KindDecorator:
			args = append(args, fs.sequence(c))
		case ts.KindClassBody:
			for m := range fs.children(c) {
				args = append(args, fs.member(m, name))
			}
		}
	}
	v := fs.intrinsic(ssa.IntrinsicClass, "Class "+name, n, args...)
	if self != nil {
		fs.storeBinding(self, fs.span(id), v)
	}
	fs.scope = saved
	return v
}

// member lowers one member of a class body.
func (fs *funcState) member(m int32, class string) ssa.Temp {
	t := fs.lw.t
	switch t.Nodes[m].Kind {
	case ts.KindMethodDefinition:
		return fs.method(m)
	case ts.KindFieldDefinition:
		prop := fs.field(m, ts.FieldProperty)
		name := class + "." + string(t.Text(prop))
		if prop >= 0 && t.Nodes[prop].Kind == ts.KindComputedPropertyName {
			fs.expr(prop)
			name = class + "[]"
		}
		value := fs.field(m, ts.FieldValue)
		if value < 0 {
			return fs.undefined(m)
		}
		return fs.cur.Closure(fs.lw.lowerInitializer(fs, m, value, name), fs.span(m))
	case ts.KindClassStaticBlock:
		return fs.cur.Closure(fs.lw.lowerStaticBlock(fs, m), fs.span(m))
	}
	return fs.expr(m)
}
