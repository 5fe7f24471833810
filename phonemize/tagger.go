package phonemize

import (
	"strings"
	"unicode"
)

// The tagger assigns Penn Treebank tags with rules: a closed-class word list, punctuation and
// number shapes, suffixes and capitalization, then a contextual pass over the neighbours. The
// pipeline needs tags for punctuation, numbers, proper nouns, the function words with context
// rules, and the lexicon's part-of-speech dependent entries (read, live, wind, close, …), so
// the contextual rules concentrate on telling verbs, nouns and adjectives apart.

var closedClass = map[string]string{}

func init() {
	add := func(tag, words string) {
		for _, w := range strings.Fields(words) {
			closedClass[w] = tag
		}
	}
	add("DT", "the a an this these those every each no some any all another either neither both")
	add("IN", "in on at by for with from of about into over under after before since until during "+
		"without within through between among against toward towards upon across behind beyond "+
		"near like than because although though while if unless whether per via despite around "+
		"throughout along beside besides below above inside outside onto vs. vs v. amid")
	add("TO", "to")
	add("PRP", "i you he she it we they me him us them myself yourself himself herself itself ourselves themselves")
	add("PRP$", "my your his its our their her")
	add("MD", "will would can could shall should may might must ca wo 'll ’ll")
	add("CC", "and or but nor plus")
	add("RB", "not n't n’t very also just too so then now here there never always often still already soon "+
		"again ever quite rather almost perhaps maybe really only even later today tomorrow yesterday "+
		"away back once twice instead honestly else")
	add("RP", "up out off down")
	add("WDT", "which whatever")
	add("WP", "who whom what whoever")
	add("WRB", "when where why how")
	add("EX", "")
	add("VBZ", "is has does 's ’s")
	add("VBP", "are am 're ’re 've ’ve 'm ’m do have")
	add("VBD", "was were did had 'd ’d said")
	add("VB", "be")
	add("VBN", "been")
	add("VBG", "being")
	add("UH", "oh hello hi yes wow hey okay ok please thanks hmm cheers")
	add("JJ", "good new old great big small little high low long short young other same own sure ready many much few several")
	add("JJS", "most least")
	add("JJR", "more less")
	add("FW", "etc. etc")
	add("CD", "hundred thousand million billion trillion zero one two three four five six seven eight "+
		"nine ten eleven twelve twenty thirty forty fifty sixty seventy eighty ninety dozen")
}

var beForms = map[string]bool{"is": true, "are": true, "was": true, "were": true, "be": true, "been": true,
	"being": true, "am": true, "'m": true, "'re": true, "’m": true, "’re": true}
var haveForms = map[string]bool{"have": true, "has": true, "had": true, "'ve": true, "’ve": true}
var auxForms = map[string]bool{"do": true, "does": true, "did": true, "have": true, "has": true, "had": true,
	"will": true, "would": true, "can": true, "could": true, "should": true, "shall": true, "may": true,
	"might": true, "must": true, "is": true, "are": true, "was": true, "were": true}
var degreeAdverbs = map[string]bool{"too": true, "so": true, "very": true, "quite": true, "rather": true,
	"more": true, "most": true, "less": true, "least": true, "really": true, "pretty": true}
var subjectPronouns = map[string]bool{"i": true, "you": true, "he": true, "she": true, "we": true, "they": true, "it": true}
var objectPronouns = map[string]bool{"me": true, "him": true, "us": true, "them": true, "her": true, "it": true, "you": true}

// irregularPast lists past forms that the suffix rules cannot see.
var irregularPast = map[string]bool{"read": true, "wound": true, "dove": true, "led": true, "left": true,
	"made": true, "went": true, "came": true, "saw": true, "took": true, "got": true, "gave": true,
	"found": true, "thought": true, "told": true, "became": true, "felt": true, "kept": true, "held": true,
	"brought": true, "began": true, "ran": true, "wrote": true, "stood": true, "heard": true, "met": true,
	"paid": true, "sat": true, "spoke": true, "lay": true, "grew": true, "knew": true, "won": true,
	"lost": true, "sold": true, "built": true, "sent": true, "fell": true, "drove": true, "rose": true,
	"shook": true, "struck": true, "tore": true, "wore": true, "bore": true, "swore": true, "ate": true}

