package en

import (
	"strconv"
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

// phonemize reads text the way the espeak-ng path does: punctuation marks are kept where they
// are and the pieces between them are read separately.
func (l *letterToSound) phonemize(text string) (string, bool) {
	var b strings.Builder
	last := 0
	any := false
	marks := espeakMarks.FindAllStringIndex(text, -1)
	piece := func(seg string) {
		if ps := l.piece(seg, len(marks) > 0); ps != "" {
			b.WriteString(ps)
			any = true
		}
	}
	for _, m := range marks {
		piece(text[last:m[0]])
		b.WriteString(text[m[0]:m[1]])
		last = m[1]
	}
	piece(text[last:])
	if !any {
		if marks := strings.TrimSpace(b.String()); marks != "" {
			return marks, true // marks alone stay as written, as espeak-ng's call keeps them
		}
		return "", false
	}
	return strings.TrimSpace(b.String()), true
}

// piece reads the text between two punctuation marks (clause: there are marks, so the piece
// is a clause of its own to espeak-ng). Words joined by hyphens are read
// together, as espeak-ng reads them (dict-like: dˈɪktlˈIk); words written together in mixed
// case are read apart (mboxMessage: mbox Message, SSLObject: SSL Object).
func (l *letterToSound) piece(text string, clause bool) string {
	if clause {
		// A weak word alone between marks keeps espeak-ng's own reading, which has no primary
		// stress (said—"you: ju, with—"no: wɪð); the rule below would give it one.
		if e, ok := espeakAlone[strings.ToLower(strings.TrimSpace(text))]; ok {
			if l.british {
				return e[1]
			}
			return e[0]
		}
	}
	var words []string
	for _, tok := range strings.Fields(foldAccents(text)) {
		var joined []string
		for _, part := range strings.Split(tok, "-") {
			var ws []string
			for _, run := range splitAlnum(part) {
				for _, w := range splitCase(run) {
					if ps := l.word(w); ps != "" {
						ws = append(ws, ps)
					}
				}
			}
			if len(ws) > 0 {
				joined = append(joined, strings.Join(ws, " "))
			}
		}
		if len(joined) > 0 {
			words = append(words, strings.Join(joined, ""))
		}
	}
	ps := strings.Join(words, " ")
	if clause && !strings.ContainsRune(ps, primary) {
		// espeak-ng gives every clause a primary stress, and the reference hands it each piece
		// between punctuation marks alone: up!—close reads ˈʌp, not the lexicon's weak ˌʌp.
		if i := strings.LastIndex(ps, string(secondary)); i >= 0 {
			ps = ps[:i] + string(primary) + ps[i+len(string(secondary)):]
		} else if _, abbrev := espeakAbbrevs[strings.ToLower(strings.TrimSpace(text))]; len(words) == 1 && !abbrev {
			// (an abbreviation espeak-ng expands stays weak: St. reads sənt.)
			ps = applyStress(ps, stressOf(2))
		}
	}
	return ps
}

// splitCase splits a run of letters where a lower-case letter meets a capital (mboxMessage)
// and where a run of capitals meets a capitalised word (SSLObject); McX stays whole.
func splitCase(w string) []string {
	var out []string
	start := 0
	for i := 1; i < len(w); i++ {
		lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
		upper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
		cut := lower(w[i-1]) && upper(w[i]) && !(w[start:i] == "Mc" || w[start:i] == "Mac" || w[start:i] == "O")
		cut = cut || upper(w[i-1]) && upper(w[i]) && i+1 < len(w) && lower(w[i+1]) && i-start >= 2
		if cut {
			out = append(out, w[start:i])
			start = i
		}
	}
	return append(out, w[start:])
}

// known looks a word up only when a lexicon has it (lookup itself would spell unknown words).
func (l *letterToSound) known(w string) string {
	for _, c := range []string{w, strings.ToLower(w)} {
		if l.lx.has(c) {
			if ps, _ := l.lx.lookup(c, "", noStress, nil); ps != "" {
				if n := len(c); n > 3 && strings.HasSuffix(c, "le") && !isVowelLetter(c[n-3]) && strings.HasSuffix(ps, "əl") {
					ps = strings.TrimSuffix(ps, "əl") + "ᵊl" // handle: espeak-ng's syllabic l
				}
				if (strings.HasSuffix(c, "it") || strings.HasSuffix(c, "et")) && strings.HasSuffix(ps, "ət") {
					ps = strings.TrimSuffix(ps, "ət") + "ɪt" // edit, widget: espeak-ng's ɪ
				}
				if l.british {
					ps = gbAsEspeak.Replace(ps)
					if lc := strings.ToLower(c); !strings.Contains(lc, "al") && !strings.ContainsAny(lc, "'’") {
						ps = gbBath.ReplaceAllString(ps, "a$1") // master: mˈastə
					}
				}
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
		return l.symbolWord(name)
	}
	if w[0] >= '0' && w[0] <= '9' {
		return l.digitWord(w)
	}
	w = strings.Trim(w, "'")
	if w == "" {
		return ""
	}
	if ps := l.known(w); ps != "" {
		return ps
	}
	lw := strings.ToLower(w)
	if ps, ok := l.listed(lw); ok {
		return ps
	}
	if len(w) <= 4 && w == strings.ToUpper(w) || !strings.ContainsAny(lw, "aeiouy") {
		// Short capitals, and words with no vowel letter (pct, mln), are spelled.
		if ps := l.spell(w); ps != "" {
			return ps
		}
	}
	if v := romanValue(w); v > 0 {
		// espeak-ng reads a lower-case Roman numeral of i, v and x as one: vi, xvi.
		roman := "ɹˌOmən"
		if l.british {
			roman = "ɹˌQmən"
		}
		return roman + " " + l.word(strconv.Itoa(v))
	}
	if ps := l.onsetSpelled(w, lw); ps != "" {
		return ps
	}
	ps := demoteClash(l.unknown(lw))
	if l.british && strings.HasSuffix(ps, "iː") && !stressedLast(ps) {
		ps = strings.TrimSuffix(ps, "ː") // happY: an unstressed final i is short
	}
	return ps
}

// symbolWord reads a symbol by the words of its name.
func (l *letterToSound) symbolWord(name string) string {
	var parts []string
	for _, x := range strings.Fields(name) {
		parts = append(parts, l.known(x))
	}
	return strings.Join(parts, " ")
}

// digitWord reads a run of digits: digit by digit when it starts with 0 or is longer than
// four digits, else as a number without its "and"s.
func (l *letterToSound) digitWord(w string) string {
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
		if ps := l.numberWord(x); ps != "" {
			parts = append(parts, ps)
		}
	}
	return strings.Join(parts, " ")
}

// listed is espeak-ng's reading of a lower-case word from its lists: abbreviations, words it
// expands, and words it reads otherwise than its rules.
func (l *letterToSound) listed(lw string) (string, bool) {
	if ps, ok := espeakAbbrevs[lw]; ok {
		return ps, true
	}
	if ps, ok := espeakExpansions[lw]; ok {
		if l.british {
			return ps[1], true
		}
		return ps[0], true
	}
	ps, ok := espeakWords[lw]
	return ps, ok
}

// onsetSpelled spells the letters no English word begins with and reads the rest as a word, as
// espeak-ng does (gzip: ʤˈi zˈɪp written together, dhclient, xcenter); a rest of two letters or
// fewer is spelled too (tty, rpy). "" for a word the pronunciation dictionary has, or one
// whose onset is English.
func (l *letterToSound) onsetSpelled(w, lw string) string {
	n := spelledOnset(lw)
	if n <= 0 || l.cmu.lookup(lw, l.british) != "" {
		return ""
	}
	if len(lw)-n <= 2 {
		return l.spell(w)
	}
	if sp := l.spell(w[:n]); sp != "" {
		if rest := l.word(w[n:]); rest != "" {
			return sp + rest
		}
	}
	return ""
}

// romanValue is the value of a lower-case Roman numeral of two or more of the letters i, v
// and x written the usual way (ii, iv, xvi, xxxix), or 0.
func romanValue(w string) int {
	if len(w) < 2 || strings.Trim(w, "ivx") != "" {
		return 0
	}
	val := map[byte]int{'i': 1, 'v': 5, 'x': 10}
	v := 0
	for i := 0; i < len(w); i++ {
		if i+1 < len(w) && val[w[i]] < val[w[i+1]] {
			v -= val[w[i]]
		} else {
			v += val[w[i]]
		}
	}
	if v <= 0 || v >= 40 {
		return 0
	}
	canon := strings.Repeat("x", v/10) + []string{"", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"}[v%10]
	if canon != w {
		return 0
	}
	return v
}

// spelledOnset is how many leading letters of a lower-case word espeak-ng spells before it
// reads the rest: the consonant letters before the first vowel letter, less the longest
// ending of them that a word may begin with (bdale: b, dhclient: dh, xcenter: x), or 0.
func spelledOnset(lw string) int {
	i := strings.IndexAny(lw, "aeiouy")
	if i < 0 {
		i = len(lw)
	}
	if i < 2 || lw[0] == 'y' || strings.IndexFunc(lw[:i], func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return 0
	}
	for k := 0; k < i; k++ {
		if i-k == 1 && lw[k] != 'x' || onsets[lw[k:i]] {
			return k
		}
	}
	return i
}

// stressedLast tells whether the last syllable of ps carries a stress mark.
func stressedLast(ps string) bool {
	rs := []rune(ps)
	i := len(rs) - 1
	for i >= 0 && (isVowel(rs[i]) || rs[i] == 'ː') {
		i-- // the last nucleus
	}
	for ; i >= 0 && !isVowel(rs[i]); i-- {
		if rs[i] == primary || rs[i] == secondary {
			return true
		}
	}
	return false
}

// unknown reads a lower-case word no lexicon has: the pronunciation dictionary, a known stem
// with a suffix, a compound of known words, or else the spelling rules.
func (l *letterToSound) unknown(lw string) string {
	if ps := l.cmu.lookup(lw, l.british); ps != "" {
		return ps
	}
	if ps := l.derived(lw); ps != "" {
		return ps
	}
	if ps := l.prefixed(lw); ps != "" {
		return ps
	}
	if ps := l.compound(lw); ps != "" {
		return ps
	}
	// An inner apostrophe is silent (Stubb's reads as Stubbs, whose s is voiced after the b).
	ps := spellRules(strings.NewReplacer("'", "", "’", "").Replace(lw), l.british)
	if l.british {
		ps = britishRules(ps)
	}
	return applyStress(ps, stressOf(2))
}

// numberWord reads a number word as espeak-ng reads the digits.
func (l *letterToSound) numberWord(x string) string {
	if ps, ok := numberWords[x]; ok {
		if l.british {
			return ps[1]
		}
		return ps[0]
	}
	return l.known(x)
}

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
			if rs[i] == 'ɜ' {
				b.WriteString("ɜː") // squirrel: skwˈɜːɹɪl
				continue
			}
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
	if ps := l.inflected(w); ps != "" {
		return ps
	}
	if ps := l.ization(w); ps != "" {
		return ps
	}
	return l.suffixed(w)
}

// stemFor is the reading of the first of stems that is a known word, when w ends in suffix; ""
// otherwise.
func (l *letterToSound) stemFor(w, suffix string, stems ...string) string {
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

// cutEnd is w without its last n letters.
func cutEnd(w string, n int) string { return w[:max(len(w)-n, 0)] }

// inflected reads w as a known word with -'s, -s, -es, -ed or -ing.
func (l *letterToSound) inflected(w string) string {
	lx := l.lx
	if ps := l.stemFor(w, "'s", cutEnd(w, 2)); ps != "" {
		return lx.suffixS(ps)
	}
	if ps := l.stemFor(w, "ies", cutEnd(w, 3)+"y"); ps != "" {
		return lx.suffixS(ps)
	}
	if ps := l.stemFor(w, "es", cutEnd(w, 2)); ps != "" && strings.ContainsRune("szʃʒʧʤ", lastRune(ps)) {
		return lx.suffixS(ps)
	}
	if ps := l.stemFor(w, "s", cutEnd(w, 1)); ps != "" && !strings.HasSuffix(w, "ss") {
		return lx.suffixS(ps)
	}
	if ps := l.stemFor(w, "ied", cutEnd(w, 3)+"y"); ps != "" {
		return lx.suffixED(ps)
	}
	if ps := l.stemFor(w, "ed", cutEnd(w, 2), cutEnd(w, 1), undouble(cutEnd(w, 2))); ps != "" {
		return lx.suffixED(ps)
	}
	if ps := l.stemFor(w, "ing", cutEnd(w, 3), cutEnd(w, 3)+"e", undouble(cutEnd(w, 3))); ps != "" {
		return lx.suffixING(ps) // "" where -ing does not attach
	}
	return ""
}

// ization reads -isation and -ization on a known -ize stem, which loses its stress to -ation:
// authorization, ˌ…Izˈeɪʃən.
func (l *letterToSound) ization(w string) string {
	for _, suffix := range []string{"isation", "ization", "isations", "izations"} {
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
	return ""
}

// suffixed reads w as a known word with a derivational suffix: -ly, -ness, -less, -ment, -ful,
// -er(s), -able, -est.
func (l *letterToSound) suffixed(w string) string {
	r := "ɹ"
	if l.british {
		r = ""
	}
	for _, d := range []struct{ suffix, ps string }{
		{"ly", "li"}, {"ness", "nəs"}, {"less", "ləs"}, {"ment", "mənt"}, {"ful", "fəl"},
		{"ers", "əɹz"}, {"er", "əɹ"}, {"able", "əbᵊl"}, {"est", "ɪst"},
	} {
		n := len(d.suffix)
		ps := l.stemFor(w, d.suffix, cutEnd(w, n), undouble(cutEnd(w, n)))
		if ps == "" && strings.HasSuffix(d.suffix, "ly") {
			ps = l.stemFor(w, d.suffix, cutEnd(w, 3)+"y") // happily
		}
		if ps != "" {
			return ps + strings.ReplaceAll(d.ps, "ɹ", r)
		}
	}
	return ""
}

// prefixed reads a word as one of the prefixes and a word the lexicons or the pronunciation
// dictionary know, stressed.
func (l *letterToSound) prefixed(w string) string {
	d := 0
	if l.british {
		d = 1
	}
	for _, p := range prefixes {
		rest := strings.TrimPrefix(w, p.spelling)
		if rest == w || len(rest) < 3 {
			continue
		}
		ps := l.base(rest)
		if ps == "" {
			ps = l.derived(rest)
		}
		if ps == "" {
			continue
		}
		return p.ps[d] + applyStress(ps, stressOf(2))
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
		if w[i-1] == w[i] {
			continue // sit|tin: a doubled letter is one sound, not two words' (sittin)
		}
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

// spellRules reads a word by its spelling alone, in American English (britishRules turns the
// result British) but for the sounds the dialects spell apart: -ed after t or d (ᵻd, British
// ɪd) and the yod of a long u (Tukey: tˈuki, British tjˈuːki).
func spellRules(w string, british bool) string {
	magicE := len(w) < 3 || w[len(w)-2] != w[len(w)-3] // bragge: no long a
	w = singleConsonants(w)
	stem, suffix := unstressedEnding(w)
	if suffix == "" {
		stem, suffix = syllabicLe(w)
	}
	if suffix != "" {
		magicE = false // the e is the ending's
	} else {
		stem, suffix = edEnding(w, british)
	}
	return spellStem(stem, magicE, british) + suffix
}

// singleConsonants reads a doubled consonant letter as one sound (yacc, Gnoll); cc before e,
// i or y stays two (accent).
func singleConsonants(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if i > 0 && w[i] == w[i-1] && !isVowelLetter(w[i]) && w[i] != 'y' &&
			!(w[i] == 'c' && i+1 < len(w) && strings.IndexByte("eiy", w[i+1]) >= 0) {
			continue
		}
		b.WriteByte(w[i])
	}
	return b.String()
}

// unstressedEnding cuts off an ending of unstressedEndings after a stem with a vowel: the stem
// and the ending's phonemes, or w and "".
func unstressedEnding(w string) (string, string) {
	for _, x := range unstressedEndings {
		if stem := strings.TrimSuffix(w, x.spelling); stem != w && len(stem) >= 2 && strings.ContainsAny(stem, "aeiouy") {
			return stem, x.ps
		}
	}
	return w, ""
}

// syllabicLe cuts off a consonant's -le (or -les), a syllabic l with the vowel before it short
// as espeak-ng reads it (zaple zˈæpᵊl, drokle dɹˈɑkᵊl): the stem and the ending's phonemes, or
// w and "".
func syllabicLe(w string) (string, string) {
	n := len(w)
	if n < 4 || !strings.HasSuffix(w, "le") && !strings.HasSuffix(w, "les") {
		return w, ""
	}
	end := n - 2
	z := ""
	if w[n-1] == 's' {
		end, z = n-3, "z"
	}
	if c := w[end-1]; end < 3 || isVowelLetter(c) || c == 'y' || c == 'l' || c == 'r' || c == 'h' || c == 'w' {
		return w, ""
	}
	if strings.HasSuffix(w[:end], "ng") {
		return w[:end], "ɡᵊl" + z // the ng rule reads ŋ alone: jangle ʤˈæŋɡᵊl
	}
	return w[:end], "ᵊl" + z
}

// edEnding cuts off -ed after a consonant: ɪd after t or d, t after a voiceless sound, d
// otherwise. The stem and the ending's phonemes, or w and "".
func edEnding(w string, british bool) (string, string) {
	n := len(w)
	if n <= 4 || !strings.HasSuffix(w, "ed") || isVowelLetter(w[n-3]) {
		return w, ""
	}
	switch {
	case w[n-3] == 't' || w[n-3] == 'd':
		if british {
			return w[:n-2], "ɪd"
		}
		return w[:n-2], "ᵻd"
	case strings.IndexByte("pkfsx", w[n-3]) >= 0 || strings.HasSuffix(w, "shed") || strings.HasSuffix(w, "ched"):
		return w[:n-2], "t"
	}
	return w[:n-2], "d"
}

// spellStem reads a stem letter by letter, by the longest rule of ltsRules at each place but
// where the word's end or its first vowel reads otherwise.
func spellStem(w string, magicE, british bool) string {
	var b strings.Builder
	for i := 0; i < len(w); {
		if ps, ok := spellEnd(w, i, magicE); ok {
			b.WriteString(ps)
			break
		}
		if ps, ok := spellOpening(w, i, british); ok {
			b.WriteString(ps)
			i++
			continue
		}
		ps, n := spellRule(w, i)
		b.WriteString(ps)
		i += max(n, 1)
	}
	return b.String()
}

// spellEnd reads the rest of w from i where it is a word's end that reads otherwise than by
// its letters: a final o or i, a vowel with one consonant and a silent e, a final e, -ign.
func spellEnd(w string, i int, magicE bool) (string, bool) {
	n := len(w)
	switch {
	case w[i] == 'o' && i == n-1 && i > 0:
		return "O", true // a final o is long: Woodco, Zermelo
	case w[i] == 'i' && i == n-1 && i > 0 && !isVowelLetter(w[i-1]):
		return "i", true // and a final i is i: Cardelli, utili
	case magicE && isVowelLetter(w[i]) && i+2 == n-1 && w[n-1] == 'e' && !isVowelLetter(w[i+1]):
		return longVowel[w[i]] + ltsRules[string(w[i+1])], true // the vowel long, the e silent
	case w[i] == 'e' && i == n-1 && i > 0:
		return "", true
	case w[i:] == "ign" && i > 0:
		return "In", true // align, xalign
	}
	return "", false
}

// spellOpening reads the letter at i where the word's beginning changes it: the first vowel,
// an open u, is long, with a yod where the dialect has one (UtiliCorp, Tukey); an x before a
// vowel at the start is z (xalign, xenon).
func spellOpening(w string, i int, british bool) (string, bool) {
	switch {
	case w[i] == 'u' && !strings.ContainsAny(w[:i], "aeiouy") && i+2 < len(w) && !isVowelLetter(w[i+1]) &&
		w[i+1] != 'r' && w[i+1] != 'x' && isVowelLetter(w[i+2]):
		if i == 0 || strings.IndexByte("bcfghkmpv", w[i-1]) >= 0 || british && strings.IndexByte("dnst", w[i-1]) >= 0 {
			return "ju", true
		}
		return "u", true
	case i == 0 && w[0] == 'x' && len(w) > 1 && isVowelLetter(w[1]):
		return "z", true
	}
	return "", false
}

// spellRule reads the longest spelling of ltsRules at i: its phonemes and its length, 0 when
// no rule matches the letter there.
func spellRule(w string, i int) (string, int) {
	for n := 4; n >= 1; n-- {
		if i+n > len(w) {
			continue
		}
		ps, ok := ltsRules[w[i:i+n]]
		if !ok || n == 3 && w[i:i+n] == "que" && i+n < len(w) {
			continue // que is k only at the end (antique); Queequeg is kwˈikwɛɡ
		}
		if n == 2 && ps == "əɹ" && !strings.ContainsAny(w[:i], "aeiouy") && i+2 < len(w) &&
			!isVowelLetter(w[i+2]) && w[i+2] != 'y' && w[i+2] != 'r' {
			ps = "ɜɹ" // the first, stressed vowel: perlfunc, Zermelo, xterm
		}
		if n == 1 {
			ps = letterInContext(w, i, ps)
		}
		return ps, n
	}
	return "", 0
}

// letterInContext is the sound of the letter at i, ps by its rule, where the letters around it
// change it.
func letterInContext(w string, i int, ps string) string {
	n := len(w)
	switch c := w[i]; {
	case c == 'n' && i+1 < n && (strings.IndexByte("kqx", w[i+1]) >= 0 ||
		w[i+1] == 'c' && (i+2 == n || strings.IndexByte("eiy", w[i+2]) < 0)):
		return "ŋ" // before a k sound: perlfunc, symlink, unclick
	case c == 'y' && i > 0:
		if i+1 < n && !isVowelLetter(w[i+1]) && !isVowelLetter(w[i-1]) {
			return "ɪ" // system, syslog
		}
		return "i"
	case c == 's' && i == n-1 && i > 0 && strings.IndexByte("bdglmnrvwe", w[i-1]) >= 0:
		return "z" // a final s after a voiced sound
	case c == 'c' && i+1 < n && strings.IndexByte("eiy", w[i+1]) >= 0:
		return "s"
	case c == 'g' && i+1 < n && strings.IndexByte("ei", w[i+1]) >= 0 && i > 0:
		return "ʤ"
	}
	return ps
}

// demoteClash drops a secondary stress that follows the primary with no unstressed syllable
// between them (hostname: hˈQstnAm, Wentworth: wˈɛntwɜːθ), as espeak-ng does to the words it
// reads; a secondary stress further on (macrotape: mˈakɹətˌAp) or before the primary stays.
func demoteClash(ps string) string {
	if !strings.ContainsRune(ps, secondary) || !strings.ContainsRune(ps, primary) {
		return ps
	}
	rs := []rune(ps)
	out := make([]rune, 0, len(rs))
	seenPrimary := false
	prevStressed := false // the last syllable's nucleus carried a stress mark
	mark := rune(0)       // a stress mark waiting for its vowel
	for i, r := range rs {
		switch {
		case r == primary || r == secondary:
			mark = r
			if r == secondary && seenPrimary && prevStressed {
				continue
			}
		case isVowel(r) && (i == 0 || !isVowel(rs[i-1]) && rs[i-1] != 'ː'):
			prevStressed = mark != 0 && !(mark == secondary && seenPrimary && prevStressed)
			if mark == primary {
				seenPrimary = true
			}
			mark = 0
		case r == ' ' || r == '-':
			prevStressed, mark = false, 0
		}
		out = append(out, r)
	}
	return string(out)
}
