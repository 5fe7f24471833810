package en

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The tokenizer follows the English tokenizer the reference tags with, so that punctuation,
// currency symbols and dashes become tokens of their own exactly where the reference's do:
// whitespace first; then, repeatedly, one prefix and one suffix are peeled off (stopping at a
// special case: an abbreviation that keeps its period, a contraction that splits its own
// way); then URLs stay whole and everything else is split at infixes (hyphens and dashes
// between letters, ellipses, operators between digits).

const quoteChars = "'\"”“`‘´’‚,„»«「」『』（）〔〕【】《》〈〉⟦⟧"
const punctChars = "…,:;!?¿؟¡()[]{}<>_#*&。？！，、；：～·।،۔؛٪"
const currencyChars = "$£€¥฿₽₹₩₪₫₭₮₱₲₴₸₺₼₾"

var unitSuffixes = strings.Fields(`km km² km³ m m² m³ dm dm² dm³ cm cm² cm³ mm mm² mm³ ha µm nm yd in
	ft kg g mg µg t lb oz m/s km/h kmh mph hPa Pa mbar mb MB kb KB gb GB tb TB T G M K %`)

// unitRunes holds each unit suffix's length in runes.
var unitRunes = func() []int {
	out := make([]int, len(unitSuffixes))
	for i, u := range unitSuffixes {
		out[i] = utf8.RuneCountInString(u)
	}
	return out
}()

// isURL reports whether urlRe matches s. Every URL it accepts has "://" or a dot, which keeps
// the regular expression off the plain words that make up most of the text.
func isURL(s string) bool {
	return (strings.IndexByte(s, '.') >= 0 || strings.Contains(s, "://")) && urlRe.MatchString(s)
}

// isEmail reports whether emailRe matches s, trying it only on strings with an @.
func isEmail(s string) bool { return strings.IndexByte(s, '@') >= 0 && emailRe.MatchString(s) }

// urlRe approximates the reference tokenizer's URL matcher: a scheme or www, or a dotted host
// with a known top-level domain.
var urlRe = regexp.MustCompile(`(?i)^(?:(?:https?|ftp)://\S+|www\.\S+|[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|edu|gov|io|co|uk|de|ai|us|info)(?:[/:?#]\S*)?)$`)

// emailRe matches an e-mail address, which the reference tags ADD (read with "dot").
var emailRe = regexp.MustCompile(`^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$`)

// tokenize splits text into tokens with their trailing whitespace.
func tokenize(text string) []*token {
	fields := splitWS(text)
	out := make([]*token, 0, len(fields)+len(fields)/4)
	slab := tokenSlab{size: cap(out)}
	var one [1]string
	for _, f := range fields {
		parts := one[:]
		if _, ok := special(f.text); ok || !plainWord(f.text) {
			parts = splitToken(f.text)
		} else {
			one[0] = f.text // what splitToken would return, without its slice
		}
		off := f.start
		for i, p := range parts {
			t := slab.new()
			t.text, t.isHead, t.start = p, true, off
			off += len(p)
			if i == len(parts)-1 {
				t.ws = f.ws
			}
			out = append(out, t)
		}
	}
	return out
}

type field struct {
	text, ws string
	start    int // byte offset in the text
}

