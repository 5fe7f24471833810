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

// FuzzPieces checks that reading text into pieces never panics, fails only for text with
// nothing to read (ErrEmptyText), and that the pieces carry the whole reading's ids, each piece
// its own.
func FuzzPieces(f *testing.F) {
	for _, s := range fuzzSeeds {
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
