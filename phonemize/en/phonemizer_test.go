package en

import (
	"strings"
	"testing"
)

func TestEspeakFallback(t *testing.T) {
	p := requireEspeak(t)
	t.Parallel()
	// Unknown words go through the long-lived espeak-ng process; the sentinel word itself
	// and text around it must not desynchronise it.
	for _, c := range []struct{ text, want string }{
		{"quokka", "kwˈɑkə"},
		{"Zebra-zebra", ""},
		{"Kayak kayak", ""},
		{"quokka", "kwˈɑkə"},
		{"Xyzzyq zebra quokka", ""},
		{"quokka", "kwˈɑkə"},
	} {
		got, err := p.Phonemize(c.text, "en-us")
		if err != nil {
			t.Fatal(err)
		}
		if got == "" || (c.want != "" && got != c.want) {
			t.Errorf("Phonemize(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestBritishFallbackNoRColouring: without espeak-ng, British readings of words no lexicon knows
// (from the pronunciation dictionary, from a stem and suffix, or from the spelling rules) keep an
// r only where a vowel follows it.
func TestBritishFallbackNoRColouring(t *testing.T) {
	p := offlinePhonemizer(t)
	t.Parallel()
	words := []string{"quarterbacking", "Zwergmorker", "blorfter", "carmody", "cornerstoning",
		"murdstone", "fortescue", "sharkwater", "earnshaw", "thorburn", "purdie", "starbird",
		"verner", "hartigan", "burkhardt", "gortner", "mordor", "barrowman", "hereward", "tarquin",
		"farrier", "sorcerers", "wonderers", "authorisation", "colourisers", "theatregoers"}
	lts := p.gb.fallback
	for _, w := range words {
		ps, ok := lts(w)
		if !ok || ps == "" {
			t.Errorf("%s: no reading", w)
			continue
		}
		rs := []rune(stressRemover.Replace(ps))
		for i, r := range rs {
			if r != 'ɹ' {
				continue
			}
			if i+1 == len(rs) || !(isVowel(rs[i+1]) || strings.ContainsRune("ᵊjw", rs[i+1])) {
				t.Errorf("%s → %s: r-coloured (ɹ not before a vowel)", w, ps)
				break
			}
		}
		if strings.ContainsAny(ps, "ɚɝ") {
			t.Errorf("%s → %s: American r-coloured vowel", w, ps)
		}
	}
}
