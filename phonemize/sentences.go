package phonemize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Streamed text is cut where a sentence ends. A run-on text with no sentence end is cut at a
// clause once it passes softCut runes, and at any space past hardCut, so that speech starts
// even when the text never says "." (lists, code, a model that forgot punctuation).
const (
	softCut = 240
	hardCut = 600
)

// streamAbbreviations end with a period that does not end a sentence.
var streamAbbreviations = []string{"mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "vs", "etc", "e.g", "i.e", "approx"}

// CutSentences splits buf, text that is still arriving, into the complete sentences at its
// front, ready to speak, and the unfinished rest that waits for more text. A sentence is
// complete once its terminator is followed by white space: "3." may become "3.5" and "Hello!"
// may become "Hello!!". It is the streaming counterpart of Pieces' boundaries: package chunk
// packs a whole text into model-sized chunks, CutSentences decides when enough of a stream has
// come to start speaking.
func CutSentences(buf string) (done, rest string) {
	cut := -1
	for i, r := range buf {
		if i > 0 && endsFullWidth(buf[:i], r) {
			cut = i
		}
		if !unicode.IsSpace(r) || i == 0 {
			continue
		}
		if r == '\n' {
			cut = i
			continue
		}
		if streamEndsSentence(buf[:i]) {
			cut = i
		}
	}
	n := utf8.RuneCountInString(buf)
	if cut < 0 && n > softCut {
		cut = lastIndexAfter(buf, ",;:—–)")
	}
	if cut < 0 && n > hardCut {
		cut = strings.LastIndexFunc(buf, unicode.IsSpace)
	}
	if cut <= 0 {
		return "", buf
	}
	return buf[:cut], strings.TrimLeftFunc(buf[cut:], unicode.IsSpace)
}

// streamEndsSentence reports whether s ends with a sentence terminator, possibly followed by
// closing quotes or brackets, that is not the period of a known abbreviation.
func streamEndsSentence(s string) bool {
	s = strings.TrimRightFunc(s, func(r rune) bool { return strings.ContainsRune("\"'”’)]»", r) })
	last, _ := utf8.DecodeLastRuneInString(s)
	switch last {
	case '!', '?', '…', '।', '॥':
		return true
	case '.':
	default:
		return false
	}
	word := s[:len(s)-1]
	if i := strings.LastIndexFunc(word, unicode.IsSpace); i >= 0 {
		word = word[i+1:]
	}
	word = strings.TrimLeft(word, "\"'“‘([")
	// A single capital letter ("J. R. R. Tolkien") is an initial, not a sentence.
	if r, size := utf8.DecodeRuneInString(word); size == len(word) && unicode.IsUpper(r) {
		return false
	}
	word = strings.ToLower(word)
	for _, a := range streamAbbreviations {
		if word == a {
			return false
		}
	}
	return true
}

// lastIndexAfter returns the index of the last white space preceded by one of marks, or -1.
func lastIndexAfter(s, marks string) int {
	cut := -1
	prev := rune(0)
	for i, r := range s {
		if unicode.IsSpace(r) && prev != 0 && strings.ContainsRune(marks, prev) {
			cut = i
		}
		prev = r
	}
	return cut
}
