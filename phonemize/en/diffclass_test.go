package en

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// diffClasses are the classes of difference of issue 13's table, in the order a differing run
// of words is put in the first that fits it.
var diffClasses = []string{"punctuation", "ALL-CAPS words", `"that"`, `letter "A" vs the article`,
	"heteronyms by part of speech", "stress of words read by espeak-ng", "unknown words (other than stress)", "other"}

// phWord is one space-separated word of a phoneme string with the tokens it came from.
type phWord struct {
	ps   string
	toks []*token
}

// phWords groups a conversion's tokens into the space-separated words of its output.
func phWords(toks []*token, unk string) []phWord {
	var out []phWord
	cur := phWord{}
	for _, tk := range toks {
		ps := unk
		if tk.hasPS {
			ps = tk.ps
		}
		for i, part := range strings.Split(ps, " ") {
			if i > 0 {
				out = append(out, cur)
				cur = phWord{}
			}
			cur.ps += part
			cur.toks = append(cur.toks, tk)
		}
		if tk.ws != "" {
			out = append(out, cur)
			cur = phWord{}
		}
	}
	if cur.ps != "" || len(cur.toks) > 0 {
		out = append(out, cur)
	}
	return out
}

// diffRuns aligns two word lists (longest common subsequence) and returns the runs of words
// that differ, as index ranges [a0, a1) of got and [b0, b1) of want.
func diffRuns(got, want []string) [][4]int {
	n, m := len(got), len(want)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if got[i] == want[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var runs [][4]int
	i, j := 0, 0
	start := [2]int{-1, -1}
	flush := func() {
		if start[0] >= 0 {
			runs = append(runs, [4]int{start[0], i, start[1], j})
			start = [2]int{-1, -1}
		}
	}
	for i < n || j < m {
		switch {
		case i < n && j < m && got[i] == want[j]:
			flush()
			i, j = i+1, j+1
			continue
		case start[0] < 0:
			start = [2]int{i, j}
		}
		if j >= m || i < n && lcs[i+1][j] >= lcs[i][j+1] {
			i++
		} else {
			j++
		}
	}
	flush()
	return runs
}

func stripMarks(s string, marks string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(marks, r) {
			return -1
		}
		return r
	}, s)
}

// classifyRun names the class of one differing run.
func classifyRun(lx *lexicon, got []phWord, want []string, r [4]int, unknown map[*token]bool) string {
	var g []string
	var toks []*token
	for _, w := range got[r[0]:r[1]] {
		g = append(g, w.ps)
		toks = append(toks, w.toks...)
	}
	gs, ws := strings.Join(g, " "), strings.Join(want[r[2]:r[3]], " ")
	const punct = ".,;:!?—…\"“”‘’'()[]{}«»-– "
	if stripMarks(gs, punct) == stripMarks(ws, punct) {
		return "punctuation"
	}
	is := func(f func(tk *token) bool) bool {
		for _, tk := range toks {
			if f(tk) {
				return true
			}
		}
		return false
	}
	switch {
	case is(func(tk *token) bool {
		return len(tk.text) >= 2 && letters(tk.text) && tk.text == strings.ToUpper(tk.text)
	}):
		return "ALL-CAPS words"
	case is(func(tk *token) bool { return strings.ToLower(tk.text) == "that" }):
		return `"that"`
	case is(func(tk *token) bool { return tk.text == "A" || tk.text == "a" }):
		return `letter "A" vs the article`
	case is(func(tk *token) bool { e, ok := lx.gold[strings.ToLower(tk.text)]; return ok && e.pos != nil }):
		return "heteronyms by part of speech"
	case is(func(tk *token) bool { return unknown[tk] }):
		if stripMarks(gs, "ˈˌ") == stripMarks(ws, "ˈˌ") {
			return "stress of words read by espeak-ng"
		}
		return "unknown words (other than stress)"
	}
	return "other"
}

// TestRealHeldOutDiffClasses counts, on the held-out corpora (after their one scoring), the runs
// of words that differ from the reference by the classes of issue 13's table, with espeak-ng
// and with the built-in fallback alone, and how many sentences with a word no lexicon knows
// the built-in fallback reads exactly. Every differing sentence must have a differing run.
func TestRealHeldOutDiffClasses(t *testing.T) {
	esp := requireEspeak(t)
	off, err := New(Config{LexiconDir: testenv.Assets(t).Lexicon})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"misaki_wild_heldout.tsv", "misaki_wild2_heldout.tsv", "misaki_wild3_heldout.tsv", "misaki_wild4_heldout.tsv", "misaki_wild5_heldout.tsv", "misaki_wild6_heldout.tsv", "misaki_wild7_heldout.tsv", "misaki_wild8_heldout.tsv"} {
		rows := loadCorpus(t, file)
		for _, ph := range []*G2P{esp, off} {
			name := "espeak-ng"
			if ph == off {
				name = "built-in"
			}
			counts := map[string]int{}
			diffSents, withUnknown, unknownRight := 0, 0, 0
			for _, r := range rows {
				g, _ := ph.dialect(r.lang)
				var got string
				var toks []*token
				unknown := map[*token]bool{}
				var asked []string
				// Which tokens reach the fallback: convert once, noting the texts asked.
				inner := g.fallback
				got, toks = g.convertWith(r.text, Switches{}, func(w string) (string, bool) {
					asked = append(asked, w)
					return inner(w)
				})
				got = strings.TrimSpace(got)
				for _, tk := range toks {
					for _, a := range asked {
						if tk.text == a || strings.Contains(a, tk.text) && letters(tk.text) {
							unknown[tk] = true
						}
					}
				}
				want := strings.TrimSpace(r.want)
				if len(unknown) > 0 {
					withUnknown++
					if got == want {
						unknownRight++
					}
				}
				if got == want {
					continue
				}
				diffSents++
				words := phWords(toks, g.unk)
				gw := make([]string, len(words))
				for i, w := range words {
					gw[i] = w.ps
				}
				ww := strings.Fields(want)
				runs := diffRuns(gw, ww)
				if len(runs) == 0 {
					t.Errorf("%s %s %q differs but no run of words does:\n got  %s\n want %s", file, name, r.text, got, want)
				}
				for _, run := range runs {
					c := classifyRun(g.lx, words, ww, run, unknown)
					counts[c]++
					if os.Getenv("PHONEMIZE_SHOW_DIFFS") == "classes" {
						var gw []string
						for _, w := range words[run[0]:run[1]] {
							gw = append(gw, w.ps)
						}
						t.Logf("%s %s %s: %q → %s | want %s", file, name, c, r.text, strings.Join(gw, " "), strings.Join(ww[run[2]:run[3]], " "))
					}
				}
			}
			var b strings.Builder
			total := 0
			for _, c := range diffClasses {
				total += counts[c]
			}
			for _, c := range diffClasses {
				fmt.Fprintf(&b, "\n  %-36s %4d (%.0f%%)", c, counts[c], 100*float64(counts[c])/float64(max(total, 1)))
			}
			t.Logf("%s %s: %d of %d readings differ, %d differing runs of words by class:%s\n  sentences with a word no lexicon knows: %d, read exactly: %d",
				file, name, diffSents, len(rows), total, b.String(), withUnknown, unknownRight)
		}
	}
}

func letters(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }
