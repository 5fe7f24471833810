package api

// Word is one spoken word and where its sound lies in an utterance's audio, counted from the
// utterance's first sample (PCM at SampleRate): samples [Start, End), and the same in
// milliseconds. Word is the text as the request wrote it, with the punctuation written against
// it: "$5.50," is one word, spoken "five dollars and fifty cents". Index counts the utterance's
// spoken words from 0.
type Word struct {
	Word    string  `json:"word"`
	Index   int     `json:"index"`
	Start   int     `json:"start"`
	End     int     `json:"end"`
	StartMS float64 `json:"start_ms"`
	EndMS   float64 `json:"end_ms"`
}

// SamplesMS is n samples at SampleRate in milliseconds.
func SamplesMS(n int) float64 { return float64(n) * 1000 / SampleRate }

// SentAudio is what the server had sent of an utterance when it stopped: the samples of audio,
// the words whose sound was sent whole (the last of them LastWord) and CutWord, the first word
// that was not. A chunk's audio leaves whole, so the cut word's sound was not sent at all; it
// names where the listener's transcript ends. Either word is absent when there is none (nothing
// was sent; everything was).
type SentAudio struct {
	Samples  int      `json:"samples"`
	MS       float64  `json:"ms"`
	Words    int      `json:"words"`
	LastWord *Word    `json:"last_word,omitempty"`
	CutWord  *CutWord `json:"cut_word,omitempty"`
}

// CutWord is the first word of an utterance not sent whole: its text and its Index among the
// utterance's words.
type CutWord struct {
	Word  string `json:"word"`
	Index int    `json:"index"`
}

// InvocationEvent is one line of a POST /invocations answer with "timestamps": newline-delimited
// JSON (EventsContentType). Each "audio" event carries the next bytes of the encoded stream in
// base64 and the words whose sound lies in the samples it carries, [Offset, Offset+Samples) of
// the utterance (a word that spans two events is in both); the last line is one "done" event
// with the utterance's Samples, its word count and, when asked for, its captions. A stream
// without its "done" line was cut short.
type InvocationEvent struct {
	Type    string `json:"type"`
	Audio   string `json:"audio,omitempty"`
	Offset  int    `json:"offset"`
	Samples int    `json:"samples"`
	Words   []Word `json:"words,omitempty"`
	// Marks are the speech marks the event's samples reach, when the request asked for them.
	Marks    []SpeechMark `json:"marks,omitempty"`
	WordsN   *int         `json:"word_count,omitempty"`
	Captions *string      `json:"captions,omitempty"`
}

// InvocationTimed is the body of a POST /invocations answer with "timestamps" and "stream":
// false: the whole file in base64, every word, and the captions when asked for.
type InvocationTimed struct {
	Audio    string       `json:"audio"`
	Format   string       `json:"format"`
	Samples  int          `json:"samples"`
	Words    []Word       `json:"words"`
	Marks    []SpeechMark `json:"marks,omitempty"`
	Captions *string      `json:"captions,omitempty"`
}

// Event types of a timed /invocations answer.
const (
	EventAudio = "audio"
	EventDone  = "done"
)

// EventsContentType is the media type of newline-delimited JSON.
const EventsContentType = "application/x-ndjson"

// CaptionedSpeechRequest is the body of POST /dev/captioned_speech, the fields Kokoro-FastAPI's
// route takes, so that its clients work unchanged.
type CaptionedSpeechRequest struct {
	Model          string   `json:"model,omitempty"`
	Input          string   `json:"input"`
	Voice          string   `json:"voice,omitempty"`
	ResponseFormat string   `json:"response_format,omitempty"` // default DefaultSpeechFormat
	Speed          *float64 `json:"speed,omitempty"`           // OpenAIMinSpeed..OpenAIMaxSpeed
	// Stream (default true) answers newline-delimited JSON, one CaptionedSpeechResponse per
	// piece of audio; false answers one.
	Stream           *bool `json:"stream,omitempty"`
	ReturnTimestamps *bool `json:"return_timestamps,omitempty"` // default true
	// ReturnDownloadLink asks Kokoro-FastAPI to keep a copy for download; kokoro keeps none,
	// and accepts the field.
	ReturnDownloadLink bool     `json:"return_download_link,omitempty"`
	LangCode           string   `json:"lang_code,omitempty"`         // a one-letter code ("a" en-us, "j" ja, …) or a language tag
	VolumeMultiplier   *float64 `json:"volume_multiplier,omitempty"` // scales the samples; default 1
	// NormalizationOptions switch the text normalization (NormalizationOptions' fields say
	// which take effect).
	NormalizationOptions *NormalizationOptions `json:"normalization_options,omitempty"`
	DownloadFormat       string                `json:"download_format,omitempty"` // accepted, unused
	// SampleRate is kokoro's own, as on InvocationRequest.
	SampleRate *int `json:"sample_rate,omitempty"`
}

// CaptionedSpeechResponse is Kokoro-FastAPI's answer shape: audio in base64, its media type, and
// the words with their times in seconds from the start of the whole audio.
type CaptionedSpeechResponse struct {
	Audio       string          `json:"audio"`
	AudioFormat string          `json:"audio_format"`
	Timestamps  []WordTimestamp `json:"timestamps"`
}

// WordTimestamp is one word of a CaptionedSpeechResponse.
type WordTimestamp struct {
	Word      string  `json:"word"`
	StartTime float64 `json:"start_time"`
	EndTime   float64 `json:"end_time"`
}
