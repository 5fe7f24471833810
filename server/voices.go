package server

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kokoro-sm/kokoro/tts"
)

// DefaultVoiceAliases maps OpenAI's voice names to Kokoro voices, so that a client written for
// OpenAI's speech API speaks without changes. Where Kokoro ships a voice of the same name
// (af_alloy, af_nova, bm_fable) it is that voice; otherwise it is the best-graded Kokoro voice
// of the same kind (the grades are those of the Kokoro-82M voice card: af_heart A, af_bella A-,
// am_fenrir, am_michael, am_puck C+; OpenAI's deep "onyx" and "echo" get Kokoro's fuller male
// voices rather than am_onyx and am_echo, graded D). Override it with --openai-voices
// (OPENAI_VOICES), e.g. "alloy=af_heart,echo=am_adam".
var DefaultVoiceAliases = map[string]string{
	"alloy":   "af_alloy",
	"ash":     "am_michael",
	"ballad":  "bm_george",
	"coral":   "af_bella",
	"echo":    "am_puck",
	"fable":   "bm_fable",
	"nova":    "af_nova",
	"onyx":    "am_fenrir",
	"sage":    "af_sarah",
	"shimmer": "af_heart",
	"verse":   "am_michael",
	"marin":   "af_kore",
	"cedar":   "am_fenrir",
}

// ParseVoiceAliases reads "name=voice,name=voice" (a voice may be a blend) over the defaults:
// a name given here replaces the default's, the others stay. "" gives the defaults.
func ParseVoiceAliases(spec string) (map[string]string, error) {
	out := maps.Clone(DefaultVoiceAliases)
	for _, item := range strings.Split(spec, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		name, voice, ok := strings.Cut(item, "=")
		name, voice = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(voice)
		if !ok || name == "" || voice == "" {
			return nil, fmt.Errorf("voice alias %q: want name=voice, e.g. alloy=af_heart", item)
		}
		out[name] = voice
	}
	return out, nil
}

// warnAliases logs the aliases whose voice the loaded engine does not have: a request naming
// one gets unknown_voice, and the operator should hear about it before a client does.
func (s *Server) warnAliases(eng Engine) {
	for _, alias := range slices.Sorted(maps.Keys(s.voices)) {
		v := s.voices[alias]
		if _, err := eng.CheckVoice(tts.Request{Voice: v}); err != nil {
			s.log.Warn("voice alias names no installed voice", "alias", alias, "voice", v, "err", err.Error())
		}
	}
}
