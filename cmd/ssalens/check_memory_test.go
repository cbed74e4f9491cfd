package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

// TestCheckWithinBudget runs `ssalens check` on each file of the JavaScript corpus and checks
// its peak resident memory against the promise: 16 MiB and 25 times the file's size. GNU time
// measures it, as the README does: a process started by this one (vfork and exec) would report
// at least this one's peak, which Linux carries over exec.
func TestCheckWithinBudget(t *testing.T) {
	timeCmd := gnuTime(t)
	files := corpus.Fetch(t)
	bin := buildBinary(t)
	for _, f := range files {
		path := filepath.Join(t.TempDir(), filepath.Base(f.Path))
		if err := os.WriteFile(path, f.Src, 0o644); err != nil {
			t.Fatal(err)
		}
		run := timeProcess(t, timeCmd, exec.Command(bin, "check", path))
		peak, budget := run.peakMB*(1<<20), float64(fixedBudget+bytesPerSourceByte*len(f.Src))
		t.Logf("%s (%d bytes): peak %.1f MiB, budget %.1f MiB", f.Name, len(f.Src), peak/(1<<20), budget/(1<<20))
		if peak > budget {
			t.Errorf("ssalens check %s peaked at %.1f MiB, over its budget of %.1f MiB", f.Name, peak/(1<<20), budget/(1<<20))
		}
	}
}
