package treesitter

import "testing"

// TestPrefixEqualsWhole parses the start of every corpus file, JavaScript (also broken in the
// middle or cut short), TypeScript and test262's parser tests, up to a statement past each of a few offsets,
// and checks that where the tree proves the cut, its statements are the whole parse's, node for
// node: the same nodes, first in the whole tree's preorder, but for the root and the link from
// the prefix's last statement to the next. It also wants some prefixes of the large files to
// cut: else a preview would never happen where it matters.
func TestPrefixEqualsWhole(t *testing.T) {
	mustCut := map[string]bool{"three.core": true, "three.module": true}
	files := editedCorpus(t)
	cut := 0
	for _, f := range files {
		if len(f.Src) > 4<<20 {
			continue // typescript.js: a bundle in one function, which has no cut; for time
		}
		g := grammarOf(f.Lang)
		var whole *Tree
		cuts := 0
		for _, end := range []int{0, 2000, len(f.Src) / 5, len(f.Src) / 2} {
			prefix, err := ParsePrefix(g, f.Src, uint32(end), uint32(len(f.Src)))
			if err != nil {
				t.Fatal(err)
			}
			if prefix == nil || len(prefix.Src) == len(f.Src) {
				continue
			}
			cuts++
			if whole == nil {
				if whole, err = Parse(g, f.Src); err != nil {
					t.Fatal(err)
				}
				defer whole.Close()
			}
			if d := prefixDifference(prefix.Nodes, whole.Nodes); d >= 0 {
				t.Errorf("%s, prefix of %d bytes: node %d differs from the whole parse's: %+v, %+v", f.Name, len(prefix.Src), d, prefix.Nodes[d], whole.Nodes[d])
			}
		}
		if mustCut[f.Name] && cuts == 0 {
			t.Errorf("%s: no prefix cut", f.Name)
		}
		cut += cuts
	}
	t.Logf("%d files, %d prefixes equal to the start of the whole parse", len(files), cut)
}

// prefixDifference returns the index of the first node of prefix, but its root, that differs
// from the node of whole at the same index, or -1; the last statement of prefix links to no
// next one, and its counterpart to the node after prefix's.
func prefixDifference(prefix, whole []Node) int {
	if len(whole) <= len(prefix) {
		return len(whole)
	}
	for i := 1; i < len(prefix); i++ {
		p := prefix[i]
		if p.Parent == 0 && p.NextSibling < 0 && whole[i].NextSibling == int32(len(prefix)) {
			p.NextSibling = whole[i].NextSibling
		}
		if p != whole[i] {
			return i
		}
	}
	return -1
}
