package espeak

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// BenchmarkEspeakHelper backs proc.go's claim: a word read by the long-lived espeak-ng
// helper (one line through its pipe) against the one-shot fallback, which starts espeak-ng for
// the marker word and for the text, side by side on the corpora's unknown words.
//
//	go test -run '^$' -bench EspeakHelper -benchtime 1x -v ./phonemize/espeak/
func BenchmarkEspeakHelper(b *testing.B) {
	bin := testenv.LookPath(b, "espeak-ng")
	const perRound = 20
	words := espeakWordsUS(b, perRound*7)
	e := Install{Bin: bin}.Voice("en-us")
	defer e.Close()
	if _, err := e.proc.read("hello"); err != nil { // the helper's start is not what is measured
		b.Fatal(err)
	}
	var next int
	batch := func() []string { // the round's words: both sides read the same ones
		out := make([]string, perRound)
		for i := range out {
			out[i] = words[(next+i)%len(words)]
		}
		return out
	}
	helper := func() time.Duration {
		start := time.Now()
		for _, w := range batch() {
			if _, err := e.proc.read(w); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start) / perRound
	}
	oneShot := func() time.Duration {
		start := time.Now()
		for _, w := range batch() {
			if _, ok := e.proc.readOnce(w); !ok {
				b.Fatalf("one-shot espeak-ng failed on %q", w)
			}
		}
		return time.Since(start) / perRound
	}
	for range b.N {
		round := 0
		corpus.SideBySide(b, 7, "word", "helper", func() time.Duration {
			d := helper()
			if round++; round%2 == 0 {
				next += perRound
			}
			return d
		}, "one-shot", func() time.Duration {
			d := oneShot()
			if round++; round%2 == 0 {
				next += perRound
			}
			return d
		})
	}
}

// espeakWordsUS is the American words of ../en/testdata/misaki_espeak_words.tsv (the corpora's
// unknown words), at least atLeast of them.
func espeakWordsUS(b *testing.B, atLeast int) []string {
	data, err := os.ReadFile(filepath.Join("..", "en", "testdata", "misaki_espeak_words.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	var words []string
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Split(line, "\t")
		if len(f) >= 2 && f[0] == "us" && strings.TrimSpace(f[1]) != "" && !strings.HasPrefix(line, "#") {
			words = append(words, f[1])
		}
	}
	if len(words) < atLeast {
		b.Fatalf("%d words", len(words))
	}
	return words
}
