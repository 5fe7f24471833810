// Package api holds kokoro's wire types: the JSON bodies of the HTTP routes and the messages of
// the bidirectional WebSocket protocol. The server decodes them and the bench encodes them, so
// both sides agree by construction.
package api

// Routes served by `kokoro serve`.
const (
	RoutePing         = "/ping"
	RouteInvocations  = "/invocations"
	RouteBidiStream   = "/invocations-bidirectional-stream"
	RouteOpenAISpeech = "/v1/audio/speech"
	RouteOpenAIVoices = "/v1/audio/voices"
	RouteOpenAIModels = "/v1/models" // and /v1/models/{id}
	RouteMetrics      = "/metrics"
	// RouteCaptionedSpeech is Kokoro-FastAPI's speech with word timestamps.
	RouteCaptionedSpeech = "/dev/captioned_speech"
	// RouteCartesia is the Cartesia-style socket, at Cartesia's own path, so that a client
	// built for Cartesia needs only its URL changed (docs/agents.md).
	RouteCartesia = "/tts/websocket"
	// RouteDeepgramSpeak is where a SageMaker bidirectional stream whose ModelInvocationPath
	// is "v1/speak" arrives: the Deepgram-style socket Pipecat's SageMaker TTS service speaks,
	// its ModelQueryString (model, encoding, sample_rate) the query.
	RouteDeepgramSpeak = "/v1/speak"
)

// EnvMaxQueueDepth is the container variable that bounds the requests a server holds (queued
// and executing): the serve setting's variable, and what a plan writes into the container's
// environment.
const EnvMaxQueueDepth = "MAX_QUEUE_DEPTH"

// Headers: the request id both ways, and the three a complete (stream:false) WAV carries.
const (
	HeaderAudioDur    = "X-Audio-Duration"
	HeaderInferenceMs = "X-Inference-Time-Ms"
	HeaderRTF         = "X-RTF"
	HeaderRequestID   = "X-Request-Id"
)

// The audio every route sends, and what a request may ask for. The server validates against
// these and the bench sends within them, so both sides share one definition.
const (
	// SampleRate of the model's output and of every stream: PCM16 LE mono.
	SampleRate = 24000
	// StreamingWAVHeader is the size of the RIFF header before a streamed WAV's PCM.
	StreamingWAVHeader = 44

	FormatWAV  = "wav"
	FormatPCM  = "pcm"
	FormatMP3  = "mp3"
	FormatOpus = "opus" // Ogg Opus, as OpenAI's speech API returns it
	FormatFLAC = "flac"
	FormatAAC  = "aac" // understood, refused: no encoder (docs/server.md)
	// FormatMulaw and FormatAlaw are G.711 at 8 kHz, a byte a sample, as telephone lines
	// carry it.
	FormatMulaw = "mulaw"
	FormatAlaw  = "alaw"
	// DefaultFormat is what POST /invocations answers with; DefaultSpeechFormat is what the
	// OpenAI route answers with when response_format is absent, as OpenAI does.
	DefaultFormat       = FormatWAV
	DefaultSpeechFormat = FormatMP3

	// LangUS and LangGB are the English codes of a request's lang; the server lists every
	// language it speaks in VoiceList.Langs and in an unsupported_lang error.
	LangUS = "en-us"
	LangGB = "en-gb"

	DefaultVoice = "af_heart"
	// MinSpeed and MaxSpeed bound the speaking rate a request may ask for (1 = normal).
	MinSpeed = 0.5
	MaxSpeed = 2.0
	// OpenAIMinSpeed and OpenAIMaxSpeed are the range OpenAI's speech API documents; the
	// OpenAI route accepts it and clamps it to MinSpeed..MaxSpeed, where the model speaks well.
	OpenAIMinSpeed = 0.25
	OpenAIMaxSpeed = 4.0

	// StreamFormatAudio (the default) answers with the audio bytes; StreamFormatSSE with
	// server-sent events carrying them in base64 (SpeechAudioEvent).
	StreamFormatAudio = "audio"
	StreamFormatSSE   = "sse"

	// MaxRequestIDLen bounds a request id, which is echoed in X-Request-Id, in WebSocket
	// messages and in every log line of the request. Ids are visible ASCII (0x21–0x7E).
	MaxRequestIDLen = 128
)

// SampleRates are the rates a request's sample_rate may name; SampleRate is the default but
// for mulaw and alaw, which are 8000 only.
func SampleRates() []int { return []int{8000, 16000, 22050, 24000, 44100, 48000} }

