package en

import (
	"slices"
	"strings"
	"testing"
)

// TestReplacerMatchesStringsReplacer: skipping strings without a pattern's first character
// changes nothing, with single- and multi-character patterns.
func TestReplacerMatchesStringsReplacer(t *testing.T) {
	t.Parallel()
	pairs := []string{"ɾ", "T", "ʔ", "t", "ab", "X", "ˈ", ""}
	mine, want := newReplacer(pairs...), strings.NewReplacer(pairs...)
	for _, s := range []string{"", "plain", "wɔɾəɹ", "ʔʔ", "a", "b", "cab", "ba", "ˈæbˌ", "ɾab"} {
		if got, w := mine.Replace(s), want.Replace(s); got != w {
			t.Errorf("Replace(%q) = %q, want %q", s, got, w)
		}
	}
}

// TestPlainWordsAreNotSplit: the tokenizers' shortcuts for plain words return what their full
// rules return, on every plain word of the corpora and every special case.
func TestPlainWordsAreNotSplit(t *testing.T) {
	t.Parallel()
	n := 0
	for _, f := range []string{"misaki_corpus.tsv", "misaki_wild_dev.tsv", "misaki_wild3_heldout.tsv"} {
		for _, r := range loadCorpus(t, f) {
			for _, w := range strings.FieldsFunc(r.text, func(c rune) bool { return c == ' ' || c == ',' || c == '.' || c == '"' }) {
				if !plainWord(w) {
					continue
				}
				n++
				if got := splitSubtokens(w); len(got) != 1 || got[0] != w {
					t.Errorf("splitSubtokens(%q) = %q, the shortcut gives it whole", w, got)
				}
				if got, want := splitToken(w), splitTokenRules(w); !slices.Equal(got, want) {
					t.Errorf("splitToken(%q) = %q, the rules give %q", w, got, want)
				}
			}
		}
	}
	for _, w := range []string{"iPhone", "McDonald", "ABCs", "x1", "e-mail", "don't"} {
		if plainWord(w) {
			t.Errorf("plainWord(%q) = true", w)
		}
	}
	for w := range tokenExceptions {
		if plainWord(w) {
			if got, want := splitToken(w), splitTokenRules(w); !slices.Equal(got, want) {
				t.Errorf("splitToken(%q) = %q, the rules give %q", w, got, want)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d plain words checked", n)
	}
}
