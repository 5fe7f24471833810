package zh

import "math"

// hmm is jieba's model of unknown words: each character Begins, is in the Middle of, Ends a
// word or is a Single-character word; log probabilities.
type hmm struct {
	Start map[string]float64            `json:"start"`
	Trans map[string]map[string]float64 `json:"trans"`
	Emit  map[string]map[string]float64 `json:"emit"`
}

// minFloat is jieba's stand-in log probability of a character a state never emits.
const minFloat = -3.14e100

// cutWords cuts a run of Han characters into words as jieba.lcut(text, cut_all=False) does
// with its HMM on: characters jieba's Han class covers (U+4E00 to U+9FD5) are cut as a block,
// any other character is a word of its own.
func (d *dicts) cutWords(text []rune) []string {
	var out []string
	start := -1
	for i, r := range text {
		if r >= 0x4E00 && r <= 0x9FD5 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, d.cutBlock(text[start:i])...)
			start = -1
		}
		out = append(out, string(r))
	}
	if start >= 0 {
		out = append(out, d.cutBlock(text[start:])...)
	}
	return out
}

// cutBlock is jieba's __cut_DAG: the most probable route through the dictionary's words, with
// each run of single characters that does not make a dictionary word cut again by the HMM.
func (d *dicts) cutBlock(s []rune) []string {
	route := d.route(s)
	var out []string
	var buf []rune
	flush := func() {
		switch {
		case len(buf) == 0:
		case len(buf) == 1:
			out = append(out, string(buf))
		case d.freq[string(buf)] == 0:
			out = append(out, d.hmmCut(buf)...)
		default:
			for _, r := range buf {
				out = append(out, string(r))
			}
		}
		buf = nil
	}
	for x := 0; x < len(s); {
		y := route[x] + 1
		if y-x == 1 {
			buf = append(buf, s[x])
		} else {
			flush()
			out = append(out, string(s[x:y]))
		}
		x = y
	}
	flush()
	return out
}

// route returns, for each position, the end (inclusive) of the word the best route takes
// from there: jieba's calc over its DAG, ties going to the longer word.
func (d *dicts) route(s []rune) []int {
	n := len(s)
	logTotal := math.Log(d.total)
	score := make([]float64, n+1)
	best := make([]int, n)
	for idx := n - 1; idx >= 0; idx-- {
		first := true
		for _, x := range d.dag(s, idx) {
			f := d.freq[string(s[idx:x+1])]
			if f == 0 {
				f = 1
			}
			v := math.Log(float64(f)) - logTotal + score[x+1]
			if first || v > score[idx] || v == score[idx] && x > best[idx] {
				score[idx], best[idx], first = v, x, false
			}
		}
	}
	return best
}

// dag lists the ends of the dictionary words that start at k (k itself when there is none).
func (d *dicts) dag(s []rune, k int) []int {
	var ends []int
	for i := k; i < len(s); i++ {
		frag := string(s[k : i+1])
		if !hasPrefix(d.words, frag) {
			break
		}
		if d.freq[frag] != 0 {
			ends = append(ends, i)
		}
	}
	if len(ends) == 0 {
		ends = append(ends, k)
	}
	return ends
}

// prevStates are the states each state may follow.
var prevStates = map[byte]string{'B': "ES", 'M': "MB", 'S': "SE", 'E': "BM"}

// hmmCut is jieba's finalseg cut of a run of characters no dictionary word covers: the
// Viterbi path through B, M, E, S, ties going to the later state letter.
func (d *dicts) hmmCut(s []rune) []string {
	const states = "BMES"
	emit := func(state byte, r rune) float64 {
		if p, ok := d.hmm.Emit[string(state)][string(r)]; ok {
			return p
		}
		return minFloat
	}
	trans := func(from, to byte) float64 {
		if p, ok := d.hmm.Trans[string(from)][string(to)]; ok {
			return p
		}
		return math.Inf(-1)
	}
	v := make([]map[byte]float64, len(s))
	path := map[byte][]byte{}
	v[0] = map[byte]float64{}
	for i := 0; i < len(states); i++ {
		y := states[i]
		v[0][y] = d.hmm.Start[string(y)] + emit(y, s[0])
		path[y] = []byte{y}
	}
	for t := 1; t < len(s); t++ {
		v[t] = map[byte]float64{}
		next := map[byte][]byte{}
		for i := 0; i < len(states); i++ {
			y := states[i]
			em := emit(y, s[t])
			var bestP float64
			var bestS byte
			for j, y0 := range []byte(prevStates[y]) {
				p := v[t-1][y0] + trans(y0, y) + em
				if j == 0 || p > bestP || p == bestP && y0 > bestS {
					bestP, bestS = p, y0
				}
			}
			v[t][y] = bestP
			next[y] = append(append([]byte(nil), path[bestS]...), y)
		}
		path = next
	}
	last := len(s) - 1
	state := byte('E')
	if v[last]['S'] > v[last]['E'] || v[last]['S'] == v[last]['E'] {
		state = 'S'
	}
	pos := path[state]
	var out []string
	begin, nexti := 0, 0
	for i, r := range s {
		switch pos[i] {
		case 'B':
			begin = i
		case 'E':
			out = append(out, string(s[begin:i+1]))
			nexti = i + 1
		case 'S':
			out = append(out, string(r))
			nexti = i + 1
		}
	}
	if nexti < len(s) {
		out = append(out, string(s[nexti:]))
	}
	return out
}
