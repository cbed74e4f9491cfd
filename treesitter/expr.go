package treesitter

import (
	"strconv"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

var (
	anonVar  = AnonKind("var")
	anonLet  = AnonKind("let")
	anonStar = AnonKind("*")
)

// maxConstText bounds the literal text kept in a Const instruction.
const maxConstText = 40

// exprNamed lowers n; a function or class expression takes the name of the identifier node
// name (-1: none), as JavaScript's named evaluation does.
func (fs *funcState) exprNamed(n, name int32) ssa.Temp {
	t := fs.lw.t
	hint := ""
	if name >= 0 && t.Nodes[name].Kind == KindIdentifier {
		hint = string(t.Text(name))
	}
	switch t.Nodes[n].Kind {
	case KindFunctionExpression, KindGeneratorFunction, KindArrowFunction:
		return fs.closure(n, hint)
	case KindClass:
		return fs.class(n, hint)
	}
	return fs.expr(n)
}

func (fs *funcState) expr(n int32) ssa.Temp {
	if !fs.nest(n) {
		return fs.constant("undefined", n)
	}
	defer fs.unnest()
	t := fs.lw.t
	node := &t.Nodes[n]
	switch node.Kind {
	case KindIdentifier, KindShorthandPropertyIdentifier:
		return fs.load(n)
	case KindNumber, KindString, KindRegex, KindTrue, KindFalse, KindNull, KindUndefined,
		KindPrivatePropertyIdentifier:
		text := string(t.Text(n))
		if len(text) > maxConstText {
			text = text[:maxConstText] + "…"
		}
		return fs.constant(text, n)
	case KindThis:
		return fs.emit(ssa.OpIntrinsic, "This", n)
	case KindSuper:
		return fs.emit(ssa.OpIntrinsic, "Super", n)
	case KindMetaProperty, KindImport:
		return fs.emit(ssa.OpIntrinsic, string(t.Text(n)), n)
	case KindParenthesizedExpression:
		return fs.sequence(n)
	case KindSequenceExpression:
		return fs.sequence(n)
	case KindTemplateString:
		return fs.intrinsic("Template", n, func(c int32) bool { return t.Nodes[c].Kind == KindTemplateSubstitution })
	case KindTemplateSubstitution, KindComputedPropertyName, KindJSXExpression:
		return fs.sequence(n)
	case KindArray:
		return fs.intrinsic("Array", n, nil)
	case KindObject:
		return fs.object(n)
	case KindSpreadElement:
		return fs.intrinsic("Spread", n, nil)
	case KindAwaitExpression:
		return fs.intrinsic("Await", n, nil)
	case KindYieldExpression:
		name := "Yield"
		if c := t.Nodes[n].FirstChild; c >= 0 && t.Nodes[c].NextSibling >= 0 && t.Nodes[t.Nodes[c].NextSibling].Kind == anonStar {
			name = "YieldDelegate"
		}
		return fs.intrinsic(name, n, nil)
	case KindFunctionExpression, KindGeneratorFunction, KindArrowFunction:
		return fs.closure(n, "")
	case KindClass:
		return fs.class(n, "")
	case KindMemberExpression, KindSubscriptExpression, KindCallExpression:
		return fs.optionalChain(n)
	case KindNewExpression:
		ctor := fs.expr(fs.field(n, FieldConstructor))
		return fs.call(ssa.OpNew, n, ctor, fs.field(n, FieldArguments))
	case KindUnaryExpression:
		return fs.unary(n)
	case KindBinaryExpression:
		return fs.binary(n)
	case KindTernaryExpression:
		return fs.ternary(n)
	case KindAssignmentExpression:
		return fs.assignment(n)
	case KindAugmentedAssignmentExpression:
		return fs.augmented(n)
	case KindUpdateExpression:
		return fs.update(n)
	case KindJSXElement, KindJSXSelfClosingElement:
		return fs.jsx(n)
	}
	fs.any(n)
	return fs.emit(ssa.OpIntrinsic, node.Kind.String(), n)
}

// sequence lowers each child in order and returns the last value.
func (fs *funcState) sequence(n int32) ssa.Temp {
	v := ssa.NoTemp
	for c := range fs.children(n) {
		v = fs.expr(c)
	}
	if v == ssa.NoTemp {
		v = fs.constant("undefined", n)
	}
	return v
}

// intrinsic lowers the children of n accepted by keep (nil: all) and combines them.
func (fs *funcState) intrinsic(name string, n int32, keep func(int32) bool) ssa.Temp {
	var args []ssa.Temp
	for c := range fs.children(n) {
		if keep == nil || keep(c) {
			args = append(args, fs.expr(c))
		}
	}
	return fs.emit(ssa.OpIntrinsic, name, n, args...)
}

func (fs *funcState) object(n int32) ssa.Temp {
	t := fs.lw.t
	var args []ssa.Temp
	for c := range fs.children(n) {
		switch t.Nodes[c].Kind {
		case KindPair:
			key := fs.field(c, FieldKey)
			if key >= 0 && t.Nodes[key].Kind == KindComputedPropertyName {
				args = append(args, fs.expr(key))
			}
			if v := fs.field(c, FieldValue); v >= 0 {
				args = append(args, fs.exprNamed(v, key))
			}
		case KindMethodDefinition:
			args = append(args, fs.method(c))
		default:
			args = append(args, fs.expr(c))
		}
	}
	return fs.emit(ssa.OpIntrinsic, "Object", n, args...)
}

// method lowers a method definition: its computed key in the current function, its body as a
// nested function.
func (fs *funcState) method(n int32) ssa.Temp {
	t := fs.lw.t
	name := ""
	if key := fs.field(n, FieldName); key >= 0 {
		if t.Nodes[key].Kind == KindComputedPropertyName {
			fs.expr(key)
		} else {
			name = string(t.Text(key))
		}
	}
	return fs.closure(n, name)
}

func (fs *funcState) class(n int32, hint string) ssa.Temp {
	t := fs.lw.t
	name := hint
	id := fs.field(n, FieldName)
	if id >= 0 {
		name = string(t.Text(id))
	}
	var args []ssa.Temp
	saved := fs.scope
	var self *ssa.Binding
	if id >= 0 && t.Nodes[n].Kind == KindClass {
		// A class expression's name is bound inside the class only.
		fs.scope = &scope{parent: saved, fs: fs}
		self = fs.scope.declare(t.Text(id), ssa.Class, fs.span(id))
	}
	for c := range fs.children(n) {
		switch t.Nodes[c].Kind {
		case KindClassHeritage, KindDecorator:
			args = append(args, fs.sequence(c))
		case KindClassBody:
			for m := range fs.children(c) {
				args = append(args, fs.member(m, name))
			}
		}
	}
	v := fs.emit(ssa.OpIntrinsic, "Class "+name, n, args...)
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
	case KindMethodDefinition:
		return fs.method(m)
	case KindFieldDefinition:
		prop := fs.field(m, FieldProperty)
		name := class + "." + string(t.Text(prop))
		if prop >= 0 && t.Nodes[prop].Kind == KindComputedPropertyName {
			fs.expr(prop)
			name = class + "[]"
		}
		value := fs.field(m, FieldValue)
		if value < 0 {
			return fs.constant("undefined", m)
		}
		return fs.cur.Closure(fs.lw.lowerInitializer(fs, m, value, name), fs.span(m))
	case KindClassStaticBlock:
		return fs.cur.Closure(fs.lw.lowerStaticBlock(fs, m), fs.span(m))
	}
	return fs.expr(m)
}

