package treesitter

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVendoredHeaders checks that the tree-sitter headers flat.go compiles against are those of
// the tree-sitter that go-tree-sitter compiles: the walk reads its structs, so a header of
// another version would misread every tree.
func TestVendoredHeaders(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/tree-sitter/go-tree-sitter").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	module := strings.TrimSpace(string(out))
	vendored := filepath.Join("internal", "tree-sitter")
	headers := 0
	err = filepath.WalkDir(vendored, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".h" {
			return err
		}
		headers++
		rel, _ := filepath.Rel(vendored, path)
		ours, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		theirs, err := os.ReadFile(filepath.Join(module, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(ours, theirs) {
			t.Errorf("%s differs from %s of go-tree-sitter: copy it again", path, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if headers == 0 {
		t.Fatal("no vendored headers found")
	}
}
