package markup

import (
	"strings"
)

var ones = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}

var tens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

var scales = []struct {
	n    uint64
	name string
}{{1e18, "quintillion"}, {1e15, "quadrillion"}, {1e12, "trillion"}, {1e9, "billion"}, {1e6, "million"}, {1e3, "thousand"}}

// cardinal is n in words, American style: 1234 is "one thousand two hundred thirty-four".
func cardinal(n uint64) string {
	if n < 20 {
		return ones[n]
	}
	var parts []string
	for _, s := range scales {
		if n >= s.n {
			parts = append(parts, cardinal(n/s.n), s.name)
			n %= s.n
		}
	}
	if n >= 100 {
		parts = append(parts, ones[n/100], "hundred")
		n %= 100
	}
	switch {
	case n == 0:
	case n < 20:
		parts = append(parts, ones[n])
	case n%10 == 0:
		parts = append(parts, tens[n/10])
	default:
		parts = append(parts, tens[n/10]+"-"+ones[n%10])
	}
	return strings.Join(parts, " ")
}

// ordinalWord maps the last word of a cardinal to its ordinal.
var ordinalWord = map[string]string{
	"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
	"nine": "ninth", "twelve": "twelfth",
}

// ordinal is n as an ordinal in words: 21 is "twenty-first".
func ordinal(n uint64) string {
	c := cardinal(n)
	cut := max(strings.LastIndexAny(c, " -")+1, 0)
	head, last := c[:cut], c[cut:]
	if w, ok := ordinalWord[last]; ok {
		return head + w
	}
	if strings.HasSuffix(last, "y") {
		return head + strings.TrimSuffix(last, "y") + "ieth"
	}
	return head + last + "th"
}

// year reads a year as a year: 1999 "nineteen ninety-nine", 1905 "nineteen oh five", 1900
// "nineteen hundred", 2000 "two thousand", 2008 "two thousand eight", 2026 "twenty
// twenty-six".
func year(y uint64) string {
	hi, lo := y/100, y%100
	switch {
	case y < 1000 || y >= 10000:
		return cardinal(y)
	case y%1000 == 0 || y > 2000 && y < 2010:
		return cardinal(y)
	case lo == 0:
		return cardinal(hi) + " hundred"
	case lo < 10:
		return cardinal(hi) + " oh " + ones[lo]
	}
	return cardinal(hi) + " " + cardinal(lo)
}

// digitWords spells each digit of s: "407" is "four zero seven".
func digitWords(s string) string {
	w := make([]string, 0, len(s))
	for _, r := range s {
		w = append(w, ones[r-'0'])
	}
	return strings.Join(w, " ")
}
