package phonemize

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

type corpusRow struct{ lang, text, want string }

func loadCorpus(t testing.TB) []corpusRow {
	t.Helper()
	f, err := os.Open("testdata/misaki_corpus.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("bad corpus line %q", line)
		}
		lang := "en-us"
		if parts[0] == "gb" {
			lang = "en-gb"
		}
		rows = append(rows, corpusRow{lang, parts[1], parts[2]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// editDistance is the Levenshtein distance between two rune sequences.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestCorpusAgainstMisaki compares the output with misaki's on the committed corpus and
// reports the phoneme error rate (edit distance over reference length) and exact matches.
func TestCorpusAgainstMisaki(t *testing.T) {
	p := testPhonemizer(t)
	rows := loadCorpus(t)
	if len(rows) < 500 {
		t.Fatalf("corpus has %d sentences, want at least 500", len(rows))
	}
	var dist, refLen, exact int
	var diffs []string
	for _, r := range rows {
		got, err := p.Phonemize(r.text, r.lang)
		if err != nil {
			t.Fatalf("Phonemize(%q): %v", r.text, err)
		}
		want := strings.TrimSpace(r.want)
		d := editDistance([]rune(got), []rune(want))
		dist += d
		refLen += len([]rune(want))
		if d == 0 {
			exact++
		} else {
			diffs = append(diffs, fmt.Sprintf("%s %q\n   got  %s\n   want %s", r.lang, r.text, got, want))
		}
	}
	per := float64(dist) / float64(refLen)
	match := float64(exact) / float64(len(rows))
	t.Logf("corpus: %d sentences, PER %.2f%% (%d edits / %d symbols), exact match %.1f%% (%d), espeak=%q",
		len(rows), per*100, dist, refLen, match*100, exact, p.EspeakPath())
	if os.Getenv("PHONEMIZE_SHOW_DIFFS") != "" {
		for _, d := range diffs {
			t.Log(d)
		}
	}
	// Thresholds sit just under what is reached, so that a regression fails. Without
	// espeak-ng the built-in fallback reads the out-of-vocabulary words less like misaki.
	maxPER, minMatch := 0.02, 0.80
	if p.EspeakPath() == "" {
		maxPER, minMatch = 0.04, 0.70
	}
	if per > maxPER || match < minMatch {
		t.Errorf("PER %.2f%% (max %.2f%%), exact match %.1f%% (min %.1f%%)", per*100, maxPER*100, match*100, minMatch*100)
	}
}