// optionalChain lowers a member, subscript or call expression. If its chain has optional
// links (a?.b), a nullish value at one of them short-circuits the whole chain to undefined.
func (fs *funcState) optionalChain(n int32) ssa.Temp {
	var shorts []*ssa.Block
	v := fs.chainLink(n, &shorts)
	if len(shorts) == 0 {
		return v
	}
	end := fs.lw.t.Nodes[n].End
	r := fs.fn.NewTemp()
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(n), v)
	join := fs.joinAfter(n, "join")
	fs.gotoBlock(join, end)
	for _, s := range shorts {
		s.EmitTo(r, ssa.OpConst, "undefined", fs.span(n))
		s.Goto(join).Span = s.Anchor
	}
	fs.startBlock(join)
	return r
}

func isChainLink(k Kind) bool {
	return k == KindMemberExpression || k == KindSubscriptExpression || k == KindCallExpression
}

func (fs *funcState) chainLink(n int32, shorts *[]*ssa.Block) ssa.Temp {
	if !fs.nest(n) {
		return fs.constant("undefined", n)
	}
	defer fs.unnest()
	t := fs.lw.t
	kind := t.Nodes[n].Kind
	inner := fs.field(n, FieldObject)
	if kind == KindCallExpression {
		inner = fs.field(n, FieldFunction)
	}
	// eval(…) is a direct eval when eval is the global one; eval?.(…) never is.
	if kind == KindCallExpression && t.Nodes[inner].Kind == KindIdentifier && string(t.Text(inner)) == "eval" &&
		fs.scope.lookup(t.Text(inner)) == nil && fs.field(n, FieldOptionalChain) < 0 {
		fs.directEval(n)
	}
	var o ssa.Temp
	if isChainLink(t.Nodes[inner].Kind) {
		o = fs.chainLink(inner, shorts)
	} else {
		o = fs.expr(inner)
	}
	if opt := fs.field(n, FieldOptionalChain); opt >= 0 {
		null := fs.constant("null", opt)
		nullish := fs.emit(ssa.OpBinary, "==", opt, o, null)
		short := fs.newBlock("short")
		short.Anchor = fs.span(opt) // where the short-circuit edge leaves
		next := fs.newBlock("chain")
		fs.cur.If(nullish, short, next).Span = fs.span(opt)
		*shorts = append(*shorts, short)
		fs.startBlock(next)
	}
	switch kind {
	case KindMemberExpression:
		return fs.emit(ssa.OpProperty, string(t.Text(fs.field(n, FieldProperty))), n, o)
	case KindSubscriptExpression:
		return fs.emit(ssa.OpIndex, "", n, o, fs.expr(fs.field(n, FieldIndex)))
	}
	return fs.call(ssa.OpCall, n, o, fs.field(n, FieldArguments))
}

