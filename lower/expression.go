package lower

import (
	"strings"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// Expressions: each lowers to instructions that compute a temporary, in JavaScript's order of
// evaluation. Only the expressions that can skip part of themselves (&&, ||, ??, the logical
// assignments, ?:, optional chains, default values) make blocks.

// maxConstText bounds the literal text kept in a Const instruction.
const maxConstText = 40

// exprNamed lowers n; a function or class expression takes the name of the node name (-1:
// none) if it is a variable or a property name, as JavaScript's named evaluation does, also
// inside TypeScript's wrappers (f = (() => 1) as T names the arrow f, as its JavaScript does).
func (fs *funcState) exprNamed(n, name int32) ssa.Temp {
	t := fs.lw.t
	for n >= 0 && isWrapper(t.Nodes[n].Kind) {
		n = wrapped(t, n)
	}
	hint := ""
	if name >= 0 {
		switch t.Nodes[name].Kind {
		case ts.KindIdentifier, ts.KindShorthandPropertyIdentifierPattern, ts.KindPropertyIdentifier,
			ts.KindPrivatePropertyIdentifier:
			hint = string(t.Text(name))
		}
	}
	switch t.Nodes[n].Kind {
	case ts.KindFunctionExpression, ts.KindGeneratorFunction, ts.KindArrowFunction:
		return fs.closure(n, hint)
	case ts.KindClass:
		return fs.class(n, hint)
	}
	return fs.expr(n)
}

// expr lowers the expression n and returns the temporary holding its value.
func (fs *funcState) expr(n int32) ssa.Temp {
	if !fs.nest(n) {
		return fs.undefined(n)
	}
	defer fs.unnest()
	t := fs.lw.t
	node := &t.Nodes[n]
	switch node.Kind {
	case ts.KindIdentifier, ts.KindShorthandPropertyIdentifier:
		if v, ok := fs.enumMember(n); ok {
			return v
		}
		return fs.load(n)
	case ts.KindUndefined:
		return fs.undefined(n)
	case ts.KindNumber, ts.KindString, ts.KindRegex, ts.KindTrue, ts.KindFalse, ts.KindNull,
		ts.KindPrivatePropertyIdentifier:
		text := string(t.Text(n))
		if len(text) > maxConstText {
			text = text[:maxConstText] + "…"
		}
		return fs.constant(text, n)
	case ts.KindThis:
		return fs.intrinsic(ssa.IntrinsicThis, "", n)
	case ts.KindSuper:
		return fs.intrinsic(ssa.IntrinsicSuper, "", n)
	case ts.KindMetaProperty:
		return fs.intrinsic(ssa.IntrinsicMetaProperty, string(t.Text(n)), n)
	case ts.KindImport:
		return fs.intrinsic(ssa.IntrinsicDynamicImport, "import", n)
	case ts.KindParenthesizedExpression, ts.KindSequenceExpression, ts.KindTemplateSubstitution,
		ts.KindComputedPropertyName, ts.KindJSXExpression:
		return fs.sequence(n)
	case ts.KindTemplateString:
		return fs.combine(ssa.IntrinsicTemplate, n, func(c int32) bool { return t.Nodes[c].Kind == ts.KindTemplateSubstitution })
	case ts.KindArray:
		return fs.combine(ssa.IntrinsicArray, n, nil)
	case ts.KindObject:
		return fs.object(n)
	case ts.KindSpreadElement:
		return fs.combine(ssa.IntrinsicSpread, n, nil)
	case ts.KindAwaitExpression:
		return fs.combine(ssa.IntrinsicAwait, n, nil)
	case ts.KindYieldExpression:
		yield := ssa.IntrinsicYield
		if c := t.Nodes[n].FirstChild; c >= 0 && t.Nodes[c].NextSibling >= 0 && t.Nodes[t.Nodes[c].NextSibling].Kind == ts.TokenKind("*") {
			yield = ssa.IntrinsicYieldDelegate
		}
		return fs.combine(yield, n, nil)
	case ts.KindFunctionExpression, ts.KindGeneratorFunction, ts.KindArrowFunction:
		return fs.closure(n, "")
	case ts.KindClass:
		return fs.class(n, "")
	case ts.KindMemberExpression, ts.KindSubscriptExpression, ts.KindCallExpression:
		return fs.optionalChain(n)
	case ts.KindNewExpression:
		ctor := fs.expr(fs.field(n, ts.FieldConstructor))
		return fs.call(ssa.OpNew, n, ctor, fs.field(n, ts.FieldArguments))
	case ts.KindUnaryExpression:
		return fs.unary(n)
	case ts.KindBinaryExpression:
		return fs.binary(n)
	case ts.KindTernaryExpression:
		return fs.ternary(n)
	case ts.KindAssignmentExpression:
		return fs.assignment(n)
	case ts.KindAugmentedAssignmentExpression:
		return fs.augmented(n)
	case ts.KindUpdateExpression:
		return fs.update(n)
	case ts.KindJSXElement, ts.KindJSXSelfClosingElement:
		return fs.jsx(n)
	case ts.KindNonNullExpression, ts.KindAsExpression, ts.KindSatisfiesExpression, ts.KindTypeAssertion,
		ts.KindInstantiationExpression:
		if w := wrapped(t, n); w >= 0 {
			return fs.expr(w)
		}
	case ts.KindInternalModule:
		return fs.namespace(n)
	}
	fs.any(n)
	return fs.intrinsic(ssa.IntrinsicSyntax, node.Kind.String(), n)
}

// sequence lowers each child in order and returns the last value.
func (fs *funcState) sequence(n int32) ssa.Temp {
	v := ssa.NoTemp
	for c := range fs.children(n) {
		v = fs.expr(c)
	}
	if v == ssa.NoTemp {
		v = fs.undefined(n)
	}
	return v
}

// combine lowers the children of n accepted by keep (nil: all) and combines them with the
// intrinsic i.
func (fs *funcState) combine(i ssa.Intrinsic, n int32, keep func(int32) bool) ssa.Temp {
	var args []ssa.Temp
	for c := range fs.children(n) {
		if keep == nil || keep(c) {
			args = append(args, fs.expr(c))
		}
	}
	return fs.intrinsic(i, "", n, args...)
}

// object lowers an object literal: its computed keys and values in order.
func (fs *funcState) object(n int32) ssa.Temp {
	t := fs.lw.t
	var args []ssa.Temp
	for c := range fs.children(n) {
		switch t.Nodes[c].Kind {
		case ts.KindPair:
			key := fs.field(c, ts.FieldKey)
			if key >= 0 && t.Nodes[key].Kind == ts.KindComputedPropertyName {
				args = append(args, fs.expr(key))
			}
			if v := fs.field(c, ts.FieldValue); v >= 0 {
				args = append(args, fs.exprNamed(v, key))
			}
		case ts.KindMethodDefinition:
			args = fs.method(c, args)
		default:
			args = append(args, fs.expr(c))
		}
	}
	return fs.intrinsic(ssa.IntrinsicObject, "", n, args...)
}

// optionalChain lowers a member, subscript or call expression. If its chain has optional
// links, a nullish value at one of them short-circuits the whole chain to undefined. For
// `a?.b.c`:
//
//	    ...a...
//	    If a == null then short else chain
//	chain:
//	    r = a.b.c
//	    Goto join
//	short:                   (one per ?.)
//	    r = undefined
//	    Goto join
//	join:
func (fs *funcState) optionalChain(n int32) ssa.Temp { return fs.chain(n, nil, "") }

// chain lowers the chain of member, subscript and call expressions n, the outermost link done
// by last if it is not nil (delete), the short-circuited chain's value the literal short
// ("": undefined).
func (fs *funcState) chain(n int32, last func(o ssa.Temp) ssa.Temp, short string) ssa.Temp {
	var shorts []*ssa.Block
	v := fs.chainLink(n, &shorts, last)
	if len(shorts) == 0 {
		return v
	}
	end := fs.lw.t.Nodes[n].End
	r := fs.fn.NewTemp()
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(n), v)
	join := fs.joinAfter(n, "join")
	fs.gotoBlock(join, end)
	for _, s := range shorts {
		if short == "" {
			s.EmitTo(r, ssa.OpUndefined, "", fs.span(n))
		} else {
			s.EmitTo(r, ssa.OpConst, short, fs.span(n))
		}
		s.Goto(join).Span = s.Anchor
	}
	fs.startBlock(join)
	return r
}

