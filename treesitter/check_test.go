package treesitter

import (
	"reflect"
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func mustParse(t testing.TB, src string) *Tree {
	t.Helper()
	tree, err := Parse(JavaScript, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tree.Close)
	return tree
}

// checkInvariants verifies the structural promises of the flat array:
// preorder, consistent links and counts, nested spans, error propagation and
// one Kind per (name, named) pair.
func checkInvariants(t *testing.T, tree *Tree) {
	t.Helper()
	nodes := tree.Nodes
	if len(nodes) == 0 {
		t.Fatal("no nodes")
	}
	if root := nodes[0]; root.Parent != -1 || root.Field != 0 || root.NextSibling != -1 || root.Kind != KindProgram {
		t.Fatalf("root = %+v, want a program node without parent, field or sibling", root)
	}
	canonical := map[Kind]bool{}
	for i := range int32(len(nodes)) {
		n := &nodes[i]
		if n.Start > n.End || int(n.End) > len(tree.Src) {
			t.Fatalf("node %d %v: span [%d,%d) outside source of %d bytes", i, n.Kind, n.Start, n.End, len(tree.Src))
		}
		if n.Field >= fieldCount {
			t.Fatalf("node %d: field id %d out of range", i, n.Field)
		}
		if !canonical[n.Kind] {
			if got := kindsByName[b2i(n.Flags&Named != 0)][n.Kind.String()]; got != n.Kind {
				t.Fatalf("node %d: kind %d is named %q, but that name has kind %d", i, n.Kind, n.Kind.String(), got)
			}
			canonical[n.Kind] = true
		}
		if (n.Kind == KindError) != (n.Flags&IsError != 0) {
			t.Fatalf("node %d: kind %v with flags %b", i, n.Kind, n.Flags)
		}
		if n.Flags&(IsError|Missing) != 0 {
			for p := n.Parent; p >= 0; p = nodes[p].Parent {
				if nodes[p].Flags&HasError == 0 {
					t.Fatalf("node %d is an error but its ancestor %d lacks HasError", i, p)
				}
			}
		}
		next, count, prevEnd := i+1, int32(0), n.Start
		for c := n.FirstChild; c >= 0; c = nodes[c].NextSibling {
			if c != next {
				t.Fatalf("node %d: child %d, want %d (preorder)", i, c, next)
			}
			if nodes[c].Parent != i {
				t.Fatalf("node %d: child %d has parent %d", i, c, nodes[c].Parent)
			}
			if nodes[c].Start < prevEnd || nodes[c].End > n.End {
				t.Fatalf("node %d [%d,%d): child %d [%d,%d) out of order or outside", i, n.Start, n.End, c, nodes[c].Start, nodes[c].End)
			}
			prevEnd = nodes[c].End
			next = tree.SubtreeEnd(c)
			count++
		}
		if count != n.ChildCount {
			t.Fatalf("node %d: %d children, ChildCount %d", i, count, n.ChildCount)
		}
	}
	if end := tree.SubtreeEnd(0); end != int32(len(nodes)) {
		t.Fatalf("root subtree ends at %d of %d nodes", end, len(nodes))
	}
}

// compareWithGoTreeSitter walks tree's C tree with go-tree-sitter's own node
// API and checks that the flat array has the same nodes in preorder, each with
// the project's kind and field of the grammar's name.
func compareWithGoTreeSitter(t *testing.T, tree *Tree) {
	t.Helper()
	next := int32(0)
	var walk func(n *sitter.Node, field string, parent int32)
	walk = func(n *sitter.Node, field string, parent int32) {
		i := next
		next++
		if int(i) >= len(tree.Nodes) {
			t.Fatalf("flat array has only %d nodes", len(tree.Nodes))
		}
		f := tree.Nodes[i]
		want := Node{
			Kind:       kindOf(tree.Grammar, n),
			Field:      fieldsByName[field],
			Flags:      flagsOf(n),
			Start:      uint32(n.StartByte()),
			End:        uint32(n.EndByte()),
			Parent:     parent,
			ChildCount: int32(n.ChildCount()),
		}
		got := f
		got.FirstChild, got.NextSibling = 0, 0
		if got != want || f.Kind.String() != n.Kind() || f.Field.String() != field {
			t.Fatalf("node %d: got %+v (%q field %q), go-tree-sitter has %+v (%q field %q)",
				i, got, f.Kind, f.Field, want, n.Kind(), field)
		}
		for j := range n.ChildCount() {
			walk(n.Child(j), n.FieldNameForChild(uint32(j)), i)
		}
	}
	if !tree.ParseWhole() {
		t.Fatal("the tree has no C tree")
	}
	walk(tree.sitterTree().RootNode(), "", -1)
	if int(next) != len(tree.Nodes) {
		t.Fatalf("go-tree-sitter has %d nodes, flat array %d", next, len(tree.Nodes))
	}
}

func flagsOf(n *sitter.Node) Flags {
	var f Flags
	for _, b := range []struct {
		set  bool
		flag Flags
	}{{n.IsNamed(), Named}, {n.IsMissing(), Missing}, {n.IsError(), IsError}, {n.HasError(), HasError}, {n.IsExtra(), Extra}} {
		if b.set {
			f |= b.flag
		}
	}
	return f
}

// TestCTreePointer pins the assumption behind cTree: go-tree-sitter's Tree
// is a struct whose first and only field is the C tree pointer.
func TestCTreePointer(t *testing.T) {
	typ := reflect.TypeFor[sitter.Tree]()
	if typ.NumField() != 1 || typ.Field(0).Offset != 0 || typ.Field(0).Type.Kind() != reflect.Pointer {
		t.Fatalf("sitter.Tree layout changed: %d fields, first %v", typ.NumField(), typ.Field(0))
	}
	tree := mustParse(t, "let x = 1;")
	if got, want := cTree(tree.ts), reflect.ValueOf(tree.ts).Elem().Field(0).UnsafePointer(); got != want {
		t.Fatalf("cTree = %p, field holds %p", got, want)
	}
	compareWithGoTreeSitter(t, tree)
}

func kindOf(g *Grammar, n *sitter.Node) Kind {
	if n.IsError() {
		return KindError
	}
	return g.kinds[n.KindId()]
}