// call lowers the arguments node args (a list, or a tagged template) and the call.
func (fs *funcState) call(op ssa.Op, n int32, callee ssa.Temp, args int32) ssa.Temp {
	ts := []ssa.Temp{callee}
	if args >= 0 {
		if fs.lw.t.Nodes[args].Kind == KindTemplateString {
			ts = append(ts, fs.expr(args))
		} else {
			for a := range fs.children(args) {
				ts = append(ts, fs.expr(a))
			}
		}
	}
	return fs.emit(op, "", n, ts...)
}

func (fs *funcState) operator(n int32) string {
	if op := fs.field(n, FieldOperator); op >= 0 {
		return string(fs.lw.t.Text(op))
	}
	return ""
}

func (fs *funcState) unary(n int32) ssa.Temp {
	t := fs.lw.t
	op := fs.operator(n)
	arg := unparen(t, fs.field(n, FieldArgument))
	if op == "delete" && (t.Nodes[arg].Kind == KindMemberExpression || t.Nodes[arg].Kind == KindSubscriptExpression) {
		o := fs.expr(fs.field(arg, FieldObject))
		if t.Nodes[arg].Kind == KindMemberExpression {
			return fs.emit(ssa.OpIntrinsic, "Delete ."+string(t.Text(fs.field(arg, FieldProperty))), n, o)
		}
		return fs.emit(ssa.OpIntrinsic, "Delete", n, o, fs.expr(fs.field(arg, FieldIndex)))
	}
	return fs.emit(ssa.OpUnary, op, n, fs.expr(arg))
}