// ingStem reports whether a word in -ing is a verb form: its stem is a word (walk-ing,
// mak(e)-ing, run(n)-ing), which "bring", "thing" or "morning" are not.
func (tg tagger) ingStem(lw string) bool {
	stem := strings.TrimSuffix(lw, "ing")
	if len(stem) < 2 {
		return false
	}
	if tg.lx.has(stem) || tg.lx.has(stem+"e") {
		return true
	}
	n := len(stem)
	return n >= 3 && stem[n-1] == stem[n-2] && tg.lx.has(stem[:n-1])
}

func (tg tagger) hasPOSEntry(w string) bool {
	e, ok := tg.lx.gold[strings.ToLower(w)]
	return ok && e.pos != nil
}

var quantifiers = map[string]bool{"most": true, "more": true, "many": true, "much": true, "few": true, "several": true}

var causativeVerbs = map[string]bool{"let": true, "make": true, "made": true, "help": true, "helped": true,
	"watch": true, "watched": true, "see": true, "saw": true, "have": true, "had": true, "makes": true, "lets": true}

// tagger carries what the rules need to know about words.
type tagger struct {
	lx *lexicon
}

func (tg tagger) hasVerbReading(w string) bool {
	e, ok := tg.lx.gold[strings.ToLower(w)]
	if !ok || e.pos == nil {
		return false
	}
	for k := range e.pos {
		if k == "VERB" || strings.HasPrefix(k, "VB") {
			return true
		}
	}
	return false
}

func isPunctTag(tag string) bool {
	switch tag {
	case ".", ",", ":", "``", "''", "-LRB-", "-RRB-", "HYPH", "NFP", "$", "#":
		return true
	}
	return false
}

func isNounTag(tag string) bool { return strings.HasPrefix(tag, "NN") }

// tagTokens fills in tok.tag for every token.
func (tg tagger) tagTokens(ts []*token) {
	sentenceStart := true
	openQuote := false
	starts := make([]bool, len(ts))
	for i, t := range ts {
		starts[i] = sentenceStart
		t.tag = tg.lexical(ts, i, sentenceStart, &openQuote)
		switch t.tag {
		case ".", ":", "``":
			sentenceStart = true
		case "''", "-LRB-", "-RRB-":
		default:
			sentenceStart = false
		}
	}
	// seen: a verb already appeared in the current clause.
	seen := false
	for i, t := range ts {
		if i > 0 && (isPunctTag(ts[i-1].tag) && ts[i-1].tag != "HYPH" || ts[i-1].tag == "CC") {
			seen = false
		}
		tg.context(ts, i, starts, seen)
		if strings.HasPrefix(t.tag, "VB") && t.tag != "VBG" || t.tag == "MD" {
			seen = true
		}
	}
	for i, t := range ts {
		if t.tag == "TO" {
			if next := at(ts, i+1); next == nil || !strings.HasPrefix(next.tag, "VB") {
				t.tag = "IN"
			}
		}
	}
}

func at(ts []*token, i int) *token {
	if i < 0 || i >= len(ts) {
		return nil
	}
	return ts[i]
}

func lower(t *token) string {
	if t == nil {
		return ""
	}
	return strings.ToLower(t.text)
}

