package tts

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Phonemes reads text in lang ("" for the default voice's language; a code or a one-letter
// reference code, read as the engine's check reads a request's lang) into the phonemes the
// engine would speak, and their vocabulary ids: what Kokoro-FastAPI's /dev/phonemize
// answers. The lang is checked first, then the text's length (MaxTextChars) and that it is
// not blank.
func (e *Engine) Phonemes(text, lang string) (string, []int64, error) {
	r, err := e.CheckVoice(Request{Lang: lang})
	if err != nil {
		return "", nil, err
	}
	code := r.Lang
	if n := utf8.RuneCountInString(text); e.cfg.MaxTextChars > 0 && n > e.cfg.MaxTextChars {
		return "", nil, fmt.Errorf("%w: %d characters, the limit is %d", ErrTextTooLong, n, e.cfg.MaxTextChars)
	}
	if strings.TrimSpace(text) == "" {
		return "", nil, fmt.Errorf("%w: the text is missing or blank", ErrEmptyText)
	}
	text, _ = speakable(text, code)
	chunks, err := e.ph.Chunks(text, e.chunkOptions(code, 1))
	if err != nil {
		return "", nil, fmt.Errorf("phonemize: %w", err)
	}
	var ps []string
	var ids []int64
	for _, c := range chunks {
		ps = append(ps, strings.TrimSpace(c.Phonemes))
		ids = append(ids, c.IDs...)
	}
	if len(ids) == 0 {
		return "", nil, fmt.Errorf("%w: nothing speakable", ErrEmptyText)
	}
	return strings.Join(ps, " "), ids, nil
}
