package lower

import (
	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// jsx lowers a JSX element to one value made, in source order, from its tag when the tag is a
// component (a capitalized name or a member expression; a lowercase tag is an HTML element's
// name, not a variable), its attributes' expressions and its children.
func (fs *funcState) jsx(n int32) ssa.Temp {
	t := fs.lw.t
	open := n
	if t.Nodes[n].Kind == ts.KindJSXElement {
		open = fs.field(n, ts.FieldOpenTag)
	}
	var args []ssa.Temp
	name := ""
	if tag := fs.field(open, ts.FieldName); tag >= 0 {
		name = string(t.Text(tag))
		switch t.Nodes[tag].Kind {
		case ts.KindIdentifier:
			if c := name[0]; c >= 'A' && c <= 'Z' || c == '_' || c == '$' {
				args = append(args, fs.load(tag)) // a component, not an HTML tag
			}
		case ts.KindMemberExpression:
			args = append(args, fs.expr(tag))
		}
	}
	for a := range fs.children(open) {
		if t.Nodes[a].Field != ts.FieldAttribute {
			continue
		}
		if t.Nodes[a].Kind == ts.KindJSXExpression {
			args = append(args, fs.expr(a))
			continue
		}
		for v := range fs.children(a) {
			switch t.Nodes[v].Kind {
			case ts.KindJSXExpression, ts.KindJSXElement, ts.KindJSXSelfClosingElement:
				args = append(args, fs.expr(v))
			}
		}
	}
	if open != n {
		for c := range fs.children(n) {
			switch t.Nodes[c].Kind {
			case ts.KindJSXElement, ts.KindJSXSelfClosingElement:
				args = append(args, fs.expr(c))
			case ts.KindJSXExpression:
				if fs.first(c) >= 0 {
					args = append(args, fs.expr(c))
				}
			}
		}
	}
	return fs.intrinsic(ssa.IntrinsicJSX, "JSX <"+name+">", n, args...)
}