func splitWS(text string) []field {
	var out []field
	i := 0
	for i < len(text) {
		for i < len(text) {
			r, n := decodeRune(text[i:])
			if !unicode.IsSpace(r) {
				break
			}
			i += n
		}
		j := i
		for j < len(text) {
			r, n := decodeRune(text[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += n
		}
		if j == i {
			break
		}
		f := field{text: text[i:j], start: i}
		if j < len(text) {
			f.ws = " "
		}
		out = append(out, f)
		i = j
	}
	return out
}

// special looks a string up among the special cases; none is longer than a few bytes, so
// long strings skip the hashing.
func special(s string) ([]string, bool) {
	if len(s) > 24 {
		return nil, false
	}
	exc, ok := tokenExceptions[s]
	return exc, ok
}

func splitToken(s string) []string {
	if plainWord(s) {
		// No prefix, suffix or infix rule applies to letters alone; only a special case can.
		if exc, ok := special(s); ok {
			return append([]string(nil), exc...)
		}
		return []string{s}
	}
	return splitTokenRules(s)
}

// splitTokenRules is splitToken without its shortcut for plain words.
func splitTokenRules(s string) []string {
	var pre, suf []string
	var spec []string
	for s != "" {
		if exc, ok := special(s); ok {
			spec = exc
			s = ""
			break
		}
		p := prefixLen(s)
		if p > 0 && p < len(s) {
			if exc, ok := special(s[p:]); ok {
				pre = append(pre, s[:p])
				spec, s = exc, ""
				break
			}
		}
		q := suffixLen(s[p:])
		if q > 0 && q < len(s) {
			if exc, ok := special(s[:len(s)-q]); ok {
				suf = append([]string{s[len(s)-q:]}, suf...)
				spec, s = exc, ""
				break
			}
		}
		switch {
		case p > 0 && q > 0 && p+q <= len(s):
			pre = append(pre, s[:p])
			suf = append([]string{s[len(s)-q:]}, suf...)
			s = s[p : len(s)-q]
		case p > 0:
			pre = append(pre, s[:p])
			s = s[p:]
		case q > 0:
			suf = append([]string{s[len(s)-q:]}, suf...)
			s = s[:len(s)-q]
		}
		if p == 0 && q == 0 {
			break
		}
	}
	out := pre
	switch {
	case spec != nil:
		out = append(out, spec...)
	case s == "":
	case isURL(s):
		out = append(out, s)
	default:
		out = append(out, splitInfix(s)...)
	}
	return joinSpecials(append(out, suf...))
}

// joinSpecials joins neighbouring pieces that together spell a special case made of
// punctuation alone, as the reference's tokenizer does after splitting: "2017):" is "2017"
// and "):", "(:b" is "(:" and "b". The longest join is taken, from the left.
func joinSpecials(ps []string) []string {
	for i := 0; i+1 < len(ps); i++ {
		if hasAlnum(ps[i]) || hasAlnum(ps[i+1]) {
			continue
		}
		best := 0
		cat := ps[i]
		for j := i + 1; j < len(ps) && j < i+6 && !hasAlnum(ps[j]); j++ {
			cat += ps[j]
			if exc, ok := special(cat); ok && len(exc) == 1 {
				best = j
			}
		}
		if best > 0 {
			joined := strings.Join(ps[i:best+1], "")
			ps = append(append(ps[:i:i], joined), ps[best+1:]...)
		}
	}
	return ps
}

// prefixLen is the byte length of the punctuation to peel off the front of s.
func prefixLen(s string) int {
	r, n := decodeRune(s)
	switch {
	case strings.HasPrefix(s, ".."):
		return len(s) - len(strings.TrimLeft(s, "."))
	case strings.HasPrefix(s, "''"), strings.HasPrefix(s, "``"):
		return 2
	case r == '+':
		if len(s) > 1 && isDigitByte(s[1]) {
			return 0
		}
		return n
	case strings.ContainsRune("§%=—–", r), strings.ContainsRune(punctChars, r),
		strings.ContainsRune(quoteChars, r), strings.ContainsRune(currencyChars, r):
		return n
	}
	return 0
}

// suffixLen is the byte length of the punctuation or unit to peel off the end of s: the
// longest suffix rule that matches.
func suffixLen(s string) int {
	var buf [8]rune
	rs := lastRunes(buf[:0], s)
	n := len(rs)
	if n == 0 {
		return 0
	}
	best := 0
	consider := func(k int) {
		if k > best && k <= n {
			best = k
		}
	}
	last := rs[n-1]
	if strings.ContainsRune(punctChars, last) || strings.ContainsRune(quoteChars, last) || last == '—' || last == '–' {
		consider(1)
	}
	if strings.HasSuffix(s, "''") || strings.HasSuffix(s, "``") || strings.HasSuffix(s, "……") {
		consider(2)
	}
	if strings.HasSuffix(s, "..") {
		if k := len(s) - len(strings.TrimRight(s, ".")); k <= n {
			consider(k)
		} else {
			return k // a run of periods longer than the window: all ASCII bytes
		}
	}
	for _, x := range []string{"'s", "'S", "’s", "’S"} {
		if strings.HasSuffix(s, x) {
			consider(2)
		}
	}
	if n >= 2 && unicode.IsDigit(rs[n-2]) && (last == '+' || strings.ContainsRune(currencyChars, last)) {
		consider(1)
	}
	// A unit counts only after a digit, so a word without one skips the list.
	if slices.ContainsFunc(rs[:n-1], unicode.IsDigit) {
		for i, u := range unitSuffixes {
			if k := unitRunes[i]; k < n && strings.HasSuffix(s, u) && unicode.IsDigit(rs[n-k-1]) {
				consider(k)
			}
		}
	}
	if last == '.' && n >= 2 {
		p := rs[n-2]
		if unicode.IsDigit(p) || unicode.IsLower(p) || strings.ContainsRune("%²-+", p) ||
			strings.ContainsRune(punctChars, p) || strings.ContainsRune(quoteChars, p) ||
			(n >= 3 && unicode.IsUpper(p) && unicode.IsUpper(rs[n-3])) {
			consider(1)
		}
	}
	if best == 0 {
		return 0
	}
	return len(string(rs[n-best:]))
}

// lastRunes appends to buf (whose capacity is the number wanted) the last runes of s, in
// order, without decoding all of s.
func lastRunes(buf []rune, s string) []rune {
	out := buf[:0]
	for len(s) > 0 && len(out) < cap(buf) {
		r, size := utf8.DecodeLastRuneInString(s)
		out = append(out, r)
		s = s[:len(s)-size]
	}
	slices.Reverse(out)
	return out
}

// infixChars are the characters at which splitInfix may cut.
const infixChars = ".…+-*^,–—~:<>=/"

// splitInfix splits ellipses anywhere, operators between digits, a period between a lower-case
// and an upper-case letter, commas between letters, hyphens and dashes before a letter, and
// : < > = / between a letter or digit and a letter.
func splitInfix(s string) []string {
	if !strings.ContainsAny(s, infixChars) {
		return []string{s} // nothing below can cut it
	}
	rs := []rune(s)
	var out []string
	start := 0
	isA := unicode.IsLetter
	isQ := func(r rune) bool { return strings.ContainsRune(quoteChars, r) }
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		var prev, next rune
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		cut := 0
		switch {
		case r == '.' && next == '.':
			j := i
			for j < len(rs) && rs[j] == '.' {
				j++
			}
			cut = j - i
		case r == '…':
			cut = 1
		case i > 0 && unicode.IsDigit(prev) && strings.ContainsRune("+-*^", r) && (unicode.IsDigit(next) || next == '-'):
			cut = 1
		case i > 0 && r == '.' && (unicode.IsLower(prev) || isQ(prev)) && (unicode.IsUpper(next) || isQ(next)):
			cut = 1
		case i > 0 && r == ',' && isA(prev) && isA(next):
			cut = 1
		case i > 0 && (isA(prev) || unicode.IsDigit(prev)) && strings.ContainsRune("-–—~", r):
			j := i + 1
			if r == '-' || r == '—' {
				for j < len(rs) && j < i+3 && rs[j] == r {
					j++
				}
			}
			if j < len(rs) && isA(rs[j]) {
				cut = j - i
			}
		case i > 0 && (isA(prev) || unicode.IsDigit(prev)) && strings.ContainsRune(":<>=/", r) && isA(next):
			cut = 1
		}
		if cut == 0 {
			continue
		}
		if i > start {
			out = append(out, string(rs[start:i]))
		}
		out = append(out, string(rs[i:i+cut]))
		start = i + cut
		i += cut - 1
	}
	if start < len(rs) {
		out = append(out, string(rs[start:]))
	}
	return out
}

func decodeRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

func firstRune(s string) (rune, int) { return decodeRune(s) }

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }
