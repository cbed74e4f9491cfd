package lower

import (
	"maps"
	"slices"

	"github.com/ssalens/ssalens/ssa"
	ts "github.com/ssalens/ssalens/treesitter"
)

// TypeScript. The lowering reads TypeScript's trees (tree-sitter-typescript's typescript and
// tsx grammars) with the code that reads JavaScript's; this file holds what only TypeScript
// has, and the small helpers through which the common code reads both grammars' shapes of the
// same JavaScript (treesitter's TestGrammarDrift pins them).
//
// Types never run, so they produce no code and no bindings: annotations, type parameters and
// arguments are fields the lowering never reads, and the declarations that only declare types
// (isTypeOnly) are skipped whole; a name only they declare is a global. Values that look like
// types are code: an enum or a namespace is a binding and an object (enum, namespace), a
// parameter property a store to this (storeParameterProperties), `import x = …` a binding,
// `export = v` a read of v. The wrappers x!, x as T, <T>x, x satisfies T and f<T> are their
// operand (unparen sees through them, so they are assignment targets too).

// tsFile is the state of lowering a file that only TypeScript's constructs use.
type tsFile struct {
	// enumMembers are the member names of each enum, from its declarations lowered so far.
	enumMembers map[*ssa.Binding]map[string]bool
	// namespaces caches instantiated, by namespace declaration node.
	namespaces map[int32]bool
	// namespaceExports are the names each namespace's declarations export, and their bindings.
	namespaceExports map[*ssa.Binding]map[string]*ssa.Binding
}

// tsFunc is the state of lowering one function that only TypeScript's constructs use.
type tsFunc struct {
	enumScope *enumScope // the enum whose initializers are being lowered
	// paramProps are the names of a constructor's parameter properties, stored after the
	// statement propsAt of its body (or at its start, when propsAt is the body).
	paramProps []int32
	propsAt    int32
}

// isTypeOnly reports whether a statement or class member of kind k only declares types or
// signatures: no code, no binding.
func isTypeOnly(k ts.Kind) bool {
	switch k {
	case ts.KindInterfaceDeclaration, ts.KindTypeAliasDeclaration, ts.KindFunctionSignature,
		ts.KindAmbientDeclaration, ts.KindMethodSignature, ts.KindAbstractMethodSignature,
		ts.KindIndexSignature:
		return true
	}
	return false
}

// isType reports whether a node of kind k is a type or declares only types: an error inside
// it (tree-sitter-typescript 0.23 rejects variance annotations, `<in T>`) breaks no code.
func isType(k ts.Kind) bool {
	switch k {
	case ts.KindTypeAnnotation, ts.KindTypeParameters, ts.KindTypeArguments, ts.KindTypePredicateAnnotation,
		ts.KindAssertsAnnotation, ts.KindImplementsClause:
		return true
	}
	return isTypeOnly(k)
}

// isWrapper reports whether an expression of kind k has the value of its operand (wrapped).
func isWrapper(k ts.Kind) bool {
	switch k {
	case ts.KindNonNullExpression, ts.KindAsExpression, ts.KindSatisfiesExpression, ts.KindTypeAssertion,
		ts.KindInstantiationExpression:
		return true
	}
	return false
}

// wrapped returns the operand of a wrapper: its expression child, the one that is not a type.
// The type of x as T and x satisfies T comes after it; the type arguments of <T>x before.
func wrapped(t *ts.Tree, n int32) int32 {
	for c := t.FirstNamedChild(n); c >= 0; c = t.NextNamedSibling(c) {
		if k := t.Nodes[c].Kind; k != ts.KindTypeArguments && t.Nodes[c].Flags&ts.Extra == 0 {
			return c
		}
	}
	return -1
}

var tokenOptionalChain = ts.TokenKind("?.")

// optionalLink returns the ?. of an optional link of a chain, or -1: JavaScript's
// optional_chain node, or, in an optional call parsed by TypeScript, the bare ?. token.
func optionalLink(t *ts.Tree, n int32) int32 {
	if opt := t.ChildByField(n, ts.FieldOptionalChain); opt >= 0 {
		return opt
	}
	if t.Nodes[n].Kind == ts.KindCallExpression {
		for c := t.Nodes[n].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Kind == tokenOptionalChain {
				return c
			}
		}
	}
	return -1
}

