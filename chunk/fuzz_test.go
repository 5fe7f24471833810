package chunk

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

var (
	offOnce sync.Once
	offP    testReader
	offErr  error
)

// offlinePhonemizer reads with the built-in fallback only, so that fuzzing starts no espeak-ng.
func offlinePhonemizer(t testing.TB) testReader {
	t.Helper()
	p := testenv.Assets(t)
	offOnce.Do(func() {
		var ph *phonemize.Phonemizer
		ph, offErr = phonemize.New(phonemize.Config{LexiconDir: p.Lexicon, Espeak: "off"})
		offP = testReader{ph}
	})
	if offErr != nil {
		t.Fatal(offErr)
	}
	return offP
}

// FuzzChunks checks that chunking never panics, fails only for text with nothing to speak (and
// then with phonemize.ErrEmptyText), holds the first chunk to its own budget and every other chunk to
// model.MaxIDs, and emits only vocabulary ids.
func FuzzChunks(f *testing.F) {
	for _, s := range []string{
		"Hello, world.", "Dr. Smith paid $5.50 for 3 apples in 1984.", "I read; you read.",
		"When the rain stopped, we walked to the station and caught the last train home.",
		"First paragraph.\n\nSecond one, with a comma", "word " + "supercalifragilisticexpialidocious ",
	} {
		f.Add(s, 10, 60)
	}
	f.Fuzz(func(t *testing.T, text string, first, maxIDs int) {
		if !utf8.ValidString(text) || strings.TrimSpace(text) == "" {
			return
		}
		p := offlinePhonemizer(t)
		// Every seventh value of first paces the chunks, at 0 to 6 units of audio an id.
		opt := Options{Policy: Policy{FirstChunkMaxIDs: first % 600, MaxChunkIDs: maxIDs % 600}}
		if first%7 != 0 {
			opt.Pace, opt.PaceOverhead = float64(first%7), 18
		}
		opt.FirstChunkAt = FirstAt(max(maxIDs, -maxIDs) % 4) // punctuation, phrase, word or auto
		opt.Context = first%2 == 0
		chunks, err := p.Chunks(text, opt)
		if err != nil {
			if !errors.Is(err, phonemize.ErrEmptyText) {
				t.Fatalf("Chunks(%q): %v, want nil or phonemize.ErrEmptyText", text, err)
			}
			if ps, _ := p.Phonemize(text, ""); len(phonemize.Tokenize(ps)) > 0 {
				t.Fatalf("Chunks(%q) found nothing to speak, but Phonemize gives %q", text, ps)
			}
			return
		}
		limit := model.MaxIDs
		if opt.MaxChunkIDs > 0 && opt.MaxChunkIDs < model.MaxIDs {
			limit = opt.MaxChunkIDs
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
			if n := len(c.Before) + len(c.IDs) + len(c.After); n > model.MaxIDs {
				t.Fatalf("chunk %d of %q: the model would hear %d ids", i, text, n)
			}
			if len(c.Before) > 0 && c.Before[len(c.Before)-1] != phonemize.SpaceID || len(c.After) > 0 && c.After[0] != phonemize.SpaceID {
				t.Fatalf("chunk %d of %q: context %v | %v does not meet it at a space", i, text, c.Before, c.After)
			}
			for _, id := range c.IDs {
				if id <= 0 || id >= phonemize.NumTokens {
					t.Fatalf("chunk %d of %q has id %d", i, text, id)
				}
			}
		}
	})
}
