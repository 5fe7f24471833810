package en

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

type corpusRow struct{ lang, text, want string }

func loadCorpus(t testing.TB, name string) []corpusRow {
	t.Helper()
	f, err := os.Open("testdata/" + name)
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

type corpusScore struct {
	sentences, exact, dist, refLen int
	diffs                          []string
	got                            []string // the output for each row, in order
}

func (c corpusScore) per() float64   { return float64(c.dist) / float64(max(c.refLen, 1)) }
func (c corpusScore) match() float64 { return float64(c.exact) / float64(max(c.sentences, 1)) }

func scoreCorpus(t *testing.T, p *G2P, rows []corpusRow) corpusScore {
	var s corpusScore
	for _, r := range rows {
		got, err := p.Phonemize(r.text, r.lang)
		if err != nil {
			t.Fatalf("Phonemize(%q): %v", r.text, err)
		}
		s.got = append(s.got, got)
		want := strings.TrimSpace(r.want)
		d := corpus.EditDistance([]rune(got), []rune(want))
		s.sentences++
		s.dist += d
		s.refLen += len([]rune(want))
		if d == 0 {
			s.exact++
		} else {
			s.diffs = append(s.diffs, fmt.Sprintf("%s %q\n   got  %s\n   want %s", r.lang, r.text, got, want))
		}
	}
	return s
}

// corpusLimits are the worst scores a corpus may reach, with espeak-ng and with the built-in
// fallback alone.
type corpusLimits struct {
	maxPER, minMatch               float64
	maxPERBuiltin, minMatchBuiltin float64
}

// corpusCases lists what each committed corpus is (testdata/README.md has the protocol).
var corpusCases = []struct {
	file      string
	minRows   int
	lim       corpusLimits
	sentences string // a wild corpus's REGISTER|TEXT file: the rates are also broken down
}{
	// Development corpus: the rules were written against it.
	{"misaki_corpus.tsv", 500, corpusLimits{0.001, 0.98, 0.008, 0.92}, ""},
	// Second development corpus: three tagger rules were tuned on it (80736b1).
	{"misaki_heldout.tsv", 200, corpusLimits{0.003, 0.97, 0.010, 0.92}, ""},
	// Regression corpus: few hard cases, 100 % at almost every commit; measures little.
	{"misaki_fresh.tsv", 90, corpusLimits{0.005, 0.97, 0.01, 0.95}, ""},
	// Wild development corpus: real English of six registers, tuned on. Limits: its score when
	// the fifth wild corpus's rules were frozen (96.4 %, PER 0.17 %; built-in alone 75.9 %,
	// PER 0.70 %).
	{"misaki_wild_dev.tsv", 700, corpusLimits{0.00174, 0.963, 0.0070, 0.759}, "wild_dev_sentences.txt"},
	// Wild held-out corpus: committed before any rule saw it ("phonemize: wild held-out
	// corpus …"), scored once in the commit that added this line; never tuned on. Limits: the
	// score it reached.
	{"misaki_wild_heldout.tsv", 800, corpusLimits{0.0014, 0.96, 0.0098, 0.75}, "wild_heldout_sentences.txt"},
	// Second wild corpus, from packages nothing else here drew on then: committed before any
	// rule saw it ("phonemize: second wild held-out corpus …") and scored once in 6698677 (93.9 %
	// exact, PER 0.25 %; built-in alone PER US 0.78 %, GB 1.00 %) with the rules frozen at
	// d25d46a. Development data since: tuned on (96.1 % exact, PER 0.15 %; built-in alone PER
	// US 0.60 %, GB 0.79 %, 86.1 % exact when the third wild corpus's rules were frozen; 96.1 %,
	// PER 0.15 %, built-in alone 86.7 %, PER 0.68 % when the fourth's were; 96.1 %, PER 0.15 %,
	// built-in alone 88.0 %, PER 0.54 % when the fifth's were).
	{"misaki_wild2_heldout.tsv", 800, corpusLimits{0.0016, 0.96, 0.0055, 0.879}, "wild2_heldout_sentences.txt"},
	// Third wild corpus, from packages nothing else here drew on: committed before any rule saw
	// it (c2db0cc) and scored once, with the rules frozen at 7130085, in the commit that added
	// this line: 94.6 % exact, PER 0.29 % with espeak-ng; built-in alone 85.0 % exact, PER
	// US 0.83 %, GB 0.91 %. Development data since: tuned on (95.4 % exact, PER 0.27 %; built-in
	// alone 85.7 %, PER 0.85 % when the fourth wild corpus's rules were frozen; 95.5 %, PER
	// 0.27 %, built-in alone 87.7 %, PER 0.68 % when the fifth's were).
	{"misaki_wild3_heldout.tsv", 800, corpusLimits{0.00272, 0.954, 0.0069, 0.877}, "wild3_heldout_sentences.txt"},
	// Fourth wild corpus, from packages nothing else here drew on: committed before any rule saw
	// it (0077d4a) and scored once, with the rules frozen at 875080d, in the commit that added
	// this line: 93.8 % exact, PER 0.24 % with espeak-ng; built-in alone 79.3 % exact, PER
	// US 1.34 %, GB 1.39 %. Development data since: tuned on (93.8 %, PER 0.24 %; built-in
	// alone 83.6 %, PER 0.75 %, US 0.73 %, GB 0.77 % when the fifth wild corpus's rules were
	// frozen; 93.7 %, PER 0.31 %, built-in alone 83.7 %, PER 0.81 % with the tagger retrained
	// on the third to fifth rounds' sources, which reads a few more of its titles in capitals
	// as words where the reference spells them).
	{"misaki_wild4_heldout.tsv", 800, corpusLimits{0.0031, 0.936, 0.0082, 0.836}, "wild4_heldout_sentences.txt"},
	// Fifth wild corpus, from packages nothing else here drew on: committed before any rule saw
	// it (4f617dd) and scored once, with the rules frozen at 5ab0796, in the commit that added
	// this line: 95.0 % exact, PER 0.23 % with espeak-ng; built-in alone 79.4 % exact, PER
	// US 0.84 %, GB 0.94 %. Limits: the score it reached.
	{"misaki_wild5_heldout.tsv", 800, corpusLimits{0.00229, 0.949, 0.0089, 0.794}, "wild5_heldout_sentences.txt"},
	// Sixth wild corpus, from packages nothing else here drew on: committed before any rule saw
	// it (47c7fed) and scored once, with the rules frozen at 564bb33, in the commit that added
	// this line: 94.9 % exact, PER 0.24 % with espeak-ng; built-in alone 82.3 % exact, PER
	// US 1.02 %, GB 1.03 %. Limits: the score it reached.
	{"misaki_wild6_heldout.tsv", 800, corpusLimits{0.00242, 0.948, 0.0103, 0.822}, "wild6_heldout_sentences.txt"},
	// Seventh wild corpus, from packages nothing else here drew on: committed before any rule
	// saw it (76cbe86) and scored once, with the rules frozen at c838003, in the commit that
	// added this line: 94.5 % exact, PER 0.15 % with espeak-ng; built-in alone 81.0 % exact,
	// PER US 0.75 %, GB 0.84 %. Limits: the score it reached.
	{"misaki_wild7_heldout.tsv", 800, corpusLimits{0.00148, 0.945, 0.0080, 0.809}, "wild7_heldout_sentences.txt"},
	// Eighth wild corpus, from packages nothing else here drew on: committed before any rule
	// saw it (09a031d) and scored once, with the rules frozen at bd1b9d8, in the commit that
	// added this line: 97.5 % exact, PER 0.09 % with espeak-ng; built-in alone 81.5 % exact,
	// PER US 0.85 %, GB 0.91 %. Limits: the score it reached.
	{"misaki_wild8_heldout.tsv", 800, corpusLimits{0.00087, 0.975, 0.0089, 0.815}, "wild8_heldout_sentences.txt"},
}

// TestRealCorpusAgainstMisaki compares the output with misaki's on the committed corpora and
// reports the phoneme error rate (edit distance over reference length) and exact matches with
// their 95 % intervals, with espeak-ng for unknown words and with the built-in fallback alone;
// for the wild corpora also by dialect, difficulty class and register, after checking that
// every class is present.
// Under `make test` espeak-ng must be there; the limits never loosen when it is not.
func TestRealCorpusAgainstMisaki(t *testing.T) {
	for _, c := range corpusCases {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			rows := loadCorpus(t, c.file)
			if len(rows) < c.minRows {
				t.Fatalf("%s has %d sentences, want at least %d", c.file, len(rows), c.minRows)
			}
			// The built-in fallback alone, as on a host without espeak-ng.
			off := checkCorpus(t, c.file+" built-in", offlinePhonemizer(t), rows, c.lim.maxPERBuiltin, c.lim.minMatchBuiltin)
			esp := checkCorpus(t, c.file+" espeak-ng", requireEspeak(t), rows, c.lim.maxPER, c.lim.minMatch)
			if c.sentences != "" {
				checkClasses(t, c.file, offlinePhonemizer(t).us.lx, rows)
				regs := loadRegisters(t, c.sentences)
				breakdown(t, c.file+" built-in", offlinePhonemizer(t).us.lx, rows, off.got, regs)
				breakdown(t, c.file+" espeak-ng", offlinePhonemizer(t).us.lx, rows, esp.got, regs)
			}
		})
	}
}

func checkCorpus(t *testing.T, name string, p *G2P, rows []corpusRow, maxPER, minMatch float64) corpusScore {
	t.Helper()
	s := scoreCorpus(t, p, rows)
	t.Logf("%s: %d sentences, PER %.2f%% (%d edits / %d symbols), exact match %s",
		name, s.sentences, s.per()*100, s.dist, s.refLen, corpus.Rate(s.exact, s.sentences))
	if v := os.Getenv("PHONEMIZE_SHOW_DIFFS"); v != "" && strings.Contains(name, v) {
		for _, d := range s.diffs {
			t.Log(d)
		}
	}
	if s.per() > maxPER || s.match() < minMatch {
		t.Errorf("%s: PER %.2f%% (max %.2f%%), exact match %.1f%% (min %.1f%%)", name, s.per()*100, maxPER*100, s.match()*100, minMatch*100)
	}
	return s
}
