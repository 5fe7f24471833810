package en

import (
	_ "embed"
	"fmt"
	"strings"
	"unicode"

	"github.com/kokoro-sm/kokoro/phonemize/internal/postag"
)

// The part-of-speech tagger decides what the lexicon's tag-dependent entries read (read, live,
// close, use …), whether "that" is stressed, "a" is the article or the letter, and whether a word
// in capitals is spelled. The reference takes these tags from spaCy, so the model is trained to
// imitate spaCy: on real English tagged by it (see package postag, scripts/reference/gen_tagger_data.py,
// and phonemize/internal/traintagger for the commands that retrain it).
//
//go:embed postag.model.gz
var taggerModel []byte

func loadTagger() (*postag.Model, error) {
	m, err := postag.Load(taggerModel)
	if err != nil {
		return nil, fmt.Errorf("load tagger model: %w", err)
	}
	return m, nil
}

// tagger assigns Penn Treebank tags to tokens.
type tagger struct {
	m  *postag.Model
	lx *lexicon
}

// tagTokens fills in tok.tag for every token: punctuation, symbols and addresses by their
// shape (the reference tags them the same way every time, and whether a quote opens or closes
// depends on quotes far to the left, beyond the model's window), everything else by the model.
func (tg tagger) tagTokens(ts []*token) {
	words := make([]string, len(ts))
	for i, t := range ts {
		words[i] = t.text
	}
	var open openQuotes
	for i, tag := range tg.m.Tag(words) {
		if s, ok := tg.shapeTag(ts, i, &open); ok {
			tag = s
		} else if !punctTags[tag] && isEmoticon(ts[i].text) {
			// Punctuation alone kept whole (":)", "):"): the reference's tagger takes it
			// for punctuation, and only its marks are read.
			tag = "NFP"
		} else if punctTags[tag] && hasAlnum(ts[i].text) {
			// A punctuation tag would drop the word's letters and digits; the model can
			// give one to text unlike any it learned from ("0A0A").
			tag = "NN"
			if r, _ := firstRune(ts[i].text); unicode.IsDigit(r) {
				tag = "CD"
			}
		}
		ts[i].tag = tag
	}
}

// isEmoticon tells a special case made of punctuation alone, kept as one token.
func isEmoticon(w string) bool {
	if len(w) < 2 || hasAlnum(w) {
		return false
	}
	exc, ok := special(w)
	return ok && len(exc) == 1
}

// thatEnders are the marks after which "that" ends its clause as a pronoun.
var thatEnders = map[string]bool{".": true, "?": true, "!": true, ";": true, ":": true}

var scaleWords = map[string]bool{"hundred": true, "thousand": true, "million": true, "billion": true, "trillion": true}

// openQuotes is which quotations are open at a point of the sentence, as the tags so far say:
// double quotes, and straight single quotes.
type openQuotes struct{ double, single bool }

// shapeTag tags a token from its own shape and its neighbours when that decides the tag, and
// notes a straight quote it opens or closes in open.
func (tg tagger) shapeTag(ts []*token, i int, open *openQuotes) (string, bool) {
	tag, ok := tg.shapeTagOf(ts, i, *open)
	var kind *bool
	switch ts[i].text {
	case "\"":
		kind = &open.double
	case "'":
		kind = &open.single
	}
	if ok && kind != nil {
		switch tag {
		case "``":
			*kind = true
		case "''":
			*kind = false
		}
	}
	return tag, ok
}

