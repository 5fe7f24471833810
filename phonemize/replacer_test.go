package phonemize

import (
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
