package lower

import (
	"strconv"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Patterns: the targets of assignments, declarations and parameters. Destructuring reads each
// part of the value in source order and stores it into its target, in JavaScript's order: for
// each element, first the target's reference (the object and key of a property), then the read
// of the part, then its default value, evaluated only when the part is undefined.

// assign stores v into the pattern or assignment target p, destructuring as needed.
func (fs *funcState) assign(p int32, v ssa.Temp) {
	fs.element(p, func() ssa.Temp { return v })
}

// element stores the value get reads into p, a target or a pattern with or without a default:
// the target's reference first, then get, then the default.
func (fs *funcState) element(p int32, get func() ssa.Temp) {
	if !fs.nest(p) {
		return
	}
	defer fs.unnest()
	t := fs.lw.t
	left, dflt := p, int32(-1)
	switch t.Nodes[p].Kind {
	case ts.KindAssignmentPattern, ts.KindObjectAssignmentPattern:
		left, dflt = fs.field(p, ts.FieldLeft), fs.field(p, ts.FieldRight)
	case ts.KindRequiredParameter, ts.KindOptionalParameter: // TypeScript's, with a default value
		left, dflt = paramParts(t, p)
	case ts.KindRestPattern: // a rest parameter: get gives the array of the rest already
		left = fs.first(p)
	}
	if left < 0 {
		return
	}
	ref := fs.reference(left)
	v := get()
	if dflt >= 0 {
		v = fs.defaulted(v, dflt, left)
	}
	fs.put(ref, v)
}

// reference evaluates what JavaScript evaluates of the assignment target n before the value it
// stores: the object and key of a property. A variable needs nothing, nor does a pattern,
// whose elements are evaluated as it is destructured.
func (fs *funcState) reference(n int32) target {
	t := fs.lw.t
	tg := target{node: unparen(t, n), obj: ssa.NoTemp, key: ssa.NoTemp, invalid: ssa.NoTemp}
	switch t.Nodes[tg.node].Kind {
	case ts.KindIdentifier, ts.KindShorthandPropertyIdentifierPattern, ts.KindObjectPattern, ts.KindArrayPattern,
		ts.KindUndefined:
	case ts.KindMemberExpression:
		tg.obj = fs.expr(fs.field(tg.node, ts.FieldObject))
		tg.prop = string(t.Text(fs.field(tg.node, ts.FieldProperty)))
	case ts.KindSubscriptExpression:
		tg.obj = fs.expr(fs.field(tg.node, ts.FieldObject))
		tg.key = fs.expr(fs.field(tg.node, ts.FieldIndex))
	default:
		tg.invalid = fs.expr(tg.node)
	}
	return tg
}

// put stores v into the target whose reference tg holds.
func (fs *funcState) put(tg target, v ssa.Temp) {
	switch {
	case tg.invalid != ssa.NoTemp:
	case tg.key != ssa.NoTemp:
		fs.emit(ssa.OpSetIndex, "", tg.node, tg.obj, tg.key, v)
	case tg.obj != ssa.NoTemp:
		fs.emit(ssa.OpSetProperty, tg.prop, tg.node, tg.obj, v)
	default:
		switch fs.lw.t.Nodes[tg.node].Kind {
		case ts.KindObjectPattern:
			fs.objectPattern(tg.node, v)
		case ts.KindArrayPattern:
			fs.arrayPattern(tg.node, v)
		case ts.KindUndefined: // `undefined = v` assigns nothing in a script
		default:
			fs.store(tg.node, v)
		}
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
func (fs *funcState) propertyKey(key int32, v ssa.Temp) ssa.Temp { return fs.propertyReader(key, v)() }

// propertyReader evaluates the property key if it is computed, and returns the read of that
// property of v, to make once the target's reference is evaluated.
func (fs *funcState) propertyReader(key int32, v ssa.Temp) func() ssa.Temp {
	t := fs.lw.t
	if t.Nodes[key].Kind == ts.KindComputedPropertyName {
		k := fs.expr(key)
		return func() ssa.Temp { return fs.emit(ssa.OpIndex, "", key, v, k) }
	}
	return func() ssa.Temp { return fs.emit(ssa.OpProperty, string(t.Text(key)), key, v) }
}

// objectPattern destructures v into the properties of the object pattern p, each key
// evaluated before its target.
func (fs *funcState) objectPattern(p int32, v ssa.Temp) {
	t := fs.lw.t
	for c := range fs.children(p) {
		switch t.Nodes[c].Kind {
		case ts.KindShorthandPropertyIdentifierPattern:
			fs.element(c, func() ssa.Temp { return fs.propertyKey(c, v) })
		case ts.KindObjectAssignmentPattern:
			left := fs.field(c, ts.FieldLeft)
			fs.element(c, func() ssa.Temp { return fs.propertyKey(left, v) })
		case ts.KindPairPattern:
			key := fs.field(c, ts.FieldKey)
			read := fs.propertyReader(key, v)
			fs.element(fs.field(c, ts.FieldValue), read)
		case ts.KindRestPattern:
			fs.element(fs.first(c), func() ssa.Temp { return fs.intrinsic(ssa.IntrinsicRestProperties, "", c, v) })
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
			from := index
			fs.element(fs.first(c), func() ssa.Temp {
				return fs.intrinsic(ssa.IntrinsicRestElements, "RestElements from "+strconv.Itoa(from), c, v)
			})
		default:
			i := index
			fs.element(c, func() ssa.Temp { return fs.emit(ssa.OpIndex, "", c, v, fs.constant(strconv.Itoa(i), c)) })
		}
	}
}
