package server

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/analysis"
	"github.com/ssalens/ssalens/internal/mutate"
)

var (
	serverMutations    = flag.Int("mutations", 100, "inputs TestMutationsServer sends")
	serverMutationSeed = flag.Uint64("mutation-seed", 1, "the seed of TestMutationsServer")
)

// TestMutationsServer sends the broken programs of package mutate to one server, each as the
// next version of one document, and checks every answer against the text (checkAnswers). A
// campaign:
//
//	nice go test ./server -run TestMutationsServer -timeout 0 -args -mutations=100000 -mutation-seed=2
func TestMutationsServer(t *testing.T) {
	skipUnderRace(t)
	bases := mutate.Bases(t)
	rng := rand.New(rand.NewPCG(*serverMutationSeed, 7))
	m := newMutationClient(t)
	for range *serverMutations {
		src, what := mutate.Mutate(bases[rng.IntN(len(bases))], rng)
		m.check(src, what)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d inputs", m.version-1)
}

// TestCrashersServer sends the inputs the campaigns found at fault to the server.
func TestCrashersServer(t *testing.T) {
	files, _ := filepath.Glob("../testdata/crashers/*.js")
	m := newMutationClient(t)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m.check(src, filepath.Base(f))
	}
}

// mutationClient edits one document of a server into one input after the other.
type mutationClient struct {
	t       *testing.T
	c       *testClient
	version int32
}

const mutationURI protocol.DocumentURI = "file:///mutated.js"

func newMutationClient(t *testing.T) *mutationClient {
	c := startInitialized(t, refreshCapable, nil)
	c.open(mutationURI, "")
	return &mutationClient{t: t, c: c, version: 1}
}

// check makes src the document's next version and checks the server's answers about it:
// every position is inside the text (a line it has, a character within the line), no hint
// and no diagnostic comes twice (a function analyzed twice), and every answer comes within
// 10 s.
func (m *mutationClient) check(src []byte, what string) {
	t := m.t
	t.Helper()
	m.version++
	m.c.change(mutationURI, m.version, contentChange{Text: string(src)})
	lines := analysis.NewLines(src)
	bad := func(p protocol.Position) bool {
		if int(p.Line) >= lines.Count() {
			return true
		}
		start := lines.Start(int(p.Line))
		end := int32(len(src))
		if int(p.Line)+1 < lines.Count() {
			end = lines.Start(int(p.Line) + 1)
		}
		line := strings.TrimRight(string(src[start:end]), "\r\n")
		return int(p.Character) > len(utf16.Encode([]rune(line)))
	}
	fail := func(format string, args ...any) {
		t.Errorf("%s: %s\n%.1500s", what, fmt.Sprintf(format, args...), src)
	}
	var diags protocol.PublishDiagnosticsParams
	if err := json.Unmarshal(m.c.diagnostics(mutationURI, m.version), &diags); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, d := range diags.Diagnostics {
		if bad(d.Range.Start) || bad(d.Range.End) {
			fail("diagnostic %q at %v", d.Message, d.Range)
		}
		key := fmt.Sprint(d.Range, d.Message)
		if slices.Contains(seen, key) {
			fail("diagnostic %q at %v twice", d.Message, d.Range)
		}
		seen = append(seen, key)
	}
	var hints []inlayHint
	if err := json.Unmarshal(m.c.answer("textDocument/inlayHint", hintsParams(mutationURI, 0, 1<<30)), &hints); err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, h := range hints {
		if bad(h.Position) {
			fail("hint %v at %v", h.Label, h.Position)
		}
		key := fmt.Sprint(h.Position, h.Label)
		if keys[key] {
			fail("hint %v at %v twice", h.Label, h.Position)
		}
		keys[key] = true
	}
	for i := 0; i < len(src); i += max(1, len(src)/6) {
		p := position(lines, int32(i), utf16Encoding)
		params := at(mutationURI, p.Line, p.Character)
		var hover protocol.Hover
		if data := m.c.answer("textDocument/hover", params); string(data) != "null" && json.Unmarshal(data, &hover) == nil && hover.Range != nil &&
			(bad(hover.Range.Start) || bad(hover.Range.End)) {
			fail("hover at %v spans %v", p, *hover.Range)
		}
		var locs []protocol.Location
		_ = json.Unmarshal(m.c.answer("textDocument/definition", params), &locs)
		for _, l := range locs {
			if bad(l.Range.Start) || bad(l.Range.End) {
				fail("definition at %v: %v", p, l.Range)
			}
		}
	}
}
