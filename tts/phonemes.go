package tts

import (
	"fmt"
	"strings"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// Phonemes reads text in lang ("" for American English; a code or a one-letter reference
// code, phonemize.ParseLang) into the phonemes the engine would speak, and their vocabulary
// ids: what Kokoro-FastAPI's /dev/phonemize answers.
func (e *Engine) Phonemes(text, lang string) (string, []int64, error) {
	if strings.TrimSpace(text) == "" {
		return "", nil, fmt.Errorf("%w: the text is missing or blank", ErrEmptyText)
	}
	if lang == "" {
		lang = phonemize.LangForVoice(e.cfg.DefaultVoice)
	}
	code, err := phonemize.ParseLang(lang)
	if err != nil {
		return "", nil, err
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
