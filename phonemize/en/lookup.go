package en

import (
	"regexp"
	"strings"
	"unicode"
)

// tri is a three-valued flag: unknown, false or true.
type tri int8

const (
	triUnknown tri = iota
	triFalse
	triTrue
)

// wordCtx is what the word to the right tells the word being read: whether it starts with a
// vowel sound (for the/a/to/in/am) and whether it is "to" (for "used to").
type wordCtx struct {
	futureVowel tri
	futureTo    bool
}

// Ratings mirror the reference's confidence levels; only "found or not" matters here.
const (
	rateFallback = 1
	rateSilver   = 3
	rateGold     = 4
)

var addSymbols = map[string]string{".": "dot", "/": "slash"}
var symbolWords = map[string]string{"%": "percent", "&": "and", "+": "plus", "@": "at"}

var vsRe = regexp.MustCompile(`(?i)^vs\.?$`)

func isLexiconRune(r rune) bool {
	return r == '\'' || r == '-' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z')
}

func allLexiconRunes(s string) bool {
	for _, r := range s {
		if !isLexiconRune(r) {
			return false
		}
	}
	return true
}

// isAlpha mirrors Python's str.isalpha: non-empty and letters only.
func isAlpha(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

func parentTag(tag string) string {
	switch {
	case strings.HasPrefix(tag, "VB"):
		return "VERB"
	case strings.HasPrefix(tag, "NN"):
		return "NOUN"
	case strings.HasPrefix(tag, "ADV"), strings.HasPrefix(tag, "RB"):
		return "ADV"
	case strings.HasPrefix(tag, "ADJ"), strings.HasPrefix(tag, "JJ"):
		return "ADJ"
	}
	return tag
}

// spellNNP spells a word letter by letter from the gold letter names, with primary stress on
// the last letter.
func (lx *lexicon) spellNNP(word string) (string, int) {
	var b strings.Builder
	for _, r := range word {
		if !unicode.IsLetter(r) {
			continue
		}
		e, ok := lx.gold[strings.ToUpper(string(r))]
		if !ok || e.pos != nil {
			return "", 0
		}
		b.WriteString(e.ps)
	}
	ps := applyStress(b.String(), stressOf(0))
	if i := strings.LastIndex(ps, "ˌ"); i >= 0 {
		ps = ps[:i] + "ˈ" + ps[i+len("ˌ"):]
	}
	return ps, rateSilver
}

func (lx *lexicon) goldPlain(w string) string { return lx.gold[w].ps }

func (lx *lexicon) goldPOS(w, tag string) string {
	e := lx.gold[w]
	if p, ok := e.pos[tag]; ok {
		return p.ps
	}
	return e.ps
}

func (lx *lexicon) specialCase(word, tag string, s stress, ctx wordCtx) (string, int) {
	if tag == "ADD" {
		if w, ok := addSymbols[word]; ok {
			return lx.lookup(w, "", stressOf(-0.5), &ctx)
		}
	}
	if w, ok := symbolWords[word]; ok {
		return lx.lookup(w, "", noStress, &ctx)
	}
	if trimmed := strings.Trim(word, "."); strings.Contains(trimmed, ".") && isAlpha(strings.ReplaceAll(word, ".", "")) {
		longest := 0
		for _, part := range strings.Split(word, ".") {
			longest = max(longest, len([]rune(part)))
		}
		if longest < 3 {
			return lx.spellNNP(word)
		}
	}
	switch word {
	case "a", "A":
		if tag == "DT" {
			return "ɐ", rateGold
		}
		return "ˈA", rateGold
	case "am", "Am", "AM":
		if strings.HasPrefix(tag, "NN") {
			return lx.spellNNP(word)
		}
		if ctx.futureVowel == triUnknown || word != "am" || (s.set && s.v > 0) {
			return lx.goldPlain("am"), rateGold
		}
		return "ɐm", rateGold
	case "an", "An", "AN":
		if word == "AN" && strings.HasPrefix(tag, "NN") {
			return lx.spellNNP(word)
		}
		return "ɐn", rateGold
	}
	if word == "I" && tag == "PRP" {
		return "ˌI", rateGold
	}
	if (word == "by" || word == "By" || word == "BY") && parentTag(tag) == "ADV" {
		return "bˈI", rateGold
	}
	if word == "to" || word == "To" || (word == "TO" && (tag == "TO" || tag == "IN")) {
		switch ctx.futureVowel {
		case triUnknown:
			return lx.goldPlain("to"), rateGold
		case triFalse:
			return "tə", rateGold
		default:
			return "tʊ", rateGold
		}
	}
	if word == "in" || word == "In" || (word == "IN" && tag != "NNP") {
		if ctx.futureVowel == triUnknown || tag != "IN" {
			return "ˈɪn", rateGold
		}
		return "ɪn", rateGold
	}
	if word == "the" || word == "The" || (word == "THE" && tag == "DT") {
		if ctx.futureVowel == triTrue {
			return "ði", rateGold
		}
		return "ðə", rateGold
	}
	if tag == "IN" && vsRe.MatchString(word) {
		return lx.lookup("versus", "", noStress, &ctx)
	}
	if word == "used" || word == "Used" || word == "USED" {
		if (tag == "VBD" || tag == "JJ") && ctx.futureTo {
			return lx.goldPOS("used", "VBD"), rateGold
		}
		return lx.goldPOS("used", "DEFAULT"), rateGold
	}
	return "", 0
}

func (lx *lexicon) isKnown(word string) bool {
	if lx.has(word) {
		return true
	}
	if _, ok := symbolWords[word]; ok {
		return true
	}
	if !isAlpha(word) || !allLexiconRunes(word) {
		return false
	}
	if len(word) == 1 {
		return true
	}
	if word == strings.ToUpper(word) {
		if _, ok := lx.gold[strings.ToLower(word)]; ok {
			return true
		}
	}
	return word[1:] == strings.ToUpper(word[1:])
}

// lookup reads a known word from gold, then silver, choosing the POS-dependent variant.
func (lx *lexicon) lookup(word, tag string, s stress, ctx *wordCtx) (string, int) {
	isNNP := false
	if word == strings.ToUpper(word) {
		if _, ok := lx.gold[word]; !ok {
			word = strings.ToLower(word)
			isNNP = tag == "NNP"
		}
	}
	e, ok := lx.gold[word]
	rating := rateGold
	if !ok && !isNNP {
		e, ok = lx.silver[word]
		rating = rateSilver
	}
	ps, found := "", ok
	if ok {
		if e.pos == nil {
			ps = e.ps
		} else {
			t := tag
			if _, hasNone := e.pos["None"]; ctx != nil && ctx.futureVowel == triUnknown && hasNone {
				t = "None"
			} else if _, ok := e.pos[t]; !ok {
				t = parentTag(t)
			}
			p, ok := e.pos[t]
			if !ok {
				p = e.pos["DEFAULT"]
			}
			ps, found = p.ps, !p.absent
		}
	}
	if !found || (isNNP && !strings.ContainsRune(ps, primary)) {
		if nps, r := lx.spellNNP(word); nps != "" {
			return nps, r
		}
		if !found {
			return "", 0
		}
	}
	return applyStress(ps, s), rating
}

func (lx *lexicon) suffixS(stem string) string {
	if stem == "" {
		return ""
	}
	last := lastRune(stem)
	switch {
	case strings.ContainsRune("ptkfθ", last):
		return stem + "s"
	case strings.ContainsRune("szʃʒʧʤ", last):
		if lx.british {
			return stem + "ɪz"
		}
		return stem + "ᵻz"
	}
	return stem + "z"
}

func (lx *lexicon) stemS(word, tag string, s stress, ctx *wordCtx) (string, int) {
	if len(word) < 3 || !strings.HasSuffix(word, "s") {
		return "", 0
	}
	var stem string
	switch {
	case !strings.HasSuffix(word, "ss") && lx.isKnown(word[:len(word)-1]):
		stem = word[:len(word)-1]
	case (strings.HasSuffix(word, "'s") || (len(word) > 4 && strings.HasSuffix(word, "es") && !strings.HasSuffix(word, "ies"))) && lx.isKnown(word[:len(word)-2]):
		stem = word[:len(word)-2]
	case len(word) > 4 && strings.HasSuffix(word, "ies") && lx.isKnown(word[:len(word)-3]+"y"):
		stem = word[:len(word)-3] + "y"
	default:
		return "", 0
	}
	ps, r := lx.lookup(stem, tag, s, ctx)
	if ps == "" {
		return "", 0
	}
	return lx.suffixS(ps), r
}

func (lx *lexicon) suffixED(stem string) string {
	if stem == "" {
		return ""
	}
	rs := []rune(stem)
	last := rs[len(rs)-1]
	switch {
	case strings.ContainsRune("pkfθʃsʧ", last):
		return stem + "t"
	case last == 'd':
		if lx.british {
			return stem + "ɪd"
		}
		return stem + "ᵻd"
	case last != 't':
		return stem + "d"
	case lx.british || len(rs) < 2:
		return stem + "ɪd"
	case strings.ContainsRune(usTaus, rs[len(rs)-2]):
		return string(rs[:len(rs)-1]) + "ɾᵻd"
	}
	return stem + "ᵻd"
}

// usTaus are the sounds after which an American t flaps before a vowel.
const usTaus = "AIOWYiuæɑəɛɪɹʊʌ"

func (lx *lexicon) stemED(word, tag string, s stress, ctx *wordCtx) (string, int) {
	if len(word) < 4 || !strings.HasSuffix(word, "d") {
		return "", 0
	}
	var stem string
	switch {
	case !strings.HasSuffix(word, "dd") && lx.isKnown(word[:len(word)-1]):
		stem = word[:len(word)-1]
	case len(word) > 4 && strings.HasSuffix(word, "ed") && !strings.HasSuffix(word, "eed") && lx.isKnown(word[:len(word)-2]):
		stem = word[:len(word)-2]
	default:
		return "", 0
	}
	ps, r := lx.lookup(stem, tag, s, ctx)
	if ps == "" {
		return "", 0
	}
	return lx.suffixED(ps), r
}

func (lx *lexicon) suffixING(stem string) string {
	if stem == "" {
		return ""
	}
	rs := []rune(stem)
	last := rs[len(rs)-1]
	if lx.british {
		if last == 'ə' || last == 'ː' {
			return ""
		}
	} else if len(rs) > 1 && last == 't' && strings.ContainsRune(usTaus, rs[len(rs)-2]) {
		return string(rs[:len(rs)-1]) + "ɾɪŋ"
	}
	return stem + "ɪŋ"
}

var doubledING = regexp.MustCompile(`(bbing|cking|dding|gging|kking|lling|mming|nning|pping|rring|ssing|tting|vving|xxing|zzing)$`)

func (lx *lexicon) stemING(word, tag string, s stress, ctx *wordCtx) (string, int) {
	if len(word) < 5 || !strings.HasSuffix(word, "ing") {
		return "", 0
	}
	base := word[:len(word)-3]
	var stem string
	switch {
	case len(word) > 5 && lx.isKnown(base):
		stem = base
	case lx.isKnown(base + "e"):
		stem = base + "e"
	case len(word) > 5 && doubledING.MatchString(word) && lx.isKnown(word[:len(word)-4]):
		stem = word[:len(word)-4]
	default:
		return "", 0
	}
	ps, r := lx.lookup(stem, tag, s, ctx)
	if ps == "" {
		return "", 0
	}
	if ps = lx.suffixING(ps); ps == "" {
		return "", 0
	}
	return ps, r
}

// getWord resolves one word through special cases, the lexicons, case fallbacks,
// possessives and -s/-ed/-ing morphology. It returns "" when the word is unknown.
func (lx *lexicon) getWord(word, tag string, s stress, ctx wordCtx) (string, int) {
	if ps, r := lx.specialCase(word, tag, s, ctx); ps != "" || r != 0 {
		return ps, r
	}
	wl := strings.ToLower(word)
	if len(word) > 1 && isAlpha(strings.ReplaceAll(word, "'", "")) && word != wl &&
		(tag != "NNP" || len([]rune(word)) > 7) && !lx.has(word) &&
		(word == strings.ToUpper(word) || word[1:] == strings.ToLower(word[1:])) {
		if lx.has(wl) {
			word = wl
		} else if ps, _ := lx.stemS(wl, tag, s, &ctx); ps != "" {
			word = wl
		} else if ps, _ := lx.stemED(wl, tag, s, &ctx); ps != "" {
			word = wl
		} else if ps, _ := lx.stemING(wl, tag, s, &ctx); ps != "" {
			word = wl
		}
	}
	switch {
	case lx.isKnown(word):
		return lx.lookup(word, tag, s, &ctx)
	case strings.HasSuffix(word, "s'") && lx.isKnown(word[:len(word)-2]+"'s"):
		return lx.lookup(word[:len(word)-2]+"'s", tag, s, &ctx)
	case strings.HasSuffix(word, "'") && lx.isKnown(word[:len(word)-1]):
		return lx.lookup(word[:len(word)-1], tag, s, &ctx)
	}
	if ps, r := lx.stemS(word, tag, s, &ctx); ps != "" {
		return ps, r
	}
	if ps, r := lx.stemED(word, tag, s, &ctx); ps != "" {
		return ps, r
	}
	is := s
	if !is.set {
		is = stressOf(0.5)
	}
	if ps, r := lx.stemING(word, tag, is, &ctx); ps != "" {
		return ps, r
	}
	return "", 0
}

func lastRune(s string) rune {
	rs := []rune(s)
	if len(rs) == 0 {
		return 0
	}
	return rs[len(rs)-1]
}
