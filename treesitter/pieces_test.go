package treesitter

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

// TestPiecesEqualWhole parses every corpus file, JavaScript, TypeScript and test262's parser
// tests (whose failing tests have syntax errors), in 2, 3 and 4 pieces, whatever its size, and
// checks that where the trees prove the cuts, the joined tree is the whole parse's, node for
// node. So are the JavaScript files broken in the middle, or cut short, as a user's edit
// leaves them. The large JavaScript files must cut in two as they are: else parsing in pieces
// would never happen where it matters.
func TestPiecesEqualWhole(t *testing.T) {
	mustCut := map[string]bool{"lodash": true, "three.core": true, "three.module": true, "react-dom": true, "typescript": true}
	files := editedCorpus(t)
	joined := 0
	for _, f := range files {
		g := grammarOf(f.Lang)
		var whole *Tree
		for n := 2; n <= 4 && (n == 2 || len(f.Src) <= 4<<20); n++ {
			cuts := cutPoints(f.Src, n)
			nodes, err := parsePieces(g, f.Src, cuts, false)
			if err != nil {
				t.Fatal(err)
			}
			if nodes == nil {
				if n == 2 && mustCut[f.Name] {
					t.Errorf("%s: not parsed in pieces (cuts %v)", f.Name, cuts)
				}
				continue
			}
			joined++
			if whole == nil {
				if whole, err = Parse(g, f.Src); err != nil {
					t.Fatal(err)
				}
				defer whole.Close()
			}
			if d := firstDifference(nodes, whole.Nodes); d >= 0 {
				t.Errorf("%s in %d pieces (cuts %v): node %d differs from the whole parse's", f.Name, n, cuts, d)
			}
		}
	}
	t.Logf("%d files, %d joined parses equal to the whole parse", len(files), joined)
}

// editedCorpus returns every corpus file: JavaScript, TypeScript and test262's parser tests
// (whose failing tests have syntax errors), and the JavaScript files up to 4 MB (not
// typescript.js, for time) broken in the middle, or cut short, as a user's edit leaves them.
func editedCorpus(t *testing.T) []corpus.File {
	files := corpus.Fetch(t)
	for _, f := range files {
		if len(f.Src) > 4<<20 {
			continue
		}
		broken, short := f, f
		broken.Name, short.Name = f.Name+" broken", f.Name+" cut short"
		broken.Src = slices.Concat(f.Src[:len(f.Src)/2], []byte("}) ( [ =>"), f.Src[len(f.Src)/2:])
		short.Src = f.Src[:len(f.Src)*2/3]
		files = append(files, broken, short)
	}
	files = append(files, corpus.FetchTypeScript(t)...)
	return append(files, corpus.FetchTest262(t)...)
}

