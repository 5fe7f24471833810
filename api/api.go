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
	RouteMetrics      = "/metrics"
)

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
	// DefaultFormat is what POST /invocations answers with; DefaultSpeechFormat is what the
	// OpenAI route answers with when response_format is absent, as OpenAI does.
	DefaultFormat       = FormatWAV
	DefaultSpeechFormat = FormatMP3

	LangUS = "en-us"
	LangGB = "en-gb"

	DefaultVoice = "af_heart"
	// MinSpeed and MaxSpeed bound the speaking rate a request may ask for (1 = normal).
	MinSpeed = 0.5
	MaxSpeed = 2.0
)

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
}

// SpeechRequest is the body of the OpenAI-compatible POST /v1/audio/speech.
type SpeechRequest struct {
	Model          string   `json:"model"`
	Input          string   `json:"input"`
	Voice          string   `json:"voice"`
	ResponseFormat string   `json:"response_format,omitempty"`
	Speed          *float64 `json:"speed,omitempty"`
	Stream         *bool    `json:"stream,omitempty"`
}

// WebSocket message types.
const (
	WSTypeSpeak             = "speak" // implied when a client message has text and no type
	WSTypeText              = "text"  // a piece of streamed text, spoken as sentences complete
	WSTypeFlush             = "flush"
	WSTypeCancel            = "cancel"
	WSTypeClose             = "close"
	WSTypeSynthesisStart    = "synthesis_start"
	WSTypeSynthesisComplete = "synthesis_complete"
	WSTypeError             = "error"
)

// WSClientMessage is anything a client sends on the bidirectional stream, as a text or a
// binary frame.
type WSClientMessage struct {
	Type      string   `json:"type,omitempty"`
	Text      string   `json:"text,omitempty"`
	Voice     string   `json:"voice,omitempty"`
	Speed     *float64 `json:"speed,omitempty"`
	RequestID string   `json:"request_id,omitempty"`
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
}
