package lower

import (
	ts "github.com/ssalens/ssalens/treesitter"
	"strconv"
	"strings"

	"github.com/ssalens/ssalens/ssa"
)

// maxConstText bounds the literal text kept in a Const instruction.
const maxConstText = 40

// exprNamed lowers n; a function or class expression takes the name of the identifier node
// name (-1: none), as JavaScript's named evaluation does.
func (fs *funcState) exprNamed(n, name int32) ssa.Temp {
	t := fs.lw.t
	hint := ""
	if name >= 0 && t.Nodes[name].Kind == ts.KindIdentifier {
		hint = string(t.Text(name))
	}
	switch t.Nodes[n].Kind {
	case ts.KindFunctionExpression, ts.KindGeneratorFunction, ts.KindArrowFunction:
		return fs.closure(n, hint)
	case ts.KindClass:
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
	case ts.KindIdentifier, ts.KindShorthandPropertyIdentifier:
		return fs.load(n)
	case ts.KindNumber, ts.KindString, ts.KindRegex, ts.KindTrue, ts.KindFalse, ts.KindNull, ts.KindUndefined,
		ts.KindPrivatePropertyIdentifier:
		text := string(t.Text(n))
		if len(text) > maxConstText {
			text = text[:maxConstText] + "…"
		}
		return fs.constant(text, n)
	case ts.KindThis:
		return fs.emit(ssa.OpIntrinsic, "This", n)
	case ts.KindSuper:
		return fs.emit(ssa.OpIntrinsic, "Super", n)
	case ts.KindMetaProperty, ts.KindImport:
		return fs.emit(ssa.OpIntrinsic, string(t.Text(n)), n)
	case ts.KindParenthesizedExpression:
		return fs.sequence(n)
	case ts.KindSequenceExpression:
		return fs.sequence(n)
	case ts.KindTemplateString:
		return fs.intrinsic("Template", n, func(c int32) bool { return t.Nodes[c].Kind == ts.KindTemplateSubstitution })
	case ts.KindTemplateSubstitution, ts.KindComputedPropertyName, ts.KindJSXExpression:
		return fs.sequence(n)
	case ts.KindArray:
		return fs.intrinsic("Array", n, nil)
	case ts.KindObject:
		return fs.object(n)
	case ts.KindSpreadElement:
		return fs.intrinsic("Spread", n, nil)
	case ts.KindAwaitExpression:
		return fs.intrinsic("Await", n, nil)
	case ts.KindYieldExpression:
		name := "Yield"
		if c := t.Nodes[n].FirstChild; c >= 0 && t.Nodes[c].NextSibling >= 0 && t.Nodes[t.Nodes[c].NextSibling].Kind == ts.TokenKind("*") {
			name = "YieldDelegate"
		}
		return fs.intrinsic(name, n, nil)
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
		case ts.KindPair:
			key := fs.field(c, ts.FieldKey)
			if key >= 0 && t.Nodes[key].Kind == ts.KindComputedPropertyName {
				args = append(args, fs.expr(key))
			}
			if v := fs.field(c, ts.FieldValue); v >= 0 {
				args = append(args, fs.exprNamed(v, key))
			}
		case ts.KindMethodDefinition:
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
	if key := fs.field(n, ts.FieldName); key >= 0 {
		if t.Nodes[key].Kind == ts.KindComputedPropertyName {
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
			return fs.constant("undefined", m)
		}
		return fs.cur.Closure(fs.lw.lowerInitializer(fs, m, value, name), fs.span(m))
	case ts.KindClassStaticBlock:
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

func isChainLink(k ts.Kind) bool {
	return k == ts.KindMemberExpression || k == ts.KindSubscriptExpression || k == ts.KindCallExpression
}

func (fs *funcState) chainLink(n int32, shorts *[]*ssa.Block) ssa.Temp {
	if !fs.nest(n) {
		return fs.constant("undefined", n)
	}
	defer fs.unnest()
	t := fs.lw.t
	kind := t.Nodes[n].Kind
	inner := fs.field(n, ts.FieldObject)
	if kind == ts.KindCallExpression {
		inner = fs.field(n, ts.FieldFunction)
	}
	// eval(…) is a direct eval when eval is the global one; eval?.(…) never is.
	if kind == ts.KindCallExpression && t.Nodes[inner].Kind == ts.KindIdentifier && string(t.Text(inner)) == "eval" &&
		fs.scope.lookup(t.Text(inner)) == nil && fs.field(n, ts.FieldOptionalChain) < 0 {
		fs.directEval(n)
	}
	var o ssa.Temp
	if isChainLink(t.Nodes[inner].Kind) {
		o = fs.chainLink(inner, shorts)
	} else {
		o = fs.expr(inner)
	}
	if opt := fs.field(n, ts.FieldOptionalChain); opt >= 0 {
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
	case ts.KindMemberExpression:
		return fs.emit(ssa.OpProperty, string(t.Text(fs.field(n, ts.FieldProperty))), n, o)
	case ts.KindSubscriptExpression:
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

func (fs *funcState) operator(n int32) string {
	if op := fs.field(n, ts.FieldOperator); op >= 0 {
		return string(fs.lw.t.Text(op))
	}
	return ""
}

func (fs *funcState) unary(n int32) ssa.Temp {
	t := fs.lw.t
	op := fs.operator(n)
	arg := unparen(t, fs.field(n, ts.FieldArgument))
	if op == "delete" && (t.Nodes[arg].Kind == ts.KindMemberExpression || t.Nodes[arg].Kind == ts.KindSubscriptExpression) {
		o := fs.expr(fs.field(arg, ts.FieldObject))
		if t.Nodes[arg].Kind == ts.KindMemberExpression {
			return fs.emit(ssa.OpIntrinsic, "Delete ."+string(t.Text(fs.field(arg, ts.FieldProperty))), n, o)
		}
		return fs.emit(ssa.OpIntrinsic, "Delete", n, o, fs.expr(fs.field(arg, ts.FieldIndex)))
	}
	return fs.emit(ssa.OpUnary, op, n, fs.expr(arg))
}

func unparen(t *ts.Tree, n int32) int32 {
	for n >= 0 && t.Nodes[n].Kind == ts.KindParenthesizedExpression {
		inner := t.FirstNamedChild(n)
		if inner < 0 || t.Nodes[inner].Kind == ts.KindSequenceExpression {
			return n
		}
		n = inner
	}
	return n
}

func (fs *funcState) binary(n int32) ssa.Temp {
	op := fs.operator(n)
	left := fs.field(n, ts.FieldLeft)
	right := fs.field(n, ts.FieldRight)
	switch op {
	case "&&", "||", "??":
		l := fs.expr(left)
		return fs.shortCircuit(n, op, l, fs.field(n, ts.FieldOperator), func() ssa.Temp { return fs.expr(right) })
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

func (fs *funcState) assignment(n int32) ssa.Temp {
	left := unparen(fs.lw.t, fs.field(n, ts.FieldLeft))
	v := fs.exprNamed(fs.field(n, ts.FieldRight), left)
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
	case ts.KindIdentifier:
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
	tg := fs.target(fs.field(n, ts.FieldLeft))
	old := fs.read(tg)
	right := fs.field(n, ts.FieldRight)
	switch op {
	case "&&=", "||=", "??=":
		return fs.shortCircuit(n, op, old, fs.field(n, ts.FieldOperator), func() ssa.Temp {
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
	tg := fs.target(fs.field(n, ts.FieldArgument))
	old := fs.read(tg)
	one := fs.constant("1", n)
	binop := "+" // also for a missing operator, a syntax error
	if op == "--" {
		binop = "-"
	}
	v := fs.emit(ssa.OpBinary, binop, n, old, one)
	fs.write(tg, v)
	if c := t.Nodes[n].FirstChild; c >= 0 && t.Nodes[c].Field == ts.FieldOperator {
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
	if t.Nodes[key].Kind == ts.KindComputedPropertyName {
		return fs.emit(ssa.OpIndex, "", key, v, fs.expr(key))
	}
	return fs.emit(ssa.OpProperty, string(t.Text(key)), key, v)
}

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
		case node.Flags&ts.Named == 0:
			if t.Src[node.Start] == ',' {
				index++
			}
		case node.Flags&ts.Extra != 0:
		case node.Kind == ts.KindRestPattern:
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
	return fs.emit(ssa.OpIntrinsic, "JSX <"+name+">", n, args...)
}
