package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec"
	"github.com/kokoro-sm/kokoro/captions"
	"github.com/kokoro-sm/kokoro/markup"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

// Client errors decided by the server itself, before the engine sees the request.
var (
	errBadJSON         = errors.New("malformed JSON body")
	errBodyTooLarge    = errors.New("request body too large")
	errBodyTimeout     = errors.New("request body too slow")
	errStale           = errors.New("request is stale")
	errBadFormat       = errors.New("unsupported format")
	errBadModel        = errors.New("unsupported model")
	errBadStreamFormat = errors.New("unsupported stream_format")
	errBadCaptions     = errors.New("unsupported caption format")
	errBadVolume       = errors.New("invalid volume_multiplier")
	errBadRequestID    = errors.New("invalid request_id")
	errBadTimestamp    = errors.New("invalid request_timestamp")
	errBadTextType     = errors.New("invalid text_type")
	errBadSpeechMarks  = errors.New("invalid speech_marks")
	errUnknownLexicon  = errors.New("unknown lexicon")
	errBadInputType    = errors.New("invalid input_type")
	errMethod          = errors.New("method not allowed")
	errNotFound        = errors.New("not found")
	errBadSampleRate   = errors.New("unsupported sample_rate")
	errUnknownField    = errors.New("unknown field")
	errNotReady        = errors.New("model is not loaded yet")
	errShuttingDown    = errors.New("server is shutting down")
	errUnknownMessage  = errors.New("unknown message type")
	errDuplicateID     = errors.New("request_id is already in use in this session")
	errClientWrite     = errors.New("client stopped reading") // a write to the client failed or stalled
)

// httpError is what a failed request is told: a status and a JSON body.
type httpError struct {
	status  int
	body    api.ErrorResponse
	outcome string
	param   string // the request field at fault, by its /invocations name; "" for none
}

