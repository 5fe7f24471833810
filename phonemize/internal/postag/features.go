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
		if changesInCapitals(w) {
			c.allCaps = false
		}
	}
	c.allCaps = c.allCaps && letters > 1
	return c
}

// changesInCapitals reports whether strings.ToUpper(w) != w, without building the capitals:
// a rune with a capital form, or a byte that is not UTF-8 (which ToUpper replaces).
func changesInCapitals(w string) bool {
	for i := 0; i < len(w); {
		if c := w[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(w[i:])
		if (r == utf8.RuneError && size == 1) || unicode.ToUpper(r) != r {
			return true
		}
		i += size
	}
	return false
}

// capsLine reports a capitalised word in a line in capitals (a headline), which reads
// differently from a capitalised word in running text.
func (c context) capsLine(i int) bool {
	sh := c.shapes[i]
	return c.allCaps && sh != "" && sh[0] == 'X'
}

// A feature is its template's name followed by its parts, joined by "|" ("w-1w=the|cat"), and
// the model file keys the weights by that string. Tagging never builds the string: it hashes
// each part once per sentence and combines a template with its parts' hashes (featHash), and
// Load indexes every way a stored string reads as a template and parts, so that a feature is
// found exactly when its string is in the model, as if the strings were compared.
type tmpl uint8

const (
	tBias tmpl = iota
	tW
	tS3
	tS2
	tS1
	tP1
	tShape
	tWPrev
	tS3Prev
	tWPrev2
	tWNext
	tS3Next
	tWNext2
	tWPrevW
	tWWNext
	tShapeW
	tCaseS3
	tCaseP1
	tWPrevWNext
	tFirst
	tShapePrev
	tShapeNext
	tShapePrev2
	tShapeNext2
	tCaps
	tT1
	tT2
	tT12
	tT1W
	tT1WNext
	tT1Shape
	tCapsT1
	numTmpls
)

// tmpls are the templates' names and how many parts each takes.
var tmpls = [numTmpls]struct {
	name  string
	parts int
}{
	tBias: {"b", 0}, tW: {"w=", 1}, tS3: {"s3=", 1}, tS2: {"s2=", 1}, tS1: {"s1=", 1},
	tP1: {"p1=", 1}, tShape: {"sh=", 1}, tWPrev: {"w-1=", 1}, tS3Prev: {"s3-1=", 1},
	tWPrev2: {"w-2=", 1}, tWNext: {"w+1=", 1}, tS3Next: {"s3+1=", 1}, tWNext2: {"w+2=", 1},
	tWPrevW: {"w-1w=", 2}, tWWNext: {"ww+1=", 2}, tShapeW: {"shw=", 2},
	// spaCy's own affix features keep case, which is how it tells a headline's capitals from
	// the same word in lower case.
	tCaseS3: {"S3=", 1}, tCaseP1: {"P1=", 1}, tWPrevWNext: {"w-1w+1=", 2},
	tFirst: {"first|", 1}, tShapePrev: {"sh-1=", 1}, tShapeNext: {"sh+1=", 1},
	tShapePrev2: {"sh-2=", 1}, tShapeNext2: {"sh+2=", 1}, tCaps: {"caps|", 1},
	tT1: {"t1=", 1}, tT2: {"t2=", 1}, tT12: {"t12=", 2}, tT1W: {"t1w=", 2},
	tT1WNext: {"t1w+1=", 2}, tT1Shape: {"t1sh=", 2}, tCapsT1: {"caps|t1=", 1},
}

// render is a feature's string.
func render(t tmpl, a, b string) string {
	switch tmpls[t].parts {
	case 0:
		return tmpls[t].name
	case 1:
		return tmpls[t].name + a
	}
	return tmpls[t].name + a + "|" + b
}

// readings calls f with every template that reads s and where its parts split: for a
// template of two parts, at the "|" at s[sep]; sep is 0 for the others.
//
// Every name but "b" ends at its first "=" or "|", except "caps|t1=", which also reads as
// "caps|" and its part: so the names that begin s are the one up to its first "=" or "|", and
// "caps|t1=" (TestReadingsFindEveryName checks this against every name).
func readings(s []byte, f func(t tmpl, sep int)) {
	if string(s) == tmpls[tBias].name {
		f(tBias, 0)
		return
	}
	for i, c := range s {
		if c == '=' || c == '|' {
			if t, ok := tmplByName[string(s[:i+1])]; ok {
				read(s, t, f)
			}
			break
		}
	}
	if name := tmpls[tCapsT1].name; len(s) >= len(name) && string(s[:len(name)]) == name {
		read(s, tCapsT1, f)
	}
}

// read calls f with each way the parts of template t, whose name begins s, split.
func read(s []byte, t tmpl, f func(t tmpl, sep int)) {
	if tmpls[t].parts < 2 {
		f(t, 0)
		return
	}
	for j := len(tmpls[t].name); j < len(s); j++ {
		if s[j] == '|' {
			f(t, j)
		}
	}
}

// parts are the parts of template t in s, split at sep as readings gave it.
func parts(s []byte, t tmpl, sep int) (a, b []byte) {
	switch tmpls[t].parts {
	case 0:
		return nil, nil
	case 1:
		return s[len(tmpls[t].name):], nil
	}
	return s[len(tmpls[t].name):sep], s[sep+1:]
}

// tmplByName finds a template from its name.
var tmplByName = func() map[string]tmpl {
	by := map[string]tmpl{}
	for t := range numTmpls {
		by[tmpls[t].name] = t
	}
	return by
}()

// sentParts are what the features of a sentence's words are made of, as strings (to train)
// or as their hashes (to tag).
type sentParts[P any] struct {
	lower   []P    // the lower-cased words with two pads each side: word i is lower[i+2]
	lowerS3 []P    // the last three runes of each of lower
	s2, s1  []P    // word i's last two runes and last rune, lower-cased
	p1      []P    // word i's first rune, lower-cased
	shape   []P    // word i's shape
	cs3     []P    // word i's last three runes in its own case
	cp1     []P    // word i's first rune in its own case
	caps    []bool // capsLine
}

// fill sets sp from c, with each string mapped through v.
func (sp *sentParts[P]) fill(c context, v func(string) P) {
	sp.lower, sp.lowerS3 = sp.lower[:0], sp.lowerS3[:0]
	for _, l := range c.lower {
		sp.lower = append(sp.lower, v(l))
		sp.lowerS3 = append(sp.lowerS3, v(suffix(l, 3)))
	}
	sp.s2, sp.s1, sp.p1 = sp.s2[:0], sp.s1[:0], sp.p1[:0]
	sp.shape, sp.cs3, sp.cp1, sp.caps = sp.shape[:0], sp.cs3[:0], sp.cp1[:0], sp.caps[:0]
	for i, w := range c.words {
		l := c.lower[i+2]
		sp.s2 = append(sp.s2, v(suffix(l, 2)))
		sp.s1 = append(sp.s1, v(suffix(l, 1)))
		sp.p1 = append(sp.p1, v(prefix(l, 1)))
		sp.shape = append(sp.shape, v(c.shapes[i]))
		sp.cs3 = append(sp.cs3, v(suffix(w, 3)))
		sp.cp1 = append(sp.cp1, v(prefix(w, 1)))
		sp.caps = append(sp.caps, c.capsLine(i))
	}
}

// wordFeatures calls add with each feature of word i that looks only at the words, which
// Model.Tag scores for the whole sentence before it decides any tag.
func wordFeatures[P any](sp *sentParts[P], i int, add func(t tmpl, a, b P)) {
	var z P
	n := len(sp.shape)
	lw, sh := sp.lower[i+2], sp.shape[i]
	p1, p2, n1, n2 := sp.lower[i+1], sp.lower[i], sp.lower[i+3], sp.lower[i+4]
	add(tBias, z, z)
	add(tW, lw, z)
	add(tS3, sp.lowerS3[i+2], z)
	add(tS2, sp.s2[i], z)
	add(tS1, sp.s1[i], z)
	add(tP1, sp.p1[i], z)
	add(tShape, sh, z)
	add(tWPrev, p1, z)
	add(tS3Prev, sp.lowerS3[i+1], z)
	add(tWPrev2, p2, z)
	add(tWNext, n1, z)
	add(tS3Next, sp.lowerS3[i+3], z)
	add(tWNext2, n2, z)
	add(tWPrevW, p1, lw)
	add(tWWNext, lw, n1)
	add(tShapeW, sh, lw)
	add(tCaseS3, sp.cs3[i], z)
	add(tCaseP1, sp.cp1[i], z)
	add(tWPrevWNext, p1, n1)
	if i == 0 {
		add(tFirst, sh, z)
	} else {
		add(tShapePrev, sp.shape[i-1], z)
	}
	if i+1 < n {
		add(tShapeNext, sp.shape[i+1], z)
	}
	if i >= 2 {
		add(tShapePrev2, sp.shape[i-2], z)
	}
	if i+2 < n {
		add(tShapeNext2, sp.shape[i+2], z)
	}
	if sp.caps[i] {
		add(tCaps, sp.lowerS3[i+2], z)
	}
}

// tagFeatures calls add with each feature of word i that looks at the two previous tags.
func tagFeatures[P any](sp *sentParts[P], i int, prev, prev2 P, add func(t tmpl, a, b P)) {
	var z P
	lw, n1 := sp.lower[i+2], sp.lower[i+3]
	add(tT1, prev, z)
	add(tT2, prev2, z)
	add(tT12, prev, prev2)
	add(tT1W, prev, lw)
	add(tT1WNext, prev, n1)
	if i > 0 {
		add(tT1Shape, prev, sp.shape[i])
	}
	if sp.caps[i] {
		add(tCapsT1, prev, z)
	}
}

// features appends the feature strings of word i to buf, given the two previous tags.
func features(sp *sentParts[string], buf []string, i int, prev, prev2 string) []string {
	add := func(t tmpl, a, b string) { buf = append(buf, render(t, a, b)) }
	wordFeatures(sp, i, add)
	tagFeatures(sp, i, prev, prev2, add)
	return buf
}
