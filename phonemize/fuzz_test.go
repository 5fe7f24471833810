package phonemize

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
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

// FuzzPieces checks that reading text into pieces never panics, fails only for text with
// nothing to read (ErrEmptyText), and that the pieces carry the whole reading's ids, each piece
// its own.
func FuzzPieces(f *testing.F) {
	for _, s := range corpus.FuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		p := offlinePhonemizer(t)
		pieces, err := p.Pieces(text, "")
		if err != nil {
			if !errors.Is(err, ErrEmptyText) || strings.TrimSpace(text) != "" {
				t.Fatalf("Pieces(%q): %v, want nil, or ErrEmptyText for a blank text", text, err)
			}
			return
		}
		for i, pc := range pieces {
			if pc.IDs != len(Tokenize(pc.Phonemes)) {
				t.Fatalf("piece %d of %q: %d ids, but its phonemes %q have %d", i, text, pc.IDs, pc.Phonemes, len(Tokenize(pc.Phonemes)))
			}
			if pc.Cut < BoundaryNone || pc.Cut > BoundaryParagraph {
				t.Fatalf("piece %d of %q: boundary %d", i, text, pc.Cut)
			}
		}
		if pieces[len(pieces)-1].Cut != BoundaryParagraph {
			t.Fatalf("the last piece of %q ends on %d, want a paragraph's end", text, pieces[len(pieces)-1].Cut)
		}
	})
}
