package phonemize

import "testing"

func TestVocabularyShape(t *testing.T) {
	t.Parallel()
	if len(vocab) != 114 {
		t.Fatalf("vocabulary has %d symbols, Kokoro v1.0 has 114", len(vocab))
	}
	seen := map[int64]rune{}
	for r, id := range vocab {
		if id <= 0 || id >= NumTokens {
			t.Errorf("symbol %q has id %d outside (0,%d)", r, id, NumTokens)
		}
		if o, dup := seen[id]; dup {
			t.Errorf("id %d used by %q and %q", id, o, r)
		}
		seen[id] = r
	}
	for _, c := range []struct {
		r  rune
		id int64
	}{{' ', 16}, {'ʤ', 82}, {'ɾ', 125}, {'ᵻ', 177}, {';', 1}} {
		if got, _ := ID(c.r); got != c.id {
			t.Errorf("ID(%q) = %d, want %d", c.r, got, c.id)
		}
	}
}