// InvocationRequest is the body of POST /invocations. Pointer fields distinguish "absent" (use
// the default) from an explicit zero value, which is then validated.
type InvocationRequest struct {
	Text             string   `json:"text"`
	Voice            string   `json:"voice,omitempty"`
	Speed            *float64 `json:"speed,omitempty"`
	Stream           *bool    `json:"stream,omitempty"`
	Format           string   `json:"format,omitempty"`
	Lang             string   `json:"lang,omitempty"`
	RequestID        string   `json:"request_id,omitempty"`
	RequestTimestamp *float64 `json:"request_timestamp,omitempty"`
	// Timestamps answers newline-delimited JSON events that carry the audio with its words'
	// times (InvocationEvent), or with "stream": false one InvocationTimed.
	Timestamps bool `json:"timestamps,omitempty"`
	// Captions ("srt" or "vtt") adds the whole text's captions to the timed answer's end; it
	// implies Timestamps.
	Captions string `json:"captions,omitempty"`
	// TextType is Polly's: TextTypeSSML reads Text as SSML, TextTypeText as plain text; absent,
	// a text that starts with <speak> is SSML.
	TextType string `json:"text_type,omitempty"`
	// SpeechMarks names the speech marks wanted (Polly's SpeechMarkTypes: "sentence", "word",
	// "viseme", "ssml"). Alone, the answer is the marks, one JSON object (SpeechMark) a line,
	// as Polly's json output format; with Timestamps, each audio event carries its Marks.
	SpeechMarks []string `json:"speech_marks,omitempty"`
	// LexiconNames are the pronunciation lexicons the server loaded (--lexicons) to read the
	// text with, the first that has a word winning, as Polly's LexiconNames.
	LexiconNames []string `json:"lexicon_names,omitempty"`
	// InputType InputTypePhonemes reads Text as Kokoro's phonemes, spoken as written.
	InputType string `json:"input_type,omitempty"`
	// NormalizationOptions switches the text normalization (absent: the defaults).
	NormalizationOptions *NormalizationOptions `json:"normalization_options,omitempty"`
	// SampleRate is the answer's rate, one of SampleRates(); absent = SampleRate (8000 for
	// mulaw and alaw). Every sample count of the answer (word times, offsets) is at this rate.
	SampleRate *int `json:"sample_rate,omitempty"`
}

// Text types a request may name (Polly's TextType).
const (
	TextTypeText = "text"
	TextTypeSSML = "ssml"
)

// SpeechRequest is the body of the OpenAI-compatible POST /v1/audio/speech.
type SpeechRequest struct {
	Model          string   `json:"model"`
	Input          string   `json:"input"`
	Voice          string   `json:"voice"`
	ResponseFormat string   `json:"response_format,omitempty"` // default DefaultSpeechFormat
	Speed          *float64 `json:"speed,omitempty"`           // OpenAIMinSpeed..OpenAIMaxSpeed
	StreamFormat   string   `json:"stream_format,omitempty"`   // StreamFormatAudio | StreamFormatSSE
	// Instructions steer the voice of OpenAI's newer models; Kokoro's voices take no
	// instructions, so the field is accepted and unused.
	Instructions string `json:"instructions,omitempty"`
	// Stream is kokoro's own: the audio streams as it is synthesized unless it is false. A
	// wav answer is complete by default (its header then holds the real sizes): set it to true
	// for a streamed wav.
	Stream *bool `json:"stream,omitempty"`
	// TextType and LexiconNames are as InvocationRequest's, for Input.
	TextType     string   `json:"text_type,omitempty"`
	LexiconNames []string `json:"lexicon_names,omitempty"`
	InputType    string   `json:"input_type,omitempty"`
	// NormalizationOptions is as InvocationRequest's (Kokoro-FastAPI takes it here too).
	NormalizationOptions *NormalizationOptions `json:"normalization_options,omitempty"`
	// SampleRate is kokoro's own, as on InvocationRequest.
	SampleRate *int `json:"sample_rate,omitempty"`
	// LangCode and VolumeMultiplier are Kokoro-FastAPI's, as on CaptionedSpeechRequest; its
	// DownloadFormat and ReturnDownloadLink are accepted and unused.
	LangCode           string   `json:"lang_code,omitempty"`
	VolumeMultiplier   *float64 `json:"volume_multiplier,omitempty"`
	DownloadFormat     string   `json:"download_format,omitempty"`
	ReturnDownloadLink bool     `json:"return_download_link,omitempty"`
}

// SpeechAudioEvent is one server-sent event of a stream_format "sse" answer: a
// "speech.audio.delta" with the next bytes of audio in base64, then one "speech.audio.done".
type SpeechAudioEvent struct {
	Type  string       `json:"type"`
	Audio string       `json:"audio,omitempty"`
	Usage *SpeechUsage `json:"usage,omitempty"`
}

