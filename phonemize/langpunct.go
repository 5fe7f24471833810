package phonemize

import "strings"

// scriptPunct is the punctuation of other scripts that ends a sentence, a clause or a phrase,
// where a word's phonemes may not carry it: the Devanagari danda, which espeak-ng reads as a
// clause's end and drops, and the full-width marks of Chinese and Japanese text. The chunker
// cuts after a word whose text ends in one as it cuts after . : , in phonemes.
var scriptPunct = map[rune]int{
	'।': cutSentence, '॥': cutSentence,
	'。': cutSentence, '！': cutSentence, '？': cutSentence, '．': cutSentence,
	'；': cutClause, '：': cutClause,
	'，': cutComma, '、': cutComma,
}

// sentenceMarks are the marks that end a sentence in lang's text but that its reader drops
// from the phonemes, so the reader reads up to each alone (espeakReader).
func sentenceMarks(lang string) string {
	if lang == "hi" {
		return "।॥"
	}
	return ""
}

// textCut is the cut after a word whose text ends in a mark of scriptPunct.
func textCut(t *word) (int, bool) {
	if t.text == "" {
		return 0, false
	}
	c, ok := scriptPunct[lastRune(t.text)]
	return c, ok
}

// fullWidthEnds end a sentence of Chinese or Japanese text, where no space follows them.
const fullWidthEnds = "。！？．"

// fullWidthClosers may follow a sentence's end and belong to it.
const fullWidthClosers = "」』）》】〕”’\"'"

// endsFullWidth reports whether streamed text s ends a sentence with a full-width mark (and
// its closing brackets) that next, the rune after it, does not continue: such a sentence is
// complete without the space a Latin one waits for.
func endsFullWidth(s string, next rune) bool {
	if strings.ContainsRune(fullWidthClosers, next) || strings.ContainsRune(fullWidthEnds, next) {
		return false
	}
	s = strings.TrimRightFunc(s, func(r rune) bool { return strings.ContainsRune(fullWidthClosers, r) })
	return s != "" && strings.ContainsRune(fullWidthEnds, lastRune(s))
}
