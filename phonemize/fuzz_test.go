package phonemize

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

var (
	offOnce sync.Once
	offP    *Phonemizer
	offErr  error
)

// offlinePhonemizer uses only the built-in fallback, so fuzzing is fast and deterministic.
func offlinePhonemizer(t testing.TB) *Phonemizer {
	t.Helper()
	p := testenv.Assets(t)
	offOnce.Do(func() { offP, offErr = New(Config{LexiconDir: p.Lexicon, Espeak: "off"}) })
	if offErr != nil {
		t.Fatal(offErr)
	}
	return offP
}

var fuzzSeeds = []string{
	"Hello, world.", "Dr. Smith paid $5.50 for 3 apples in 1984.", "[Kokoro](/kˈOkəɹO/) is fast.",
	"3:30pm — 5-10% of 1,000,000!", "e-mail me@x.io or see https://a.b/c?d=e", "I read; you read.",
	"ÀÉÎõü çà et là", "東京 and Zürich", "'''\"\"\"...", "[x](-2) [y](#&#) [z](/)", "-5 -.5 .5 5.",
	"A.B.C. U.S.A. vs. e.g.", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "\u0000\uFFFD\u200B",
	"$$$ £1.999 €0.01 $0.00", "1st 2nd 3rd 4th 11th 21st 101st", "O'Neil's rock'n'roll McDonald's iPhone",
}

// FuzzPhonemize checks, for arbitrary text, that phonemizing never panics, emits only
// vocabulary symbols, and gives every word with a Latin letter or a digit some phonemes.
func FuzzPhonemize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		p := offlinePhonemizer(t)
		ps, err := p.Phonemize(text, "en-us")
		if strings.TrimSpace(text) == "" {
			if err == nil {
				t.Fatalf("no error for blank text %q", text)
			}
			return
		}
		if err != nil {
			t.Fatalf("Phonemize(%q): %v", text, err)
		}
		for _, r := range ps {
			if _, ok := vocab[r]; !ok && r != '[' {
				t.Fatalf("Phonemize(%q) = %q has %q outside the vocabulary", text, ps, r)
			}
		}
		_, toks := p.gb.convert(text)
		for _, tk := range toks {
			if speakable(tk.text) && !tk.override && strings.TrimSpace(tk.ps) == "" {
				t.Fatalf("word %q of %q lost (phonemes %q)", tk.text, text, ps)
			}
		}
	})
}

// FuzzChunks checks that chunking never panics, fails only for text with nothing to speak (and
// then with ErrEmptyText), holds the first chunk to its own budget and every other chunk to
// MaxIDs, and emits only vocabulary ids.
func FuzzChunks(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, 10, 60)
	}
	f.Fuzz(func(t *testing.T, text string, first, maxIDs int) {
		if !utf8.ValidString(text) || strings.TrimSpace(text) == "" {
			return
		}
		p := offlinePhonemizer(t)
		// Every seventh value of first paces the chunks, at 0 to 6 units of audio an id.
		opt := Options{FirstChunkMaxIDs: first % 600, MaxIDs: maxIDs % 600}
		if first%7 != 0 {
			opt.Pace, opt.PaceOverhead = float64(first%7), 18
		}
		opt.FirstChunkAt = FirstAt(max(maxIDs, -maxIDs) % 4) // punctuation, phrase, word or auto
		opt.Context = first%2 == 0
		chunks, err := p.Chunks(text, opt)
		if err != nil {
			if !errors.Is(err, ErrEmptyText) {
				t.Fatalf("Chunks(%q): %v, want nil or ErrEmptyText", text, err)
			}
			if ps, _ := p.Phonemize(text, ""); len(Tokenize(ps)) > 0 {
				t.Fatalf("Chunks(%q) found nothing to speak, but Phonemize gives %q", text, ps)
			}
			return
		}
		limit := MaxIDs
		if opt.MaxIDs > 0 && opt.MaxIDs < MaxIDs {
			limit = opt.MaxIDs
		}
		firstLimit := DefaultFirstChunkMaxIDs
		if (opt.FirstChunkAt == FirstAtPhrase || opt.FirstChunkAt == FirstAtWord) && opt.Pace == 0 {
			// Paced, an early first chunk that would leave the listener a wait falls back to
			// the first phrase, and its budget (cutter.plan).
			firstLimit = DefaultEarlyFirstChunkMaxIDs
		}
		if opt.FirstChunkMaxIDs > 0 {
			firstLimit = opt.FirstChunkMaxIDs
		}
		firstLimit = min(firstLimit, limit)
		for i, c := range chunks {
			lim := limit
			if i == 0 {
				lim = firstLimit
			}
			if len(c.IDs) < 1 || len(c.IDs) > lim {
				t.Fatalf("chunk %d of %q has %d ids (limit %d)", i, text, len(c.IDs), lim)
			}
			if n := len(c.Before) + len(c.IDs) + len(c.After); n > MaxIDs {
				t.Fatalf("chunk %d of %q: the model would hear %d ids", i, text, n)
			}
			if len(c.Before) > 0 && c.Before[len(c.Before)-1] != SpaceID || len(c.After) > 0 && c.After[0] != SpaceID {
				t.Fatalf("chunk %d of %q: context %v | %v does not meet it at a space", i, text, c.Before, c.After)
			}
			for _, id := range c.IDs {
				if id <= 0 || id >= NumTokens {
					t.Fatalf("chunk %d of %q has id %d", i, text, id)
				}
			}
		}
	})
}

// speakable reports whether a token has something the built-in fallback can always read:
// a Latin letter (accents folded) or a digit.
func speakable(s string) bool {
	for _, r := range foldAccents(s) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return true
		}
	}
	return false
}
