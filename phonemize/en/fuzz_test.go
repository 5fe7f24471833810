package en

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
	"github.com/kokoro-sm/kokoro/phonemize/internal/vocab"
)

// FuzzPhonemize checks, for arbitrary text, that phonemizing never panics, emits only
// vocabulary symbols, and gives every word with a Latin letter or a digit some phonemes.
func FuzzPhonemize(f *testing.F) {
	for _, s := range corpus.FuzzSeeds() {
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
			if !vocab.Contains(r) && r != '[' {
				t.Fatalf("Phonemize(%q) = %q has %q outside the vocabulary", text, ps, r)
			}
		}
		_, toks := p.gb.convert(text, Switches{})
		for _, tk := range toks {
			if speakable(tk.text) && !tk.override && strings.TrimSpace(tk.ps) == "" {
				t.Fatalf("word %q of %q lost (phonemes %q)", tk.text, text, ps)
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
