package bench

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/kokoro-sm/kokoro/artifact"
)

// ServerError is a refusal or failure the server reported through its protocol: an HTTP status
// with a JSON error body, or a WebSocket error message. Transports return it so that the ladder
// can classify outcomes without knowing the protocol.
type ServerError struct {
	Status  int    // HTTP status, or the equivalent for a protocol that has none
	Code    string // machine-readable error code, e.g. "queue_saturated"
	Message string // human-readable detail, if any
}

func (e *ServerError) Error() string {
	msg := fmt.Sprintf("server answered %d", e.Status)
	if e.Code != "" {
		msg += " " + e.Code
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Classify maps the error a Conn returned to an outcome. interrupted tells whether the user
// stopped the ladder: a request that then failed without a server verdict was cut short by the
// interruption (whatever error the protocol surfaced for it), so it is cancelled, not a failure.
func Classify(err error, interrupted bool) artifact.Outcome {
	if err == nil {
		return artifact.OutcomeOK
	}
	var se *ServerError
	if errors.As(err, &se) {
		switch {
		case se.Status == http.StatusServiceUnavailable:
			return artifact.OutcomeSaturated503
		case se.Status == http.StatusRequestTimeout:
			return artifact.OutcomeStale408
		case se.Status == http.StatusTooManyRequests:
			return artifact.OutcomeThrottled429
		case se.Status >= 500:
			return artifact.OutcomeServer5xx
		case se.Status >= 400:
			return artifact.OutcomeClientError
		}
		return artifact.OutcomeTransportError
	}
	if interrupted {
		return artifact.OutcomeCancelled
	}
	return artifact.OutcomeTransportError
}