func unparen(t *Tree, n int32) int32 {
	for n >= 0 && t.Nodes[n].Kind == KindParenthesizedExpression {
		inner := t.FirstNamedChild(n)
		if inner < 0 || t.Nodes[inner].Kind == KindSequenceExpression {
			return n
		}
		n = inner
	}
	return n
}

func (fs *funcState) binary(n int32) ssa.Temp {
	op := fs.operator(n)
	left := fs.field(n, FieldLeft)
	right := fs.field(n, FieldRight)
	switch op {
	case "&&", "||", "??":
		l := fs.expr(left)
		return fs.shortCircuit(n, op, l, fs.field(n, FieldOperator), func() ssa.Temp { return fs.expr(right) })
	}
	l := fs.expr(left)
	return fs.emit(ssa.OpBinary, op, n, l, fs.expr(right))
}

// shortCircuit evaluates rhs only if l does not already decide the logical operator op
// (&&, ||, ??, or the same with = for a logical assignment); it returns the value of the
// whole expression. The edge that skips rhs leaves at node at.
func (fs *funcState) shortCircuit(n int32, op string, l ssa.Temp, at int32, rhs func() ssa.Temp) ssa.Temp {
	r := fs.fn.NewTemp()
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(n), l)
	eval := fs.newBlock("rhs")
	join := fs.joinAfter(n, "join")
	switch strings.TrimSuffix(op, "=") {
	case "&&":
		fs.cur.If(l, eval, join).Span = fs.span(at)
	case "||":
		fs.cur.If(l, join, eval).Span = fs.span(at)
	default:
		null := fs.constant("null", at)
		fs.cur.If(fs.emit(ssa.OpBinary, "==", at, l, null), eval, join).Span = fs.span(at)
	}
	fs.startBlock(eval)
	v := rhs()
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(n), v)
	fs.gotoBlock(join, fs.lw.t.Nodes[n].End)
	fs.startBlock(join)
	return r
}

func (fs *funcState) ternary(n int32) ssa.Temp {
	t := fs.lw.t
	cond := fs.field(n, FieldCondition)
	c := fs.expr(cond)
	then := fs.newBlock("then")
	els := fs.newBlock("else")
	join := fs.joinAfter(n, "join")
	fs.cur.If(c, then, els).Span = fs.span(cond)
	r := fs.fn.NewTemp()
	for i, b := range []*ssa.Block{then, els} {
		arm := fs.field(n, FieldConsequence)
		if i == 1 {
			arm = fs.field(n, FieldAlternative)
		}
		fs.startBlock(b)
		fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(arm), fs.expr(arm))
		fs.gotoBlock(join, t.Nodes[arm].End)
	}
	fs.startBlock(join)
	return r
}

func (fs *funcState) assignment(n int32) ssa.Temp {
	left := unparen(fs.lw.t, fs.field(n, FieldLeft))
	v := fs.exprNamed(fs.field(n, FieldRight), left)
	fs.assign(left, v)
	return v
}

// target is the left-hand side of a compound assignment or update: a variable, or a property
// whose object (and key) are evaluated once. Any other left-hand side is a syntax error (error
// recovery makes them, as in `a -- -- 1`): it is evaluated once, as an expression, and never
// written, so that nested invalid targets cost linear work, not a doubling per level.
type target struct {
	node     int32
	obj, key ssa.Temp
	prop     string
	invalid  ssa.Temp // the value of a left-hand side that is not a target
}

