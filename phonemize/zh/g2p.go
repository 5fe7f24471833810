package zh

import (
	"strings"
	"sync"
)

// G2P reads Mandarin text. It loads its dictionaries on first use and is safe for concurrent
// use.
type G2P struct {
	dir  string
	once sync.Once
	d    *dicts
	err  error
}

// New returns a G2P whose dictionaries are in dir (Files).
func New(dir string) *G2P { return &G2P{dir: dir} }

// Load reads the dictionaries now, if they are not read yet; a reader calls it before it
// answers, so that a missing file is an error before any text.
func (g *G2P) Load() error {
	g.once.Do(func() { g.d, g.err = load(g.dir) })
	return g.err
}

// Word is a piece of the reading: a word's text and phonemes, and the space after them.
// Joined, the Words' Phonemes and Spaces are the reference's phoneme string.
type Word struct {
	Text, Phonemes, Space string
}

// punctuation is the reference's mapping of full-width marks to ASCII ones and a space.
var punctuation = strings.NewReplacer(
	"、", ", ", "，", ", ", "。", ". ", "．", ". ", "！", "! ", "：", ": ", "；", "; ", "？", "? ",
	"«", " “", "»", "” ", "《", " “", "》", "” ", "「", " “", "」", "” ", "【", " “", "】", "” ",
	"（", " (", "）", ") ",
)

// Read reads text into Words.
func (g *G2P) Read(text string) ([]Word, error) {
	if err := g.Load(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	text = strings.TrimSpace(punctuation.Replace(an2cnText(text)))
	var out []Word
	rs := []rune(text)
	for i := 0; i < len(rs); {
		j := i + 1
		han := isHan(rs[i])
		for j < len(rs) && isHan(rs[j]) == han {
			j++
		}
		if han {
			words := g.d.cutWords(rs[i:j])
			for k, w := range words {
				var ps strings.Builder
				for _, py := range g.d.syllables(w) {
					ps.WriteString(syllableIPA[py])
				}
				sp := " "
				if k == len(words)-1 {
					sp = ""
				}
				out = append(out, Word{Text: w, Phonemes: ps.String(), Space: sp})
			}
		} else {
			// Text that is not Han goes through as it is, cut at its spaces.
			parts := strings.Split(strings.ReplaceAll(string(rs[i:j]), "\u032f", ""), " ")
			for k, p := range parts {
				sp := " "
				if k == len(parts)-1 {
					sp = ""
				}
				out = append(out, Word{Text: p, Phonemes: p, Space: sp})
			}
		}
		i = j
	}
	return out, nil
}

// Phonemize is the reference's phoneme string for text.
func (g *G2P) Phonemize(text string) (string, error) {
	words, err := g.Read(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, w := range words {
		b.WriteString(w.Phonemes + w.Space)
	}
	return b.String(), nil
}
