package api

// ErrorResponse is every non-2xx JSON body. QueueDepth and MaxQueueDepth are set only for
// queue_saturated rejections; Valid lists the accepted values when a field named none of them.
type ErrorResponse struct {
	Error         string   `json:"error"`
	Message       string   `json:"message,omitempty"`
	QueueDepth    *int     `json:"queue_depth,omitempty"`
	MaxQueueDepth *int     `json:"max_queue_depth,omitempty"`
	Valid         []string `json:"valid,omitempty"`
}

// OpenAIErrorResponse is every non-2xx JSON body of the /v1/* routes: the shape OpenAI's API
// answers with, which its SDKs (and every framework built on them) read into an exception. Its
// Code is the Error code of an ErrorResponse.
type OpenAIErrorResponse struct {
	Error OpenAIError `json:"error"`
}

// OpenAIError is the error object of an OpenAIErrorResponse. Message names the valid values
// when a field named none of them; Valid, QueueDepth and MaxQueueDepth are kokoro's own, as in
// ErrorResponse.
type OpenAIError struct {
	Message string `json:"message"`
	// Type is OpenAIInvalidRequest for a client error, OpenAIServerError otherwise.
	Type string `json:"type"`
	// Param names the request field at fault, null when no one field is.
	Param         *string  `json:"param"`
	Code          string   `json:"code"`
	QueueDepth    *int     `json:"queue_depth,omitempty"`
	MaxQueueDepth *int     `json:"max_queue_depth,omitempty"`
	Valid         []string `json:"valid,omitempty"`
}

// OpenAI's error types, the Type of an OpenAIError.
const (
	OpenAIInvalidRequest = "invalid_request_error"
	OpenAIServerError    = "server_error"
)

// Error codes: the error field of an ErrorResponse and the code of a WebSocket error message.
// Clients decide on these, never on the message text.
const (
	ErrQueueSaturated     = "queue_saturated"            // 503: the admission gate is full
	ErrRequestStale       = "request_stale"              // 408: request_timestamp older than the limit
	ErrNotReady           = "not_ready"                  // 503: the model is still loading
	ErrShuttingDown       = "shutting_down"              // 503: the server is draining
	ErrInvalidJSON        = "invalid_json"               // 400
	ErrBodyTimeout        = "body_timeout"               // 408: the body did not arrive in time
	ErrBodyTooLarge       = "body_too_large"             // 413
	ErrEmptyText          = "empty_text"                 // 400: nothing to speak
	ErrInvalidSSML        = "invalid_ssml"               // 400: SSML the server does not read; the message names the problem and the valid values
	ErrInvalidTextType    = "invalid_text_type"          // 400: a text_type other than text or ssml
	ErrInvalidSpeechMarks = "invalid_speech_marks"       // 400; valid lists the speech mark types
	ErrInvalidPhonemes    = "invalid_phonemes"           // 400: phoneme input with a symbol Kokoro does not speak
	ErrInvalidInputType   = "invalid_input_type"         // 400: an input_type other than text or phonemes
	ErrUnknownLexicon     = "unknown_lexicon"            // 400: a lexicon_names entry the server has not loaded; the message lists those it has
	ErrTextTooLong        = "text_too_long"              // 413: over the configured character limit
	ErrUnknownVoice       = "unknown_voice"              // 400; valid lists the voices
	ErrInvalidSpeed       = "invalid_speed"              // 400: outside MinSpeed..MaxSpeed
	ErrInvalidVolume      = "invalid_volume"             // 400: a volume_multiplier outside [0, 100]
	ErrUnsupportedFormat  = "unsupported_format"         // 400; valid lists the formats
	ErrUnsupportedLang    = "unsupported_lang"           // 400; valid lists the languages
	ErrUnsupportedModel   = "unsupported_model"          // 400; valid lists the model names
	ErrUnsupportedStream  = "unsupported_stream_format"  // 400; valid lists the stream formats
	ErrUnsupportedCaption = "unsupported_caption_format" // 400; valid lists the caption formats
	// ErrUnsupportedSampleRate is a sample_rate the format is not offered at; the message
	// lists those it is.
	ErrUnsupportedSampleRate = "unsupported_sample_rate" // 400
	// ErrUnknownField is a body field the route does not have; valid lists those it has.
	ErrUnknownField       = "unknown_field"             // 400
	ErrInvalidRequestID   = "invalid_request_id"        // 400: too long, or not visible ASCII
	ErrInvalidTimestamp   = "invalid_request_timestamp" // 400: request_timestamp in the future
	ErrUnknownMessageType = "unknown_message_type"      // 400: a WebSocket message of no known type
	ErrDuplicateRequestID = "duplicate_request_id"      // WebSocket: the id is in use in the session
	ErrMethodNotAllowed   = "method_not_allowed"        // 405
	ErrNotFound           = "not_found"                 // 404
	ErrWebSocketRequired  = "websocket_required"        // 400: a plain GET on the WebSocket route
	ErrWebSocketHandshake = "websocket_handshake"       // the upgrade failed
	ErrCancelled          = "cancelled"                 // 499 in logs: the client went away
	ErrInternal           = "internal"                  // 500
)
