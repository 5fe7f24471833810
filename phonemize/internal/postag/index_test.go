package postag

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestIndexFindsEveryFeatureAndNothingElse(t *testing.T) {
	t.Parallel()
	var keys [][]byte
	var wss [][]qweight
	for i := range 5000 {
		keys = append(keys, []byte(fmt.Sprintf("w=word%d", i)))
		ws := make([]qweight, 1+i%3)
		for j := range ws {
			ws[j] = qweight{tag: uint8(j), q: int16(i + j)}
		}
		wss = append(wss, ws)
	}
	ix, err := buildIndex(keys, wss)
	if err != nil {
		t.Fatal(err)
	}
	if ix.len() != len(keys) {
		t.Fatalf("index holds %d features, want %d", ix.len(), len(keys))
	}
	for i, k := range keys {
		s, ok := ix.lookup(k)
		if !ok {
			t.Fatalf("lookup(%s) found nothing", k)
		}
		if got := ix.weights(s); !slices.Equal(got, wss[i]) {
			t.Fatalf("lookup(%s) = %v, want %v", k, got, wss[i])
		}
	}
	for _, k := range []string{"", "w=word", "w=word5000", "w=Word1", "x=word1"} {
		if s, ok := ix.lookup([]byte(k)); ok {
			t.Errorf("lookup(%q) = %v, want nothing", k, s)
		}
	}
}

func TestIndexRefusesARepeatedFeature(t *testing.T) {
	t.Parallel()
	w := []qweight{{tag: 0, q: 1}}
	_, err := buildIndex([][]byte{[]byte("a"), []byte("b"), []byte("a")}, [][]qweight{w, w, w})
	if !errors.Is(err, errDuplicate) {
		t.Fatalf("error %v, want errDuplicate", err)
	}
}

// TestHashDiffersByLengthAndByte: keys that differ only in trailing zero bytes or in one byte
// hash apart (the tail is padded with zeros, so the length must count).
func TestHashDiffersByLengthAndByte(t *testing.T) {
	t.Parallel()
	seen := map[uint64]string{}
	keys := []string{"", "\x00", "\x00\x00", "abcdefgh", "abcdefgh\x00", "abcdefgi", "abcdefghabcdefgh", "a"}
	// every byte of tails of every length counts: change one byte at a time
	for n := 1; n <= 20; n++ {
		base := []byte(strings.Repeat("k", n))
		keys = append(keys, string(base))
		for i := range base {
			b := slices.Clone(base)
			b[i] = 'q'
			keys = append(keys, string(b))
		}
	}
	for _, k := range keys {
		h := hashBytes(0, []byte(k))
		if o, ok := seen[h]; ok {
			t.Errorf("%q and %q share hash %x", k, o, h)
		}
		seen[h] = k
	}
}

// TestPlainShapeMatchesShape: the shortcut gives what the general rule gives.
func TestPlainShapeMatchesShape(t *testing.T) {
	t.Parallel()
	n := 0
	for _, w := range []string{"a", "ab", "abcd", "abcde", "abcdefgh", "A", "Ab", "Abcd", "Abcde", "Abcdefghij", "AB", "aB", "a1", "Ça", "", "é"} {
		s, ok := plainShape(w)
		if !ok {
			continue
		}
		n++
		if want := shapeRule(w); s != want {
			t.Errorf("plainShape(%q) = %q, the rule gives %q", w, s, want)
		}
	}
	if n != 10 {
		t.Errorf("the shortcut took %d of the words, want 10", n)
	}
}
