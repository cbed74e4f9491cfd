package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/internal/npmtest"
	"github.com/ssalens/ssalens/treesitter"
	"github.com/ssalens/ssalens/treesitter/corpus"
)

// BenchmarkCheckVsESLint measures whole processes in one run: `ssalens check DIR` with one
// and two workers (and with one worker on one core, GOMAXPROCS=1, since the analysis of one
// file builds its functions' SSA on every core) against one ESLint process running only
// no-useless-assignment over the same files, DIR holding the JavaScript corpus
// (treesitter/corpus.Fetch). /usr/bin/time -v gives the wall time and the peak RSS of each;
// the metrics are seconds, megabytes, and ESLint's wall time over ssalens's, from the fastest
// of the b.N runs of each (-benchtime 3x runs them three times, in turn). It logs how many
// useless assignments each finds and how many both, per file, matched by the position of the
// assigned identifier as in analysis's TestESLintComparison, which explains the differences
// (run it with SSALENS_ESLINT_ALL=1 for the same table). Beside them it times the floor of
// check's time, tree-sitter's parse alone of the same files in a process of its own, with one
// and two workers (TestParseAlone). The machine should be idle. Run it with
//
//	go test ./cmd/ssalens -run '^$' -bench CheckVsESLint -benchtime 3x -v
func BenchmarkCheckVsESLint(b *testing.B) {
	timeCmd := gnuTime(b)
	files := corpus.Fetch(b)
	dir := filepath.Join(b.TempDir(), "corpus")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	var names, modules []string
	byPath := make(map[string]corpus.File)
	for _, f := range files {
		name := filepath.Base(f.Path)
		if err := os.WriteFile(filepath.Join(dir, name), f.Src, 0o644); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
		if npmtest.ESLintModules[f.Name] {
			modules = append(modules, name)
		}
		byPath[filepath.Join(dir, name)] = f
	}
	bin := buildBinary(b)
	eslint := npmtest.ESLint(b)

	type variant struct {
		name string
		env  []string
		args []string
	}
	ours := []variant{
		{"jobs1-1core", []string{"GOMAXPROCS=1"}, []string{"--jobs", "1"}},
		{"jobs1", nil, []string{"--jobs", "1"}},
		{"jobs2", nil, []string{"--jobs", "2"}},
	}
	alone := []variant{
		{"parse-jobs1", []string{parseAloneJobs + "=1"}, nil},
		{"parse-jobs2", []string{parseAloneJobs + "=2"}, nil},
	}
	var eslintRun processRun
	runs := make([]processRun, len(ours))
	aloneRuns := make([]processRun, len(alone))
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cmd, err := npmtest.ESLintCommand(ctx, eslint, dir, names, modules, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		eslintRun = eslintRun.fastest(timeProcess(b, timeCmd, cmd))
		for i, v := range ours {
			args := append(append([]string{"check", "--format", "json"}, v.args...), dir)
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Env = append(os.Environ(), v.env...)
			runs[i] = runs[i].fastest(timeProcess(b, timeCmd, cmd))
			if !bytes.Equal(runs[i].stdout, runs[0].stdout) {
				b.Errorf("%s printed other findings than %s", v.name, ours[0].name)
			}
		}
		for i, v := range alone {
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestParseAlone$")
			cmd.Env = append(os.Environ(), append(v.env, parseAloneDir+"="+dir)...)
			aloneRuns[i] = aloneRuns[i].fastest(timeProcess(b, timeCmd, cmd))
		}
		cancel()
	}

	var summary strings.Builder
	fmt.Fprintf(&summary, "%-12s %8s %8s %9s %8s %8s\n", "process", "wall s", "user s", "system s", "peak MB", "ESLint/")
	row := func(name string, r processRun) {
		fmt.Fprintf(&summary, "%-12s %8.2f %8.2f %9.2f %8.0f %7.1f×\n", name, r.wall, r.user, r.system, r.peakMB, eslintRun.wall/r.wall)
	}
	row("eslint", eslintRun)
	b.ReportMetric(eslintRun.wall, "eslint-s")
	b.ReportMetric(eslintRun.peakMB, "eslint-MB")
	report := func(v variant, r processRun) {
		row(v.name, r)
		b.ReportMetric(r.wall, v.name+"-s")
		b.ReportMetric(r.peakMB, v.name+"-MB")
		b.ReportMetric(eslintRun.wall/r.wall, v.name+"-speedup")
	}
	for i, v := range ours {
		report(v, runs[i])
	}
	for i, v := range alone {
		report(v, aloneRuns[i])
	}
	b.ReportMetric(0, "ns/op")
	b.Logf("%d files, %.1f MB, ESLint %s:\n%s", len(files), float64(totalSize(files))/1e6, npmtest.ESLintVersion, summary.String())
	b.Logf("no-useless-assignment vs uselessAssignment:\n%s", compareWithESLint(b, byPath, eslintRun.stdout, runs[len(runs)-1].stdout))
}