// context retags token i from its neighbours; verbSeen says whether its clause already has a verb.
func (tg tagger) context(ts []*token, i int, starts []bool, verbSeen bool) {
	t := ts[i]
	{
		if _, closed := closedClass[lower(t)]; closed && lower(t) != "that" && lower(t) != "her" && lower(t) != "in" && lower(t) != "by" {
			return
		}
		if isPunctTag(t.tag) || t.tag == "CD" || t.tag == "ADD" || t.tag == "NNP" || t.tag == "POS" {
			return
		}
		prev, next := at(ts, i-1), at(ts, i+1)
		pl, nl := lower(prev), lower(next)
		lw := lower(t)
		switch lw {
		case "that":
			switch {
			case next == nil || isPunctTag(next.tag) || strings.HasPrefix(next.tag, "VB") || next.tag == "MD":
				t.tag = "DT"
			case next.tag == "NN":
				t.tag = "DT" // "that record": a determiner before a singular noun
			case isNounTag(next.tag) && (prev == nil || !strings.HasPrefix(prev.tag, "VB") && !isNounTag(prev.tag) && prev.tag != "JJ" && prev.tag != "RB"):
				t.tag = "DT"
			case prev != nil && (prev.tag == "IN" || prev.tag == "TO"):
				t.tag = "DT"
			default:
				t.tag = "IN"
			}
			return
		case "her":
			if next == nil || isPunctTag(next.tag) || next.tag == "IN" || next.tag == "TO" || next.tag == "RB" || next.tag == "CC" {
				t.tag = "PRP"
			}
			return
		case "in", "by":
			if next == nil || isPunctTag(next.tag) || next.tag == "CC" {
				t.tag = "RB"
			}
			return
		}
		// A POS-dependent entry keyed only by NOUN (estimate, produce) has its verb reading
		// as the default, so any such entry can be a verb.
		canVerb := tg.hasVerbReading(lw) || tg.hasPOSEntry(lw) || strings.HasPrefix(t.tag, "VB")
		lexJJ := t.tag == "JJ"
		switch {
		case prev != nil && (prev.tag == "TO" || prev.tag == "MD"):
			t.tag = "VB"
		case prev != nil && (pl == "n't" || pl == "n’t" || pl == "not") && i >= 2 && auxForms[lower(at(ts, i-2))]:
			switch aux := lower(at(ts, i-2)); {
			case haveForms[aux]:
				t.tag = "VBN"
			case beForms[aux] && strings.HasSuffix(lw, "ing"):
				t.tag = "VBG"
			case beForms[aux] && (strings.HasSuffix(lw, "ed") || irregularPast[lw]):
				t.tag = "VBN"
			case beForms[aux]:
				t.tag = "JJ"
			default:
				t.tag = "VB"
			}
		case pl == "please":
			t.tag = "VB"
		case starts[i] && (canVerb || tg.hasPOSEntry(lw)) && next != nil && (next.tag == "DT" || next.tag == "PRP$" || objectPronouns[nl]):
			t.tag = "VB"
		case prev != nil && objectPronouns[pl] && i >= 2 && causativeVerbs[lower(at(ts, i-2))] && (canVerb || tg.hasPOSEntry(lw)):
			t.tag = "VB"
		case prev != nil && haveForms[pl] && !(next != nil && isNounTag(next.tag) && !canVerb):
			if objectPronouns[nl] && starts[i-1] {
				break
			}
			t.tag = "VBN"
		case prev != nil && subjectPronouns[pl] && i >= 2 && auxForms[lower(at(ts, i-2))] && (starts[i-2] || at(ts, i-2).tag == "WRB"):
			// Inverted question: "Have you read …", "Did they record …".
			t.tag = "VB"
		case prev != nil && beForms[pl]:
			switch {
			case strings.HasSuffix(lw, "ing"):
				t.tag = "VBG"
			case strings.HasSuffix(lw, "ed") || irregularPast[lw]:
				t.tag = "VBN"
			case !isNounTag(t.tag) || canVerb || tg.hasPOSEntry(lw):
				t.tag = "JJ"
			}
		case prev != nil && degreeAdverbs[pl]:
			t.tag = "JJ"
		case prev != nil && (subjectPronouns[pl] && pl != "it" || pl == "it" && canVerb):
			switch {
			case strings.HasSuffix(lw, "ed") || irregularPast[lw]:
				t.tag = "VBD"
			case strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss"):
				t.tag = "VBZ"
			default:
				t.tag = "VBP"
			}
		case prev != nil && (prev.tag == "DT" || prev.tag == "PRP$" || prev.tag == "POS"):
			if lexJJ {
				t.tag = "JJ"
			} else if strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss") {
				t.tag = "NNS"
			} else {
				t.tag = "NN"
			}
		case !verbSeen && prev != nil && prev.tag == "NN" && t.tag == "NNS" && tg.lx.has(strings.TrimSuffix(lw, "s")):
			t.tag = "VBZ"
		case !verbSeen && canVerb && prev != nil && isNounTag(prev.tag) && next != nil && (next.tag == "IN" || next.tag == "DT" || next.tag == "RB" || next.tag == "PRP" || next.tag == "PRP$" || next.tag == "JJS" || quantifiers[nl]):
			if prev.tag == "NNS" || prev.tag == "NNPS" {
				t.tag = "VBP"
			} else {
				t.tag = "VBD"
			}
		case canVerb && prev != nil && strings.HasPrefix(prev.tag, "VB") && next != nil && isNounTag(next.tag):
			t.tag = "JJ"
		}
	}
}

