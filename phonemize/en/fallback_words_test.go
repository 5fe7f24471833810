package en

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// devCorpora are the corpora that may be tuned on (testdata/README.md); the held-out ones are
// never read here.
var devCorpora = []string{"misaki_corpus.tsv", "misaki_heldout.tsv", "misaki_fresh.tsv", "misaki_wild_dev.tsv"}

// fallbackWords reads rows with the built-in fallback alone and returns, per dialect, every
// text that reached the fallback (the words no lexicon knows), in first-seen order.
func fallbackWords(t *testing.T, rows []corpusRow) map[string][]string {
	t.Helper()
	p, err := New(Config{LexiconDir: testenv.Assets(t).Lexicon})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, g := range []*g2p{p.us, p.gb} {
		lang := "en-us"
		if g == p.gb {
			lang = "en-gb"
		}
		inner := g.fallback
		g.fallback = func(w string) (string, bool) {
			if k := lang + "\t" + w; !seen[k] {
				seen[k] = true
				out[lang] = append(out[lang], w)
			}
			return inner(w)
		}
	}
	for _, r := range rows {
		if _, err := p.Phonemize(r.text, r.lang); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestRealFallbackWordsAgainstEspeak reads the words that reach the fallback in the development
// corpora (and, with PHONEMIZE_WORDS=FILE, the words of FILE, one text a line) with the
// built-in fallback and with espeak-ng, whose reading is the reference's for a word no lexicon
// knows, and reports the phoneme error rate between them per dialect. PHONEMIZE_SHOW_DIFFS=words
// lists the words read differently.
func TestRealFallbackWordsAgainstEspeak(t *testing.T) {
	esp := requireEspeak(t)
	var rows []corpusRow
	for _, name := range devCorpora {
		rows = append(rows, loadCorpus(t, name)...)
	}
	if f := os.Getenv("PHONEMIZE_SENTENCES"); f != "" {
		// Development text of one's own (one sentence a line), read in both dialects.
		rows = nil
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				rows = append(rows, corpusRow{"en-us", l, ""}, corpusRow{"en-gb", l, ""})
			}
		}
	}
	words := fallbackWords(t, rows)
	if f := os.Getenv("PHONEMIZE_WORDS"); f != "" {
		words = map[string][]string{}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if w := strings.TrimSpace(sc.Text()); w != "" {
				words["en-us"] = append(words["en-us"], w)
				words["en-gb"] = append(words["en-gb"], w)
			}
		}
		fh.Close()
	}
	off := offlinePhonemizer(t)
	limits := map[string]float64{"en-us": 0.125, "en-gb": 0.146}
	var mu sync.Mutex
	var diffs []string
	for _, lang := range []string{"en-us", "en-gb"} {
		e, lts := esp.usEspeak, off.us.fallback
		if lang == "en-gb" {
			e, lts = esp.gbEspeak, off.gb.fallback
		}
		ws := words[lang]
		e.prefetch(ws)
		exact, dist, refLen := 0, 0, 0
		for _, w := range ws {
			want, ok := e.phonemize(w)
			if !ok {
				continue
			}
			got, _ := lts(w)
			got = keepVocab(v10Replacer.Replace(got))
			d := corpus.EditDistance([]rune(got), []rune(want))
			dist += d
			refLen += len([]rune(want))
			if d == 0 {
				exact++
			} else {
				mu.Lock()
				diffs = append(diffs, fmt.Sprintf("%s\t%s\t%s\t%s", lang, w, got, want))
				mu.Unlock()
			}
		}
		per := float64(dist) / float64(max(refLen, 1))
		t.Logf("%s: %d words, built-in fallback as espeak-ng reads them %s, PER %.1f%% (%d/%d)",
			lang, len(ws), corpus.Rate(exact, len(ws)), 100*per, dist, refLen)
		if per > limits[lang] && os.Getenv("PHONEMIZE_SENTENCES")+os.Getenv("PHONEMIZE_WORDS") == "" {
			t.Errorf("%s: fallback PER against espeak-ng %.1f%%, limit %.1f%%", lang, 100*per, 100*limits[lang])
		}
	}
	if os.Getenv("PHONEMIZE_SHOW_DIFFS") == "words" {
		sort.Strings(diffs)
		for _, d := range diffs {
			t.Log(d)
		}
	}
}
