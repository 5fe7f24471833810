package postag

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Sentence is one training sentence: words and their reference tags.
type Sentence struct {
	Words, Tags []string
}

// TrainConfig sets the training run. Zero values take the defaults in brackets.
type TrainConfig struct {
	Epochs      int     // passes over the data [8]
	Seed        uint64  // shuffling seed [1]
	MinWeight   float64 // averaged weights smaller in magnitude are dropped [0.5]
	DictMinFreq int     // a word seen this often [20] ...
	DictMinRate float64 // ... with one tag this often [0.995] is tagged from the dictionary
}

// trainWeight is one (feature, tag) weight with the perceptron's averaging state.
type trainWeight struct {
	tag   uint8
	w     float64
	total float64 // sum of w over all steps up to last
	last  int     // step of the last change
}

// Train learns a model from tagged sentences.
func Train(sents []Sentence, cfg TrainConfig) *Model {
	if cfg.Epochs <= 0 {
		cfg.Epochs = 8
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.MinWeight <= 0 {
		cfg.MinWeight = 0.5
	}
	if cfg.DictMinFreq <= 0 {
		cfg.DictMinFreq = 20
	}
	if cfg.DictMinRate <= 0 {
		cfg.DictMinRate = 0.995
	}
	m := &Model{}
	tagIndex := map[string]uint8{}
	counts := map[string]map[string]int{}
	for _, s := range sents {
		for i, w := range s.Words {
			t := s.Tags[i]
			if _, ok := tagIndex[t]; !ok {
				tagIndex[t] = 0
			}
			if counts[w] == nil {
				counts[w] = map[string]int{}
			}
			counts[w][t]++
		}
	}
	for _, t := range sortedKeys(tagIndex) {
		tagIndex[t] = uint8(len(m.tags))
		m.tags = append(m.tags, t)
	}
	m.tagDict = map[string]uint8{}
	for w, c := range counts {
		n, best, bestN := 0, "", 0
		for t, k := range c {
			n += k
			if k > bestN || (k == bestN && t < best) {
				best, bestN = t, k
			}
		}
		if n >= cfg.DictMinFreq && float64(bestN)/float64(n) >= cfg.DictMinRate {
			m.tagDict[w] = tagIndex[best]
		}
	}
	weights := map[string][]trainWeight{}
	step := 0
	update := func(f string, tag uint8, delta float64) {
		ws := weights[f]
		for i := range ws {
			if ws[i].tag == tag {
				ws[i].total += float64(step-ws[i].last) * ws[i].w
				ws[i].last = step
				ws[i].w += delta
				return
			}
		}
		weights[f] = append(ws, trainWeight{tag: tag, w: delta, last: step})
	}
	scores := make([]float64, len(m.tags))
	rng := rand.New(rand.NewPCG(cfg.Seed, 0))
	order := make([]int, len(sents))
	for i := range order {
		order[i] = i
	}
	var buf []string
	var sp sentParts[string]
	for range cfg.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, si := range order {
			s := sents[si]
			sp.fill(newContext(s.Words), func(s string) string { return s })
			prev, prev2 := startPad, startPad+"2"
			for i, w := range s.Words {
				gold := tagIndex[s.Tags[i]]
				var guess uint8
				if t, ok := m.tagDict[w]; ok {
					guess = t
				} else {
					buf = features(&sp, buf[:0], i, prev, prev2)
					clear(scores)
					for _, f := range buf {
						for _, x := range weights[f] {
							scores[x.tag] += x.w
						}
					}
					for t, sc := range scores {
						if sc > scores[guess] {
							guess = uint8(t)
						}
					}
					step++
					if guess != gold {
						for _, f := range buf {
							update(f, gold, 1)
							update(f, guess, -1)
						}
					}
				}
				prev2, prev = prev, m.tags[guess]
			}
		}
	}
	m.feats = make(map[string][]weight, len(weights))
	for f, ws := range weights {
		var keep []weight
		for _, x := range ws {
			total := x.total + float64(step-x.last)*x.w
			avg := total / float64(max(step, 1))
			if math.Abs(avg) >= cfg.MinWeight {
				keep = append(keep, weight{tag: x.tag, w: float32(avg)})
			}
		}
		if len(keep) > 0 {
			sort.Slice(keep, func(i, j int) bool { return keep[i].tag < keep[j].tag })
			m.feats[f] = keep
		}
	}
	// Tagging uses the weights as Save stores them, so a model tags the same before it is
	// saved and after it is loaded.
	scale := quantScale(m.feats)
	keys := sortedKeys(m.feats)
	kb, wss := make([][]byte, len(keys)), make([][]qweight, len(keys))
	for i, k := range keys {
		kb[i] = []byte(k)
		for _, x := range m.feats[k] {
			wss[i] = append(wss[i], qweight{tag: x.tag, q: quantize(x.w, scale)})
		}
	}
	ix, err := buildIndex(kb, wss)
	if err != nil {
		panic(err) // a model of 16M weights is far beyond what training here makes
	}
	m.index = ix
	m.hashTags()
	return m
}

// Stats reports the model's size: tags, features kept and weights kept.
func (m *Model) Stats() (tags, features, weights, dict int) {
	return len(m.tags), m.index.nfeat, m.index.nweight, len(m.tagDict)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