func isChainLink(k ts.Kind) bool {
	return k == ts.KindMemberExpression || k == ts.KindSubscriptExpression || k == ts.KindCallExpression
}

// chainLink lowers one link of a chain of member, subscript and call expressions, innermost
// first, the link n itself by last if it is not nil; an optional link adds its short-circuit
// block to shorts.
func (fs *funcState) chainLink(n int32, shorts *[]*ssa.Block, last func(o ssa.Temp) ssa.Temp) ssa.Temp {
	if !fs.nest(n) {
		return fs.undefined(n)
	}
	defer fs.unnest()
	t := fs.lw.t
	kind := t.Nodes[n].Kind
	inner := fs.field(n, ts.FieldObject)
	if kind == ts.KindCallExpression {
		inner = fs.field(n, ts.FieldFunction)
	}
	opt := optionalLink(t, n)
	// eval(…) and (eval)(…) are direct evals when eval is the global one; eval?.(…) and
	// (0, eval)(…) never are.
	if callee := unparen(t, inner); kind == ts.KindCallExpression && t.Nodes[callee].Kind == ts.KindIdentifier &&
		string(ts.IdentifierName(t.Text(callee))) == "eval" && fs.scope.lookup(t.Text(callee)) == nil && opt < 0 {
		fs.directEval(n)
	}
	inner = chainInner(t, inner)
	var o ssa.Temp
	if isChainLink(t.Nodes[inner].Kind) {
		o = fs.chainLink(inner, shorts, nil)
	} else {
		o = fs.expr(inner)
	}
	if opt >= 0 {
		null := fs.constant("null", opt)
		nullish := fs.cur.Binary(ssa.OperatorEq, fs.span(opt), o, null)
		short := fs.newBlock("short")
		short.Anchor = fs.span(opt) // where the short-circuit edge leaves
		next := fs.newBlock("chain")
		fs.cur.If(nullish, short, next).Span = fs.span(opt)
		*shorts = append(*shorts, short)
		fs.startBlock(next)
	}
	switch {
	case last != nil:
		return last(o)
	case kind == ts.KindMemberExpression:
		return fs.emit(ssa.OpProperty, string(t.Text(fs.field(n, ts.FieldProperty))), n, o)
	case kind == ts.KindSubscriptExpression:
		return fs.emit(ssa.OpIndex, "", n, o, fs.expr(fs.field(n, ts.FieldIndex)))
	}
	return fs.call(ssa.OpCall, n, o, fs.field(n, ts.FieldArguments))
}

