package corpus

import (
	"path/filepath"
	"strings"
	"testing"
)

// Case is a corpus of testdata/lang and the least it must hold and score.
type Case struct {
	File     string
	MinRows  int
	MinExact float64 // the least share of sentences read exactly as the reference
	MaxPER   float64 // the highest phoneme error rate
}

// Fidelity scores each case's corpus, read from dir, against the reference's phonemes, with
// read's output trimmed of spaces. It logs a line a corpus, prefixed by lang (n, exact with its
// 95 % Wilson interval, phoneme error rate, the reference's header), then the first 15 sentences
// read otherwise, and fails the test on a corpus below its case's limits.
func Fidelity(t *testing.T, lang, dir string, cases []Case, read func(text string) (string, error)) {
	t.Helper()
	trimmed := func(text string) (string, error) {
		got, err := read(text)
		return strings.TrimSpace(got), err
	}
	for _, c := range cases {
		header, rows := Load(t, filepath.Join(dir, c.File))
		if len(rows) < c.MinRows {
			t.Fatalf("%s: %d rows", c.File, len(rows))
		}
		s, err := ScoreRows(rows, trimmed)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s n=%d exact %s PER %.3f%% (%s)", lang, c.File, s.N, Rate(s.Exact, s.N), 100*s.PER(), header)
		for i, d := range s.Diffs {
			if i == 15 {
				break
			}
			t.Log(d)
		}
		if float64(s.Exact)/float64(s.N) < c.MinExact || s.PER() > c.MaxPER {
			t.Errorf("%s: %d of %d exact, PER %.3f%%; want at least %.0f%% and at most %.1f%%",
				c.File, s.Exact, s.N, 100*s.PER(), 100*c.MinExact, 100*c.MaxPER)
		}
	}
}
