package tts

import (
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/model"
)

// Resolved is a request read once, by the engine's check (Check, or CheckVoice then
// CheckText): the voice's pack, the language's code, the speed and the text as they will be
// spoken. Stream, StreamMarkup and the transports take it as it is; nothing below the check
// reads a voice spec or a language name again.
type Resolved struct {
	ID    string
	Text  string  // as it will be spoken: not blank, within the limit, speakable in Lang
	Voice Voice   // the voice, its pack looked up or its blend mixed
	Speed float64 // in [api.MinSpeed, api.MaxSpeed]; 1 when the request gave none
	Lang  string  // a code of phonemize.LangCodes
	// Resumes: Request.Resumes.
	Resumes bool
	// Markup is the text as segments (Request.Markup), spoken by StreamMarkup; Text is then
	// their words, checked as a whole.
	Markup []markup.Segment
}

// Voice is a voice spec and what it names.
type Voice struct {
	Spec string     // the name or blend, its aliases replaced and its spaces trimmed
	Pack model.Pack // the voice's style rows; a blend's is the weighted mean of its voices'
}
