package treesitter

//go:generate go run ./internal/kindgen

import "fmt"

// Kind is one of the project's node kinds (kinds_gen.go): a named node kind or an anonymous
// token of any grammar ssalens parses, numbered by the project, not by a grammar. A flattened
// tree holds only these, so that code reading trees works with every grammar alike.
type Kind uint16

// Field is one of the project's field names (kinds_gen.go); FieldNone is a node without one.
type Field uint16

type kindName struct {
	name  string
	named bool
}

// String returns the grammars' name for k. Named kinds and anonymous tokens may share a name
// ("class", "import").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k].name
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// IsNamed reports whether k is a named node kind rather than an anonymous token.
func (k Kind) IsNamed() bool { return int(k) < len(kindNames) && kindNames[k].named }

// String returns the grammars' name for f, or "" for FieldNone.
func (f Field) String() string {
	if int(f) < len(fieldNames) {
		return fieldNames[f]
	}
	return fmt.Sprintf("Field(%d)", f)
}

// kindsByName finds the project's kinds by name, one map for named kinds and one for tokens.
var kindsByName = func() [2]map[string]Kind {
	m := [2]map[string]Kind{{}, {}}
	for k, n := range kindNames[KindError:] {
		m[b2i(n.named)][n.name] = KindError + Kind(k)
	}
	return m
}()

var fieldsByName = func() map[string]Field {
	m := map[string]Field{}
	for f, name := range fieldNames[1:] {
		m[name] = Field(f + 1)
	}
	return m
}()

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TokenKind returns the kind of the anonymous token text, such as "=" or "*". It panics if no
// grammar has that token, so that a misspelt token fails at initialization rather than never
// matching.
func TokenKind(text string) Kind {
	k, ok := kindsByName[0][text]
	if !ok {
		panic(fmt.Sprintf("treesitter: no grammar has the token %q", text))
	}
	return k
}
