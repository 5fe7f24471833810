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
	"github.com/kokoro-sm/kokoro/tts"
)

// Client errors decided by the server itself, before the engine sees the request.
var (
	errBadJSON        = errors.New("malformed JSON body")
	errBodyTooLarge   = errors.New("request body too large")
	errBodyTimeout    = errors.New("request body too slow")
	errStale          = errors.New("request is stale")
	errBadFormat      = errors.New("unsupported format")
	errBadLang        = errors.New("unsupported lang")
	errBadModel       = errors.New("unsupported model")
	errMethod         = errors.New("method not allowed")
	errNotReady       = errors.New("model is not loaded yet")
	errShuttingDown   = errors.New("server is shutting down")
	errUnknownMessage = errors.New("unknown message type")
	errClientWrite    = errors.New("client stopped reading") // a write to the client failed or stalled
)

// httpError is what a failed request is told: a status and a JSON body.
type httpError struct {
	status  int
	body    api.ErrorResponse
	outcome string
}

// classify maps any error from decoding, validation, admission or synthesis to its status,
// wire error code and metrics outcome. It is the one place where errors become status codes.
func classify(err error, voices func() []string) httpError {
	e := func(status int, code, outcome string) httpError {
		return httpError{status: status, outcome: outcome, body: api.ErrorResponse{Error: code, Message: err.Error()}}
	}
	var sat *SaturatedError
	switch {
	case errors.As(err, &sat):
		h := e(http.StatusServiceUnavailable, api.ErrQueueSaturated, OutcomeRejected)
		h.body.QueueDepth, h.body.MaxQueueDepth = &sat.Depth, &sat.Max
		return h
	case errors.Is(err, ErrQueueSaturated):
		return e(http.StatusServiceUnavailable, api.ErrQueueSaturated, OutcomeRejected)
	case errors.Is(err, errStale):
		return e(http.StatusRequestTimeout, api.ErrRequestStale, OutcomeStale)
	case errors.Is(err, errBadJSON):
		return e(http.StatusBadRequest, "invalid_json", OutcomeClientError)
	case errors.Is(err, errBodyTimeout):
		return e(http.StatusRequestTimeout, "body_timeout", OutcomeClientError)
	case errors.Is(err, errBodyTooLarge):
		return e(http.StatusRequestEntityTooLarge, "body_too_large", OutcomeClientError)
	case errors.Is(err, tts.ErrEmptyText):
		return e(http.StatusBadRequest, "empty_text", OutcomeClientError)
	case errors.Is(err, tts.ErrTextTooLong):
		return e(http.StatusRequestEntityTooLarge, "text_too_long", OutcomeClientError)
	case errors.Is(err, tts.ErrUnknownVoice):
		h := e(http.StatusBadRequest, "unknown_voice", OutcomeClientError)
		if voices != nil {
			h.body.Valid = voices()
			if !strings.Contains(h.body.Message, "have:") && len(h.body.Valid) > 0 {
				h.body.Message += "; valid voices: " + strings.Join(h.body.Valid, ", ")
			}
		}
		return h
	case errors.Is(err, tts.ErrBadSpeed):
		return e(http.StatusBadRequest, "invalid_speed", OutcomeClientError)
	case errors.Is(err, errBadFormat):
		h := e(http.StatusBadRequest, "unsupported_format", OutcomeClientError)
		h.body.Valid = append([]string(nil), formats...)
		return h
	case errors.Is(err, errBadLang):
		h := e(http.StatusBadRequest, "unsupported_lang", OutcomeClientError)
		h.body.Valid = append([]string(nil), langs...)
		return h
	case errors.Is(err, errBadModel):
		h := e(http.StatusBadRequest, "unsupported_model", OutcomeClientError)
		h.body.Valid = append([]string(nil), openAIModels...)
		return h
	case errors.Is(err, errUnknownMessage):
		return e(http.StatusBadRequest, "unknown_message_type", OutcomeClientError)
	case errors.Is(err, errMethod):
		return e(http.StatusMethodNotAllowed, "method_not_allowed", OutcomeClientError)
	case errors.Is(err, errNotReady):
		return e(http.StatusServiceUnavailable, "not_ready", OutcomeNotReady)
	case errors.Is(err, errShuttingDown), errors.Is(err, tts.ErrClosed):
		return e(http.StatusServiceUnavailable, "shutting_down", OutcomeNotReady)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, errClientWrite):
		// 499 is nginx's "client closed request"; nobody reads it, but the log and metrics do.
		return e(499, "cancelled", OutcomeCancelled)
	default:
		return e(http.StatusInternalServerError, "internal", OutcomeError)
	}
}

// writeError answers a request that has not been sent a status yet.
func writeError(w http.ResponseWriter, h httpError, retryAfter int) {
	if h.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	}
	writeJSON(w, h.status, h.body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"error":"internal","message":%q}`, err.Error()))
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
