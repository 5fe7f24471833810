package en

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// BenchmarkLexiconReaders backs lexjson.go's claim: the direct scanner (parseDict) against the
// general encoding/json reader (decodeDict) on the four lexicon files, side by side.
//
//	go test -run '^$' -bench LexiconReaders -benchtime 1x -v ./phonemize/en/
func BenchmarkLexiconReaders(b *testing.B) {
	a := testenv.Assets(b)
	var files [][]byte
	for _, name := range []string{"us_gold.json", "us_silver.json", "gb_gold.json", "gb_silver.json"} {
		data, err := os.ReadFile(filepath.Join(a.Lexicon, name))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
	}
	for _, data := range files {
		d1, err1 := parseDict(string(data))
		d2, err2 := decodeDict(data)
		if err1 != nil || err2 != nil || len(d1) != len(d2) {
			b.Fatalf("the readers disagree: %d entries (%v) against %d (%v)", len(d1), err1, len(d2), err2)
		}
	}
	read := func(parse func([]byte) error) func() time.Duration {
		return func() time.Duration {
			start := time.Now()
			for _, data := range files {
				if err := parse(data); err != nil {
					b.Fatal(err)
				}
			}
			return time.Since(start)
		}
	}
	for range b.N {
		corpus.SideBySide(b, 7, "4 files", "scanner",
			read(func(d []byte) error { _, err := parseDict(string(d)); return err }),
			"encoding/json",
			read(func(d []byte) error { _, err := decodeDict(d); return err }))
	}
}
