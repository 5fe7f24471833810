package en

import (
	"sort"
	"strings"
)

const (
	primary   = 'ˈ'
	secondary = 'ˌ'
)

// stress is an optional stress adjustment (the reference's None, -2, -1, -0.5, 0, 0.5, 1, 2).
type stress struct {
	set bool
	v   float64
}

func stressOf(v float64) stress { return stress{set: true, v: v} }

var noStress = stress{}

func isVowel(r rune) bool { return strings.ContainsRune("AIOQWYaiuæɑɒɔəɛɜɪʊʌᵻ", r) }

func isConsonant(r rune) bool { return strings.ContainsRune("bdfhjklmnpstvwzðŋɡɹɾʃʒʤʧθ", r) }

func hasVowel(ps string) bool { return strings.ContainsFunc(ps, isVowel) }

func hasStress(ps string) bool { return strings.ContainsAny(ps, "ˈˌ") }

// applyStress moves a word's stress the way the reference does: negative values weaken or
// remove it, positive values add or strengthen it when the word has none.
func applyStress(ps string, s stress) string {
	if !s.set {
		return ps
	}
	v := s.v
	hasP := strings.ContainsRune(ps, primary)
	switch {
	case v < -1:
		return stressRemover.Replace(ps)
	case v == -1 || ((v == 0 || v == -0.5) && hasP):
		ps = strings.ReplaceAll(ps, "ˌ", "")
		return strings.ReplaceAll(ps, "ˈ", "ˌ")
	case (v == 0 || v == 0.5 || v == 1) && !hasStress(ps):
		if !hasVowel(ps) {
			return ps
		}
		return restress(string(secondary) + ps)
	case v >= 1 && !hasP && strings.ContainsRune(ps, secondary):
		return strings.ReplaceAll(ps, "ˌ", "ˈ")
	case v > 1 && !hasStress(ps):
		if !hasVowel(ps) {
			return ps
		}
		return restress(string(primary) + ps)
	}
	return ps
}

// restress moves every stress mark to just before the next vowel.
func restress(ps string) string {
	rs := []rune(ps)
	type item struct {
		pos float64
		r   rune
	}
	items := make([]item, len(rs))
	for i, r := range rs {
		items[i] = item{float64(i), r}
	}
	for i, r := range rs {
		if r != primary && r != secondary {
			continue
		}
		for j := i; j < len(rs); j++ {
			if isVowel(rs[j]) {
				items[i].pos = float64(j) - 0.5
				break
			}
		}
	}
	sort.SliceStable(items, func(a, b int) bool {
		if items[a].pos != items[b].pos {
			return items[a].pos < items[b].pos
		}
		return items[a].r < items[b].r
	})
	var b strings.Builder
	for _, it := range items {
		b.WriteRune(it.r)
	}
	return b.String()
}

// stressWeight counts diphthongs and affricates double, as the reference does when it
// decides which part of a compound keeps primary stress.
func stressWeight(ps string) int {
	n := 0
	for _, r := range ps {
		if strings.ContainsRune("AIOQWYʤʧ", r) {
			n += 2
		} else {
			n++
		}
	}
	return n
}