// chainInner returns the link a chain continues from, given the object or callee inner of a
// link: x! keeps a chain going (a?.b!.c short-circuits as a?.b.c does), parentheses end it.
func chainInner(t *ts.Tree, inner int32) int32 {
	for inner >= 0 && t.Nodes[inner].Kind == ts.KindNonNullExpression {
		inner = wrapped(t, inner)
	}
	return inner
}

// paramParts returns the pattern of the parameter p and its default value (-1: none), for
// JavaScript's bare patterns and TypeScript's parameter wrappers alike. The pattern of
// TypeScript's `this` parameter is -1: it is a type, not a parameter.
func paramParts(t *ts.Tree, p int32) (pattern, value int32) {
	switch t.Nodes[p].Kind {
	case ts.KindRequiredParameter, ts.KindOptionalParameter:
		pattern = t.ChildByField(p, ts.FieldPattern)
		if pattern >= 0 && t.Nodes[pattern].Kind == ts.KindThis {
			return -1, -1
		}
		return pattern, t.ChildByField(p, ts.FieldValue)
	case ts.KindAssignmentPattern:
		return t.ChildByField(p, ts.FieldLeft), t.ChildByField(p, ts.FieldRight)
	}
	return p, -1
}

// memberKey returns the key of a class field: JavaScript's field_definition has it in field
// property, TypeScript's public_field_definition in field name.
func memberKey(t *ts.Tree, m int32) int32 {
	if k := t.ChildByField(m, ts.FieldProperty); k >= 0 {
		return k
	}
	return t.ChildByField(m, ts.FieldName)
}

// isAmbientField reports whether a class field is `declare x: T` or `abstract x: T`, which
// define no field at all.
func isAmbientField(t *ts.Tree, m int32) bool {
	return t.HasToken(m, ts.TokenDeclare) || t.HasToken(m, ts.TokenAbstract)
}

// superclass returns the expression a class_heritage node extends, or -1: its child in
// JavaScript, the value of its extends_clause in TypeScript (an implements_clause is a type).
func superclass(t *ts.Tree, h int32) int32 {
	for c := t.FirstNamedChild(h); c >= 0; c = t.NextNamedSibling(c) {
		switch t.Nodes[c].Kind {
		case ts.KindExtendsClause:
			return t.ChildByField(c, ts.FieldValue)
		case ts.KindImplementsClause:
		default:
			if t.Nodes[c].Flags&ts.Extra == 0 {
				return c
			}
		}
	}
	return -1
}

// isTypeOnlyImportExport reports whether an import or export statement, or one of its
// specifiers, is `import type`, `export type` or `type X`: it binds and exports nothing.
func isTypeOnlyImportExport(t *ts.Tree, n int32) bool { return t.HasToken(n, ts.TokenType) }

// erased reports whether the top-level statement n is only types, so that erasing the types
// leaves nothing of it: an import or export of types, or the export of a type-only
// declaration. The import and export statements that remain make the file a module.
func (lw *lowerer) erased(n int32) bool {
	t := lw.t
	if isTypeOnlyImportExport(t, n) {
		return true
	}
	if t.Nodes[n].Kind != ts.KindExportStatement {
		return false
	}
	d := t.ChildByField(n, ts.FieldDeclaration)
	return d >= 0 && (isTypeOnly(t.Nodes[d].Kind) || isNamespace(t.Nodes[d].Kind) && !lw.instantiated(d))
}

// exportAssignment returns the expression of `export = v`, or -1.
func exportAssignment(t *ts.Tree, n int32) int32 {
	if !t.HasToken(n, ts.TokenKind("=")) {
		return -1
	}
	for c := t.FirstNamedChild(n); c >= 0; c = t.NextNamedSibling(c) {
		if k := t.Nodes[c].Kind; k != ts.KindDecorator && t.Nodes[c].Flags&ts.Extra == 0 {
			return c
		}
	}
	return -1
}

// misparsedUsing returns the assignment_expression that tree-sitter-typescript 0.23 makes of
// a `using x = v` or `await using x = v` statement n (an assignment with a stray "using"
// token, no error), or -1. It is lowered as the declaration it is.
func misparsedUsing(t *ts.Tree, n int32) int32 {
	if t.Nodes[n].Kind != ts.KindExpressionStatement {
		return -1
	}
	e := t.FirstNamedChild(n)
	if e >= 0 && t.Nodes[e].Kind == ts.KindAwaitExpression {
		e = t.FirstNamedChild(e)
	}
	if e >= 0 && t.Nodes[e].Kind == ts.KindAssignmentExpression && t.HasToken(e, ts.TokenUsing) {
		return e
	}
	return -1
}

