package server

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/tts"
)

// parseClientMessage decodes one WebSocket frame's payload, text or binary alike, and
// normalizes its type: a message with text and no type is a complete utterance ("speak").
func parseClientMessage(b []byte) (api.WSClientMessage, error) {
	var m api.WSClientMessage
	if err := decodeStrict(b, &m); err != nil {
		return m, err
	}
	m.Type = strings.ToLower(strings.TrimSpace(m.Type))
	switch m.Type {
	case "":
		if m.Text == "" {
			return m, fmt.Errorf("%w: a message needs a type or a text", errUnknownMessage)
		}
		m.Type = api.WSTypeSpeak
	case api.WSTypeSpeak, api.WSTypeText, api.WSTypeFlush, api.WSTypeCancel, api.WSTypeClose:
	default:
		return m, fmt.Errorf("%w: %q; expected one of speak, text, flush, cancel, close", errUnknownMessage, m.Type)
	}
	if m.Type == api.WSTypeSpeak && strings.TrimSpace(m.Text) == "" {
		return m, fmt.Errorf("%w: the text field is missing or blank", tts.ErrEmptyText)
	}
	return m, nil
}

// Streamed text is cut where a sentence ends. A run-on text with no sentence end is cut at a
// clause once it passes softCut runes, and at any space past hardCut, so that speech starts
// even when the text never says "." (lists, code, a model that forgot punctuation).
const (
	softCut = 240
	hardCut = 600
)

// abbreviations end with a period that does not end a sentence.
var abbreviations = []string{"mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "vs", "etc", "e.g", "i.e", "approx"}

// cutSentences splits buf into the complete sentences at its front, ready to speak, and the
// unfinished rest that waits for more text. A sentence is complete once its terminator is
// followed by white space: "3." may become "3.5" and "Hello!" may become "Hello!!".
func cutSentences(buf string) (done, rest string) {
	cut := -1
	for i, r := range buf {
		if !unicode.IsSpace(r) || i == 0 {
			continue
		}
		if r == '\n' {
			cut = i
			continue
		}
		if endsSentence(buf[:i]) {
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

// endsSentence reports whether s ends with a sentence terminator, possibly followed by
// closing quotes or brackets, that is not the period of a known abbreviation.
func endsSentence(s string) bool {
	s = strings.TrimRightFunc(s, func(r rune) bool { return strings.ContainsRune("\"'”’)]»", r) })
	last, _ := utf8.DecodeLastRuneInString(s)
	switch last {
	case '!', '?', '…':
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
	for _, a := range abbreviations {
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
