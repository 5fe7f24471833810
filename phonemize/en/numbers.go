package en

import (
	"regexp"
	"strings"
)

var numSuffixRe = regexp.MustCompile(`[a-z']+$`)
var nonAZRe = regexp.MustCompile(`[^a-z]+`)

func isDigits(s string) bool { return digitsRe.MatchString(s) }

// isNumber reports whether a word is digits (with , and . and a leading minus on a head),
// optionally followed by an ordinal or -s/-ed/-ing suffix.
func isNumber(w string, isHead bool) bool {
	hasDigit := false
	for _, c := range w {
		if c >= '0' && c <= '9' {
			hasDigit = true
			break
		}
	}
	if !hasDigit {
		return false
	}
	for _, s := range []string{"ing", "'d", "ed", "'s", "st", "nd", "rd", "th", "s"} {
		if strings.HasSuffix(w, s) {
			w = w[:len(w)-len(s)]
			break
		}
	}
	for i, c := range w {
		if !(c >= '0' && c <= '9' || c == ',' || c == '.' || (isHead && i == 0 && c == '-')) {
			return false
		}
	}
	return true
}

func isCurrencyAmount(w string) bool {
	if !strings.Contains(w, ".") {
		return true
	}
	if strings.Count(w, ".") > 1 {
		return false
	}
	_, cents, _ := strings.Cut(w, ".")
	return len(cents) < 3
}

// numFlags are the number-reading options an inline override gives a number ([12](#&a#)),
// read as the reference reads its flag characters.
type numFlags struct {
	keepAnd bool // '&': the "and"s of a spelled number are read
	oneAsA  bool // 'a': a leading "one" of several words reads "a" (ə)
	joinAnd bool // 'n': a dropped "and" leaves ən on the word before it
}

// parseNumFlags reads an override's flag characters; others mean nothing.
func parseNumFlags(s string) numFlags {
	return numFlags{strings.Contains(s, "&"), strings.Contains(s, "a"), strings.Contains(s, "n")}
}

// or is the flags of a word merged from parts: each flag any part has.
func (f numFlags) or(g numFlags) numFlags {
	return numFlags{f.keepAnd || g.keepAnd, f.oneAsA || g.oneAsA, f.joinAnd || g.joinAnd}
}

type numPart struct {
	ps string
	r  int
}

// numReader gathers a numeral's words, each looked up in the lexicon with its rating.
type numReader struct {
	lx    *lexicon
	flags numFlags
	parts []numPart
}

func (r *numReader) add(word string, s stress) {
	ps, rating := r.lx.lookup(word, "", s, nil)
	r.parts = append(r.parts, numPart{ps, rating})
}

// extend adds the words of a spelled-out number ("one hundred and five"); first marks the
// numeral's first number, whose leading "one" the 'a' flag reads "a".
func (r *numReader) extend(spelled string, first bool) {
	splits := nonAZRe.Split(spelled, -1)
	for i, x := range splits {
		switch {
		case x != "and" || r.flags.keepAnd:
			if first && i == 0 && len(splits) > 1 && x == "one" && r.flags.oneAsA {
				r.parts = append(r.parts, numPart{"ə", rateGold})
			} else if x == "point" {
				r.add(x, stressOf(-2))
			} else {
				r.add(x, noStress)
			}
		case r.flags.joinAnd && len(r.parts) > 0:
			r.parts[len(r.parts)-1].ps += "ən"
		}
	}
}

func (r *numReader) extendNum(digits string, first bool) { r.extend(cardinalWords(digits), first) }

// digitByDigit reads each digit as a word.
func (r *numReader) digitByDigit(num string) {
	for _, c := range num {
		r.extendNum(string(c), false)
	}
}

// getNumber reads a numeral: digit by digit for codes and long or zero-led runs, pairs for
// three-digit non-head parts, money with units, years, ordinals, decimals.
func (lx *lexicon) getNumber(w, currency string, isHead bool, flags numFlags) (string, int) {
	suffix := numSuffixRe.FindString(w)
	w = w[:len(w)-len(suffix)]
	r := &numReader{lx: lx, flags: flags}
	if strings.HasPrefix(w, "-") {
		r.add("minus", noStress)
		w = w[1:]
	}
	if !r.read(w, suffix, currency, isHead) || len(r.parts) == 0 {
		return "", 0
	}
	return r.joined(suffix)
}

