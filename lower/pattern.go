package lower

import (
	"strconv"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Patterns: the targets of assignments, declarations and parameters. Destructuring reads each
// part of the value in source order and stores it into its target; a default value is
// evaluated only when the part is undefined.

// assign stores v into the pattern or assignment target p, destructuring as needed.
func (fs *funcState) assign(p int32, v ssa.Temp) {
	if !fs.nest(p) {
		return
	}
	defer fs.unnest()
	t := fs.lw.t
	switch t.Nodes[p].Kind {
	case ts.KindIdentifier:
		fs.store(p, v)
	case ts.KindMemberExpression:
		o := fs.expr(fs.field(p, ts.FieldObject))
		fs.emit(ssa.OpSetProperty, string(t.Text(fs.field(p, ts.FieldProperty))), p, o, v)
	case ts.KindSubscriptExpression:
		o := fs.expr(fs.field(p, ts.FieldObject))
		fs.emit(ssa.OpSetIndex, "", p, o, fs.expr(fs.field(p, ts.FieldIndex)), v)
	case ts.KindParenthesizedExpression:
		if inner := fs.first(p); inner >= 0 {
			fs.assign(inner, v)
		}
	case ts.KindAssignmentPattern:
		left := fs.field(p, ts.FieldLeft)
		fs.assign(left, fs.defaulted(v, fs.field(p, ts.FieldRight), left))
	case ts.KindObjectPattern:
		fs.objectPattern(p, v)
	case ts.KindArrayPattern:
		fs.arrayPattern(p, v)
	case ts.KindRestPattern: // a rest parameter: v is already the array of the rest
		fs.assign(fs.first(p), v)
	case ts.KindUndefined:
	default:
		fs.any(p)
	}
}

// defaulted returns v, or the value of dflt if v is undefined:
//
//	    r = v
//	    If v === undefined then default else join
//	default:
//	    r = ...dflt...
//	    Goto join
//	join:
func (fs *funcState) defaulted(v ssa.Temp, dflt, name int32) ssa.Temp {
	t := fs.lw.t
	r := fs.fn.NewTemp()
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(dflt), v)
	undef := fs.undefined(dflt)
	test := fs.cur.Binary(ssa.OperatorStrictEq, fs.span(dflt), v, undef)
	use := fs.newBlock("default")
	join := fs.joinAfter(dflt, "join")
	fs.cur.If(test, use, join).Span = fs.span(dflt)
	fs.startBlock(use)
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(dflt), fs.exprNamed(dflt, name))
	fs.gotoBlock(join, t.Nodes[dflt].End)
	fs.startBlock(join)
	return r
}

// propertyKey reads the property key of v.
func (fs *funcState) propertyKey(key int32, v ssa.Temp) ssa.Temp {
	t := fs.lw.t
	if t.Nodes[key].Kind == ts.KindComputedPropertyName {
		return fs.emit(ssa.OpIndex, "", key, v, fs.expr(key))
	}
	return fs.emit(ssa.OpProperty, string(t.Text(key)), key, v)
}

// objectPattern destructures v into the properties of the object pattern p.
func (fs *funcState) objectPattern(p int32, v ssa.Temp) {
	t := fs.lw.t
	for c := range fs.children(p) {
		switch t.Nodes[c].Kind {
		case ts.KindShorthandPropertyIdentifierPattern:
			fs.store(c, fs.propertyKey(c, v))
		case ts.KindObjectAssignmentPattern:
			left := fs.field(c, ts.FieldLeft)
			x := fs.defaulted(fs.propertyKey(left, v), fs.field(c, ts.FieldRight), left)
			if t.Nodes[left].Kind == ts.KindShorthandPropertyIdentifierPattern {
				fs.store(left, x)
			} else {
				fs.assign(left, x)
			}
		case ts.KindPairPattern:
			fs.assign(fs.field(c, ts.FieldValue), fs.propertyKey(fs.field(c, ts.FieldKey), v))
		case ts.KindRestPattern:
			fs.assign(fs.first(c), fs.intrinsic(ssa.IntrinsicRestProperties, "", c, v))
		}
	}
}

// arrayPattern destructures v into the elements of the array pattern p; holes count.
func (fs *funcState) arrayPattern(p int32, v ssa.Temp) {
	t := fs.lw.t
	index := 0
	for c := t.Nodes[p].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		node := &t.Nodes[c]
		switch {
		case node.Flags&ts.Named == 0:
			if t.Src[node.Start] == ',' {
				index++
			}
		case node.Flags&ts.Extra != 0:
		case node.Kind == ts.KindRestPattern:
			fs.assign(fs.first(c), fs.intrinsic(ssa.IntrinsicRestElements, "RestElements from "+strconv.Itoa(index), c, v))
		default:
			i := fs.constant(strconv.Itoa(index), c)
			fs.assign(c, fs.emit(ssa.OpIndex, "", c, v, i))
		}
	}
}
