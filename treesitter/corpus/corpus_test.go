package corpus

import (
	"bytes"
	"testing"
)

func TestFetch(t *testing.T) {
	files := Fetch(t)
	names := map[string]bool{}
	for _, f := range files {
		if names[f.Name] {
			t.Errorf("duplicate name %q", f.Name)
		}
		names[f.Name] = true
		if len(f.Src) < 100_000 || !bytes.Contains(f.Src, []byte("function")) {
			t.Errorf("%s (%s): %d bytes, not the expected library source", f.Name, f.Path, len(f.Src))
		}
	}
	if len(files) != 7 {
		t.Errorf("got %d files, want 7", len(files))
	}
}