// call lowers the arguments node args (a list, or a tagged template) and the call.
func (fs *funcState) call(op ssa.Op, n int32, callee ssa.Temp, args int32) ssa.Temp {
	operands := []ssa.Temp{callee}
	if args >= 0 {
		if fs.lw.t.Nodes[args].Kind == ts.KindTemplateString {
			operands = append(operands, fs.expr(args))
		} else {
			for a := range fs.children(args) {
				operands = append(operands, fs.expr(a))
			}
		}
	}
	return fs.emit(op, "", n, operands...)
}

// operator returns the text of n's operator, "" if error recovery left it out.
func (fs *funcState) operator(n int32) string {
	if op := fs.field(n, ts.FieldOperator); op >= 0 {
		return string(fs.lw.t.Text(op))
	}
	return ""
}

// unary lowers a unary operator; `delete` of a property is an intrinsic on the object, which
// an optional chain before it may skip (`delete a?.b` is true when a is nullish).
func (fs *funcState) unary(n int32) ssa.Temp {
	t := fs.lw.t
	op := ssa.Operators[fs.operator(n)]
	arg := unparen(t, fs.field(n, ts.FieldArgument))
	if op == ssa.OperatorDelete && arg >= 0 && (t.Nodes[arg].Kind == ts.KindMemberExpression || t.Nodes[arg].Kind == ts.KindSubscriptExpression) {
		return fs.chain(arg, func(o ssa.Temp) ssa.Temp {
			if t.Nodes[arg].Kind == ts.KindMemberExpression {
				return fs.intrinsic(ssa.IntrinsicDelete, "Delete ."+string(t.Text(fs.field(arg, ts.FieldProperty))), n, o)
			}
			return fs.intrinsic(ssa.IntrinsicDelete, "", n, o, fs.expr(fs.field(arg, ts.FieldIndex)))
		}, "true")
	}
	return fs.cur.Unary(op, fs.span(n), fs.expr(arg))
}