// usingDeclaration lowers a misparsed using declaration, assignment a: its value stored into
// the name declareStatement declared.
func (fs *funcState) usingDeclaration(a int32) {
	left := fs.field(a, ts.FieldLeft)
	fs.assign(left, fs.exprNamed(fs.field(a, ts.FieldRight), left))
}

// declaredType records the type annotation ann (a type_annotation node, -1: none) of the
// declaration of the identifier name, for hover.
func (fs *funcState) declaredType(name, ann int32) {
	t := fs.lw.t
	if ann < 0 || name < 0 || t.Nodes[name].Kind != ts.KindIdentifier {
		return
	}
	if b := fs.scope.lookup(t.Text(name)); b != nil && b.Decl == fs.span(name) {
		if typ := t.FirstNamedChild(ann); typ >= 0 {
			b.Type = fs.span(typ)
		}
	}
}

// parameterProperties returns the names of the parameter properties of a constructor's
// parameter list (constructor(private x, readonly y)): the parameters with an accessibility,
// override or readonly modifier.
func parameterProperties(t *ts.Tree, list int32) []int32 {
	var names []int32
	for p := range t.NamedChildren(list) {
		if k := t.Nodes[p].Kind; k != ts.KindRequiredParameter && k != ts.KindOptionalParameter {
			continue
		}
		pattern := t.ChildByField(p, ts.FieldPattern)
		if pattern >= 0 && t.Nodes[pattern].Kind == ts.KindIdentifier && hasModifier(t, p) {
			names = append(names, pattern)
		}
	}
	return names
}

// hasModifier reports whether the parameter p has an accessibility, override or readonly
// modifier.
func hasModifier(t *ts.Tree, p int32) bool {
	for c := range t.NamedChildren(p) {
		if k := t.Nodes[c].Kind; k == ts.KindAccessibilityModifier || k == ts.KindOverrideModifier {
			return true
		}
	}
	return t.HasToken(p, ts.TokenReadonly)
}

// propertiesAt returns the statement of a constructor body after which its parameter
// properties are stored, as TypeScript emits them: the super(…) call of a derived class's
// constructor, or the body itself (at its start).
func propertiesAt(t *ts.Tree, body int32) int32 {
	for c := range t.NamedChildren(body) {
		if t.Nodes[c].Kind != ts.KindExpressionStatement {
			continue
		}
		call := t.FirstNamedChild(c)
		if call >= 0 && t.Nodes[call].Kind == ts.KindCallExpression {
			if f := t.ChildByField(call, ts.FieldFunction); f >= 0 && t.Nodes[f].Kind == ts.KindSuper {
				return c
			}
		}
	}
	return body
}

// storeParameterProperties stores each parameter property into the property of this of its
// name: this.x = x.
func (fs *funcState) storeParameterProperties() {
	t := fs.lw.t
	for _, id := range fs.paramProps {
		this := fs.intrinsic(ssa.IntrinsicThis, "", id)
		fs.emit(ssa.OpSetProperty, string(t.Text(id)), id, this, fs.load(id))
	}
}

// enum lowers an enum declaration: its binding holds the enum's object, made by the first
// declaration of the name and extended by later ones; the member initializers run in order,
// and in them a member's bare name (of this declaration or an earlier one) reads the member:
//
//	o = Enum E                 (a later declaration of E: o = LoadLocal E)
//	StoreLocal E o
//	v = ...initializer...      (a member named in it: Property name o)
//	SetProperty name o v       (each member with an initializer, in order)
func (fs *funcState) enum(n int32) {
	t := fs.lw.t
	name := fs.field(n, ts.FieldName)
	if name < 0 {
		return
	}
	b := fs.binding(name)
	o := fs.objectOf(b, name, n, ssa.IntrinsicEnum, "Enum ")
	if fs.lw.enumMembers == nil {
		fs.lw.enumMembers = make(map[*ssa.Binding]map[string]bool)
	}
	members := fs.lw.enumMembers[b]
	if members == nil {
		members = make(map[string]bool)
		fs.lw.enumMembers[b] = members
	}
	body := fs.field(n, ts.FieldBody)
	if body < 0 {
		return
	}
	for m := range fs.children(body) {
		if t.Nodes[m].Kind == ts.KindEnumAssignment {
			members[string(t.Text(fs.field(m, ts.FieldName)))] = true
		} else {
			members[string(t.Text(m))] = true
		}
	}
	saved := fs.enumScope
	fs.enumScope = &enumScope{obj: o, members: members}
	for m := range fs.children(body) {
		if t.Nodes[m].Kind != ts.KindEnumAssignment {
			continue
		}
		key := fs.field(m, ts.FieldName)
		if v := fs.field(m, ts.FieldValue); v >= 0 && key >= 0 {
			fs.emit(ssa.OpSetProperty, string(t.Text(key)), m, o, fs.expr(v))
		}
	}
	fs.enumScope = saved
}

