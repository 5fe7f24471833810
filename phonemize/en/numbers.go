package en

import (
	"regexp"
	"strconv"
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

type numPart struct {
	ps string
	r  int
}

// getNumber reads a numeral: digit by digit for codes and long or zero-led runs, pairs for
// three-digit non-head parts, money with units, years, ordinals, decimals.
func (lx *lexicon) getNumber(w, currency string, isHead bool, flags string) (string, int) {
	suffix := numSuffixRe.FindString(w)
	w = w[:len(w)-len(suffix)]
	var result []numPart
	add := func(word string, s stress) {
		ps, r := lx.lookup(word, "", s, nil)
		result = append(result, numPart{ps, r})
	}
	if strings.HasPrefix(w, "-") {
		add("minus", noStress)
		w = w[1:]
	}
	extend := func(spelled string, first bool) {
		splits := nonAZRe.Split(spelled, -1)
		for i, x := range splits {
			switch {
			case x != "and" || strings.Contains(flags, "&"):
				if first && i == 0 && len(splits) > 1 && x == "one" && strings.Contains(flags, "a") {
					result = append(result, numPart{"ə", rateGold})
				} else if x == "point" {
					add(x, stressOf(-2))
				} else {
					add(x, noStress)
				}
			case strings.Contains(flags, "n") && len(result) > 0:
				result[len(result)-1].ps += "ən"
			}
		}
	}
	extendNum := func(digits string, first bool) { extend(cardinalWords(digits), first) }
	ordinal := suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th"
	switch {
	case isDigits(w) && ordinal:
		extend(ordinalWords(w), true)
	case len(result) == 0 && len(w) == 4 && currency == "" && isDigits(w):
		extend(yearWords(w), true)
	case !isHead && !strings.Contains(w, "."):
		num := strings.ReplaceAll(w, ",", "")
		switch {
		case num == "":
		case num[0] == '0' || len(num) > 3:
			for _, c := range num {
				extendNum(string(c), false)
			}
		case len(num) == 3 && !strings.HasSuffix(num, "00"):
			extendNum(num[:1], true)
			if num[1] == '0' {
				add("O", stressOf(-2))
				extendNum(num[2:], false)
			} else {
				extendNum(num[1:], false)
			}
		default:
			extendNum(num, true)
		}
	case strings.Count(w, ".") > 1 || !isHead:
		first := true
		for _, num := range strings.Split(strings.ReplaceAll(w, ",", ""), ".") {
			switch {
			case num == "":
			case num[0] == '0' || (len(num) != 2 && strings.Trim(num[1:], "0") != ""):
				for _, c := range num {
					extendNum(string(c), false)
				}
			default:
				extendNum(num, first)
			}
			first = false
		}
	case currency != "" && isCurrencyAmount(w):
		units := currencies[currency]
		parts := strings.Split(strings.ReplaceAll(w, ",", ""), ".")
		type pair struct {
			n    string
			unit string
		}
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
				add("and", noStress)
			}
			extendNum(p.n, i == 0)
			if p.n != "1" && p.unit != "pence" {
				ps, r := lx.stemS(p.unit+"s", "", noStress, nil)
				result = append(result, numPart{ps, r})
			} else {
				add(p.unit, noStress)
			}
		}
	default:
		var spelled string
		switch {
		case isDigits(w):
			spelled = cardinalWords(w)
		case !strings.Contains(w, "."):
			d := strings.ReplaceAll(w, ",", "")
			if !isDigits(d) {
				return "", 0
			}
			if ordinal {
				spelled = ordinalWords(d)
			} else {
				spelled = cardinalWords(d)
			}
		default:
			d := strings.ReplaceAll(w, ",", "")
			if strings.HasPrefix(d, ".") {
				spelled = "point"
				for _, c := range d[1:] {
					spelled += " " + cardinalWords(string(c))
				}
			} else {
				spelled = floatWords(d)
			}
		}
		extend(spelled, true)
	}
	if len(result) == 0 {
		return "", 0
	}
	parts := make([]string, len(result))
	rating := rateGold
	for i, p := range result {
		parts[i] = p.ps
		if p.r < rating {
			rating = p.r
		}
	}
	ps := strings.Join(parts, " ")
	switch suffix {
	case "s", "'s":
		ps = lx.suffixS(ps)
	case "ed", "'d":
		ps = lx.suffixED(ps)
	case "ing":
		ps = lx.suffixING(ps)
	}
	return ps, max(rating, 1)
}

var _ = strconv.Itoa
