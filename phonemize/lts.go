package phonemize

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// letterToSound is the built-in fallback for words no lexicon knows when espeak-ng is not
// available: known pieces of the word from the lexicon where they cover it (compounds), letter
// names for all-capital words, digits as numbers, and otherwise English spelling rules.
type letterToSound struct {
	lx      *lexicon
	british bool
}

// ltsRules are grapheme → phoneme rules, tried longest first at each position.
var ltsRules = map[string]string{
	"tion": "ʃən", "sion": "ʒən", "ture": "ʧəɹ", "ough": "O", "augh": "ɔ", "eigh": "A",
	"igh": "I", "tch": "ʧ", "dge": "ʤ", "sch": "sk", "que": "k", "ous": "əs", "all": "ɔl",
	"ch": "ʧ", "sh": "ʃ", "th": "θ", "ph": "f", "wh": "w", "ck": "k", "ng": "ŋ", "qu": "kw",
	"kn": "n", "wr": "ɹ", "gh": "", "ee": "i", "ea": "i", "oo": "u", "ai": "A", "ay": "A",
	"oa": "O", "ou": "W", "ow": "O", "oi": "Y", "oy": "Y", "au": "ɔ", "aw": "ɔ", "ew": "ju",
	"ie": "i", "ei": "A", "ey": "i", "ar": "ɑɹ", "or": "ɔɹ", "er": "əɹ", "ir": "ɜɹ", "ur": "ɜɹ",
	"a": "æ", "b": "b", "c": "k", "d": "d", "e": "ɛ", "f": "f", "g": "ɡ", "h": "h", "i": "ɪ",
	"j": "ʤ", "k": "k", "l": "l", "m": "m", "n": "n", "o": "ɑ", "p": "p", "q": "k", "r": "ɹ",
	"s": "s", "t": "t", "u": "ʌ", "v": "v", "w": "w", "x": "ks", "y": "j", "z": "z",
}

var longVowel = map[byte]string{'a': "A", 'e': "i", 'i': "I", 'o': "O", 'u': "u"}

// ltsSymbols names the symbols the fallback reads aloud.
var ltsSymbols = map[rune]string{'=': "equals", '+': "plus", '%': "percent", '&': "and", '@': "at",
	'#': "hash", '*': "star", '/': "slash", '<': "less than", '>': "greater than"}

// phonemize reads text the way the espeak-ng path does: punctuation marks are kept where they
// are and the pieces between them are read separately.
func (l *letterToSound) phonemize(text string) (string, bool) {
	var b strings.Builder
	last := 0
	any := false
	piece := func(seg string) {
		if ps := l.piece(seg); ps != "" {
			b.WriteString(ps)
			any = true
		}
	}
	for _, m := range espeakMarks.FindAllStringIndex(text, -1) {
		piece(text[last:m[0]])
		b.WriteString(text[m[0]:m[1]])
		last = m[1]
	}
	piece(text[last:])
	if !any {
		return "", false
	}
	return strings.TrimSpace(b.String()), true
}

func (l *letterToSound) piece(text string) string {
	var words []string
	for _, w := range splitAlnum(foldAccents(text)) {
		if ps := l.word(w); ps != "" {
			words = append(words, ps)
		}
	}
	return strings.Join(words, " ")
}

// known looks a word up only when a lexicon has it (lookup itself would spell unknown words).
func (l *letterToSound) known(w string) string {
	for _, c := range []string{w, strings.ToLower(w)} {
		if l.lx.has(c) {
			if ps, _ := l.lx.lookup(c, "", noStress, nil); ps != "" {
				return ps
			}
		}
	}
	return ""
}

// foldAccents strips diacritics so that café reads as cafe.
func foldAccents(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		return s
	}
	return out
}

// splitAlnum splits text into runs of letters and runs of digits.
func splitAlnum(s string) []string {
	var out []string
	var cur []rune
	kind := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = nil
		}
	}
	for _, r := range s {
		k := 0
		switch {
		case r < 128 && unicode.IsLetter(r), r == '\'':
			k = 1
		case r >= '0' && r <= '9':
			k = 2
		case ltsSymbols[r] != "":
			k = 3
		}
		if k != kind || k == 3 {
			flush()
			kind = k
		}
		if k != 0 {
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

func (l *letterToSound) word(w string) string {
	if name := ltsSymbols[[]rune(w)[0]]; name != "" {
		var parts []string
		for _, x := range strings.Fields(name) {
			parts = append(parts, l.known(x))
		}
		return strings.Join(parts, " ")
	}
	if w[0] >= '0' && w[0] <= '9' {
		var spelled string
		if w[0] == '0' || len(w) > 4 {
			for _, c := range w {
				spelled += ones[c-'0'] + " "
			}
		} else {
			spelled = cardinalWords(w)
		}
		var parts []string
		for _, x := range nonAZRe.Split(spelled, -1) {
			if x == "and" || x == "" {
				continue
			}
			if ps := l.known(x); ps != "" {
				parts = append(parts, ps)
			}
		}
		return strings.Join(parts, " ")
	}
	w = strings.Trim(w, "'")
	if w == "" {
		return ""
	}
	if ps := l.known(w); ps != "" {
		return ps
	}
	if len(w) <= 4 && w == strings.ToUpper(w) {
		if ps, _ := l.lx.spellNNP(w); ps != "" {
			return ps
		}
	}
	lw := strings.ToLower(w)
	if ps := l.compound(lw); ps != "" {
		return ps
	}
	return applyStress(spellRules(lw), stressOf(2))
}

// compound reads a word as two lexicon words when it splits cleanly into them.
func (l *letterToSound) compound(w string) string {
	if len(w) > 40 {
		return "" // no real compound is this long; keep the search cheap
	}
	for i := len(w) - 3; i >= 3; i-- {
		a := l.known(w[:i])
		if a == "" {
			continue
		}
		b := l.known(w[i:])
		if b == "" {
			continue
		}
		return applyStress(a, noStress) + applyStress(b, stressOf(-1))
	}
	return ""
}

func isVowelLetter(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }

func spellRules(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); {
		// Vowel, one consonant, final e: the vowel is long and the e silent.
		if isVowelLetter(w[i]) && i+2 == len(w)-1 && w[len(w)-1] == 'e' && !isVowelLetter(w[i+1]) {
			b.WriteString(longVowel[w[i]])
			b.WriteString(ltsRules[string(w[i+1])])
			break
		}
		if w[i] == 'e' && i == len(w)-1 && i > 0 {
			break
		}
		matched := false
		for n := 4; n >= 1; n-- {
			if i+n > len(w) {
				continue
			}
			if ps, ok := ltsRules[w[i:i+n]]; ok {
				if n == 1 && w[i] == 'y' && i > 0 {
					ps = "i"
				}
				if n == 1 && w[i] == 'c' && i+1 < len(w) && strings.IndexByte("eiy", w[i+1]) >= 0 {
					ps = "s"
				}
				if n == 1 && w[i] == 'g' && i+1 < len(w) && strings.IndexByte("ei", w[i+1]) >= 0 && i > 0 {
					ps = "ʤ"
				}
				b.WriteString(ps)
				i += n
				matched = true
				break
			}
		}
		if !matched {
			i++
		}
	}
	return b.String()
}
