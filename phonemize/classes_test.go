package phonemize

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// The difficulty classes of scripts/gen_wild_corpus.py, computed the same way, so that every
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
	type tally struct{ ok, n, dist, refLen int }
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
		tallies["dialect "+r.lang].dist += editDistance([]rune(got[i]), []rune(want))
		tallies["dialect "+r.lang].refLen += len([]rune(want))
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
		fmt.Fprintf(&b, "\n  %-22s %s", k, rate(tallies[k].ok, tallies[k].n))
		if x := tallies[k]; x.refLen > 0 {
			fmt.Fprintf(&b, ", PER %.2f%%", 100*float64(x.dist)/float64(x.refLen))
		}
	}
	t.Logf("%s exact match by dialect, class and register:%s", name, b.String())
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
