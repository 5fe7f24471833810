package chunk

import (
	"sync"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize"
)

var (
	sharedOnce sync.Once
	sharedP    *phonemize.Phonemizer
	sharedErr  error
)

// testReader is a phonemizer loaded once for the whole test binary, with Chunks on it.
type testReader struct{ *phonemize.Phonemizer }

func (r testReader) Chunks(text string, opt Options) ([]Chunk, error) {
	return Chunks(r.Phonemizer, text, opt)
}

func (r testReader) cutter(text string, opt Options) (cutter, error) {
	return newCutter(r.Phonemizer, text, opt)
}

func testPhonemizer(t testing.TB) testReader {
	t.Helper()
	p := testenv.Assets(t)
	sharedOnce.Do(func() { sharedP, sharedErr = phonemize.New(phonemize.Config{LexiconDir: p.Lexicon}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return testReader{sharedP}
}

// lastRuneStr is the last character of s, "" for an empty s.
func lastRuneStr(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return ""
	}
	return string(r[len(r)-1])
}
