package vocab

import (
	"testing"
	"unicode/utf8"
)

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
		t.Run(string(c.r), func(t *testing.T) {
			if got, _ := ID(c.r); got != c.id {
				t.Errorf("ID(%q) = %d, want %d", c.r, got, c.id)
			}
		})
	}
}

// TestInVocabIsTheMap: the bit set answers as the vocabulary map does, for every rune of the
// Basic Multilingual Plane and a few beyond it.
func TestInVocabIsTheMap(t *testing.T) {
	t.Parallel()
	n := 0
	for r := rune(-1); r < 1<<16+2; r++ {
		_, want := vocab[r]
		if got := Contains(r); got != want {
			t.Errorf("Contains(%q) = %v, the map says %v", r, got, want)
		}
		if want {
			n++
		}
	}
	if n != len(vocab) {
		t.Errorf("%d symbols found, want %d", n, len(vocab))
	}
	if Contains(0x10000+'a') || Contains(utf8.MaxRune) {
		t.Error("a rune beyond the plane is in the vocabulary")
	}
}
