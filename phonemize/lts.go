package phonemize

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// letterToSound is the built-in fallback for words no lexicon knows when espeak-ng is not
// available: the CMU Pronouncing Dictionary as a third lexicon tier, then a known stem with an
// inflection or derivation suffix, known pieces of the word where they cover it (compounds),
// letter names for short all-capital words, digits as numbers, and otherwise spelling rules.
type letterToSound struct {
	lx      *lexicon
	british bool
	cmu     cmuDict // nil: no third tier
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
	lw := strings.ToLower(w)
	if len(w) <= 4 && w == strings.ToUpper(w) || !strings.ContainsAny(lw, "aeiouy") {
		// Short capitals, and words with no vowel letter (pct, mln), are spelled.
		if ps := l.spell(w); ps != "" {
			return ps
		}
	}
	if ps := l.cmu.lookup(lw, l.british); ps != "" {
		return ps
	}
	if ps := l.derived(lw); ps != "" {
		return ps
	}
	if ps := l.compound(lw); ps != "" {
		return ps
	}
	ps := spellRules(lw)
	if l.british {
		ps = britishRules(ps)
	}
	return applyStress(ps, stressOf(2))
}

// britishVowels turn the spelling rules' American vowels British: an r that no vowel follows
// is silent and lengthens or colours the vowel before it, and the long vowels are marked.
var britishVowels = strings.NewReplacer("ɑɹ", "ɑː", "ɔɹ", "ɔː", "ɜɹ", "ɜː", "əɹ", "ə", "ɪɹ", "ɪə",
	"ɛɹ", "ɛː", "ʊɹ", "ʊə", "O", "Q", "ɑ", "ɒ", "æ", "a", "i", "iː", "u", "uː")

// britishRules converts the spelling rules' output to British English: the r-coloured vowels
// before a consonant or at the end lose their r (car → kɑː), an r before a vowel stays.
func britishRules(ps string) string {
	rs := []rune(ps)
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		if i+1 < len(rs) && rs[i+1] == 'ɹ' && (i+2 == len(rs) || !isVowel(rs[i+2])) {
			if v := britishVowels.Replace(string(rs[i : i+2])); v != string(rs[i:i+2]) {
				b.WriteString(v)
				i++
				continue
			}
		}
		if i+1 < len(rs) && rs[i+1] == 'ɹ' {
			b.WriteString(britishVowels.Replace(string(rs[i])))
			continue
		}
		if rs[i] == 'ɹ' && (i+1 == len(rs) || !isVowel(rs[i+1])) && i > 0 && isVowel(rs[i-1]) {
			continue
		}
		b.WriteString(britishVowels.Replace(string(rs[i])))
	}
	return b.String()
}

// spell reads a word letter by letter as espeak-ng does: the lexicon's letter names, with an r
// linked to a vowel that follows it (dlrs: …ɑɹɹˈɛs, British …ɑːɹˈɛs).
func (l *letterToSound) spell(w string) string {
	ps, _ := l.lx.spellNNP(w)
	if ps == "" {
		return ""
	}
	rs := []rune(ps)
	var b strings.Builder
	for i, r := range rs {
		b.WriteRune(r)
		if i+2 >= len(rs) || (rs[i+1] != primary && rs[i+1] != secondary) || !isVowel(rs[i+2]) {
			continue
		}
		switch {
		case !l.british && r == 'ɹ' && i > 0 && rs[i-1] == 'ɑ':
			b.WriteRune('ɹ')
		case l.british && r == 'ː' && i > 0 && rs[i-1] == 'ɑ':
			b.WriteRune('ɹ')
		}
	}
	return b.String()
}

// base reads a stem from the lexicons or the pronunciation dictionary.
func (l *letterToSound) base(w string) string {
	if len(w) < 2 {
		return ""
	}
	if ps := l.known(w); ps != "" {
		return ps
	}
	return l.cmu.lookup(w, l.british)
}

// derived reads a word as a known stem plus a suffix: plurals and possessives, -ed, -ing (with
// a restored e or an undoubled consonant), and the common derivations -ly, -er, -ness, -less,
// -ment, -ful, -able.
func (l *letterToSound) derived(w string) string {
	lx := l.lx
	try := func(suffix string, stems ...string) string {
		if !strings.HasSuffix(w, suffix) {
			return ""
		}
		for _, s := range stems {
			if ps := l.base(s); ps != "" {
				return ps
			}
		}
		return ""
	}
	cut := func(n int) string { return w[:max(len(w)-n, 0)] }
	if ps := try("'s", cut(2)); ps != "" {
		return lx.suffixS(ps)
	}
	if ps := try("ies", cut(3)+"y"); ps != "" {
		return lx.suffixS(ps)
	}
	if ps := try("es", cut(2)); ps != "" && strings.ContainsRune("szʃʒʧʤ", lastRune(ps)) {
		return lx.suffixS(ps)
	}
	if ps := try("s", cut(1)); ps != "" && !strings.HasSuffix(w, "ss") {
		return lx.suffixS(ps)
	}
	if ps := try("ied", cut(3)+"y"); ps != "" {
		return lx.suffixED(ps)
	}
	if ps := try("ed", cut(2), cut(1), undouble(cut(2))); ps != "" {
		return lx.suffixED(ps)
	}
	if ps := try("ing", cut(3), cut(3)+"e", undouble(cut(3))); ps != "" {
		if ing := lx.suffixING(ps); ing != "" {
			return ing
		}
	}
	for _, suffix := range []string{"isation", "ization", "isations", "izations"} {
		// The -ize stem loses its stress to -ation: authorization, ˌ…Izˈeɪʃən.
		if !strings.HasSuffix(w, suffix) {
			continue
		}
		stem := l.base(strings.TrimSuffix(w, suffix) + "ize")
		if iz := strings.LastIndex(stem, "Iz"); iz > 0 && iz+len("Iz") == len(stem) {
			z := "əz"
			if l.british {
				z = "Iz"
			}
			stem = strings.TrimRight(stem[:iz], "ˌˈ")
			ps := applyStress(stem, stressOf(-1)) + z + "ˈAʃən"
			if strings.HasSuffix(w, "s") {
				ps += "z"
			}
			return ps
		}
	}
	r := "ɹ"
	if l.british {
		r = ""
	}
	for _, d := range []struct{ suffix, ps string }{
		{"ly", "li"}, {"ness", "nəs"}, {"less", "ləs"}, {"ment", "mənt"}, {"ful", "fəl"},
		{"ers", "əɹz"}, {"er", "əɹ"}, {"able", "əbᵊl"},
	} {
		ps := try(d.suffix, cut(len(d.suffix)), undouble(cut(len(d.suffix))))
		if ps == "" && strings.HasSuffix(d.suffix, "ly") {
			ps = try(d.suffix, cut(3)+"y") // happily
		}
		if ps != "" {
			return ps + strings.ReplaceAll(d.ps, "ɹ", r)
		}
	}
	return ""
}

// undouble drops a doubled final consonant: "stopp" → "stop".
func undouble(s string) string {
	n := len(s)
	if n >= 3 && s[n-1] == s[n-2] && !isVowelLetter(s[n-1]) {
		return s[:n-1]
	}
	return ""
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
