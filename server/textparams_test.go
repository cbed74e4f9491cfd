package server

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/ssalens/ssalens/treesitter/corpus"
)

// FuzzDecodeDidOpen checks that decodeDidOpen gives what json.Unmarshal gives, value and
// error, for any valid JSON: the fast path must give the same or not be taken.
func FuzzDecodeDidOpen(f *testing.F) {
	for _, seed := range didOpenSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		checkDecodeDidOpen(t, []byte(data))
	})
}

// TestDecodeDidOpen runs FuzzDecodeDidOpen's check on its seeds and on random texts in random
// JSON spellings of a didOpen.
func TestDecodeDidOpen(t *testing.T) {
	for _, seed := range didOpenSeeds() {
		checkDecodeDidOpen(t, []byte(seed))
	}
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "é", "\n", "\t", `"`, `\`, "/", "\u2028", "\x00", "\x1f", "😀", "\xff", "<>&", " "}
	for range 2000 {
		var sb strings.Builder
		for range r.IntN(30) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		text, _ := json.Marshal(sb.String())
		if r.IntN(3) == 0 {
			text = []byte(strings.ReplaceAll(string(text), `\n`, `\u000a`))
		}
		key := []string{`"text"`, `"Text"`, `"TEXT"`, `"t\u0065xt"`}[r.IntN(4)]
		doc := fmt.Sprintf(`{"uri":"file:///a.js", "languageId" : "javascript","version":%d, %s:%s}`, r.IntN(9), key, text)
		checkDecodeDidOpen(t, []byte(fmt.Sprintf(`{"textDocument":%s}`, doc)))
	}
}

// TestDecodeDidOpenCorpus decodes the didOpen of each corpus file, as a client's JSON encoder
// writes it.
func TestDecodeDidOpenCorpus(t *testing.T) {
	for _, f := range corpus.Fetch(t) {
		params, err := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///" + f.Name + ".js", "languageId": "javascript", "version": 1, "text": string(f.Src)}})
		if err != nil {
			t.Fatal(err)
		}
		var p protocol.DidOpenTextDocumentParams
		if err := decodeDidOpen(params, &p); err != nil || p.TextDocument.Text != string(f.Src) {
			t.Errorf("%s: the text decoded differs from the file's (%v)", f.Name, err)
		}
	}
}

func checkDecodeDidOpen(t *testing.T, data []byte) {
	t.Helper()
	if !json.Valid(data) {
		return
	}
	var want, got protocol.DidOpenTextDocumentParams
	wantErr := json.Unmarshal(data, &want)
	gotErr := decodeDidOpen(data, &got)
	if (wantErr == nil) != (gotErr == nil) || !reflect.DeepEqual(want, got) {
		t.Errorf("%.200q:\n got %+v, %v\nwant %+v, %v", data, got, gotErr, want, wantErr)
	}
}

func didOpenSeeds() []string {
	return []string{
		`{"textDocument":{"uri":"file:///a.js","languageId":"javascript","version":1,"text":"let a = 1;\n\tb = \"x\\y\" // \/"}}`,
		`{"textDocument":{"text":"caf\u00e9 \ud83d\ude00 \ud800","uri":"u"}}`,
		`{"textDocument":{"text":"a","Text":"b","TEXT":"c"}}`,
		`{"textDocument":{"uri":"a","text":"x"},"textDocument":{"version":2}}`,
		`{"textDocument":null}`,
		`{"textDocument":{"text":null}}`,
		`{"textDocument":{"text":5}}`,
		`{"textDocument":{"version":"1","text":"a"}}`,
		`{"textDocument":"x"}`,
		`{"textDocument":[1,2]}`,
		`[]`,
		`null`,
		`{}`,
		` { "textDocument" : { "text" : "a\"b" , "uri" : "x" } , "other" : [ { "a" : "}" } ] } `,
		"{\"textDocument\":{\"text\":\"\xff\xfe\"}}",
		`{"t\u0065xtDocument":{"text":"a"}}`,
		`{"textDocument":{"te\u0078t":"a","text":"b"}}`,
		`{"TextDocument":{"text":"\\u0041"}}`,
	}
}

// BenchmarkDecodeDidOpen decodes the didOpen of three.core.js with decodeDidOpen, and, for the
// ratio, with json.Unmarshal.
func BenchmarkDecodeDidOpen(b *testing.B) {
	src, err := os.ReadFile(corpusPath(b, "three.core"))
	if err != nil {
		b.Fatal(err)
	}
	params, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///three.core.js", "languageId": "javascript", "version": 1, "text": string(src)}})
	b.Run("decodeDidOpen", func(b *testing.B) {
		for b.Loop() {
			var p protocol.DidOpenTextDocumentParams
			if err := decodeDidOpen(params, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		for b.Loop() {
			var p protocol.DidOpenTextDocumentParams
			if err := json.Unmarshal(params, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func corpusPath(b *testing.B, name string) string {
	for _, f := range corpus.Fetch(b) {
		if f.Name == name {
			return f.Path
		}
	}
	b.Fatalf("no corpus file %s", name)
	return ""
}
