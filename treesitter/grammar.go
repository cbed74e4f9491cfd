package treesitter

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// A Grammar is one tree-sitter language with the translation of its symbol and field ids into
// the project's kinds and fields.
type Grammar struct {
	name   string
	lang   *sitter.Language
	kinds  []Kind  // by grammar symbol id
	fields []Field // by grammar field id
	// parsers holds parsers already set to this language; creating one allocates the parser's
	// C state.
	parsers sync.Pool
}

// JavaScript is tree-sitter-javascript: JavaScript with JSX.
var JavaScript = newGrammar("JavaScript", javascript.Language())

// TypeScript is tree-sitter-typescript's typescript language: TypeScript without JSX, where
// <T>x is a type assertion. It embeds an older tree-sitter-javascript (0.23), so the same
// JavaScript may parse to other shapes than JavaScript's (see drift_test.go).
var TypeScript = newGrammar("TypeScript", typescript.LanguageTypescript())

// TSX is tree-sitter-typescript's tsx language: TypeScript with JSX, and no <T>x.
var TSX = newGrammar("TSX", typescript.LanguageTSX())

func (g *Grammar) String() string { return g.name }

// newGrammar checks that this tree-sitter accepts the language's ABI and builds the
// translation tables. It panics otherwise: a grammar built for another ABI would misparse
// everything.
func newGrammar(name string, ptr unsafe.Pointer) *Grammar {
	lang := sitter.NewLanguage(ptr)
	if v := lang.AbiVersion(); v < sitter.MIN_COMPATIBLE_LANGUAGE_VERSION || v > sitter.LANGUAGE_VERSION {
		panic(fmt.Sprintf("treesitter: the %s grammar has ABI version %d; this tree-sitter accepts %d to %d",
			name, v, sitter.MIN_COMPATIBLE_LANGUAGE_VERSION, sitter.LANGUAGE_VERSION))
	}
	g := &Grammar{name: name, lang: lang}
	g.kinds = make([]Kind, lang.NodeKindCount())
	for id := range g.kinds {
		sym := uint16(id)
		if !lang.NodeKindIsVisible(sym) {
			continue // hidden rules and supertypes never appear in a tree
		}
		g.kinds[id] = kindsByName[b2i(lang.NodeKindIsNamed(sym))][lang.NodeKindForId(sym)]
	}
	g.fields = make([]Field, lang.FieldCount()+1)
	for id := range g.fields[1:] {
		g.fields[id+1] = fieldsByName[lang.FieldNameForId(uint16(id+1))]
	}
	g.parsers.New = func() any {
		p := &pooledParser{p: sitter.NewParser()}
		if err := p.p.SetLanguage(lang); err != nil {
			panic(fmt.Sprintf("treesitter: the %s grammar is rejected by tree-sitter: %v", name, err))
		}
		// sync.Pool drops idle entries silently; the C parser must go with them.
		runtime.AddCleanup(p, (*sitter.Parser).Close, p.p)
		return p
	}
	return g
}

// pooledParser exists so that the pool entry and the C parser are distinct objects: a cleanup
// may not keep alive the object it is attached to.
type pooledParser struct{ p *sitter.Parser }
