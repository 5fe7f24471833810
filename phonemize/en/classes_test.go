package en

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/kokoro-sm/kokoro/phonemize/internal/corpus"
)

// The difficulty classes of scripts/corpus/gen_wild_corpus.py, computed the same way, so that every
// exact-match rate of a wild corpus can be broken down by class and by register.
var (
	classWordRe  = regexp.MustCompile(`[A-Za-z][A-Za-z'’]*`)
	classDigitRe = regexp.MustCompile(`\d`)
	classQuoteRe = regexp.MustCompile(`["“”‘’]|(^|\s)'`)
)

var classNames = []string{"heteronyms", "numbers", "capitals", "quotes", "names"}

func sentenceClasses(lx *lexicon, s string) map[string]bool {
	words := classWordRe.FindAllString(s, -1)
	c := map[string]bool{}
	for i, w := range words {
		if e, ok := lx.gold[strings.ToLower(w)]; ok && e.pos != nil {
			c["heteronyms"] = true
		}
		if len(w) >= 2 && w == strings.ToUpper(w) {
			c["capitals"] = true
		}
		if i > 0 && unicode.IsUpper([]rune(w)[0]) && w != strings.ToUpper(w) {
			c["names"] = true
		}
	}
	c["numbers"] = classDigitRe.MatchString(s)
	c["quotes"] = classQuoteRe.MatchString(s)
	return c
}

// loadRegisters reads a wild_*_sentences.txt file: text → register.
func loadRegisters(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			reg, text, _ := strings.Cut(line, "|")
			out[text] = reg
		}
	}
	return out
}

// breakdown reports exact matches by dialect, class and register, each with its interval.
func breakdown(t *testing.T, name string, lx *lexicon, rows []corpusRow, got []string, registers map[string]string) {
	t.Helper()
	type tally struct {
		ok, n, dist, refLen int
		sents               [][2]int // per sentence: edits, reference length (dialects only)
	}
	tallies := map[string]*tally{}
	add := func(key string, ok bool) {
		if tallies[key] == nil {
			tallies[key] = &tally{}
		}
		tallies[key].n++
		if ok {
			tallies[key].ok++
		}
	}
	for i, r := range rows {
		want := strings.TrimSpace(r.want)
		ok := got[i] == want
		add("dialect "+r.lang, ok)
		d, n := corpus.EditDistance([]rune(got[i]), []rune(want)), len([]rune(want))
		x := tallies["dialect "+r.lang]
		x.dist += d
		x.refLen += n
		x.sents = append(x.sents, [2]int{d, n})
		for c, in := range sentenceClasses(lx, r.text) {
			if in {
				add("class "+c, ok)
			}
		}
		add("register "+registers[r.text], ok)
	}
	keys := make([]string, 0, len(tallies))
	for k := range tallies {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-22s %s", k, corpus.Rate(tallies[k].ok, tallies[k].n))
		if x := tallies[k]; x.refLen > 0 {
			lo, hi := perInterval(x.sents)
			fmt.Fprintf(&b, ", PER %.2f%% [%.2f, %.2f] (%d/%d)", 100*float64(x.dist)/float64(x.refLen),
				100*lo, 100*hi, x.dist, x.refLen)
		}
	}
	t.Logf("%s exact match by dialect, class and register:%s", name, b.String())
}

// perInterval is a 95 % bootstrap interval of the phoneme error rate over sentences (2,000
// resamples of the sentences, a fixed seed so the log is reproducible).
func perInterval(sents [][2]int) (lo, hi float64) {
	const rounds = 2000
	rng := rand.New(rand.NewPCG(13, 2026))
	pers := make([]float64, rounds)
	for k := range pers {
		var d, n int
		for range sents {
			s := sents[rng.IntN(len(sents))]
			d += s[0]
			n += s[1]
		}
		pers[k] = float64(d) / float64(max(n, 1))
	}
	sort.Float64s(pers)
	return pers[rounds*25/1000], pers[rounds*975/1000-1]
}

// checkClasses fails when a difficulty class has fewer than 40 sentences in a corpus.
func checkClasses(t *testing.T, name string, lx *lexicon, rows []corpusRow) {
	t.Helper()
	for _, class := range classNames {
		n := 0
		for _, r := range rows {
			if sentenceClasses(lx, r.text)[class] {
				n++
			}
		}
		if n < 40 {
			t.Errorf("%s: class %s has %d sentences, want at least 40", name, class, n)
		}
	}
}
