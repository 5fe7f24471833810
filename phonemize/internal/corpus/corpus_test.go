package corpus

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestEditDistance checks the Levenshtein distance on pairs worked by hand, in runes, not bytes.
func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},           // three insertions
		{"abc", "", 3},           // three deletions
		{"abc", "abc", 0},        // equal
		{"kitten", "sitting", 3}, // k→s, e→i, +g
		{"flaw", "lawn", 2},      // −f, +n
		{"ʃa", "sa", 1},          // one rune of two bytes is one substitution
		{"təmˈɑːɹoʊ", "təmˈɑɹoʊ", 1},
	} {
		if got := EditDistance([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := EditDistance([]rune(c.b), []rune(c.a)); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

// TestWilson checks the 95 % Wilson interval against values worked by hand with z = 1.959964:
// for 5/10 the centre is (0.5 + z²/20) / (1 + z²/10) = 0.5 and the half-width
// z·√(0.025 + z²/400) / (1 + z²/10) = 0.263407; for 0/10 the upper end is
// (z²/10) / (1 + z²/10) = 0.277533, and 10/10 mirrors it.
func TestWilson(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{5, 10, 0.236593, 0.763407},
		{0, 10, 0, 0.277533},
		{10, 10, 0.722467, 1},
		{192, 200, 0.923068, 0.979594},
		{0, 0, 0, 1}, // nothing measured: the whole range
	} {
		lo, hi := Wilson(c.k, c.n)
		if math.Abs(lo-c.lo) > 1e-6 || math.Abs(hi-c.hi) > 1e-6 {
			t.Errorf("Wilson(%d, %d) = [%.6f, %.6f], want [%.6f, %.6f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
	if got, want := Rate(192, 200), "96.0% [92.3, 98.0] (192/200)"; got != want {
		t.Errorf("Rate(192, 200) = %q, want %q", got, want)
	}
}

// TestScoreRows checks the counts a corpus's score is made of, and that a reader's error stops it.
func TestScoreRows(t *testing.T) {
	t.Parallel()
	rows := []Row{{"a", "xy"}, {"b", "xyz"}, {"c", "ʃa"}}
	read := map[string]string{"a": "xy", "b": "xz", "c": "sa"}
	s, err := ScoreRows(rows, func(text string) (string, error) { return read[text], nil })
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 3 || s.Exact != 1 || s.Dist != 2 || s.RefLen != 7 || len(s.Diffs) != 2 {
		t.Errorf("score %+v: want 3 sentences, 1 exact, 2 edits over 7 symbols, 2 diffs", s)
	}
	if want := "b\n   got  xz\n   want xyz"; s.Diffs[0] != want {
		t.Errorf("first diff %q, want %q", s.Diffs[0], want)
	}
	if got := s.PER(); math.Abs(got-2.0/7) > 1e-12 {
		t.Errorf("PER = %v, want 2/7", got)
	}
	if _, err := ScoreRows(rows, func(string) (string, error) { return "", os.ErrInvalid }); err != os.ErrInvalid {
		t.Errorf("ScoreRows with a failing reader: %v, want its error", err)
	}
}

// TestLoad checks that a reference file gives its header and its rows, tabs after the first
// kept in the phonemes.
func TestLoad(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "xx_dev.tsv")
	if err := os.WriteFile(path, []byte("# xx\treference 1.0\nuno\tˈuno\ndos\tdˈos\textra\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	header, rows := Load(t, path)
	if header != "xx\treference 1.0" || len(rows) != 2 || rows[0] != (Row{"uno", "ˈuno"}) || rows[1] != (Row{"dos", "dˈos\textra"}) {
		t.Errorf("Load = %q, %q", header, rows)
	}
}
