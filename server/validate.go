package server

import (
	"fmt"

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
// transport: the request id, then how the request is spoken (the engine's CheckVoice: its
// lang, its voice spec and the voice it names, its speed), then the route's own fields, then
// its text (the engine's CheckText). textLater checks everything but the text, for a
// WebSocket utterance whose text is streamed in pieces and checked as each arrives.
func checkSynthesis(eng Engine, f fields, lim limits, textLater bool) (tts.Resolved, error) {
	if err := checkRequestID(f.RequestID); err != nil {
		return tts.Resolved{}, err
	}
	how, err := eng.CheckVoice(tts.Request{Voice: f.Voice, Speed: f.Speed, Lang: f.Lang, Aliases: lim.voices, Switches: switchesOf(f.Normalization)})
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
