package api

// SpeechMark is one speech mark, as Amazon Polly returns them: Type is "sentence", "word",
// "viseme" or "ssml"; Time is where the audio reaches it, in milliseconds from the
// utterance's first sample; Start and End are the bytes of the request's text it reads (a
// sentence, a word, an SSML <mark> tag), absent for a viseme; Value is those bytes, a
// <mark>'s name, or the viseme.
type SpeechMark struct {
	Time  int    `json:"time"`
	Type  string `json:"type"`
	Start *int   `json:"start,omitempty"`
	End   *int   `json:"end,omitempty"`
	Value string `json:"value"`
}

// Input types a request may name: its text is text (the default) or Kokoro's phonemes.
const (
	InputTypeText     = "text"
	InputTypePhonemes = "phonemes"
)

// Kokoro-FastAPI's phoneme routes.
const (
	RoutePhonemize            = "/dev/phonemize"
	RouteGenerateFromPhonemes = "/dev/generate_from_phonemes"
)

// PhonemeRequest is the body of POST /dev/phonemize, as Kokoro-FastAPI takes it: Language is
// a language code or the reference pipeline's one-letter code ("a" by default).
type PhonemeRequest struct {
	Text     string `json:"text"`
	Language string `json:"language,omitempty"`
}

// PhonemeResponse is the answer of POST /dev/phonemize: the phonemes and their vocabulary ids.
type PhonemeResponse struct {
	Phonemes string  `json:"phonemes"`
	Tokens   []int64 `json:"tokens"`
}

// GenerateFromPhonemesRequest is the body of POST /dev/generate_from_phonemes, as
// Kokoro-FastAPI takes it; the answer is a streamed WAV.
type GenerateFromPhonemesRequest struct {
	Phonemes string `json:"phonemes"`
	Voice    string `json:"voice"`
	// SampleRate is kokoro's own, as on InvocationRequest.
	SampleRate *int `json:"sample_rate,omitempty"`
}

// NormalizationOptions are Kokoro-FastAPI's text normalization switches, as its requests name
// them, each on unless set false: url_normalization and email_normalization read web and
// e-mail addresses as they are said; phone_normalization reads a telephone number digit by
// digit in its groups; unit_normalization reads a unit after a number as a word ("5 km" as
// "five kilometers", not "five K M"); replace_remaining_symbols reads a symbol standing alone
// between words ("&" as "and"), which off drops. normalize false turns all of them off.
// optional_pluralization_normalization is accepted and changes nothing.
type NormalizationOptions struct {
	Normalize                          *bool `json:"normalize,omitempty"`
	URLNormalization                   *bool `json:"url_normalization,omitempty"`
	EmailNormalization                 *bool `json:"email_normalization,omitempty"`
	UnitNormalization                  *bool `json:"unit_normalization,omitempty"`
	PhoneNormalization                 *bool `json:"phone_normalization,omitempty"`
	OptionalPluralizationNormalization *bool `json:"optional_pluralization_normalization,omitempty"`
	ReplaceRemainingSymbols            *bool `json:"replace_remaining_symbols,omitempty"`
}