// TestParseInPiecesReparses checks the life of a tree made in pieces: it re-parses an edit as
// a tree parsed whole does (parsing whole first), once ParseWhole ran on another goroutine or
// without it; closed during ParseWhole, the parse stops and the parser is as new; closed
// before, it is never parsed whole, and the C allocator holds nothing more for it.
func TestParseInPiecesReparses(t *testing.T) {
	src := threeModule(t)
	at := uint32(len(src) / 2)
	edited := slices.Concat(src[:at], []byte(" "), src[at:])
	edit := Edit{StartByte: at, OldEndByte: at, NewEndByte: at + 1}
	whole, err := Parse(JavaScript, src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := whole.Reparse(edit, edited)
	if err != nil {
		t.Fatal(err)
	}
	whole.Close()
	want.Close()
	for _, background := range []bool{true, false} {
		tree, err := ParseInPieces(JavaScript, src)
		if err != nil {
			t.Fatal(err)
		}
		if tree.whole == nil {
			t.Fatal("three.module.js was not parsed in pieces")
		}
		if background {
			done := make(chan bool)
			go func() { done <- tree.ParseWhole() }()
			if !<-done {
				t.Fatal("ParseWhole found the pieces differ from the whole parse")
			}
		}
		got, err := tree.Reparse(edit, edited)
		if err != nil {
			t.Fatal(err)
		}
		if d := firstDifference(got.Nodes, want.Nodes); d >= 0 {
			t.Errorf("background %v: node %d of the re-parse differs from the re-parse of a whole tree", background, d)
		}
		tree.Close()
		got.Close()
	}
	// Closed while ParseWhole runs, the parse stops; the parser it used parses the next
	// source from its start, not on from where it stopped.
	tree, err := ParseInPieces(JavaScript, src)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	go func() { done <- tree.ParseWhole() }()
	time.Sleep(20 * time.Millisecond)
	tree.Close()
	if <-done {
		t.Error("ParseWhole of a tree closed during it reports a C tree")
	}
	for range 2 {
		next, err := Parse(JavaScript, edited)
		if err != nil {
			t.Fatal(err)
		}
		if d := firstDifference(next.Nodes, want.Nodes); d >= 0 {
			t.Errorf("after a stopped whole parse, node %d of the next parse differs", d)
		}
		next.Close()
	}
	before := settledCMemory()
	tree, err = ParseInPieces(JavaScript, src)
	if err != nil {
		t.Fatal(err)
	}
	tree.Close()
	if tree.ParseWhole() {
		t.Error("a tree closed before ParseWhole was parsed whole")
	}
	if _, err := tree.Reparse(edit, edited); err == nil {
		t.Error("a closed tree made in pieces re-parsed")
	}
	if left := settledCMemory() - before; before >= 0 && left > 64<<10 {
		t.Errorf("%d kB of C memory left after a tree made in pieces was closed", left>>10)
	}
}

// threeModule returns the source of three.module.js, which is parsed in pieces.
func threeModule(t *testing.T) []byte {
	for _, f := range corpus.Fetch(t) {
		if f.Name == "three.module" {
			return f.Src
		}
	}
	t.Skip("three.module.js is not in the corpus")
	return nil
}

// TestSplicePendingOnPieces types into a tree made in pieces before its whole parse ran, as a
// user who types as soon as a large file's first answers are out, and handles the trees as the
// analysis does: each version's tree is closed once the next is re-parsed from it, and the
// tree made in pieces is recycled meanwhile. The splices do not wait for the whole parse. Once
// it ran, beside the parse of the last version's C tree that starts from it, an edit that
// cannot be spliced re-parses from that C tree as from a fresh parse, the C tree of the tree
// made in pieces is freed, and its nodes are recycled. A tree pending on the parse that is
// closed stops it, once no other tree needs it.
func TestSplicePendingOnPieces(t *testing.T) {
	src := threeModule(t)
	pieces, err := ParseInPieces(JavaScript, src)
	if err != nil {
		t.Fatal(err)
	}
	if pieces.whole == nil {
		t.Fatal("three.module.js was not parsed in pieces")
	}
	tree, text := pieces, src
	for k := range 3 {
		at := uint32(len(text) * (k + 1) / 4)
		at += uint32(bytes.IndexByte(text[at:], '\n')) + 1 // a space at the start of a line
		text = slices.Concat(text[:at], []byte(" "), text[at:])
		next, err := tree.Reparse(Edit{StartByte: at, OldEndByte: at, NewEndByte: at + 1}, text)
		if err != nil {
			t.Fatal(err)
		}
		if w := next.whole; w == nil || w.pending != pieces {
			t.Fatalf("edit %d: the tree is not spliced pending on the tree made in pieces", k)
		}
		tree.Close()
		if k == 0 {
			pieces.Recycle()
		}
		tree = next
	}
	if pieces.whole.ended {
		t.Fatal("a splice waited for the whole parse")
	}
	if pieces.Nodes == nil {
		t.Fatal("Recycle took the nodes that the whole parse compares with")
	}
	done := make(chan bool)
	go func() { done <- pieces.ParseWhole() }()
	if !tree.ParseWhole() {
		t.Fatal("the last version has no C tree")
	}
	<-done
	// Replaced by itself, the middle third of the file is too long a piece to splice.
	from, to := uint32(len(text)/3), uint32(len(text)*2/3)
	got, err := tree.Reparse(Edit{StartByte: from, OldEndByte: to, NewEndByte: to}, text)
	if err != nil {
		t.Fatal(err)
	}
	if got.whole != nil {
		t.Fatal("an edit of a third of the file was spliced")
	}
	want, err := Parse(JavaScript, text)
	if err != nil {
		t.Fatal(err)
	}
	if d := firstDifference(got.Nodes, want.Nodes); d >= 0 || len(got.Nodes) != len(want.Nodes) {
		t.Errorf("node %d of the re-parse from the pending tree's C tree differs from a fresh parse", d)
	}
	if pieces.whole.holders != 0 || pieces.whole.ts != nil || pieces.Nodes != nil {
		t.Errorf("the tree made in pieces still has %d holders, a C tree (%v) or nodes (%v)",
			pieces.whole.holders, pieces.whole.ts != nil, pieces.Nodes != nil)
	}
	tree.Close()
	got.Close()
	want.Close()

	pieces, err = ParseInPieces(JavaScript, src)
	if err != nil {
		t.Fatal(err)
	}
	at := uint32(len(src) / 2)
	next, err := pieces.Reparse(Edit{StartByte: at, OldEndByte: at, NewEndByte: at + 1}, slices.Concat(src[:at], []byte(" "), src[at:]))
	if err != nil {
		t.Fatal(err)
	}
	pieces.Close()
	next.Close()
	if pieces.ParseWhole() {
		t.Error("the whole parse ran on though no tree needs it")
	}
}

// settledCMemory returns the C memory in use once the trees freed on other goroutines are
// (cMemoryInUse): once two readings 50 ms apart agree, or after 10 s.
func settledCMemory() int64 {
	last := cMemoryInUse()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		now := cMemoryInUse()
		if now == last {
			break
		}
		last = now
	}
	return last
}
