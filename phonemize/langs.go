package phonemize

import (
	"errors"
	"fmt"
	"strings"
)

// Language is one language Kokoro-82M was trained to speak, as a request names it.
type Language struct {
	Code   string // BCP 47 tag, lower case: "en-us", "es", "fr-fr", "pt-br", …
	Prefix byte   // the first letter of its voices' names (af_heart, ef_dora, jf_alpha, …)
	Name   string // in English, for lists
	// espeak is the espeak-ng voice (its identifier in espeak-ng's voice list) that reads
	// the language, for the languages the reference reads through espeak-ng alone ("" for
	// English, whose espeak-ng voice is only a fallback, and for Japanese and Mandarin).
	espeak string
	// speaks reports whether this build reads the language; one it does not read is
	// refused by ParseLang with the list of those it does.
	speaks bool
}

// languages are Kokoro's languages in the reference pipeline's order (its lang codes a, b, e,
// f, h, i, p, j, z). The espeak-ng voices are those the reference's phonemizer package selects
// for the codes KPipeline passes it: the first voice espeak-ng lists for that language.
var languages = []Language{
	{Code: "en-us", Prefix: 'a', Name: "American English", speaks: true},
	{Code: "en-gb", Prefix: 'b', Name: "British English", speaks: true},
	{Code: "es", Prefix: 'e', Name: "Spanish", espeak: "roa/es", speaks: true},
	{Code: "fr-fr", Prefix: 'f', Name: "French", espeak: "roa/fr", speaks: true},
	{Code: "hi", Prefix: 'h', Name: "Hindi", espeak: "inc/hi", speaks: true},
	{Code: "it", Prefix: 'i', Name: "Italian", espeak: "roa/it", speaks: true},
	{Code: "pt-br", Prefix: 'p', Name: "Brazilian Portuguese", espeak: "roa/pt-BR", speaks: true},
	{Code: "ja", Prefix: 'j', Name: "Japanese", speaks: true},
	{Code: "zh", Prefix: 'z', Name: "Mandarin Chinese", speaks: true},
}

// langAliases are other spellings of the codes: the reference pipeline's one-letter codes,
// and a bare language where Kokoro has one variety of it.
var langAliases = map[string]string{
	"a": "en-us", "b": "en-gb", "e": "es", "f": "fr-fr", "h": "hi", "i": "it", "p": "pt-br", "j": "ja", "z": "zh",
	"en": "en-us", "fr": "fr-fr", "pt": "pt-br", "es-es": "es", "it-it": "it", "hi-in": "hi",
	"ja-jp": "ja", "zh-cn": "zh", "cmn": "zh", "zh-hans": "zh",
}

// ErrUnsupportedLang reports a language this build does not speak.
var ErrUnsupportedLang = errors.New("unsupported language")

// Languages lists the languages this build speaks, in the reference pipeline's order.
func Languages() []Language {
	var out []Language
	for _, l := range languages {
		if l.speaks {
			out = append(out, l)
		}
	}
	return out
}

// LangCodes lists the codes of the languages this build speaks.
func LangCodes() []string {
	var out []string
	for _, l := range Languages() {
		out = append(out, l.Code)
	}
	return out
}

// lookupLang finds a language by code or alias, case-insensitively, "_" read as "-".
func lookupLang(s string) (Language, bool) {
	s = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-")
	if a, ok := langAliases[s]; ok {
		s = a
	}
	for _, l := range languages {
		if l.Code == s {
			return l, true
		}
	}
	return Language{}, false
}

// ParseLang returns the code of the language s names (a code, "en_us", a one-letter
// reference code, or a bare "fr" or "pt"), or an error wrapping ErrUnsupportedLang that names
// the languages this build speaks.
func ParseLang(s string) (string, error) {
	l, ok := lookupLang(s)
	if !ok || !l.speaks {
		quoted := s
		if len(quoted) > 40 {
			quoted = quoted[:40] + "…"
		}
		return "", fmt.Errorf("%w %q; supported: %s", ErrUnsupportedLang, quoted, strings.Join(LangCodes(), ", "))
	}
	return l.Code, nil
}

// VoiceLang is the language of a voice by its name's first letter (af_heart: American
// English, ef_dora: Spanish, jf_alpha: Japanese), whether or not this build speaks it; a
// blend's is its first voice's. "" for a name with no known prefix.
func VoiceLang(voice string) string {
	voice = strings.TrimSpace(voice)
	if len(voice) < 2 || voice[1] != 'f' && voice[1] != 'm' {
		return ""
	}
	for _, l := range languages {
		if voice[0] == l.Prefix {
			return l.Code
		}
	}
	return ""
}

// ResolveLang is the language a request is spoken in: lang when it is given, else its
// voice's language (VoiceLang), else American English. An unsupported lang, or a voice of a
// language this build does not speak with no lang to override it, is an error wrapping
// ErrUnsupportedLang that names the languages it speaks. Both transports call it, so that a
// request is read the same way whichever way it comes.
func ResolveLang(lang, voice string) (string, error) {
	if strings.TrimSpace(lang) != "" {
		return ParseLang(lang)
	}
	code := VoiceLang(voice)
	if code == "" {
		return "en-us", nil
	}
	if _, err := ParseLang(code); err != nil {
		return "", fmt.Errorf("voice %s speaks %s: %w", voice, code, err)
	}
	return code, nil
}

// LangForVoice picks the language from a Kokoro voice name (see VoiceLang): "a…" voices are
// American, "b…" voices British, "e…" Spanish and so on; a name with no known prefix reads as
// American English.
func LangForVoice(voice string) string {
	if code := VoiceLang(voice); code != "" {
		return code
	}
	return "en-us"
}

// isEnglish reports whether lang is one of the English codes the English G2P reads.
func isEnglish(lang string) bool { return isAmerican(lang) || IsBritish(lang) }

// ReadsOverrides reports whether lang's reader takes the inline overrides ([word](/phonemes/),
// [word](@TAG)): English's.
func ReadsOverrides(lang string) bool { return isEnglish(lang) }
