package treesitter

import (
	"reflect"
	"strings"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// TestDeeplyNestedParses parses and re-parses inputs nested 100,000 levels deep. tree-sitter
// frees the versions of a parse it kept alive (GLR) by a recursion as deep as the nesting:
// 100,000 labeled blocks overflowed the thread's stack and killed the process, so a parse runs
// on a thread with a stack sized for its input.
func TestDeeplyNestedParses(t *testing.T) {
	const n = 100_000
	for _, tt := range []struct{ name, open, mid, close string }{
		{"labeled blocks", "l: { ", ";", "}"},
		{"blocks", "{ ", "x;", "}"},
		{"parentheses", "(", "x", ")"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Repeat(tt.open, n) + tt.mid + strings.Repeat(tt.close, n)
			tree := mustParse(t, src)
			if len(tree.Nodes) < 2*n {
				t.Fatalf("%d nodes for %d levels", len(tree.Nodes), n)
			}
			at := uint32(len(tt.open) * n)
			edited := src[:at] + "y" + src[at:]
			next, err := tree.Reparse(Edit{StartByte: at, OldEndByte: at, NewEndByte: at + 1}, []byte(edited))
			if err != nil {
				t.Fatal(err)
			}
			next.Close()
		})
	}
}

// TestCParserPointer checks that cParser reads the C parser of a go-tree-sitter Parser.
func TestCParserPointer(t *testing.T) {
	typ := reflect.TypeFor[sitter.Parser]()
	if typ.NumField() != 1 || typ.Field(0).Offset != 0 || typ.Field(0).Type.Kind() != reflect.Pointer {
		t.Fatalf("sitter.Parser layout changed: %d fields, first %v", typ.NumField(), typ.Field(0))
	}
	p := sitter.NewParser()
	defer p.Close()
	if got, want := cParser(p), reflect.ValueOf(p).Elem().Field(0).UnsafePointer(); got != want {
		t.Fatalf("cParser = %p, field holds %p", got, want)
	}
}
