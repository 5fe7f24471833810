package corpus

import (
	"fmt"
	"math"
)

// Score is one corpus scored: sentences, exact matches, and the edit distance over the
// reference's length (the phoneme error rate).
type Score struct {
	N, Exact, Dist, RefLen int
	Diffs                  []string // each sentence read otherwise: the text, then got and want
}

// PER is the phoneme error rate: edits over the reference's symbols.
func (s Score) PER() float64 { return float64(s.Dist) / float64(max(s.RefLen, 1)) }

// ScoreRows reads each row's text with read and scores the output against the row's phonemes.
// It stops at read's first error.
func ScoreRows(rows []Row, read func(text string) (string, error)) (Score, error) {
	var s Score
	for _, r := range rows {
		got, err := read(r.Text)
		if err != nil {
			return s, err
		}
		s.N++
		if got == r.Want {
			s.Exact++
		} else {
			s.Diffs = append(s.Diffs, fmt.Sprintf("%s\n   got  %s\n   want %s", r.Text, got, r.Want))
		}
		s.Dist += EditDistance([]rune(got), []rune(r.Want))
		s.RefLen += len([]rune(r.Want))
	}
	return s, nil
}

// EditDistance is the Levenshtein distance between two rune sequences.
func EditDistance(a, b []rune) int {
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

// Wilson is the 95 % Wilson score interval of a proportion k/n; [0, 1] when n is 0.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return mid - half, mid + half
}

// Rate formats k/n as a percentage with its 95 % Wilson interval: "96.0% [92.3, 98.0] (192/200)".
func Rate(k, n int) string {
	lo, hi := Wilson(k, n)
	return fmt.Sprintf("%.1f%% [%.1f, %.1f] (%d/%d)", 100*float64(k)/float64(max(n, 1)), lo*100, hi*100, k, n)
}