// enumScope is an enum declaration whose member initializers are being lowered: its object
// and the names of its members.
type enumScope struct {
	obj     ssa.Temp
	members map[string]bool
}

// enumMember returns the read of the enum member that the identifier n names inside an
// enum's initializer, if it names one.
func (fs *funcState) enumMember(n int32) (ssa.Temp, bool) {
	e := fs.enumScope
	if e == nil || !e.members[string(fs.lw.t.Text(n))] {
		return ssa.NoTemp, false
	}
	return fs.emit(ssa.OpProperty, string(fs.lw.t.Text(n)), n, e.obj), true
}

// objectOf returns the object of the enum or namespace b declared at name by the declaration
// n: a new one stored into b by b's first declaration, b's value at a later one, which merges
// into it.
func (fs *funcState) objectOf(b *ssa.Binding, name, n int32, i ssa.Intrinsic, text string) ssa.Temp {
	if b.Decl != fs.span(name) {
		return fs.load(name)
	}
	o := fs.intrinsic(i, text+b.Name, n)
	fs.store(name, o)
	return o
}

// isNamespace reports whether a node of kind k is a namespace declaration: namespace N {} or
// module N {}.
func isNamespace(k ts.Kind) bool { return k == ts.KindInternalModule || k == ts.KindModule }

// namespaceOf returns the namespace declaration the statement n is, or -1: tree-sitter
// parses `namespace N {}` as an expression, so it may sit in an expression statement.
func namespaceOf(t *ts.Tree, n int32) int32 {
	if t.Nodes[n].Kind == ts.KindExpressionStatement {
		n = t.FirstNamedChild(n)
	}
	if n >= 0 && isNamespace(t.Nodes[n].Kind) {
		return n
	}
	return -1
}

// namespaceName returns the identifier a namespace declaration binds, the first of a dotted
// name (namespace A.B.C binds A), or -1 for `module "name"`, which only declaration files
// have.
func namespaceName(t *ts.Tree, n int32) int32 {
	name := t.ChildByField(n, ts.FieldName)
	for name >= 0 && t.Nodes[name].Kind != ts.KindIdentifier {
		switch t.Nodes[name].Kind {
		case ts.KindNestedIdentifier, ts.KindMemberExpression:
			name = t.ChildByField(name, ts.FieldObject)
		default:
			return -1
		}
	}
	return name
}

// namespaceBinding returns the identifier a namespace declaration binds, or -1 if it binds
// nothing: a namespace of types only, or `module "name"`.
func (lw *lowerer) namespaceBinding(n int32) int32 {
	if name := namespaceName(lw.t, n); name >= 0 && lw.instantiated(n) {
		return name
	}
	return -1
}

// instantiated reports whether the namespace declaration n has values: TypeScript emits
// nothing for a namespace of types (nor for one of namespaces of types), and it binds no name.
func (lw *lowerer) instantiated(n int32) bool {
	if v, ok := lw.namespaces[n]; ok {
		return v
	}
	t := lw.t
	v := false
	if body := t.ChildByField(n, ts.FieldBody); body >= 0 && namespaceName(t, n) >= 0 {
		for c := range t.NamedChildren(body) {
			if t.Nodes[c].Flags&ts.Extra != 0 || t.Nodes[c].Kind == ts.KindEmptyStatement || lw.erased(c) {
				continue
			}
			if ns := namespaceOf(t, c); ns >= 0 && !lw.instantiated(ns) || isTypeOnly(t.Nodes[c].Kind) {
				continue
			}
			v = true
			break
		}
	}
	if lw.namespaces == nil {
		lw.namespaces = make(map[int32]bool)
	}
	lw.namespaces[n] = v
	return v
}