func (fs *funcState) target(n int32) target {
	t := fs.lw.t
	tg := target{node: unparen(t, n), obj: ssa.NoTemp, key: ssa.NoTemp, invalid: ssa.NoTemp}
	switch t.Nodes[tg.node].Kind {
	case KindIdentifier:
	case KindMemberExpression:
		tg.obj = fs.expr(fs.field(tg.node, FieldObject))
		tg.prop = string(t.Text(fs.field(tg.node, FieldProperty)))
	case KindSubscriptExpression:
		tg.obj = fs.expr(fs.field(tg.node, FieldObject))
		tg.key = fs.expr(fs.field(tg.node, FieldIndex))
	default:
		tg.invalid = fs.expr(tg.node)
	}
	return tg
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

func (fs *funcState) write(tg target, v ssa.Temp) {
	switch {
	case tg.invalid != ssa.NoTemp:
	case tg.key != ssa.NoTemp:
		fs.emit(ssa.OpSetIndex, "", tg.node, tg.obj, tg.key, v)
	case tg.obj != ssa.NoTemp:
		fs.emit(ssa.OpSetProperty, tg.prop, tg.node, tg.obj, v)
	default:
		fs.store(tg.node, v)
	}
}

func (fs *funcState) augmented(n int32) ssa.Temp {
	op := fs.operator(n)
	tg := fs.target(fs.field(n, FieldLeft))
	old := fs.read(tg)
	right := fs.field(n, FieldRight)
	switch op {
	case "&&=", "||=", "??=":
		return fs.shortCircuit(n, op, old, fs.field(n, FieldOperator), func() ssa.Temp {
			v := fs.exprNamed(right, tg.node)
			fs.write(tg, v)
			return v
		})
	}
	v := fs.emit(ssa.OpBinary, strings.TrimSuffix(op, "="), n, old, fs.expr(right))
	fs.write(tg, v)
	return v
}

func (fs *funcState) update(n int32) ssa.Temp {
	t := fs.lw.t
	op := fs.operator(n)
	tg := fs.target(fs.field(n, FieldArgument))
	old := fs.read(tg)
	one := fs.constant("1", n)
	binop := "+" // also for a missing operator, a syntax error
	if op == "--" {
		binop = "-"
	}
	v := fs.emit(ssa.OpBinary, binop, n, old, one)
	fs.write(tg, v)
	if c := t.Nodes[n].FirstChild; c >= 0 && t.Nodes[c].Field == FieldOperator {
		return v
	}
	return old
}

// assign stores v into the pattern or assignment target p, destructuring as needed.
func (fs *funcState) assign(p int32, v ssa.Temp) {
	if !fs.nest(p) {
		return
	}
	defer fs.unnest()
	t := fs.lw.t
	switch t.Nodes[p].Kind {
	case KindIdentifier:
		fs.store(p, v)
	case KindMemberExpression:
		o := fs.expr(fs.field(p, FieldObject))
		fs.emit(ssa.OpSetProperty, string(t.Text(fs.field(p, FieldProperty))), p, o, v)
	case KindSubscriptExpression:
		o := fs.expr(fs.field(p, FieldObject))
		fs.emit(ssa.OpSetIndex, "", p, o, fs.expr(fs.field(p, FieldIndex)), v)
	case KindParenthesizedExpression:
		if inner := fs.first(p); inner >= 0 {
			fs.assign(inner, v)
		}
	case KindAssignmentPattern:
		left := fs.field(p, FieldLeft)
		fs.assign(left, fs.defaulted(v, fs.field(p, FieldRight), left))
	case KindObjectPattern:
		fs.objectPattern(p, v)
	case KindArrayPattern:
		fs.arrayPattern(p, v)
	case KindRestPattern: // a rest parameter: v is already the array of the rest
		fs.assign(fs.first(p), v)
	case KindUndefined:
	default:
		fs.any(p)
	}
}

// defaulted returns v, or the value of dflt if v is undefined.
func (fs *funcState) defaulted(v ssa.Temp, dflt, name int32) ssa.Temp {
	t := fs.lw.t
	r := fs.fn.NewTemp()
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(dflt), v)
	undef := fs.constant("undefined", dflt)
	test := fs.emit(ssa.OpBinary, "===", dflt, v, undef)
	use := fs.newBlock("default")
	join := fs.joinAfter(dflt, "join")
	fs.cur.If(test, use, join).Span = fs.span(dflt)
	fs.startBlock(use)
	fs.cur.EmitTo(r, ssa.OpCopy, "", fs.span(dflt), fs.exprNamed(dflt, name))
	fs.gotoBlock(join, t.Nodes[dflt].End)
	fs.startBlock(join)
	return r
}

