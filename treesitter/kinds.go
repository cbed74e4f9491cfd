package treesitter

//go:generate go run ./internal/kindgen

import (
	"fmt"

	sitter "github.com/tree-sitter/go-tree-sitter"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
)

var language = sitter.NewLanguage(javascript.Language())

// KindError is the kind of ERROR nodes, which tree-sitter builds into every
// grammar; such nodes also have the IsError flag.
var KindError = namedKind("ERROR")

// String returns the grammar's name for k, for debugging. Named kinds and
// anonymous tokens may share a name ("class", "import").
func (k Kind) String() string {
	return language.NodeKindForId(uint16(k))
}

// String returns the grammar's name for f, or "" for 0.
func (f Field) String() string {
	return language.FieldNameForId(uint16(f))
}

// AnonKind returns the kind of the anonymous token name, such as "=" or
// "typeof". It panics if the grammar has no such token, so that a misspelt
// name fails at initialization rather than never matching.
func AnonKind(name string) Kind {
	return lookupKind(name, false)
}

func namedKind(name string) Kind {
	return lookupKind(name, true)
}

func lookupKind(name string, named bool) Kind {
	id := language.IdForNodeKind(name, named)
	if id == 0 {
		panic(fmt.Sprintf("treesitter: the JavaScript grammar has no %s kind %q", namedness(named), name))
	}
	return Kind(id)
}

func namedness(named bool) string {
	if named {
		return "named"
	}
	return "anonymous"
}

func fieldID(name string) Field {
	id := language.FieldIdForName(name)
	if id == 0 {
		panic(fmt.Sprintf("treesitter: the JavaScript grammar has no field %q", name))
	}
	return Field(id)
}
