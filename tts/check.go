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

// maxVoiceSpec bounds a voice spec: a blend of a dozen voices with weights fits many times.
const maxVoiceSpec = 256

// Check resolves req whole: how it is spoken (CheckVoice), then its text (CheckText). It does
// no model work, so a transport calls it before it admits a request and answers every 4xx
// before it commits to a 200.
func (e *Engine) Check(req Request) (Resolved, error) {
	r, err := e.CheckVoice(req)
	if err != nil {
		return r, err
	}
	r.Markup = req.Markup
	return e.CheckText(r, req.Text)
}

// CheckVoice resolves how req is spoken, but not its text, for an utterance whose text
// arrives later in pieces (each checked by CheckText): its lang's code, its voice (aliases
// replaced, Request.Aliases; the default voice for none) and its speed. It is the one place a
// request's voice spec and language name are read. It refuses, in this order: a lang the
// phonemizer does not speak (ErrUnsupportedLang); a voice spec too long or holding a control
// character (ErrUnknownVoice); a speed outside [api.MinSpeed, api.MaxSpeed] (ErrBadSpeed); a
// voice or blend the engine does not have (a *VoiceError); and, with no lang, a voice whose
// language the phonemizer does not speak (ErrUnsupportedLang, phonemize.ResolveLang).
func (e *Engine) CheckVoice(req Request) (Resolved, error) {
	r := Resolved{ID: req.ID, Speed: 1, Resumes: req.Resumes, Switches: req.Switches}
	if req.Lang != "" {
		code, err := readLang(req.Lang)
		if err != nil {
			return r, err
		}
		r.Lang = code
	}
	// A control character is refused before the spaces around the spec are trimmed, and
	// before it is quoted in an error message or a log line: trimming would make "af_heart\n"
	// speak as af_heart, and a spec that is not what the client meant is refused, not repaired.
	if len(req.Voice) > maxVoiceSpec {
		return r, fmt.Errorf("%w: a voice spec of %d bytes, the limit is %d", ErrUnknownVoice, len(req.Voice), maxVoiceSpec)
	}
	if i := strings.IndexFunc(req.Voice, unicode.IsControl); i >= 0 {
		return r, fmt.Errorf("%w: the voice spec has a control character at byte %d; voice names are letters, digits, _ and -", ErrUnknownVoice, i)
	}
	if req.Speed != nil {
		if v := *req.Speed; !(v >= api.MinSpeed && v <= api.MaxSpeed) {
			return r, fmt.Errorf("%w: %g is not in [%g, %g]", ErrBadSpeed, v, api.MinSpeed, api.MaxSpeed)
		}
		r.Speed = *req.Speed
	}
	spec := strings.TrimSpace(req.Aliases.apply(req.Voice))
	if spec == "" {
		spec = e.cfg.DefaultVoice
	}
	v, err := lookupVoice(e.voices, spec)
	if err != nil {
		return r, err
	}
	r.Voice = v
	if r.Lang == "" {
		code, err := phonemize.ResolveLang("", v.Spec)
		if err != nil {
			return r, err
		}
		r.Lang = code
	}
	return r, nil
}

// CheckText is r speaking text: text that is not blank and within the engine's character
// limit, with what no voice can speak in r's language removed (speakable.go). r's voice,
// language and speed are kept as they are.
func (e *Engine) CheckText(r Resolved, text string) (Resolved, error) {
	if strings.TrimSpace(text) == "" {
		return r, fmt.Errorf("%w: the text field is missing or blank", ErrEmptyText)
	}
	if e.cfg.MaxTextChars > 0 {
		if n := utf8.RuneCountInString(text); n > e.cfg.MaxTextChars {
			return r, fmt.Errorf("%w: %d characters, the limit is %d", ErrTextTooLong, n, e.cfg.MaxTextChars)
		}
	}
	text, removed := speakable(text, r.Lang)
	if strings.TrimSpace(text) == "" {
		return r, fmt.Errorf("%w: nothing speakable once %s were skipped", ErrEmptyText, removed)
	}
	r.Text = text
	return r, nil
}

// lookupVoice is the voice spec names in voices: a *VoiceError when it has no such voice.
func lookupVoice(voices Voices, spec string) (Voice, error) {
	p, err := voices.Resolve(spec)
	if err != nil {
		return Voice{}, &VoiceError{Err: err, Valid: voices.Names()}
	}
	return Voice{Spec: spec, Pack: p}, nil
}

// readLang is the code of a request's lang: an error wrapping ErrUnsupportedLang, which
// names the languages the phonemizer speaks, for one it does not speak or one holding a
// control character (refused, not trimmed: a value with a newline in it is not what the
// client meant).
func readLang(lang string) (string, error) {
	if strings.IndexFunc(lang, unicode.IsControl) >= 0 {
		return "", &langError{msg: "the lang has a control character; supported: " + strings.Join(phonemize.LangCodes(), ", ")}
	}
	code, err := phonemize.ParseLang(lang)
	if err != nil {
		return "", &langError{msg: err.Error()}
	}
	return code, nil
}

// langError is a request's lang the engine does not speak: "unsupported lang: …", matching
// ErrUnsupportedLang.
type langError struct{ msg string }

func (e *langError) Error() string { return "unsupported lang: " + e.msg }

// Unwrap returns ErrUnsupportedLang.
func (e *langError) Unwrap() error { return ErrUnsupportedLang }

// VoiceLang is the language of a voice by its name (phonemize.VoiceLang), to list voices by
// language; "" for a name with no known prefix.
func VoiceLang(voice string) string { return phonemize.VoiceLang(voice) }

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
