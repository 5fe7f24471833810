package server

import (
	"fmt"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// checkLang reads a request's lang, on either transport: "" (the voice decides, in the
// engine's check), or a language the phonemizer speaks, returned as its code; anything else is
// errBadLang naming the languages it speaks.
func checkLang(lang string) (string, error) {
	if lang == "" {
		return "", nil
	}
	code, err := phonemize.ParseLang(lang)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errBadLang, err)
	}
	return code, nil
}