// read adds the words of w, a numeral without its sign and suffix, by the first of the
// reference's readings that applies; false for a numeral it cannot read.
func (r *numReader) read(w, suffix, currency string, isHead bool) bool {
	ordinal := suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th"
	switch {
	case isDigits(w) && ordinal:
		r.extend(ordinalWords(w), true)
	case len(r.parts) == 0 && len(w) == 4 && currency == "" && isDigits(w):
		r.extend(yearWords(w), true)
	case !isHead && !strings.Contains(w, "."):
		r.code(strings.ReplaceAll(w, ",", ""))
	case strings.Count(w, ".") > 1 || !isHead:
		r.dotted(w)
	case currency != "" && isCurrencyAmount(w):
		r.money(w, currency)
	default:
		spelled, ok := spellNumber(w, ordinal)
		if !ok {
			return false
		}
		r.extend(spelled, true)
	}
	return true
}

// code reads a part of a numeral that is not its head ("12" of 3:12): digit by digit when it
// starts with 0 or is longer than three digits, three digits as one and a pair ("three
// fifteen", "three O five"), else as a number.
func (r *numReader) code(num string) {
	switch {
	case num == "":
	case num[0] == '0' || len(num) > 3:
		r.digitByDigit(num)
	case len(num) == 3 && !strings.HasSuffix(num, "00"):
		r.extendNum(num[:1], true)
		if num[1] == '0' {
			r.add("O", stressOf(-2))
			r.extendNum(num[2:], false)
		} else {
			r.extendNum(num[1:], false)
		}
	default:
		r.extendNum(num, true)
	}
}

// dotted reads a numeral of several dots (a version, an address), each part a number of its
// own, digit by digit when zero-led or not a plain two-digit or round number.
func (r *numReader) dotted(w string) {
	first := true
	for _, num := range strings.Split(strings.ReplaceAll(w, ",", ""), ".") {
		switch {
		case num == "":
		case num[0] == '0' || (len(num) != 2 && strings.Trim(num[1:], "0") != ""):
			r.digitByDigit(num)
		default:
			r.extendNum(num, first)
		}
		first = false
	}
}

// money reads an amount in currency: the whole units and the cents, each with its unit's word,
// a zero side left out ("five dollars", "fifty cents", "one pound and five pence").
func (r *numReader) money(w, currency string) {
	units := currencies[currency]
	parts := strings.Split(strings.ReplaceAll(w, ",", ""), ".")
	type pair struct{ n, unit string }
	var pairs []pair
	for i := 0; i < len(parts) && i < 2; i++ {
		n := strings.TrimLeft(parts[i], "0")
		if n == "" {
			n = "0"
		}
		pairs = append(pairs, pair{n, units[i]})
	}
	if len(pairs) > 1 {
		if pairs[1].n == "0" {
			pairs = pairs[:1]
		} else if pairs[0].n == "0" {
			pairs = pairs[1:]
		}
	}
	for i, p := range pairs {
		if i > 0 {
			r.add("and", noStress)
		}
		r.extendNum(p.n, i == 0)
		if p.n != "1" && p.unit != "pence" {
			ps, rating := r.lx.stemS(p.unit+"s", "", noStress, nil)
			r.parts = append(r.parts, numPart{ps, rating})
		} else {
			r.add(p.unit, noStress)
		}
	}
}

// spellNumber spells out a head numeral: a cardinal or an ordinal, commas dropped, a decimal
// ("three point one four", "point five"); false for what is no number.
func spellNumber(w string, ordinal bool) (string, bool) {
	switch {
	case isDigits(w):
		return cardinalWords(w), true
	case !strings.Contains(w, "."):
		d := strings.ReplaceAll(w, ",", "")
		if !isDigits(d) {
			return "", false
		}
		if ordinal {
			return ordinalWords(d), true
		}
		return cardinalWords(d), true
	}
	d := strings.ReplaceAll(w, ",", "")
	if !strings.HasPrefix(d, ".") {
		return floatWords(d), true
	}
	spelled := "point"
	for _, c := range d[1:] {
		spelled += " " + cardinalWords(string(c))
	}
	return spelled, true
}

// joined is the numeral's phonemes, its words joined by spaces with the suffix read on, and
// its rating: the lowest of its words', at least 1.
func (r *numReader) joined(suffix string) (string, int) {
	words := make([]string, len(r.parts))
	rating := rateGold
	for i, p := range r.parts {
		words[i] = p.ps
		if p.r < rating {
			rating = p.r
		}
	}
	ps := strings.Join(words, " ")
	switch suffix {
	case "s", "'s":
		ps = r.lx.suffixS(ps)
	case "ed", "'d":
		ps = r.lx.suffixED(ps)
	case "ing":
		ps = r.lx.suffixING(ps)
	}
	return ps, max(rating, 1)
}
