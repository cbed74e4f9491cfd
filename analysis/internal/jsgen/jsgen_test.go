package jsgen

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The same seed gives the same program: a miss is reproduced from its seed alone.
func TestDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		a, b := Generate(seed), Generate(seed)
		if a.Plain != b.Plain || a.Instrumented != b.Instrumented {
			t.Fatalf("seed %d gives two different programs", seed)
		}
	}
}

// Every site of a program is printed once, at an identifier naming its variable, and the
// instrumented program refers to every site it can report.
func TestSitesPointAtTheirIdentifiers(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		p := Generate(seed)
		for id, s := range p.Sites[1:] {
			id++
			if s.Offset < 0 {
				t.Fatalf("seed %d: site %d of %s is not printed", seed, id, s.Var.Name)
			}
			if !strings.HasPrefix(p.Plain[s.Offset:], s.Var.Name) {
				t.Fatalf("seed %d: site %d of %s is at %q", seed, id, s.Var.Name, p.Plain[s.Offset:min(len(p.Plain), int(s.Offset)+20)])
			}
			if s.Kind == SiteRead && !strings.Contains(p.Instrumented, "__r("+strconv.Itoa(id)+",") {
				t.Fatalf("seed %d: read site %d of %s is not instrumented", seed, id, s.Var.Name)
			}
		}
	}
}

// Reduce keeps what keep asks for and drops the rest.
func TestReduce(t *testing.T) {
	p := Generate(7)
	var want int
	for id, s := range p.Sites {
		if s.Kind == SiteRead && id > 0 {
			want = id // the last read
		}
	}
	before := len(p.Plain)
	p.Reduce(func(q *Program) bool { return q.Sites[want].Offset >= 0 })
	if p.Sites[want].Offset < 0 || len(p.Plain) >= before {
		t.Errorf("reduced from %d to %d bytes, site %d at %d", before, len(p.Plain), want, p.Sites[want].Offset)
	}
}

// TestDump writes the program of JSGEN_SEED to the directory JSGEN_DIR, plain and
// instrumented, to look at or run by hand.
func TestDump(t *testing.T) {
	dir := os.Getenv("JSGEN_DIR")
	if dir == "" {
		t.Skip("set JSGEN_DIR and JSGEN_SEED to write a program")
	}
	seed, _ := strconv.ParseUint(os.Getenv("JSGEN_SEED"), 10, 64)
	p := Generate(seed)
	os.WriteFile(dir+"/plain.js", []byte(p.Plain), 0o644)
	os.WriteFile(dir+"/instrumented.js", []byte(p.Instrumented), 0o644)
}
