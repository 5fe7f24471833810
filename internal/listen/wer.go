package listen

import (
	"strings"
	"unicode"
)

// Words normalizes text for scoring: lower case, punctuation dropped except an apostrophe
// inside a word ("don't"), hyphens and slashes read as spaces.
func Words(text string) []string {
	var b strings.Builder
	rs := []rune(strings.ToLower(text))
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case (r == '\'' || r == '’') && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]):
			b.WriteRune('\'')
		default:
			b.WriteRune(' ')
		}
	}
	return strings.Fields(b.String())
}

// WordErrors is the word-level edit distance (substitutions + deletions + insertions) between
// a reference text and a hypothesis, and the number of reference words; their ratio is the
// word error rate.
func WordErrors(ref, hyp string) (errs, words int) {
	r, h := Words(ref), Words(hyp)
	prev := make([]int, len(h)+1)
	cur := make([]int, len(h)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(r); i++ {
		cur[0] = i
		for j := 1; j <= len(h); j++ {
			sub := prev[j-1]
			if r[i-1] != h[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(h)], len(r)
}