// parseAloneDir names, in the environment of BenchmarkCheckVsESLint's child process, the
// directory whose files TestParseAlone parses on parseAloneJobs workers.
const parseAloneDir, parseAloneJobs = "SSALENS_PARSE_ALONE_DIR", "SSALENS_PARSE_ALONE_JOBS"

// TestParseAlone is the floor of check's time in BenchmarkCheckVsESLint, run there in a
// process of its own: it reads the JavaScript files of a directory and parses them as check
// does before it analyzes them (treesitter.ParseOnce, pieces and flat tree included), the
// largest first, on as many workers as check's --jobs, and does nothing else.
func TestParseAlone(t *testing.T) {
	dir := os.Getenv(parseAloneDir)
	if dir == "" {
		t.Skip("BenchmarkCheckVsESLint runs it in a process of its own")
	}
	jobs, err := strconv.Atoi(os.Getenv(parseAloneJobs))
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	srcs := make([][]byte, len(paths))
	for i, path := range paths {
		if srcs[i], err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(srcs, func(a, b []byte) int { return cmp.Compare(len(b), len(a)) })
	queue := make(chan []byte, len(srcs))
	for _, src := range srcs {
		queue <- src
	}
	close(queue)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for src := range queue {
				if _, err := treesitter.ParseOnce(treesitter.JavaScript, src); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

func totalSize(files []corpus.File) int {
	n := 0
	for _, f := range files {
		n += len(f.Src)
	}
	return n
}

// compareWithESLint matches ESLint's no-useless-assignment messages with check's
// uselessAssignment findings (its JSON output) by byte offset, and returns a table of the
// counts per file in the layout of TestESLintComparison's.
func compareWithESLint(b *testing.B, files map[string]corpus.File, eslintOut, checkOut []byte) string {
	b.Helper()
	var dir string
	for path := range files {
		dir = filepath.Dir(path)
	}
	theirs, err := npmtest.ParseESLint(eslintOut, dir)
	if err != nil {
		b.Fatal(err)
	}
	var report jsonReport
	if err := json.Unmarshal(checkOut, &report); err != nil {
		b.Fatal(err)
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-14s %-12s %7s %5s %5s %12s %10s\n", "file", "package", "ESLint", "ours", "both", "only ESLint", "only ours")
	var total [5]int
	for _, jf := range report.Files {
		f, ok := files[jf.Path]
		if !ok || jf.Error != "" {
			b.Fatalf("check reported %s: %s", jf.Path, jf.Error)
		}
		lines, pos := analysis.NewLines(f.Src), npmtest.NewESLintPositions(f.Src)
		mine, their := make(map[int32]bool), make(map[int32]bool)
		for _, d := range jf.Diagnostics {
			if d.Code == "uselessAssignment" {
				mine[lines.Offset(uint32(d.Line-1), uint32(d.Column-1), analysis.UTF8)] = true
			}
		}
		for _, m := range theirs[jf.Path] {
			their[pos.Offset(m.Line, m.Column)] = true
		}
		both := 0
		for off := range mine {
			if their[off] {
				both++
			}
		}
		row := [5]int{len(their), len(mine), both, len(their) - both, len(mine) - both}
		for i := range row {
			total[i] += row[i]
		}
		fmt.Fprintf(&table, "%-14s %-12s %7d %5d %5d %12d %10d\n", f.Name, f.Package, row[0], row[1], row[2], row[3], row[4])
	}
	fmt.Fprintf(&table, "%-14s %-12s %7d %5d %5d %12d %10d", "total", "", total[0], total[1], total[2], total[3], total[4])
	return table.String()
}
