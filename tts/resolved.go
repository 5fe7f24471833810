package tts

import (
	"maps"
	"strings"

	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
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
	// Switches: Request.Switches.
	Switches phonemize.Switches
}

// Voice is a voice spec and what it names.
type Voice struct {
	Spec string     // the name or blend, its aliases replaced and its spaces trimmed
	Pack model.Pack // the voice's style rows; a blend's is the weighted mean of its voices'
}

// Aliases map names a request may use in place of a voice (OpenAI's "alloy") to a Kokoro voice
// or blend, in a plain name and in each part of a blend ("alloy(2)+echo(1)"). Names match
// without regard to case or the spaces around them.
type Aliases map[string]string

// NewAliases is m ready to match: names lower-cased and trimmed, voices trimmed.
func NewAliases(m map[string]string) Aliases {
	a := make(Aliases, len(m))
	for k, v := range m {
		a[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	return a
}

// Table is a copy of the aliases, to list them.
func (a Aliases) Table() map[string]string { return maps.Clone(a) }

// apply returns spec with every aliased name replaced by its voice.
func (a Aliases) apply(spec string) string {
	if len(a) == 0 || spec == "" {
		return spec
	}
	parts := strings.Split(spec, "+")
	changed := false
	for i, part := range parts {
		name, weight, _ := strings.Cut(part, "(")
		if v, ok := a[strings.ToLower(strings.TrimSpace(name))]; ok {
			parts[i] = v
			if weight != "" {
				parts[i] += "(" + weight
			}
			changed = true
		}
	}
	if !changed {
		return spec
	}
	return strings.Join(parts, "+")
}
