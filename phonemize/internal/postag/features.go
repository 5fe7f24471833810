package postag

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// shape maps a word to a short pattern of its character classes: "Xxxx" for a capitalised
// word, "XXXX" for capitals, "dd" for digits, with runs longer than four cut to four.
func shape(w string) string {
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

func suffix(w string, n int) string {
	if utf8.RuneCountInString(w) <= n {
		return w
	}
	rs := []rune(w)
	return string(rs[len(rs)-n:])
}

func prefix(w string, n int) string {
	rs := []rune(w)
	if len(rs) <= n {
		return w
	}
	return string(rs[:n])
}

// context is what the features of one position look at: lower-cased forms around it (with
// padding) and the original forms.
type context struct {
	lower   []string
	words   []string
	allCaps bool // every word with letters is in capitals
}

const (
	startPad = "-START-"
	endPad   = "-END-"
)

func newContext(words []string) context {
	c := context{words: words, lower: make([]string, len(words)+4)}
	c.lower[0], c.lower[1] = startPad+"2", startPad
	for i, w := range words {
		c.lower[i+2] = strings.ToLower(w)
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

// features appends the feature strings of position i to buf, given the two previous tags.
func (c context) features(buf []string, i int, prev, prev2 string) []string {
	w := c.words[i]
	lw := c.lower[i+2]
	p1, p2 := c.lower[i+1], c.lower[i]
	n1, n2 := c.lower[i+3], c.lower[i+4]
	sh := shape(w)
	buf = append(buf,
		"b",
		"w="+lw,
		"s3="+suffix(lw, 3),
		"s2="+suffix(lw, 2),
		"s1="+suffix(lw, 1),
		"p1="+prefix(lw, 1),
		"sh="+sh,
		"t1="+prev,
		"t2="+prev2,
		"t12="+prev+"|"+prev2,
		"t1w="+prev+"|"+lw,
		"w-1="+p1,
		"s3-1="+suffix(p1, 3),
		"w-2="+p2,
		"w+1="+n1,
		"s3+1="+suffix(n1, 3),
		"w+2="+n2,
		"w-1w="+p1+"|"+lw,
		"ww+1="+lw+"|"+n1,
		"shw="+sh+"|"+lw,
		// spaCy's own affix features keep case, which is how it tells a headline's
		// capitals from the same word in lower case.
		"S3="+suffix(w, 3),
		"P1="+prefix(w, 1),
		"w-1w+1="+p1+"|"+n1,
		"t1w+1="+prev+"|"+n1,
	)
	if i == 0 {
		buf = append(buf, "first|"+sh)
	} else {
		buf = append(buf, "sh-1="+shape(c.words[i-1]), "t1sh="+prev+"|"+sh)
	}
	if i+1 < len(c.words) {
		buf = append(buf, "sh+1="+shape(c.words[i+1]))
	}
	if i >= 2 {
		buf = append(buf, "sh-2="+shape(c.words[i-2]))
	}
	if i+2 < len(c.words) {
		buf = append(buf, "sh+2="+shape(c.words[i+2]))
	}
	if c.allCaps && sh != "" && sh[0] == 'X' {
		// A line in capitals (a headline) reads differently from a capitalised word in
		// running text.
		buf = append(buf, "caps|"+suffix(lw, 3), "caps|t1="+prev)
	}
	return buf
}
