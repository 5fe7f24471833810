package server

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/kokoro-sm/kokoro/phonemize"
)

// checkLang reads a request's lang, on either transport: "" (the voice decides, in the
// engine's check), or a language the phonemizer speaks, returned as its code; anything else is
// errBadLang naming the languages it speaks.
func checkLang(lang string) (string, error) {
	if lang == "" {
		return "", nil
	}
	if strings.IndexFunc(lang, unicode.IsControl) >= 0 {
		// Refused, not trimmed: a value with a newline in it is not what the client meant.
		return "", fmt.Errorf("%w: the lang has a control character; supported: %s", errBadLang, strings.Join(phonemize.LangCodes(), ", "))
	}
	code, err := phonemize.ParseLang(lang)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errBadLang, err)
	}
	return code, nil
}