// shapeTagOf is shapeTag's decision, given the quotations open before the token.
func (tg tagger) shapeTagOf(ts []*token, i int, open openQuotes) (string, bool) {
	t := ts[i]
	w := t.text
	attachedBefore := i > 0 && ts[i-1].ws == ""
	isApos := w == "'" || w == "’"
	switch {
	case isURL(w) || isEmail(w):
		// Read with "dot" and "slash" only when tagged ADD.
		return "ADD", true
	case w == "." && attachedBefore && strings.EqualFold(ts[i-1].text, "etc"):
		if i == len(ts)-1 {
			// At the end of the text the reference's tagger reads it as the full stop (both
			// times in the tagged text), which keeps it.
			return ".", true
		}
		return "FW", true
	case w == "." && attachedBefore && i+1 < len(ts) && tg.lx.has(ts[i-1].text+"."):
		// An abbreviation the lexicon spells with its period ("No. 5"): the reference's
		// tagger reads the period as part of the word when the sentence goes on.
		if r, _ := firstRune(ts[i+1].text); unicode.IsDigit(r) || unicode.IsLower(r) {
			return "NN", true
		}
	case w == "`" && !attachedBefore && t.ws == "":
		// A backquote after a space and against the next word opens a quotation (`foo'), as
		// the quotes of the tagged text show every time; a closing one is left to the model.
		return "``", true
	case strings.EqualFold(w, "that") && i+1 < len(ts) && thatEnders[ts[i+1].text]:
		// "that" just before a stop, question mark, exclamation mark, semicolon or colon is
		// the pronoun ("Did you feel that?"): the reference's tagger gives DT 66 times of 72
		// in the tagged training text, and the pronoun is stressed. Before a comma it is as
		// often the conjunction ("so that, …"), which the model decides.
		return "DT", true
	case scaleWords[strings.ToLower(w)]:
		// The reference's tagger takes these for numbers every time (all 471 in the training
		// text), which carries a currency on to them: $3 trillion is "three trillion dollars".
		return "CD", true
	case w == "am" && attachedBefore && isDigitByte(ts[i-1].text[len(ts[i-1].text)-1]):
		// 9am: the reference's tagger takes the am written against a time for the verb.
		return "VBP", true
	case isApos && !attachedBefore && t.ws == "" && i+1 < len(ts) && isDigitByte(ts[i+1].text[0]):
		return "NNS", true // '90s: an elided century, not a quote
	}
	switch w {
	case ".", "!", "?", "?!", "!!", "!?", "...":
		return ".", true
	case ",":
		return ",", true
	case ":", ";", "—", "–", "--":
		return ":", true
	case "-":
		if attachedBefore && t.ws == "" {
			return "HYPH", true
		}
		return ":", true
	case "…":
		return "NFP", true
	case "[":
		// The reference's tagger leaves an opening square bracket written against the next
		// word untagged (XX: 376 of 380 times in the tagged training text), and the reference
		// then keeps it as written; one followed by a space it takes for a bracket (-LRB-, 3
		// of 3), read "(", as it does every closing one (-RRB-), read ")".
		if t.ws != "" {
			return "-LRB-", true
		}
		return "XX", true
	case "(", "{":
		return "-LRB-", true
	case ")", "]", "}":
		return "-RRB-", true
	case "$", "£", "€", "#":
		return "$", true
	case "\"", "“", "”", "'", "‘", "’", "''", "``":
		if isApos && attachedBefore {
			prev := ts[i-1].text
			// After a word in s the reference's tagger reads a straight apostrophe as the
			// possessive (651 times in the tagged training text, against 346 as a closing
			// quote) unless a straight single quote is open before it (then 133 closing, 76
			// possessive); a curly one it reads as a closing quote (75 of 79 times).
			if (strings.HasSuffix(prev, "s") || strings.HasSuffix(prev, "S")) && w == "'" && !open.single {
				return "POS", true
			}
		}
		// 'n' (rock 'n' roll): both quotes are a conjunction to the reference's tagger; a word
		// in single quotes ('a', 'tar') is quoted.
		if isApos && i+2 < len(ts) && t.ws == "" && ts[i+1].ws == "" && strings.EqualFold(ts[i+1].text, "n") && (ts[i+2].text == "'" || ts[i+2].text == "’") {
			return "CC", true
		}
		if isApos && attachedBefore && i >= 2 && strings.EqualFold(ts[i-1].text, "n") && (ts[i-2].text == "'" || ts[i-2].text == "’") {
			return "CC", true
		}
		// A quote written against the word before it closes (5'10", "Fanny?'", "smilin'");
		// one after a space or an opening bracket or quote opens. A straight double quote
		// between spaces alternates; single and double quotes are counted apart.
		closes := attachedBefore && !strings.ContainsAny(ts[i-1].text, "([{“‘\"'`")
		switch {
		case w == "“" || w == "‘" || w == "``":
			return "``", true
		case w == "”" || w == "''":
			return "''", true
		case w == "\"" && closes:
			return "''", true
		case w == "\"" && !attachedBefore && t.ws == "" && i > 0:
			// After a space and against the next word it opens, whatever the count says
			// (a quote inside a word written together, Fish?"—this, is not counted).
			return "``", true
		case w == "\"" && !open.double:
			return "``", true
		case w == "\"":
			return "''", true
		case closes:
			return "''", true
		}
		return "``", true
	}
	return "", false
}
