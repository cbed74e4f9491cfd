package treesitter

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

// TestParseAfterCancel stops parses of lodash.js at random times, also while tree-sitter
// balances the finished tree, and parses another text with the parsers that are left: none
// may resume the stopped parse (tree-sitter 0.25's ts_parser_reset does not forget a balance
// that was stopped, and the next parse of such a parser fails an assertion).
func TestParseAfterCancel(t *testing.T) {
	var src []byte
	for _, f := range corpus.Fetch(t) {
		if f.Name == "lodash" {
			src = f.Src
		}
	}
	start := time.Now()
	whole, err := parseC(JavaScript, src, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole.Close()
	took := time.Since(start)
	rng := rand.New(rand.NewPCG(3, 4))
	stopped := 0
	for range 40 {
		cancel := new(atomic.Int32)
		// Late in the parse, where balancing is: from 80% of the time a parse takes on.
		timer := time.AfterFunc(took*time.Duration(80+rng.IntN(40))/100, func() { cancel.Store(1) })
		if ts, err := parseC(JavaScript, src, nil, cancel, nil); err == nil {
			ts.Close()
		} else {
			stopped++
		}
		timer.Stop()
		small, err := Parse(JavaScript, []byte("var a = 1;\n"))
		if err != nil {
			t.Fatal(err)
		}
		small.Close()
	}
	t.Logf("%d of 40 parses stopped", stopped)
}