func (fs *funcState) propertyKey(key int32, v ssa.Temp) ssa.Temp {
	t := fs.lw.t
	if t.Nodes[key].Kind == KindComputedPropertyName {
		return fs.emit(ssa.OpIndex, "", key, v, fs.expr(key))
	}
	return fs.emit(ssa.OpProperty, string(t.Text(key)), key, v)
}

func (fs *funcState) objectPattern(p int32, v ssa.Temp) {
	t := fs.lw.t
	for c := range fs.children(p) {
		switch t.Nodes[c].Kind {
		case KindShorthandPropertyIdentifierPattern:
			fs.store(c, fs.propertyKey(c, v))
		case KindObjectAssignmentPattern:
			left := fs.field(c, FieldLeft)
			x := fs.defaulted(fs.propertyKey(left, v), fs.field(c, FieldRight), left)
			if t.Nodes[left].Kind == KindShorthandPropertyIdentifierPattern {
				fs.store(left, x)
			} else {
				fs.assign(left, x)
			}
		case KindPairPattern:
			fs.assign(fs.field(c, FieldValue), fs.propertyKey(fs.field(c, FieldKey), v))
		case KindRestPattern:
			fs.assign(fs.first(c), fs.emit(ssa.OpIntrinsic, "RestProperties", c, v))
		}
	}
}

func (fs *funcState) arrayPattern(p int32, v ssa.Temp) {
	t := fs.lw.t
	index := 0
	for c := t.Nodes[p].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
		node := &t.Nodes[c]
		switch {
		case node.Flags&Named == 0:
			if t.Src[node.Start] == ',' {
				index++
			}
		case node.Flags&Extra != 0:
		case node.Kind == KindRestPattern:
			fs.assign(fs.first(c), fs.emit(ssa.OpIntrinsic, "RestElements from "+strconv.Itoa(index), c, v))
		default:
			i := fs.constant(strconv.Itoa(index), c)
			fs.assign(c, fs.emit(ssa.OpIndex, "", c, v, i))
		}
	}
}

func (fs *funcState) jsx(n int32) ssa.Temp {
	t := fs.lw.t
	open := n
	if t.Nodes[n].Kind == KindJSXElement {
		open = fs.field(n, FieldOpenTag)
	}
	var args []ssa.Temp
	name := ""
	if tag := fs.field(open, FieldName); tag >= 0 {
		name = string(t.Text(tag))
		switch t.Nodes[tag].Kind {
		case KindIdentifier:
			if c := name[0]; c >= 'A' && c <= 'Z' || c == '_' || c == '$' {
				args = append(args, fs.load(tag)) // a component, not an HTML tag
			}
		case KindMemberExpression:
			args = append(args, fs.expr(tag))
		}
	}
	for a := range fs.children(open) {
		if t.Nodes[a].Field != FieldAttribute {
			continue
		}
		if t.Nodes[a].Kind == KindJSXExpression {
			args = append(args, fs.expr(a))
			continue
		}
		for v := range fs.children(a) {
			switch t.Nodes[v].Kind {
			case KindJSXExpression, KindJSXElement, KindJSXSelfClosingElement:
				args = append(args, fs.expr(v))
			}
		}
	}
	if open != n {
		for c := range fs.children(n) {
			switch t.Nodes[c].Kind {
			case KindJSXElement, KindJSXSelfClosingElement:
				args = append(args, fs.expr(c))
			case KindJSXExpression:
				if fs.first(c) >= 0 {
					args = append(args, fs.expr(c))
				}
			}
		}
	}
	return fs.emit(ssa.OpIntrinsic, "JSX <"+name+">", n, args...)
}