// SpeechUsage is the usage of a "speech.audio.done" event. Kokoro does not meter tokens: the
// counts are zero.
type SpeechUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// SSE event types.
const (
	SSETypeAudioDelta = "speech.audio.delta"
	SSETypeAudioDone  = "speech.audio.done"
)

// Model is one entry of GET /v1/models, as OpenAI's API lists models.
type Model struct {
	ID      string `json:"id"`
	Object  string `json:"object"` // "model"
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// ModelList is the body of GET /v1/models.
type ModelList struct {
	Object string  `json:"object"` // "list"
	Data   []Model `json:"data"`
}

// VoiceList is the body of GET /v1/audio/voices: the installed voices, and the OpenAI voice
// names a request may use instead, with the voice each one speaks with.
type VoiceList struct {
	Voices  []string          `json:"voices"`
	Aliases map[string]string `json:"aliases,omitempty"`
	// Languages maps each voice to the language its name's prefix says it speaks (a BCP 47
	// code, "ef_dora": "es"), which is how a request without lang is read; Langs lists the
	// codes this server speaks, which a request's lang may name.
	Languages map[string]string `json:"languages,omitempty"`
	Langs     []string          `json:"langs,omitempty"`
}

// WebSocket message types.
const (
	WSTypeSpeak             = "speak" // implied when a client message has text and no type
	WSTypeText              = "text"  // a piece of streamed text, spoken as sentences complete
	WSTypeFlush             = "flush"
	WSTypeCancel            = "cancel"
	WSTypeClose             = "close"
	WSTypeSynthesisStart    = "synthesis_start"
	WSTypeAudio             = "audio" // with timestamps: the words of the binary frame that follows
	WSTypeSynthesisComplete = "synthesis_complete"
	WSTypeError             = "error"
)

// WSClientMessage is anything a client sends on the bidirectional stream, as a text or a
// binary frame.
type WSClientMessage struct {
	Type  string   `json:"type,omitempty"`
	Text  string   `json:"text,omitempty"`
	Voice string   `json:"voice,omitempty"`
	Speed *float64 `json:"speed,omitempty"`
	// Lang is checked as POST /invocations checks it: a language the server does not speak
	// is refused with unsupported_lang on both.
	Lang      string `json:"lang,omitempty"`
	RequestID string `json:"request_id,omitempty"`
	// Timestamps, on an utterance's first message, puts an "audio" message naming the words
	// of each binary frame before it.
	Timestamps bool `json:"timestamps,omitempty"`
	// TextType is as InvocationRequest's; SSML is read from a whole "text" message, not from
	// text streamed in pieces.
	TextType string `json:"text_type,omitempty"`
	// SpeechMarks, on an utterance's first message, puts the marks of each binary frame in the
	// "audio" message before it (as Timestamps does its words).
	SpeechMarks []string `json:"speech_marks,omitempty"`
	// LexiconNames is as InvocationRequest's, on an utterance's first message.
	LexiconNames []string `json:"lexicon_names,omitempty"`
	// InputType is as InvocationRequest's, for a whole message's text.
	InputType string `json:"input_type,omitempty"`
	// Format and SampleRate, on an utterance's first message, choose its binary frames'
	// encoding: FormatPCM (the default), FormatMulaw or FormatAlaw, at one of SampleRates()
	// (mulaw and alaw at 8000 only; absent = SampleRate, 8000 for them).
	Format     string `json:"format,omitempty"`
	SampleRate *int   `json:"sample_rate,omitempty"`
}

// WSServerMessage is a control message the server sends as a text frame; audio travels in
// binary frames of PCM16 LE mono 24 kHz.
type WSServerMessage struct {
	Type           string  `json:"type"`
	RequestID      string  `json:"request_id,omitempty"`
	TotalDurationS float64 `json:"total_duration_s,omitempty"`
	ElapsedS       float64 `json:"elapsed_s,omitempty"`
	Message        string  `json:"message,omitempty"`
	Code           string  `json:"code,omitempty"` // error messages: the ErrorResponse.Error code
	Cancelled      bool    `json:"cancelled,omitempty"`
	QueueDepth     *int    `json:"queue_depth,omitempty"`
	MaxQueueDepth  *int    `json:"max_queue_depth,omitempty"`
	// An "audio" message: the next binary frame holds the utterance's samples [Offset,
	// Offset+Samples), and Words lie in them (a word two frames share is named by both).
	Offset  *int   `json:"offset,omitempty"`
	Samples *int   `json:"samples,omitempty"`
	Words   []Word `json:"words,omitempty"`
	// Marks are the speech marks the frame's samples reach, when the utterance asked for them.
	Marks []SpeechMark `json:"marks,omitempty"`
	// Sent, on a cancelled synthesis_complete, is what had been sent of the utterance.
	Sent *SentAudio `json:"sent,omitempty"`
}
