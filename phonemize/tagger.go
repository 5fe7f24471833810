package phonemize

import (
	"strings"
	"unicode"
)

// The tagger assigns Penn Treebank tags with a small set of rules: a closed-class word list,
// punctuation and number shapes, suffixes, capitalization, and the tag of the neighbours. The
// pipeline needs tags only for punctuation, numbers, proper nouns, the function words with
// context rules, and the lexicon's part-of-speech dependent entries.

var closedClass = map[string]string{}

func init() {
	add := func(tag, words string) {
		for _, w := range strings.Fields(words) {
			closedClass[w] = tag
		}
	}
	add("DT", "the a an this that these those every each no some any all another either neither both")
	add("IN", "in on at by for with from of about into over under after before since until during "+
		"without within through between among against toward towards upon across behind beyond "+
		"near like than because although though while if unless whether per via despite around "+
		"throughout along beside besides below above inside outside onto off")
	add("TO", "to")
	add("PRP", "i you he she it we they me him her us them myself yourself himself herself itself ourselves themselves")
	add("PRP$", "my your his its our their")
	add("MD", "will would can could shall should may might must ca wo")
	add("CC", "and or but nor yet plus")
	add("RB", "not n't very also just too so then now here there never always often still already soon "+
		"again ever quite rather almost perhaps maybe really only even later today tomorrow yesterday "+
		"away back once twice instead")
	add("WDT", "which whatever")
	add("WP", "who whom what whoever")
	add("WRB", "when where why how")
	add("EX", "")
	add("VBZ", "is has does 's")
	add("VBP", "are am 're 've 'm do have")
	add("VBD", "was were did had 'd")
	add("VB", "be")
	add("VBN", "been")
	add("UH", "oh hello hi yes wow hey okay ok please thanks")
	add("JJ", "good new old great big small little high low long short young other same own")
}

// tagTokens fills in tok.tag for every token.
func tagTokens(ts []*token) {
	sentenceStart := true
	openQuote := false
	for i, t := range ts {
		prev := ""
		if i > 0 {
			prev = ts[i-1].tag
		}
		t.tag = tagOne(t, prev, sentenceStart, &openQuote, i, ts)
		switch t.tag {
		case ".", ":", "``":
			sentenceStart = true
		case "''", "-LRB-", "-RRB-":
		default:
			sentenceStart = false
		}
	}
	// A second pass fixes words whose tag depends on what follows.
	for i, t := range ts {
		next := ""
		if i+1 < len(ts) {
			next = ts[i+1].tag
		}
		if t.tag == "TO" && !strings.HasPrefix(next, "VB") {
			t.tag = "IN"
		}
	}
}

func tagOne(t *token, prev string, sentenceStart bool, openQuote *bool, i int, ts []*token) string {
	w := t.text
	lw := strings.ToLower(w)
	r, _ := firstRune(w)
	switch w {
	case ".", "!", "?", "?!", "!!", "!?":
		return "."
	case ",":
		return ","
	case ":", ";", "—", "–", "-", "--", "...", "…":
		return ":"
	case "(", "[", "{":
		return "-LRB-"
	case ")", "]", "}":
		return "-RRB-"
	case "$", "£", "€":
		return "$"
	case "#":
		return "#"
	case "\"", "“", "”", "'", "‘", "’", "''", "``":
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
	}
	if urlRe.MatchString(w) {
		return "ADD"
	}
	if unicode.IsDigit(r) || (r == '-' && len(w) > 1 && isDigitByte(w[1])) || (r == '.' && len(w) > 1 && isDigitByte(w[1])) {
		return "CD"
	}
	if tag, ok := closedClass[lw]; ok {
		if lw == "i" && w != "I" {
			return "NN"
		}
		if lw == "that" && (prev == "VBD" || prev == "VBZ" || prev == "VBP" || prev == "NN") {
			return "IN"
		}
		if tag == "PRP$" && lw == "her" && i+1 < len(ts) && !isNounish(ts[i+1].text) {
			return "PRP"
		}
		return tag
	}
	if !unicode.IsLetter(r) {
		return "SYM"
	}
	upper := w == strings.ToUpper(w) && len([]rune(w)) > 1
	if unicode.IsUpper(r) && (!sentenceStart || upper) {
		return "NNP"
	}
	switch prev {
	case "MD", "TO":
		return "VB"
	case "PRP":
		if strings.HasSuffix(lw, "ed") {
			return "VBD"
		}
		if strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss") {
			return "VBZ"
		}
		return "VBP"
	case "DT", "PRP$", "JJ":
		if strings.HasSuffix(lw, "ing") {
			return "NN"
		}
	}
	switch {
	case strings.HasSuffix(lw, "ly"):
		return "RB"
	case strings.HasSuffix(lw, "ing"):
		return "VBG"
	case strings.HasSuffix(lw, "ed"):
		if strings.HasPrefix(prev, "VB") {
			return "VBN"
		}
		return "VBD"
	case strings.HasSuffix(lw, "ous"), strings.HasSuffix(lw, "ful"), strings.HasSuffix(lw, "ive"), strings.HasSuffix(lw, "able"), strings.HasSuffix(lw, "al"):
		return "JJ"
	case strings.HasSuffix(lw, "s") && !strings.HasSuffix(lw, "ss"):
		return "NNS"
	}
	return "NN"
}

func isNounish(w string) bool {
	if _, ok := closedClass[strings.ToLower(w)]; ok {
		return false
	}
	r, _ := firstRune(w)
	return unicode.IsLetter(r)
}