// namespace lowers a namespace declaration with values (namespace N {…}, module N {…}). Its
// binding holds the namespace's object, made by the first declaration of the name and extended
// by later ones; its body is a function of its own, called once, right there:
//
//	o = Namespace N            (a later declaration of N: o = LoadLocal N)
//	StoreLocal N o
//	f = Function N             (the body; see lowerNamespace)
//	Call f o
//
// A namespace of types only is nothing.
func (fs *funcState) namespace(n int32) ssa.Temp {
	name := fs.lw.namespaceBinding(n)
	if name < 0 {
		return fs.undefined(n)
	}
	b := fs.binding(name)
	o := fs.objectOf(b, name, n, ssa.IntrinsicNamespace, "Namespace ")
	f := fs.cur.Closure(fs.lw.lowerNamespace(fs, n, b), fs.span(n))
	return fs.emit(ssa.OpCall, "", n, f, o)
}

// namespaceStmt lowers a namespace declaration that is a statement: nothing for a namespace of
// types.
func (fs *funcState) namespaceStmt(n int32) {
	if fs.lw.namespaceBinding(n) >= 0 {
		fs.namespace(n)
	}
}

// lowerNamespace lowers the body of the namespace declaration n, of the namespace b, as a
// function nested in outer. Its declarations are its locals, except the exported ones, which
// are properties of the namespace object, seen (by their bare names) by every declaration of
// the namespace and changed by any: they are context variables, shared by the declarations
// (lowerer.namespaceExports).
//
//	entry:
//	    ...body...
//	    Return
func (lw *lowerer) lowerNamespace(outer *funcState, n int32, b *ssa.Binding) *ssa.Function {
	t := lw.t
	fn := ssa.NewFunction(string(t.Text(t.ChildByField(n, ts.FieldName))), span(t, n))
	outer.fn.AddChild(fn)
	lw.shapes[fn] = lw.shapeOf(outer, n)
	fs := lw.newFuncState(fn, outer, n)
	fs.checkSyntax(n)
	body := t.ChildByField(n, ts.FieldBody)
	if lw.namespaceExports == nil {
		lw.namespaceExports = make(map[*ssa.Binding]map[string]*ssa.Binding)
	}
	exports := lw.namespaceExports[b]
	if exports == nil {
		exports = make(map[string]*ssa.Binding)
		lw.namespaceExports[b] = exports
	}
	for _, name := range slices.Sorted(maps.Keys(exports)) {
		fs.scope.enter(name, exports[name])
	}
	fs.declareFunctionScope(body)
	for c := range t.NamedChildren(body) {
		d := t.ChildByField(c, ts.FieldDeclaration)
		if t.Nodes[c].Kind != ts.KindExportStatement || d < 0 {
			continue
		}
		lw.forEachDeclared(d, func(id int32) {
			e := fs.scope.names[string(ts.IdentifierName(t.Text(id)))]
			if e != nil && !e.Context() {
				e.Why = ssa.Reason{Kind: ssa.ExportedFromNamespace, At: span(t, id), Name: b.Name}
			}
			if e != nil {
				exports[e.Name] = e
			}
		})
	}
	fs.body(body)
	fs.finish(t.Nodes[n].End)
	return fn
}

// importAlias lowers `import x = N.y` (TypeScript), which stores the value of N.y into x
// where it stands.
func (fs *funcState) importAlias(n int32) {
	t := fs.lw.t
	name := importAliasName(t, n)
	if name < 0 {
		return
	}
	for value := t.NextNamedSibling(name); value >= 0; value = t.NextNamedSibling(value) {
		if t.Nodes[value].Flags&ts.Extra == 0 {
			fs.store(name, fs.qualifiedName(value))
			return
		}
	}
}

// qualifiedName reads the value of a name, N or N.y.z, in `import x = N.y.z`.
func (fs *funcState) qualifiedName(n int32) ssa.Temp {
	t := fs.lw.t
	if t.Nodes[n].Kind != ts.KindNestedIdentifier {
		return fs.expr(n)
	}
	o := fs.expr(fs.field(n, ts.FieldObject))
	return fs.emit(ssa.OpProperty, string(t.Text(fs.field(n, ts.FieldProperty))), n, o)
}

// importAliasName returns the name `import x = N.y` declares.
func importAliasName(t *ts.Tree, n int32) int32 {
	for c := t.FirstNamedChild(n); c >= 0; c = t.NextNamedSibling(c) {
		if t.Nodes[c].Kind == ts.KindIdentifier {
			return c
		}
	}
	return -1
}
