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
	if ix.nfeat != len(keys) {
		t.Fatalf("index holds %d features, want %d", ix.nfeat, len(keys))
	}
	for i := range keys {
		w := fmt.Sprintf("word%d", i)
		s, ok := ix.lookup(tW, w, "")
		if !ok {
			t.Fatalf("lookup(w=%s) found nothing", w)
		}
		if got := ix.weights(s); !slices.Equal(got, wss[i]) {
			t.Fatalf("lookup(w=%s) = %v, want %v", w, got, wss[i])
		}
	}
	for _, c := range []struct {
		t    tmpl
		a, b string
	}{{tW, "", ""}, {tW, "word", ""}, {tW, "word5000", ""}, {tW, "Word1", ""}, {tWPrev, "word1", ""}, {tWPrevW, "word1", ""}, {tBias, "", ""}} {
		if s, ok := ix.lookup(c.t, c.a, c.b); ok {
			t.Errorf("lookup(%q) = %v, want nothing", render(c.t, c.a, c.b), s)
		}
	}
}

// TestIndexReadsEverySplit: a stored string that reads as more than one template and parts
// (a word holding "|", a template name that begins another's) is found under each reading,
// as comparing the strings would find it, and under no other.
func TestIndexReadsEverySplit(t *testing.T) {
	t.Parallel()
	keys := [][]byte{[]byte("w-1w=a|b|c"), []byte("caps|t1=NN"), []byte("b"), []byte("t12=|"), []byte("zz=unknown")}
	w := []qweight{{tag: 1, q: 7}}
	ix, err := buildIndex(keys, [][]qweight{w, w, w, w, w})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		t     tmpl
		a, b  string
		found bool
	}{
		{tWPrevW, "a|b", "c", true}, {tWPrevW, "a", "b|c", true}, {tWPrevW, "a", "b", false},
		{tCapsT1, "NN", "", true}, {tCaps, "t1=NN", "", true}, {tCaps, "t1=", "", false},
		{tBias, "", "", true}, {tT12, "", "", true}, {tT1, "|", "", false},
	} {
		if _, ok := ix.lookup(c.t, c.a, c.b); ok != c.found {
			t.Errorf("lookup(%d, %q, %q) found %v, want %v", c.t, c.a, c.b, ok, c.found)
		}
		if got := render(c.t, c.a, c.b); c.found && !slices.ContainsFunc(keys, func(k []byte) bool { return string(k) == got }) {
			t.Errorf("render(%d, %q, %q) = %q, which is not a stored key", c.t, c.a, c.b, got)
		}
	}
	if ix.nfeat != len(keys) {
		t.Errorf("%d features counted, want %d", ix.nfeat, len(keys))
	}
}

func TestIndexRefusesARepeatedFeature(t *testing.T) {
	t.Parallel()
	w := []qweight{{tag: 0, q: 1}}
	_, err := buildIndex([][]byte{[]byte("w=a"), []byte("w=b"), []byte("w=a")}, [][]qweight{w, w, w})
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

// TestReadingsFindEveryName: readings, which finds a name from the string's first "=" or "|",
// gives what comparing the string with every template's name gives, on strings made of
// names, separators and parts.
func TestReadingsFindEveryName(t *testing.T) {
	t.Parallel()
	type r struct {
		t   tmpl
		sep int
	}
	brute := func(s []byte) (out []r) {
		for t := range numTmpls {
			name := tmpls[t].name
			if !strings.HasPrefix(string(s), name) {
				continue
			}
			switch tmpls[t].parts {
			case 0:
				if len(s) == len(name) {
					out = append(out, r{t, 0})
				}
			case 1:
				out = append(out, r{t, 0})
			default:
				for j := len(name); j < len(s); j++ {
					if s[j] == '|' {
						out = append(out, r{t, j})
					}
				}
			}
		}
		return out
	}
	var tails []string
	for t := range numTmpls {
		tails = append(tails, tmpls[t].name)
	}
	tails = append(tails, "", "|", "=", "x", "a|b", "||", "t1=", "NN|x")
	n := 0
	for tt := range numTmpls {
		for _, a := range tails {
			for _, b := range tails {
				s := []byte(tmpls[tt].name + a + b)
				var got []r
				readings(s, func(t tmpl, sep int) { got = append(got, r{t, sep}) })
				want := brute(s)
				slices.SortFunc(got, func(x, y r) int { return int(x.t)*1000 + x.sep - int(y.t)*1000 - y.sep })
				slices.SortFunc(want, func(x, y r) int { return int(x.t)*1000 + x.sep - int(y.t)*1000 - y.sep })
				if !slices.Equal(got, want) {
					t.Errorf("readings(%q) = %v, want %v", s, got, want)
				}
				n += len(want)
			}
		}
	}
	if n == 0 {
		t.Fatal("no string read as any template")
	}
}