// unparen returns the expression inside the parentheses around n, if it is not a sequence,
// and inside TypeScript's wrappers, which keep its value and its place as a target.
func unparen(t *ts.Tree, n int32) int32 {
	for n >= 0 {
		var inner int32
		switch k := t.Nodes[n].Kind; {
		case k == ts.KindParenthesizedExpression:
			inner = t.FirstNamedChild(n)
		case isWrapper(k):
			inner = wrapped(t, n)
		default:
			return n
		}
		if inner < 0 || t.Nodes[inner].Kind == ts.KindSequenceExpression {
			return n
		}
		n = inner
	}
	return n
}

// binary lowers a binary operator, the logical ones through shortCircuit.
func (fs *funcState) binary(n int32) ssa.Temp {
	op := ssa.Operators[fs.operator(n)]
	left := fs.field(n, ts.FieldLeft)
	right := fs.field(n, ts.FieldRight)
	switch op {
	case ssa.OperatorAnd, ssa.OperatorOr, ssa.OperatorNullish:
		l := fs.expr(left)
		return fs.shortCircuit(n, op, l, fs.field(n, ts.FieldOperator), func() ssa.Temp { return fs.expr(right) })
	}
	l := fs.expr(left)
	return fs.cur.Binary(op, fs.span(n), l, fs.expr(right))
}

// shortCircuit evaluates rhs only if l does not already decide the logical operator op (&&,
// ||, ??, also for a logical assignment); it returns the value of the whole expression. The
// edge that skips rhs leaves at node at. For `l && rhs`:
//
//	    r = l
//	    If l then rhs else join        (||: If l then join else rhs; ??: If l == null then rhs else join)
//	rhs:
//	    r = ...rhs...
//	    Goto join
//	join:
func (fs *funcState) shortCircuit(n int32, op ssa.Operator, l ssa.Temp, at int32, rhs func() ssa.Temp) ssa.Temp {
	r := fs.fn.NewTemp()
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(n), l)
	eval := fs.newBlock("rhs")
	join := fs.joinAfter(n, "join")
	switch op {
	case ssa.OperatorAnd:
		fs.cur.If(l, eval, join).Span = fs.span(at)
	case ssa.OperatorOr:
		fs.cur.If(l, join, eval).Span = fs.span(at)
	default:
		null := fs.constant("null", at)
		fs.cur.If(fs.cur.Binary(ssa.OperatorEq, fs.span(at), l, null), eval, join).Span = fs.span(at)
	}
	fs.startBlock(eval)
	v := rhs()
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(n), v)
	fs.gotoBlock(join, fs.lw.t.Nodes[n].End)
	fs.startBlock(join)
	return r
}

// ternary lowers `cond ? a : b`:
//
//	    ...cond...
//	    If cond then then else else
//	then:
//	    r = ...a...
//	    Goto join
//	else:
//	    r = ...b...
//	    Goto join
//	join:
func (fs *funcState) ternary(n int32) ssa.Temp {
	t := fs.lw.t
	cond := fs.field(n, ts.FieldCondition)
	c := fs.expr(cond)
	then := fs.newBlock("then")
	els := fs.newBlock("else")
	join := fs.joinAfter(n, "join")
	fs.cur.If(c, then, els).Span = fs.span(cond)
	r := fs.fn.NewTemp()
	for i, b := range []*ssa.Block{then, els} {
		arm := fs.field(n, ts.FieldConsequence)
		if i == 1 {
			arm = fs.field(n, ts.FieldAlternative)
		}
		fs.startBlock(b)
		fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(arm), fs.expr(arm))
		fs.gotoBlock(join, t.Nodes[arm].End)
	}
	fs.startBlock(join)
	return r
}

