package en

import "strings"

// token is one word or punctuation mark on its way through the pipeline.
type token struct {
	text     string
	tag      string // Penn Treebank tag from the tagger
	ws       string // whitespace that followed it in the source ("" or " ")
	ps       string // phonemes, meaningful when hasPS
	hasPS    bool
	alias    string // text to read instead of text ("2" read as "to"), when hasAlias
	hasAlias bool
	isHead   bool // first sub-token of a source token
	stress   stress
	currency string   // "$", "£" or "€" when this number is an amount
	numFlags numFlags // from an inline override
	prespace bool     // when merged, this part is separated from the previous by a space
	start    int      // byte offset of text in the preprocessed input
	override bool     // phonemes given inline by the caller
}

func (t *token) setPS(ps string) { t.ps, t.hasPS = ps, true }

// tokenSlab hands out zeroed tokens from arrays of several, so that a sentence's tokens cost a
// few allocations instead of one each. A token stays valid for as long as it is referenced.
// size is the first array's length (then 16): the number of tokens expected.
type tokenSlab struct {
	buf  []token
	size int
}

func (s *tokenSlab) new() *token {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]token, 0, max(s.size, 16))
		s.size = 16
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// mergeTokens joins sub-tokens into one word. With unk set, their phonemes are joined too
// (unknown parts read as unk).
func mergeTokens(ts []*token, withPS bool, unk string) *token {
	m := &token{ws: ts[len(ts)-1].ws, isHead: ts[0].isHead, prespace: ts[0].prespace}
	var text []byte
	best := -1
	for i, t := range ts {
		text = append(text, t.text...)
		if i < len(ts)-1 {
			text = append(text, t.ws...)
		}
		w := 0
		for _, r := range t.text {
			if string(r) == lowerRune(r) {
				w++
			} else {
				w += 2
			}
		}
		if w > best {
			best = w
			m.tag = t.tag
		}
		if t.currency != "" && t.currency > m.currency {
			m.currency = t.currency
		}
		m.numFlags = m.numFlags.or(t.numFlags)
		m.override = m.override || t.override
	}
	m.text = string(text)
	stresses := map[stress]bool{}
	for _, t := range ts {
		if t.stress.set {
			stresses[t.stress] = true
		}
	}
	if len(stresses) == 1 {
		for s := range stresses {
			m.stress = s
		}
	}
	if withPS {
		var ps []byte
		for _, t := range ts {
			if t.prespace && len(ps) > 0 && ps[len(ps)-1] != ' ' && t.hasPS && t.ps != "" {
				ps = append(ps, ' ')
			}
			if t.hasPS {
				ps = append(ps, t.ps...)
			} else {
				ps = append(ps, unk...)
			}
		}
		m.setPS(string(ps))
	}
	return m
}

func lowerRune(r rune) string { return strings.ToLower(string(r)) }