// classify maps any error from decoding, validation, admission or synthesis to its status,
// wire error code and metrics outcome. It is the one place where errors become status codes;
// it decides on error identities and types, never on message text.
func classify(err error) httpError {
	e := func(status int, code, outcome string) httpError {
		return httpError{status: status, outcome: outcome, body: api.ErrorResponse{Error: code, Message: err.Error()}}
	}
	var (
		sat     *SaturatedError
		voice   *tts.VoiceError
		unknown *unknownFieldError
	)
	switch {
	case errors.As(err, &sat):
		h := e(http.StatusServiceUnavailable, api.ErrQueueSaturated, OutcomeRejected)
		h.body.QueueDepth, h.body.MaxQueueDepth = &sat.Depth, &sat.Max
		return h
	case errors.Is(err, ErrQueueSaturated):
		return e(http.StatusServiceUnavailable, api.ErrQueueSaturated, OutcomeRejected)
	case errors.Is(err, errStale):
		return e(http.StatusRequestTimeout, api.ErrRequestStale, OutcomeStale).at("request_timestamp")
	case errors.As(err, &unknown):
		h := e(http.StatusBadRequest, api.ErrUnknownField, OutcomeClientError).at(unknown.name)
		h.body.Valid = unknown.known
		return h
	case errors.Is(err, errBadSampleRate):
		return e(http.StatusBadRequest, api.ErrUnsupportedSampleRate, OutcomeClientError).at("sample_rate")
	case errors.Is(err, errBadJSON):
		return e(http.StatusBadRequest, api.ErrInvalidJSON, OutcomeClientError)
	case errors.Is(err, errBodyTimeout):
		return e(http.StatusRequestTimeout, api.ErrBodyTimeout, OutcomeClientError)
	case errors.Is(err, errBodyTooLarge):
		return e(http.StatusRequestEntityTooLarge, api.ErrBodyTooLarge, OutcomeClientError)
	case errors.Is(err, tts.ErrEmptyText):
		return e(http.StatusBadRequest, api.ErrEmptyText, OutcomeClientError).at("text")
	case errors.Is(err, tts.ErrTextTooLong):
		return e(http.StatusRequestEntityTooLarge, api.ErrTextTooLong, OutcomeClientError).at("text")
	case errors.As(err, &voice):
		h := e(http.StatusBadRequest, api.ErrUnknownVoice, OutcomeClientError).at("voice")
		h.body.Valid = voice.Valid
		return h
	case errors.Is(err, tts.ErrUnknownVoice):
		return e(http.StatusBadRequest, api.ErrUnknownVoice, OutcomeClientError).at("voice")
	case errors.Is(err, tts.ErrBadSpeed):
		return e(http.StatusBadRequest, api.ErrInvalidSpeed, OutcomeClientError).at("speed")
	case errors.Is(err, errBadFormat):
		h := e(http.StatusBadRequest, api.ErrUnsupportedFormat, OutcomeClientError).at("format")
		h.body.Valid = codec.Names()
		return h
	case errors.Is(err, errBadStreamFormat):
		h := e(http.StatusBadRequest, api.ErrUnsupportedStream, OutcomeClientError).at("stream_format")
		h.body.Valid = append([]string(nil), streamFormats...)
		return h
	case errors.Is(err, errBadVolume):
		return e(http.StatusBadRequest, api.ErrInvalidVolume, OutcomeClientError).at("volume_multiplier")
	case errors.Is(err, errBadCaptions):
		h := e(http.StatusBadRequest, api.ErrUnsupportedCaption, OutcomeClientError).at("captions")
		h.body.Valid = append([]string(nil), captions.Formats...)
		return h
	case errors.Is(err, markup.ErrSSML):
		return e(http.StatusBadRequest, api.ErrInvalidSSML, OutcomeClientError).at("text")
	case errors.Is(err, errBadSpeechMarks):
		h := e(http.StatusBadRequest, api.ErrInvalidSpeechMarks, OutcomeClientError).at("speech_marks")
		h.body.Valid = append([]string(nil), tts.MarkTypes...)
		return h
	case errors.Is(err, markup.ErrPhonemes):
		return e(http.StatusBadRequest, api.ErrInvalidPhonemes, OutcomeClientError).at("text")
	case errors.Is(err, errBadInputType):
		h := e(http.StatusBadRequest, api.ErrInvalidInputType, OutcomeClientError).at("input_type")
		h.body.Valid = []string{api.InputTypeText, api.InputTypePhonemes}
		return h
	case errors.Is(err, errUnknownLexicon):
		return e(http.StatusBadRequest, api.ErrUnknownLexicon, OutcomeClientError).at("lexicon_names")
	case errors.Is(err, errBadTextType):
		h := e(http.StatusBadRequest, api.ErrInvalidTextType, OutcomeClientError).at("text_type")
		h.body.Valid = []string{api.TextTypeText, api.TextTypeSSML}
		return h
	case errors.Is(err, errBadRequestID):
		return e(http.StatusBadRequest, api.ErrInvalidRequestID, OutcomeClientError).at("request_id")
	case errors.Is(err, errBadTimestamp):
		return e(http.StatusBadRequest, api.ErrInvalidTimestamp, OutcomeClientError).at("request_timestamp")
	case errors.Is(err, tts.ErrUnsupportedLang):
		h := e(http.StatusBadRequest, api.ErrUnsupportedLang, OutcomeClientError).at("lang")
		h.body.Valid = phonemize.LangCodes()
		return h
	case errors.Is(err, errBadModel):
		h := e(http.StatusBadRequest, api.ErrUnsupportedModel, OutcomeClientError).at("model")
		h.body.Valid = append([]string(nil), openAIModels...)
		return h
	case errors.Is(err, errUnknownMessage):
		return e(http.StatusBadRequest, api.ErrUnknownMessageType, OutcomeClientError)
	case errors.Is(err, errDuplicateID):
		return e(http.StatusBadRequest, api.ErrDuplicateRequestID, OutcomeClientError)
	case errors.Is(err, errMethod):
		return e(http.StatusMethodNotAllowed, api.ErrMethodNotAllowed, OutcomeClientError)
	case errors.Is(err, errNotFound):
		return e(http.StatusNotFound, api.ErrNotFound, OutcomeClientError)
	case errors.Is(err, errNotReady):
		return e(http.StatusServiceUnavailable, api.ErrNotReady, OutcomeNotReady)
	case errors.Is(err, errShuttingDown), errors.Is(err, tts.ErrClosed):
		return e(http.StatusServiceUnavailable, api.ErrShuttingDown, OutcomeNotReady)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, errClientWrite):
		// 499 is nginx's "client closed request"; nobody reads it, but the log and metrics do.
		return e(499, api.ErrCancelled, OutcomeCancelled)
	default:
		return e(http.StatusInternalServerError, api.ErrInternal, OutcomeError)
	}
}

// at names the request field at fault.
func (h httpError) at(param string) httpError {
	h.param = param
	return h
}

// openAIParams are the OpenAI speech route's names of the fields that /invocations names
// otherwise.
var openAIParams = map[string]string{"text": "input", "format": "response_format"}

// openAI is h in the shape OpenAI's API answers with, which its SDKs read.
func (h httpError) openAI() api.OpenAIErrorResponse {
	e := api.OpenAIError{Message: h.body.Message, Type: api.OpenAIInvalidRequest, Code: h.body.Error,
		QueueDepth: h.body.QueueDepth, MaxQueueDepth: h.body.MaxQueueDepth, Valid: h.body.Valid}
	if h.status >= http.StatusInternalServerError {
		e.Type = api.OpenAIServerError
	}
	if h.param != "" {
		p := h.param
		if o, ok := openAIParams[p]; ok {
			p = o
		}
		e.Param = &p
	}
	if e.Message == "" {
		e.Message = h.body.Error
	}
	return api.OpenAIErrorResponse{Error: e}
}

// openAIRoute reports a path of the OpenAI-compatible API, whose errors take OpenAI's shape.
func openAIRoute(r *http.Request) bool {
	return r != nil && strings.HasPrefix(r.URL.Path, "/v1/")
}

// writeError answers a request that has not been sent a status yet: in OpenAI's shape on its
// routes, in kokoro's on the others.
func writeError(w http.ResponseWriter, r *http.Request, h httpError, retryAfter int) {
	if h.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	}
	if openAIRoute(r) {
		writeJSON(w, h.status, h.openAI())
		return
	}
	writeJSON(w, h.status, h.body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"error":%q,"message":%q}`, api.ErrInternal, err.Error()))
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
