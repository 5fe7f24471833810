package phonemize

import (
	"regexp"
	"strings"
	"unicode"
)

// The tokenizer follows the conventions of the English tokenizer the reference tags with:
// whitespace first, then punctuation peeled off the front and back, a few infixes (hyphens
// between letters, dashes, ellipses, operators between digits) and a table of exceptions
// (abbreviations that keep their period, times such as 5pm).

const prefixChars = "\"'“‘«([{<¿¡*$£€#&§%=—–+…"
const suffixChars = "\"'”’»)]}>,;:!?*&%…—–"

// abbreviations keep their trailing period as part of the token.
var abbreviations = map[string]bool{}

func init() {
	for _, a := range strings.Fields(`Mr. Mrs. Ms. Dr. Jr. Sr. St. Mt. Prof. Gen. Gov. Sen. Rep. Rev.
		Capt. Col. Lt. Sgt. Inc. Ltd. Co. Corp. Bros. vs. etc. e.g. i.e. a.m. p.m. Jan. Feb. Mar.
		Apr. Jun. Jul. Aug. Sep. Sept. Oct. Nov. Dec. Mon. Tue. Wed. Thu. Fri. Sat. Sun. No. Nos.
		Ave. Blvd. Rd. U.S. U.K. U.N. E.U. D.C. L.A. N.Y. Ph.D. M.D. B.A. M.A. approx. dept.
		est. fig. Mass. Calif. Fla. Ga. Ill. Pa. Va. Wash. Mich. Minn. Tex. Ala. Ariz. Ark. Colo.
		Conn. Del. Ind. Kan. Ky. La. Md. Miss. Mo. Mont. Neb. Nev. Okla. Ore. Tenn. Vt. Wis. Wyo.`) {
		abbreviations[a] = true
	}
}

var initialismRe = regexp.MustCompile(`^(?:\p{L}\.)+\p{L}?\.?$`)
var timeSuffixRe = regexp.MustCompile(`^(\d{1,2})((?:a|p)\.?m\.?)$`)
var urlRe = regexp.MustCompile(`(?i)^(?:https?://|www\.)\S+$|^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$|^[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|edu|gov|io|co|uk|de|ai)(?:/\S*)?$`)

// tokenize splits text into tokens with their trailing whitespace.
func tokenize(text string) []*token {
	var out []*token
	fields := splitWS(text)
	for _, f := range fields {
		parts := splitToken(f.text)
		off := f.start
		for i, p := range parts {
			t := &token{text: p, isHead: true, start: off}
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
	rs := []rune(text)
	for i < len(rs) {
		for i < len(rs) && unicode.IsSpace(rs[i]) {
			i++
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		if j == i {
			break
		}
		f := field{text: string(rs[i:j]), start: len(string(rs[:i]))}
		if j < len(rs) {
			f.ws = " "
		}
		out = append(out, f)
		i = j
	}
	return out
}

func splitToken(s string) []string {
	var pre, suf []string
	for s != "" {
		if isException(s) {
			break
		}
		r, size := firstRune(s)
		if strings.HasPrefix(s, "...") {
			n := len(s) - len(strings.TrimLeft(s, "."))
			pre = append(pre, s[:n])
			s = s[n:]
			continue
		}
		if strings.ContainsRune(prefixChars, r) && !(r == '+' && len(s) > size && isDigitByte(s[size])) {
			pre = append(pre, s[:size])
			s = s[size:]
			continue
		}
		if suffix := trailingPiece(s); suffix != "" && suffix != s {
			suf = append([]string{suffix}, suf...)
			s = s[:len(s)-len(suffix)]
			continue
		}
		break
	}
	out := pre
	if s != "" {
		out = append(out, splitInfix(s)...)
	}
	return append(out, suf...)
}

func isException(s string) bool {
	return abbreviations[s] || (initialismRe.MatchString(s) && strings.Count(s, ".") >= 2) ||
		urlRe.MatchString(s) || (len([]rune(s)) == 2 && unicode.IsLetter([]rune(s)[0]) && s[len(s)-1] == '.')
}

var unitSuffixRe = regexp.MustCompile(`^(.*\d)(km|kg|cm|mm|m|g|mg|lb|lbs|oz|ft|yd|mph|kmh|GB|MB|KB|TB|kb|gb|mb|tb|%|am|pm|a\.m\.|p\.m\.|K|M|G|T)$`)

// trailingPiece returns the punctuation or unit to split off the end of s, if any.
func trailingPiece(s string) string {
	if m := timeSuffixRe.FindStringSubmatch(s); m != nil {
		return m[2]
	}
	if m := unitSuffixRe.FindStringSubmatch(s); m != nil && !isException(s) {
		return m[2]
	}
	if strings.HasSuffix(s, "...") {
		return s[len(strings.TrimRight(s, ".")):]
	}
	for _, x := range []string{"'s", "'S", "’s", "’S"} {
		if strings.HasSuffix(s, x) && len(s) > len(x) {
			return x
		}
	}
	r, size := lastRuneSize(s)
	if strings.ContainsRune(suffixChars, r) {
		return s[len(s)-size:]
	}
	if r == '.' && len(s) > 1 && !isException(s) {
		return "."
	}
	return ""
}

var infixRe = regexp.MustCompile(`\.\.+|…|--+|—|–|~`)

// splitInfix splits dashes and ellipses inside a token, hyphens between letters and operators
// between digits.
func splitInfix(s string) []string {
	if isException(s) {
		return []string{s}
	}
	rs := []rune(s)
	var out []string
	start := 0
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		cut := 0
		switch {
		case r == '.' && i+1 < len(rs) && rs[i+1] == '.':
			j := i
			for j < len(rs) && rs[j] == '.' {
				j++
			}
			cut = j - i
		case r == '…' || r == '—' || r == '–' || r == '~':
			cut = 1
		case r == '-' && i > 0 && i+1 < len(rs):
			prev, next := rs[i-1], rs[i+1]
			if (unicode.IsLetter(prev) || unicode.IsDigit(prev)) && unicode.IsLetter(next) {
				cut = 1
				if i+2 < len(rs) && next == '-' {
					cut = 2
				}
			} else if unicode.IsDigit(prev) && (unicode.IsDigit(next) || next == '-') {
				cut = 1
			}
		case (r == '+' || r == '*' || r == '^') && i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && (unicode.IsDigit(rs[i+1]) || rs[i+1] == '-'):
			cut = 1
		case (r == ':' || r == '<' || r == '>' || r == '=' || r == '/') && i > 0 && i+1 < len(rs) &&
			(unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i-1])) && unicode.IsLetter(rs[i+1]):
			cut = 1
		case r == ',' && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]):
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

func firstRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

func lastRuneSize(s string) (rune, int) {
	rs := []rune(s)
	if len(rs) == 0 {
		return 0, 0
	}
	r := rs[len(rs)-1]
	return r, len(string(r))
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

var _ = infixRe
