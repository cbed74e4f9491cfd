package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMemoryBudget follows the collector's limit through two files analyzed at once: the
// budget of the bytes under analysis, never below the process's peak so far.
func TestMemoryBudget(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Logf("the process's peak so far: %d MiB", peakRSS()>>20)
	var m memoryBudget
	steps := []struct {
		name   string
		do     func()
		budget int64 // 16 MB - 8 MB outside the heap + 25 × the bytes under analysis
	}{
		{"a 1 MB file starts", func() { m.start(1 << 20) }, 8<<20 + 25<<20},
		{"its tree is freed", m.treeFreed, 8<<20 + 25<<20},
		{"a 2 MB file starts", func() { m.start(2 << 20) }, 8<<20 + 75<<20},
		{"the first one ends", func() { m.finish(1 << 20) }, 8<<20 + 50<<20},
		{"the second one ends", func() { m.finish(2 << 20) }, 8 << 20},
	}
	for _, s := range steps {
		s.do()
		if peakRSS() > 0 && m.parsed <= 0 {
			t.Errorf("%s: the process's peak is not counted (%d)", s.name, m.parsed)
		}
		if got, want := debug.SetMemoryLimit(-1), max(s.budget, m.parsed); got != want {
			t.Errorf("%s: limit %d MiB, want %d MiB", s.name, got>>20, want>>20)
		}
	}
}

// TestPeakCountsOnlyThisProcess starts this test binary again, after making its own peak larger than
// 64 MiB, and checks that the child's peakRSS counts its own memory, not the parent's peak
// that exec carries over into getrusage's maxrss.
func TestPeakCountsOnlyThisProcess(t *testing.T) {
	if os.Getenv("SSALENS_PEAK_CHILD") != "" {
		fmt.Println(peakRSS())
		return
	}
	if peakRSS() == 0 {
		t.Skip("the system does not tell a process its peak")
	}
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = 1
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestPeakCountsOnlyThisProcess$")
	cmd.Env = append(os.Environ(), "SSALENS_PEAK_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var child int64
	if _, err := fmt.Sscan(string(out), &child); err != nil {
		t.Fatalf("no peak in %q", out)
	}
	runtime.KeepAlive(held)
	t.Logf("parent %d MiB, child %d MiB", peakRSS()>>20, child>>20)
	if child >= 64<<20 {
		t.Errorf("the child's peak is %d MiB: the parent's 64 MiB and more were counted", child>>20)
	}
}
