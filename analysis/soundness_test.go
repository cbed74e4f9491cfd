package analysis_test

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/analysis/internal/jsgen"
)

var (
	soundnessPrograms = flag.Int("soundness.programs", 300, "programs the soundness oracle generates and runs")
	soundnessSeed     = flag.Uint64("soundness.seed", 1, "seed of the first program; program i has seed+i")
	soundnessReduce   = flag.Int("soundness.reduce", 3, "misses the soundness oracle reduces to a small reproduction")
	soundnessOut      = flag.String("soundness.out", "", "directory where the soundness oracle writes its reduced reproductions")
	soundnessErrors   = flag.String("soundness.errors", "", "print the seeds of the programs whose uncaught exception contains this text")
)

// definitionsOf is the oracle's only contact with the analysis API: it analyzes src and
// returns, for the byte offset of a read, the start offsets of the definitions Definition says
// may reach it.
func definitionsOf(src string) func(off int32) []int32 {
	r, err := analysis.Analyze([]byte(src), analysis.Options{})
	if err != nil {
		return func(int32) []int32 { return nil }
	}
	return func(off int32) []int32 {
		var starts []int32
		for _, s := range r.Definition(off) {
			starts = append(starts, s.Start)
		}
		return starts
	}
}

// TestSoundness is a dynamic soundness oracle for Definition. It generates random programs
// (package jsgen), runs their instrumented versions in node, which logs for every executed read
// the definition site whose value it saw, and checks that Definition, asked at the read, lists
// that definition. A miss is a soundness bug. It also measures precision: the definitions
// Definition lists at the executed reads that no run reached.
//
//	go test ./analysis -run Soundness -v -args -soundness.programs=100000 -soundness.seed=1
func TestSoundness(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("the soundness oracle needs node to run the generated programs, and node is not installed")
	}
	d := startDriver(t, node)
	start := time.Now()
	var c checker
	err = d.stream(*soundnessSeed, *soundnessPrograms, func(p *jsgen.Program, o observation) {
		c.check(p, o)
		if c.programs%10000 == 0 {
			t.Logf("%d programs, %d reads, %d misses, %s", c.programs, c.reads, len(c.misses), time.Since(start).Round(time.Second))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	t.Logf("soundness oracle, seeds %d..%d, %s:\n%s", *soundnessSeed, *soundnessSeed+uint64(*soundnessPrograms)-1,
		elapsed.Round(time.Millisecond), c.table())
	for i, p := range c.problems {
		if i == 10 {
			t.Errorf("… and %d more problems", len(c.problems)-i)
			break
		}
		t.Error(p)
	}
	for i, m := range c.misses {
		if i == 10 {
			t.Errorf("… and %d more misses", len(c.misses)-i)
			break
		}
		t.Errorf("miss: %s", m.describe(jsgen.Generate(m.seed)))
	}
	reduced := map[uint64]bool{}
	for _, m := range c.misses {
		if len(reduced) == *soundnessReduce {
			break
		}
		if reduced[m.seed] {
			continue
		}
		reduced[m.seed] = true
		t.Logf("reduced reproduction of seed %d:\n%s", m.seed, d.reduce(t, m))
	}
}

// Running programs in node.

type job struct {
	ID    int    `json:"id"`
	Plain string `json:"plain"`
	Code  string `json:"code"`
}

// observation is what node reports for one program: the (read site, definition site) pairs it
// saw, with counts, flattened.
type observation struct {
	ID     int     `json:"id"`
	Reads  int64   `json:"reads"`
	Pairs  []int32 `json:"pairs"`
	Error  string  `json:"error"`
	Fuel   bool    `json:"fuel"`
	Syntax string  `json:"syntax"`
}

// driver is one node process running testdata/soundness/driver.js.
type driver struct {
	in  *bufio.Writer
	dec *json.Decoder
}

func startDriver(t *testing.T, node string) *driver {
	cmd := exec.Command(node, filepath.Join("testdata", "soundness", "driver.js"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	return &driver{in: bufio.NewWriterSize(stdin, 1<<16), dec: json.NewDecoder(bufio.NewReaderSize(stdout, 1<<16))}
}

func (d *driver) send(id int, p *jsgen.Program) error {
	b, err := json.Marshal(job{ID: id, Plain: p.Plain, Code: p.Instrumented})
	if err != nil {
		return err
	}
	d.in.Write(b)
	d.in.WriteByte('\n')
	return d.in.Flush()
}

func (d *driver) recv(id int) (observation, error) {
	var o observation
	if err := d.dec.Decode(&o); err != nil {
		return o, fmt.Errorf("the node driver stopped answering: %v", err)
	}
	if o.ID != id {
		return o, fmt.Errorf("the node driver answered job %d, expected %d", o.ID, id)
	}
	return o, nil
}

// run runs one program and waits for its observation.
func (d *driver) run(p *jsgen.Program) (observation, error) {
	if err := d.send(0, p); err != nil {
		return observation{}, err
	}
	return d.recv(0)
}

// stream runs the n programs from seed on, overlapping the three stages: a goroutine generates
// programs and sends them to node, node runs them, and check analyzes each program and checks
// its observation as it arrives.
func (d *driver) stream(seed uint64, n int, check func(*jsgen.Program, observation)) error {
	progs := make(chan *jsgen.Program, 64)
	sendErr := make(chan error, 1)
	go func() {
		defer close(progs)
		for i := range n {
			p := jsgen.Generate(seed + uint64(i))
			progs <- p // before sending, so that p is there when node answers
			if err := d.send(i, p); err != nil {
				sendErr <- err
				return
			}
		}
	}()
	i := 0
	for p := range progs {
		o, err := d.recv(i)
		if err != nil {
			for range progs {
			}
			return err
		}
		check(p, o)
		i++
	}
	select {
	case err := <-sendErr:
		return err
	default:
		return nil
	}
}

// Checking.

// checker accumulates the observations of a campaign.
type checker struct {
	programs, exceptions, outOfFuel int
	errors                          map[string]int // uncaught exceptions by kind
	sites, readSitesTotal           int            // sites in the programs, and read sites
	reads                           int64          // executed reads
	pairs                           int            // distinct (read, definition) pairs, summed over programs
	readSites                       int            // read sites executed at least once
	predicted, unobserved           int            // definitions listed at executed read sites, and those no run reached
	exact                           int            // executed read sites where every listed definition was observed
	missedKinds                     map[string]int // misses by kind of the variable read
	misses                          []miss
	problems                        []string // the generator's or the driver's faults, not ssalens's
}

// miss is a read that saw a definition Definition does not list.
type miss struct {
	seed      uint64
	read, def int // site ids
	predicted []int32
}

func (c *checker) check(p *jsgen.Program, o observation) {
	c.programs++
	c.reads += o.Reads
	if o.Error != "" {
		c.exceptions++
		if c.errors == nil {
			c.errors = map[string]int{}
		}
		c.errors[errorKind(o.Error)]++
		if *soundnessErrors != "" && strings.Contains(o.Error, *soundnessErrors) {
			fmt.Printf("seed %d: %s\n", p.Seed, o.Error)
		}
	}
	for _, s := range p.Sites[1:] {
		if s.Offset >= 0 {
			c.sites++
			if s.Kind == jsgen.SiteRead {
				c.readSitesTotal++
			}
		}
	}
	if o.Fuel {
		c.outOfFuel++
	}
	if o.Syntax != "" {
		c.problems = append(c.problems, fmt.Sprintf("seed %d: %s\n%s", p.Seed, o.Syntax, p.Plain))
		return
	}
	defs := definitionsOf(p.Plain)
	for _, m := range checkProgram(p, o, defs) {
		if m.read < 0 {
			c.problems = append(c.problems, fmt.Sprintf("seed %d: read site %d saw site %d, a definition of another variable", p.Seed, -m.read, m.def))
			continue
		}
		c.misses = append(c.misses, m)
		if c.missedKinds == nil {
			c.missedKinds = map[string]int{}
		}
		c.missedKinds[p.Sites[m.read].Var.Kind.String()]++
	}
	seen := observedBySite(o)
	c.readSites += len(seen)
	for r, sites := range seen {
		c.pairs += len(sites)
		observed := map[int32]bool{}
		for _, d := range sites {
			observed[p.Sites[d].Offset] = true
		}
		unobserved := 0
		for _, off := range uniq(defs(p.Sites[r].Offset)) {
			c.predicted++
			if !observed[off] {
				unobserved++
			}
		}
		c.unobserved += unobserved
		if unobserved == 0 {
			c.exact++
		}
	}
}

// observedBySite groups the definition sites observed by read site.
func observedBySite(o observation) map[int][]int {
	m := map[int][]int{}
	for i := 0; i+2 < len(o.Pairs); i += 3 {
		m[int(o.Pairs[i])] = append(m[int(o.Pairs[i])], int(o.Pairs[i+1]))
	}
	return m
}

// checkProgram returns the misses of one run: the observed pairs whose definition is not
// among those defs lists at the read. A pair whose sites belong to different variables is the
// instrumentation's fault, returned with a negative read.
func checkProgram(p *jsgen.Program, o observation, defs func(int32) []int32) []miss {
	var out []miss
	seen := observedBySite(o)
	reads := make([]int, 0, len(seen))
	for r := range seen {
		reads = append(reads, r)
	}
	sort.Ints(reads)
	for _, r := range reads {
		rs := p.Sites[r]
		pred := defs(rs.Offset)
		for _, d := range seen[r] {
			ds := p.Sites[d]
			switch {
			case rs.Kind != jsgen.SiteRead || ds.Kind != jsgen.SiteDef || !rs.Var.Same(ds.Var):
				out = append(out, miss{seed: p.Seed, read: -r, def: d})
			case ds.Offset < 0 || rs.Offset < 0:
				// a site a reduction removed: not a fact about this program
			case !slices.Contains(pred, ds.Offset):
				out = append(out, miss{seed: p.Seed, read: r, def: d, predicted: pred})
			}
		}
	}
	return out
}

func uniq(xs []int32) []int32 {
	slices.Sort(xs)
	return slices.Compact(xs)
}

func (c *checker) table() string {
	var sb strings.Builder
	row := func(k string, v any) { fmt.Fprintf(&sb, "| %-56s | %14v |\n", k, v) }
	row("programs", c.programs)
	row("programs ended by an uncaught exception", c.exceptions)
	row("programs out of fuel", c.outOfFuel)
	row("executed reads checked", c.reads)
	row("read sites in the programs", c.readSitesTotal)
	row("read sites executed", c.readSites)
	row("distinct (read, definition) pairs observed", c.pairs)
	row("misses (pairs Definition does not list)", len(c.misses))
	for _, k := range sortedKeys(c.missedKinds) {
		row("  reading a "+k, c.missedKinds[k])
	}
	row("definitions listed at executed reads", c.predicted)
	share := 0.0
	if c.predicted > 0 {
		share = 100 * float64(c.unobserved) / float64(c.predicted)
	}
	row("  of which no run reached", fmt.Sprintf("%d (%.1f%%)", c.unobserved, share))
	row("executed read sites where every listed one was reached", c.exact)
	for _, k := range sortedKeys(c.errors) {
		fmt.Fprintf(&sb, "uncaught: %d × %s\n", c.errors[k], k)
	}
	return sb.String()
}

// sortedKeys returns the keys of m, the largest counts first.
func sortedKeys(m map[string]int) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	return keys
}

// errorKind drops the details of an uncaught exception's message.
func errorKind(msg string) string {
	switch {
	case strings.HasPrefix(msg, "thrown "):
		return "a thrown value"
	case strings.HasPrefix(msg, "ReferenceError: "):
		return "ReferenceError (a TDZ access outside a guard)"
	}
	if i := strings.IndexAny(msg, "0123456789"); i > 0 {
		msg = msg[:i] + "…"
	}
	return msg
}

// describe says where the read and the definition are, and what Definition answered.
func (m miss) describe(p *jsgen.Program) string {
	rs, ds := p.Sites[m.read], p.Sites[m.def]
	var pred []string
	for _, off := range m.predicted {
		pred = append(pred, position(p.Plain, off))
	}
	return fmt.Sprintf("seed %d: the read of %s (%s) at %s sees the definition at %s, but Definition lists [%s]",
		m.seed, rs.Var.Name, rs.Var.Kind, position(p.Plain, rs.Offset), position(p.Plain, ds.Offset), strings.Join(pred, ", "))
}

// position returns "line:column" (1-based) of off in src, and the text there.
func position(src string, off int32) string {
	if off < 0 || int(off) > len(src) {
		return "?"
	}
	line := strings.Count(src[:off], "\n") + 1
	col := int(off) - strings.LastIndex(src[:off], "\n")
	end := int(off)
	for end < len(src) && end < int(off)+24 && src[end] != '\n' {
		end++
	}
	return fmt.Sprintf("%d:%d `%s`", line, col, src[off:end])
}

// reduce shrinks the program of a miss while the same read still misses the same definition,
// and returns it with the read and the definition marked.
func (d *driver) reduce(t *testing.T, m miss) string {
	p := jsgen.Generate(m.seed)
	p.Reduce(func(q *jsgen.Program) bool {
		o, err := d.run(q)
		if err != nil {
			t.Fatal(err)
		}
		if o.Syntax != "" {
			return false
		}
		for _, x := range checkProgram(q, o, definitionsOf(q.Plain)) {
			if x.read == m.read && x.def == m.def {
				return true
			}
		}
		return false
	})
	o, _ := d.run(p)
	again := m
	for _, x := range checkProgram(p, o, definitionsOf(p.Plain)) {
		if x.read == m.read && x.def == m.def {
			again.predicted = x.predicted
		}
	}
	report := p.Plain + "\n// " + again.describe(p) + "\n"
	if *soundnessOut != "" {
		os.MkdirAll(*soundnessOut, 0o755)
		os.WriteFile(filepath.Join(*soundnessOut, fmt.Sprintf("seed%d.js", m.seed)), []byte(report), 0o644)
	}
	return report
}

// TestVarArguments: a var named arguments in a function is the arguments object until assigned,
// and in sloppy code with simple parameters the parameters are its elements: they are context
// variables. In an arrow function, which has no arguments object of its own, it is a plain var.
func TestVarArguments(t *testing.T) {
	src := "function r(a) { var arguments; a = 5; return arguments[0] + a; }\n" +
		"const u = (a) => { var arguments = 1; return arguments + a; };\n"
	r := mustAnalyze(t, []byte(src), analysis.JavaScript)
	want := "function r(a) { var arguments₁; a = 5; return arguments₁[0] + a; }\n" +
		"const u₁ = (a₁) => { var arguments₁ = 1; return arguments₁ + a₁; };\n"
	if got := r.Annotate(); got != want {
		t.Errorf("annotate:\n%s\nwant\n%s", got, want)
	}
	hover, _, _ := r.Hover(int32(strings.Index(src, "arguments[0]")))
	if strings.Contains(hover, "undefined") || !strings.Contains(hover, "version 1 of `arguments`") {
		t.Errorf("hover of arguments in r:\n%s\nwant version 1, the arguments object, not undefined", hover)
	}
	hover, _, _ = r.Hover(int32(strings.Index(src, "a = 5")))
	if !strings.Contains(hover, "context variable") {
		t.Errorf("hover of a in r:\n%s\nwant a context variable", hover)
	}
	// Assigned before it is read, the object is not a useless store: no code stores it.
	assigned := mustAnalyze(t, []byte("function g(a) { var arguments = 5; return arguments; }\n"), analysis.JavaScript)
	if ds := assigned.Diagnostics(true); len(ds) != 0 {
		t.Errorf("diagnostics of a var arguments assigned before it is read: %+v", ds)
	}
}