// assignment lowers `left = right`: the target's reference (a property's object and key),
// then the value, then the store into the target or pattern (pattern.go).
func (fs *funcState) assignment(n int32) ssa.Temp {
	left := unparen(fs.lw.t, fs.field(n, ts.FieldLeft))
	ref := fs.reference(left)
	v := fs.exprNamed(fs.field(n, ts.FieldRight), left)
	fs.put(ref, v)
	return v
}

// target is the left-hand side of an assignment, with what JavaScript evaluates of it before
// the value: a variable, a pattern, or a property whose object (and key) are evaluated once.
// Any other left-hand side is a syntax error (error recovery makes them, as in `a -- -- 1`): it
// is evaluated once, as an expression, and never written, so that nested invalid targets cost
// linear work, not a doubling per level.
type target struct {
	node     int32
	obj, key ssa.Temp
	prop     string
	invalid  ssa.Temp // the value of a left-hand side that is not a target
}

// target evaluates the reference of the left-hand side of a compound assignment or update,
// which must be a variable or a property.
func (fs *funcState) target(n int32) target {
	t := fs.lw.t
	if k := t.Nodes[unparen(t, n)].Kind; k == ts.KindObjectPattern || k == ts.KindArrayPattern {
		return target{node: n, obj: ssa.NoTemp, key: ssa.NoTemp, invalid: fs.expr(n)}
	}
	return fs.reference(n)
}

func (fs *funcState) read(tg target) ssa.Temp {
	switch {
	case tg.invalid != ssa.NoTemp:
		return tg.invalid
	case tg.key != ssa.NoTemp:
		return fs.emit(ssa.OpIndex, "", tg.node, tg.obj, tg.key)
	case tg.obj != ssa.NoTemp:
		return fs.emit(ssa.OpProperty, tg.prop, tg.node, tg.obj)
	}
	return fs.load(tg.node)
}

// augmented lowers a compound assignment `x op= y`: read x, compute, write x; the logical
// ones (`&&=`, `||=`, `??=`) write only when they evaluate y (shortCircuit).
func (fs *funcState) augmented(n int32) ssa.Temp {
	op := ssa.Operators[strings.TrimSuffix(fs.operator(n), "=")]
	tg := fs.target(fs.field(n, ts.FieldLeft))
	old := fs.read(tg)
	right := fs.field(n, ts.FieldRight)
	switch op {
	case ssa.OperatorAnd, ssa.OperatorOr, ssa.OperatorNullish:
		return fs.shortCircuit(n, op, old, fs.field(n, ts.FieldOperator), func() ssa.Temp {
			v := fs.exprNamed(right, tg.node)
			fs.put(tg, v)
			return v
		})
	}
	v := fs.cur.Binary(op, fs.span(n), old, fs.expr(right))
	fs.put(tg, v)
	return v
}

// update lowers `x++`, `++x`, `x--`, `--x`: read x, add or subtract 1, write x; the value is
// the old one for a postfix operator, the new one for a prefix one.
func (fs *funcState) update(n int32) ssa.Temp {
	t := fs.lw.t
	tg := fs.target(fs.field(n, ts.FieldArgument))
	old := fs.read(tg)
	one := fs.constant("1", n)
	op := ssa.OperatorAdd // also for a missing operator, a syntax error
	if fs.operator(n) == "--" {
		op = ssa.OperatorSub
	}
	v := fs.cur.Binary(op, fs.span(n), old, one)
	fs.put(tg, v)
	if c := t.Nodes[n].FirstChild; c >= 0 && t.Nodes[c].Field == ts.FieldOperator {
		return v
	}
	return old
}
