package en

import (
	"strconv"
	"strings"
)

// The spelling of numbers follows the num2words conventions the reference reads them with
// ("one hundred and five", "nineteen oh-five"), so that the words, once looked up, match.

var ones = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
	"eighteen", "nineteen"}
var tens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
var scales = []string{"", "thousand", "million", "billion", "trillion", "quadrillion",
	"quintillion", "sextillion", "septillion", "octillion", "nonillion"}

func under100(n int) string {
	if n < 20 {
		return ones[n]
	}
	if n%10 == 0 {
		return tens[n/10]
	}
	return tens[n/10] + "-" + ones[n%10]
}

func under1000(n int) string {
	if n < 100 {
		return under100(n)
	}
	s := ones[n/100] + " hundred"
	if n%100 != 0 {
		s += " and " + under100(n%100)
	}
	return s
}

// cardinalWords spells a non-negative integer given as decimal digits.
func cardinalWords(digits string) string {
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return "zero"
	}
	var groups []int
	for len(digits) > 0 {
		cut := max(0, len(digits)-3)
		g, _ := strconv.Atoi(digits[cut:])
		groups = append(groups, g)
		digits = digits[:cut]
	}
	if len(groups) > len(scales) {
		// Beyond the named scales: read digit by digit rather than invent names.
		var parts []string
		for i := len(groups) - 1; i >= 0; i-- {
			for _, c := range strconv.Itoa(groups[i]) {
				parts = append(parts, ones[c-'0'])
			}
		}
		return strings.Join(parts, " ")
	}
	var out string
	for i := len(groups) - 1; i >= 0; i-- {
		g := groups[i]
		if g == 0 {
			continue
		}
		if i == 0 && g < 100 && out != "" {
			out += " and " + under100(g) // "one thousand and five": no comma before "and"
			continue
		}
		p := under1000(g)
		if i > 0 {
			p += " " + scales[i]
		}
		if out != "" {
			out += ", "
		}
		out += p
	}
	return out
}

func cardinalInt(n int) string { return cardinalWords(strconv.Itoa(n)) }

var ordinalIrregular = map[string]string{"one": "first", "two": "second", "three": "third",
	"five": "fifth", "eight": "eighth", "nine": "ninth", "twelve": "twelfth"}

func ordinalWords(digits string) string {
	c := cardinalWords(digits)
	cut := strings.LastIndexAny(c, " -") + 1
	last := c[cut:]
	if o, ok := ordinalIrregular[last]; ok {
		last = o
	} else if strings.HasSuffix(last, "y") {
		last = last[:len(last)-1] + "ieth"
	} else {
		last += "th"
	}
	return c[:cut] + last
}

// yearWords reads a four-digit year in pairs ("nineteen eighty-four", "nineteen oh-five"),
// except where pairs sound wrong (2005 is "two thousand and five").
func yearWords(digits string) string {
	v, err := strconv.Atoi(digits)
	if err != nil {
		return cardinalWords(digits)
	}
	high, low := v/100, v%100
	if high == 0 || (high%10 == 0 && low < 10) || high >= 100 {
		return cardinalInt(v)
	}
	switch {
	case low == 0:
		return cardinalInt(high) + " hundred"
	case low < 10:
		return cardinalInt(high) + " oh-" + cardinalInt(low)
	}
	return cardinalInt(high) + " " + cardinalInt(low)
}

// floatWords reads a decimal as the shortest float that round-trips prints it
// ("3.50" → "three point five").
func floatWords(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return ""
	}
	neg := f < 0
	if neg {
		f = -f
	}
	r := strconv.FormatFloat(f, 'f', -1, 64)
	ip, fp, _ := strings.Cut(r, ".")
	if fp == "" {
		// A whole number written with a decimal point ("3.0") reads as the whole number.
		if neg {
			return "minus " + cardinalWords(ip)
		}
		return cardinalWords(ip)
	}
	out := cardinalWords(ip) + " point"
	for _, c := range fp {
		out += " " + ones[c-'0']
	}
	if neg {
		out = "minus " + out
	}
	return out
}
