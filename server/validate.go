package server

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/tts"
)

// fields are what a synthesis request asks for, whichever transport carried it: a POST
// /invocations or /v1/audio/speech body, or one utterance of a WebSocket session.
type fields struct {
	RequestID string
	Text      string
	Voice     string // as the client wrote it, before the OpenAI names are mapped
	Speed     *float64
	Lang      string
	TextType  string // api.TextTypeText, api.TextTypeSSML, or "" to tell by the text
	// SpeechMarks are the speech mark types asked for (tts.MarkTypes); a plain text is then
	// spoken as markup.Plain, so that its marks are placed.
	SpeechMarks []string
	// LexiconNames are the pronunciation lexicons to read the text with, the first that has a
	// word winning (Polly's LexiconNames).
	LexiconNames []string
	InputType    string // api.InputTypeText ("" too) or api.InputTypePhonemes
	// Normalization switches the text normalization; nil for the defaults.
	Normalization *api.NormalizationOptions
}

// checkSynthesis is the one validation of a request's fields, shared by the HTTP routes and
// the WebSocket so that a value is refused the same way, with the same code, on every
// transport: the request id, the language, the voice spec's form, then how the request is
// spoken (the engine's CheckVoice: its speed, a voice it has), then the route's own fields,
// then its text (the engine's CheckText). textLater checks everything but the text, for a
// WebSocket utterance whose text is streamed in pieces and checked as each arrives.
func checkSynthesis(eng Engine, f fields, lim limits, textLater bool) (tts.Resolved, error) {
	if err := checkRequestID(f.RequestID); err != nil {
		return tts.Resolved{}, err
	}
	lang, err := checkLang(f.Lang)
	if err != nil {
		return tts.Resolved{}, err
	}
	if err := checkVoiceSpec(f.Voice); err != nil {
		return tts.Resolved{}, err
	}
	how, err := eng.CheckVoice(tts.Request{Voice: lim.voice(f.Voice), Speed: f.Speed, Lang: lang})
	if err != nil {
		return how, err
	}
	ssml, err := isSSML(f)
	if err != nil {
		return how, err
	}
	if err := checkSpeechMarks(f.SpeechMarks); err != nil {
		return how, err
	}
	lxs, err := lexiconsOf(f.LexiconNames, lim.lexicons)
	if err != nil {
		return how, err
	}
	phonemes, err := isPhonemes(f, ssml)
	if err != nil {
		return how, err
	}
	if textLater {
		if phonemes {
			return how, fmt.Errorf("%w: phonemes come whole in one message, not streamed in pieces", markup.ErrPhonemes)
		}
		if ssml {
			return how, fmt.Errorf("%w: SSML comes whole in one message, not streamed in pieces", markup.ErrSSML)
		}
		return how, nil
	}
	if phonemes {
		return checkPhonemes(eng, how, f.Text)
	}
	norm := normalizationOf(f.Normalization)
	if ssml {
		return checkMarkup(eng, how, f.Text, lxs, norm)
	}
	if len(f.SpeechMarks) > 0 || len(lxs) > 0 || norm.Rewrites(f.Text) {
		return checkPlain(eng, how, f.Text, lxs, norm)
	}
	return eng.CheckText(how, f.Text)
}

// maxVoiceSpec bounds a voice spec: a blend of a dozen voices with weights fits many times.
const maxVoiceSpec = 256

// checkVoiceSpec refuses a voice spec too long to be one, or holding a control character (a
// newline, a NUL), before its name is quoted in an error message and a log line. Trimming
// would make "af_heart\n" speak as af_heart: a spec that is not what the client meant is
// refused, not repaired.
func checkVoiceSpec(v string) error {
	if len(v) > maxVoiceSpec {
		return fmt.Errorf("%w: a voice spec of %d bytes, the limit is %d", tts.ErrUnknownVoice, len(v), maxVoiceSpec)
	}
	if i := strings.IndexFunc(v, unicode.IsControl); i >= 0 {
		return fmt.Errorf("%w: the voice spec has a control character at byte %d; voice names are letters, digits, _ and -", tts.ErrUnknownVoice, i)
	}
	return nil
}
