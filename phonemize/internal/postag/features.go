package postag

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// shape maps a word to a short pattern of its character classes: "Xxxx" for a capitalised
// word, "XXXX" for capitals, "dd" for digits, with runs longer than four cut to four.
func shape(w string) string {
	if s, ok := plainShape(w); ok {
		return s
	}
	return shapeRule(w)
}

// shapeRule is shape without its shortcut for plain words.
func shapeRule(w string) string {
	var b strings.Builder
	last, run := rune(0), 0
	for _, r := range w {
		var c rune
		switch {
		case unicode.IsUpper(r):
			c = 'X'
		case unicode.IsLower(r):
			c = 'x'
		case unicode.IsDigit(r):
			c = 'd'
		default:
			c = r
		}
		if c == last {
			run++
			if run >= 4 {
				continue
			}
		} else {
			last, run = c, 0
		}
		b.WriteRune(c)
	}
	return b.String()
}

// plainShape is shape for a word of ASCII letters with at most its first in capitals, the
// common case, without building a string: "x" to "xxxx", or "X" to "Xxxxx".
func plainShape(w string) (string, bool) {
	const lower, capital = "xxxx", "Xxxxx"
	if w == "" {
		return "", false
	}
	for i := 1; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return "", false
		}
	}
	n := min(len(w), 4)
	switch c := w[0]; {
	case 'a' <= c && c <= 'z':
		return lower[:n], true
	case 'A' <= c && c <= 'Z':
		return capital[:1+min(len(w)-1, 4)], true
	}
	return "", false
}

// suffix is the last n runes of w (all of w when shorter), without copying.
func suffix(w string, n int) string {
	i := len(w)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(w[:i])
		i -= size
	}
	return w[i:]
}

// prefix is the first n runes of w (all of w when shorter), without copying.
func prefix(w string, n int) string {
	i := 0
	for ; n > 0 && i < len(w); n-- {
		_, size := utf8.DecodeRuneInString(w[i:])
		i += size
	}
	return w[:i]
}

// context is what the features of one position look at: lower-cased forms around it (with
// padding) and the original forms.
type context struct {
	lower   []string
	words   []string
	shapes  []string // shape of each word
	allCaps bool     // every word with letters is in capitals
}

const (
	startPad = "-START-"
	endPad   = "-END-"
)

func newContext(words []string) context {
	c := context{words: words, lower: make([]string, len(words)+4), shapes: make([]string, len(words))}
	c.lower[0], c.lower[1] = startPad+"2", startPad
	for i, w := range words {
		c.lower[i+2] = strings.ToLower(w)
		c.shapes[i] = shape(w)
	}
	c.lower[len(words)+2], c.lower[len(words)+3] = endPad, endPad+"2"
	letters := 0
	c.allCaps = true
	for _, w := range words {
		if strings.IndexFunc(w, unicode.IsLetter) < 0 {
			continue
		}
		letters++
		if w != strings.ToUpper(w) {
			c.allCaps = false
		}
	}
	c.allCaps = c.allCaps && letters > 1
	return c
}

// keys holds the features of one position back to back in one buffer, so that the tagger
// looks each up without building a string.
type keys struct {
	b    []byte
	ends []int
	// scratch for Model.best: each feature's hash and the first table slot it probes
	hs    []uint64
	first []slot
}

// add appends one feature, the concatenation of parts.
func (k *keys) add(parts ...string) {
	for _, p := range parts {
		k.b = append(k.b, p...)
	}
	k.ends = append(k.ends, len(k.b))
}

// each calls f with every feature in order; the slice is only valid during the call.
func (k *keys) each(f func([]byte)) {
	start := 0
	for _, e := range k.ends {
		f(k.b[start:e])
		start = e
	}
}

// features appends the feature strings of position i to buf, given the two previous tags.
func (c context) features(buf []string, i int, prev, prev2 string) []string {
	var k keys
	c.keys(&k, i, prev, prev2)
	k.each(func(f []byte) { buf = append(buf, string(f)) })
	return buf
}

// keys replaces what k holds with the features of position i, given the two previous tags:
// the word features, then the tag features.
func (c context) keys(k *keys, i int, prev, prev2 string) {
	k.b, k.ends = k.b[:0], k.ends[:0]
	c.wordKeys(k, i)
	c.tagKeys(k, i, prev, prev2)
}

// wordKeys appends the features of position i that look only at the words, which Model.Tag
// scores for the whole sentence before it decides any tag.
func (c context) wordKeys(k *keys, i int) {
	lw := c.lower[i+2]
	w := c.words[i]
	p1, p2 := c.lower[i+1], c.lower[i]
	n1, n2 := c.lower[i+3], c.lower[i+4]
	sh := c.shapes[i]
	k.add("b")
	k.add("w=", lw)
	k.add("s3=", suffix(lw, 3))
	k.add("s2=", suffix(lw, 2))
	k.add("s1=", suffix(lw, 1))
	k.add("p1=", prefix(lw, 1))
	k.add("sh=", sh)
	k.add("w-1=", p1)
	k.add("s3-1=", suffix(p1, 3))
	k.add("w-2=", p2)
	k.add("w+1=", n1)
	k.add("s3+1=", suffix(n1, 3))
	k.add("w+2=", n2)
	k.add("w-1w=", p1, "|", lw)
	k.add("ww+1=", lw, "|", n1)
	k.add("shw=", sh, "|", lw)
	// spaCy's own affix features keep case, which is how it tells a headline's capitals from
	// the same word in lower case.
	k.add("S3=", suffix(w, 3))
	k.add("P1=", prefix(w, 1))
	k.add("w-1w+1=", p1, "|", n1)
	if i == 0 {
		k.add("first|", sh)
	} else {
		k.add("sh-1=", c.shapes[i-1])
	}
	if i+1 < len(c.words) {
		k.add("sh+1=", c.shapes[i+1])
	}
	if i >= 2 {
		k.add("sh-2=", c.shapes[i-2])
	}
	if i+2 < len(c.words) {
		k.add("sh+2=", c.shapes[i+2])
	}
	if c.capsLine(i) {
		k.add("caps|", suffix(lw, 3))
	}
}

// tagKeys appends the features of position i that look at the two previous tags.
func (c context) tagKeys(k *keys, i int, prev, prev2 string) {
	lw := c.lower[i+2]
	n1 := c.lower[i+3]
	k.add("t1=", prev)
	k.add("t2=", prev2)
	k.add("t12=", prev, "|", prev2)
	k.add("t1w=", prev, "|", lw)
	k.add("t1w+1=", prev, "|", n1)
	if i > 0 {
		k.add("t1sh=", prev, "|", c.shapes[i])
	}
	if c.capsLine(i) {
		k.add("caps|t1=", prev)
	}
}

// capsLine reports a capitalised word in a line in capitals (a headline), which reads
// differently from a capitalised word in running text.
func (c context) capsLine(i int) bool {
	sh := c.shapes[i]
	return c.allCaps && sh != "" && sh[0] == 'X'
}