// lexical tags one token from its own shape and the closed-class list.
func (tg tagger) lexical(ts []*token, i int, sentenceStart bool, openQuote *bool) string {
	t := ts[i]
	w := t.text
	lw := strings.ToLower(w)
	r, _ := firstRune(w)
	attachedBefore := i > 0 && ts[i-1].ws == ""
	if w == "." && attachedBefore && strings.EqualFold(ts[i-1].text, "etc") {
		return "FW"
	}
	if w == "." && attachedBefore && i+1 < len(ts) && tg.lx.has(ts[i-1].text+".") {
		// An abbreviation the lexicon spells with its period ("No. 5"): the reference's
		// tagger reads the period as part of the word when the sentence goes on.
		if r, _ := firstRune(ts[i+1].text); unicode.IsDigit(r) || unicode.IsLower(r) {
			return "NN"
		}
	}
	if (w == "'" || w == "’") && !attachedBefore && t.ws == "" && i+1 < len(ts) && isDigitByte(ts[i+1].text[0]) {
		return "NNS" // '90s: an elided century, not a quote
	}
	switch w {
	case ".", "!", "?", "?!", "!!", "!?", "...":
		return "."
	case ",":
		return ","
	case ":", ";", "—", "–", "--":
		return ":"
	case "-":
		if attachedBefore && t.ws == "" {
			return "HYPH"
		}
		return ":"
	case "…":
		return "NFP"
	case "(", "[", "{":
		return "-LRB-"
	case ")", "]", "}":
		return "-RRB-"
	case "$", "£", "€", "#":
		return "$"
	case "\"", "“", "”", "'", "‘", "’", "''", "``":
		if (w == "'" || w == "’") && attachedBefore {
			prev := ts[i-1].text
			if strings.HasSuffix(prev, "s") || strings.HasSuffix(prev, "S") {
				return "POS"
			}
		}
		if (w == "'" || w == "’") && i+2 < len(ts) && t.ws == "" && ts[i+1].ws == "" && len([]rune(ts[i+1].text)) == 1 && (ts[i+2].text == "'" || ts[i+2].text == "’") {
			return "CC" // 'n'
		}
		if (w == "'" || w == "’") && attachedBefore && i >= 2 && (ts[i-2].text == "'" || ts[i-2].text == "’") {
			return "CC"
		}
		if w == "\"" && attachedBefore {
			*openQuote = false
			return "''" // closes what it is attached to: 5'10"
		}
		if w == "“" || w == "‘" || ((w == "\"" || w == "'") && !*openQuote) {
			*openQuote = true
			return "``"
		}
		*openQuote = false
		return "''"
	case "%":
		return "NN"
	case "&":
		return "CC"
	case "+", "=", "<", ">":
		return "SYM"
	}
	if urlRe.MatchString(w) || emailRe.MatchString(w) {
		return "ADD"
	}
	if unicode.IsDigit(r) || (r == '-' && len(w) > 1 && isDigitByte(w[1])) || (r == '.' && len(w) > 1 && isDigitByte(w[1])) {
		return "CD"
	}
	if tag, ok := closedClass[lw]; ok {
		if lw == "i" && w != "I" {
			return "NN"
		}
		if tag == "CD" && i+1 < len(ts) && (ts[i+1].text == "-" || strings.HasPrefix(ts[i+1].text, "year")) {
			return "JJ"
		}
		if lw == "us" && w == "US" {
			return "NNP"
		}
		if lw == "a" && w == "A" && !sentenceStart {
			return "NNP"
		}
		return tag
	}
	if !unicode.IsLetter(r) {
		return "SYM"
	}
	upper := w == strings.ToUpper(w) && len([]rune(w)) > 1
	if upper || unicode.IsUpper(r) && !sentenceStart {
		if strings.HasSuffix(w, "s") && !upper && tg.lx.has(strings.ToLower(w[:len(w)-1])) {
			return "NNPS"
		}
		return "NNP"
	}
	if unicode.IsUpper(r) && sentenceStart && !tg.lx.has(lw) && !tg.lx.has(strings.TrimSuffix(lw, "s")) {
		return "NNP"
	}
	switch {
	case strings.HasSuffix(lw, "ly"):
		return "RB"
	case strings.HasSuffix(lw, "ing") && tg.ingStem(lw):
		return "VBG"
	case strings.HasSuffix(lw, "ed"):
		return "VBD"
	case strings.HasSuffix(lw, "ous"), strings.HasSuffix(lw, "ful"), strings.HasSuffix(lw, "ive"),
		strings.HasSuffix(lw, "able"), strings.HasSuffix(lw, "ible"), strings.HasSuffix(lw, "al"), strings.HasSuffix(lw, "ic"):
		return "JJ"
	case strings.HasSuffix(lw, "est") && len(lw) > 5:
		return "JJS"
	case strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss") && !strings.HasSuffix(lw, "us") && !strings.HasSuffix(lw, "is"):
		return "NNS"
	}
	return "NN"
}
