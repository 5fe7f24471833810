package tts

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// Check is the one place a request's rules live: text that is not blank and within the
// engine's character limit, with what no voice can speak removed (speakable.go), a speed
// within [api.MinSpeed, api.MaxSpeed] when one is given, and a voice (or blend) the engine has. It does no model work, so a transport calls it before it
// admits a request and answers every 4xx before it commits to a 200; Stream calls it too. The
// request comes back with its defaults filled in: the voice, the language (its lang, else its
// voice's: phonemize.ResolveLang), and the text as it will be spoken.
func (e *Engine) Check(req Request) (Request, error) {
	if strings.TrimSpace(req.Text) == "" {
		return req, fmt.Errorf("%w: the text field is missing or blank", ErrEmptyText)
	}
	if e.cfg.MaxTextChars > 0 {
		if n := utf8.RuneCountInString(req.Text); n > e.cfg.MaxTextChars {
			return req, fmt.Errorf("%w: %d characters, the limit is %d", ErrTextTooLong, n, e.cfg.MaxTextChars)
		}
	}
	voice := strings.TrimSpace(req.Voice)
	if voice == "" {
		voice = e.cfg.DefaultVoice
	}
	lang, _ := phonemize.ResolveLang(req.Lang, voice) // an unsupported one is CheckVoice's error
	text, removed := speakable(req.Text, lang)
	if strings.TrimSpace(text) == "" {
		return req, fmt.Errorf("%w: nothing speakable once %s were skipped", ErrEmptyText, removed)
	}
	req.Text = text
	return e.CheckVoice(req)
}

// CheckVoice checks how req is to be spoken (its speed and voice) but not its text, for an
// utterance whose text arrives later in pieces: a WebSocket session checks the voice once, when
// the utterance starts, and each piece's text when Stream speaks it.
func (e *Engine) CheckVoice(req Request) (Request, error) {
	if req.Speed != nil {
		if v := *req.Speed; !(v >= api.MinSpeed && v <= api.MaxSpeed) {
			return req, fmt.Errorf("%w: %g is not in [%g, %g]", ErrBadSpeed, v, api.MinSpeed, api.MaxSpeed)
		}
	}
	// A control character is refused before the spaces around the spec are trimmed: trimming
	// would make "af_heart\n" speak as af_heart.
	if i := strings.IndexFunc(req.Voice, unicode.IsControl); i >= 0 {
		return req, &VoiceError{Err: fmt.Errorf("%w: the voice spec has a control character at byte %d", model.ErrBadBlend, i), Valid: e.voices.Names()}
	}
	req.Voice = strings.TrimSpace(req.Voice)
	if req.Voice == "" {
		req.Voice = e.cfg.DefaultVoice
	}
	if _, err := e.voices.Style(req.Voice, 1); err != nil {
		return req, &VoiceError{Err: err, Valid: e.voices.Names()}
	}
	lang, err := phonemize.ResolveLang(req.Lang, req.Voice)
	if err != nil {
		return req, err
	}
	req.Lang = lang
	return req, nil
}

// VoiceError is a voice spec the engine cannot speak: an unknown name or a malformed blend. It
// matches ErrUnknownVoice with errors.Is and carries the voices a request may name, which the
// message lists too.
type VoiceError struct {
	Err   error    // from the voice store
	Valid []string // the installed voices
}

func (e *VoiceError) Error() string {
	var unknown *model.UnknownVoiceError
	if errors.As(e.Err, &unknown) || len(e.Valid) == 0 {
		return e.Err.Error() // the voice store's message already lists the voices
	}
	return e.Err.Error() + "; valid voices: " + strings.Join(e.Valid, ", ")
}

// Unwrap returns the voice store's error.
func (e *VoiceError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrUnknownVoice) hold.
func (e *VoiceError) Is(target error) bool { return target == ErrUnknownVoice }

// MaxTextChars is the longest text the engine accepts, in characters; 0 means unlimited. A
// transport that receives text in pieces holds their sum to it.
func (e *Engine) MaxTextChars() int { return e.cfg.MaxTextChars }

// VoiceNames lists the voices a request may name.
func (e *Engine) VoiceNames() []string { return e.voices.Names() }
