//go:build cgo

package espeak

import (
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// BenchmarkEspeakLibrary backs lib.go's claim: a word read through espeak-ng's library
// (espeak_TextToPhonemes, in process) against the long-lived espeak-ng helper process, side by
// side on the corpora's unknown words.
//
//	go test -run '^$' -bench EspeakLibrary -benchtime 1x -v ./phonemize/espeak/
func BenchmarkEspeakLibrary(b *testing.B) {
	bin := testenv.LookPath(b, "espeak-ng")
	if err := openLib(); err != nil {
		b.Fatalf("espeak-ng's library: %v", err)
	}
	const perRound = 20
	words := espeakWordsUS(b, perRound*7)
	proc := &process{bin: bin, voice: "en-us"}
	defer proc.close()
	if _, err := proc.read("hello"); err != nil { // the helper's start is not what is measured
		b.Fatal(err)
	}
	var next int
	each := func(read func(string) error) func() time.Duration {
		return func() time.Duration {
			start := time.Now()
			for i := range perRound {
				if err := read(words[(next+i)%len(words)]); err != nil {
					b.Fatal(err)
				}
			}
			return time.Since(start) / perRound
		}
	}
	library := each(func(w string) error { _, err := libPhonemes("en-us", w); return err })
	helper := each(func(w string) error { _, err := proc.read(w); return err })
	for range b.N {
		round := 0
		advance := func(f func() time.Duration) func() time.Duration {
			return func() time.Duration {
				d := f()
				if round++; round%2 == 0 {
					next += perRound
				}
				return d
			}
		}
		corpus.SideBySide(b, 7, "word", "library", advance(library), "helper", advance(helper))
	}
}
