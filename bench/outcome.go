package bench

import (
	"errors"
	"fmt"
	"net/http"
)

// Outcome classifies how one request ended.
type Outcome string

// Outcomes of a request. The first six are the classes of SPEC §4; ClientError marks a 4xx the
// bench caused itself (bad text, unknown voice), kept apart so a misconfigured run is obvious
// instead of hiding among transport errors; Cancelled marks requests cut short by the user
// interrupting the ladder, which are excluded from every statistic.
const (
	OK             Outcome = "ok"
	Saturated503   Outcome = "saturated_503"
	Stale408       Outcome = "stale_408"
	Throttled429   Outcome = "throttled_429"
	Server5xx      Outcome = "server_5xx"
	TransportError Outcome = "transport_error"
	ClientError    Outcome = "client_4xx"
	Cancelled      Outcome = "cancelled"
)

// Outcomes lists every outcome in report order.
var outcomeOrder = [...]Outcome{OK, Saturated503, Stale408, Throttled429, Server5xx, TransportError, ClientError, Cancelled}

// Outcomes returns every outcome in report order.
func Outcomes() []Outcome { return append([]Outcome(nil), outcomeOrder[:]...) }

// Rejection reports whether the server refused the request without doing its work, which is
// what the saturation check of a rung counts.
func (o Outcome) Rejection() bool { return o == Saturated503 || o == Throttled429 }

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

// Classify maps the error a Conn returned to an Outcome. interrupted tells whether the user
// stopped the ladder: a request that then failed without a server verdict was cut short by the
// interruption (whatever error the protocol surfaced for it), so it is Cancelled, not a failure.
func Classify(err error, interrupted bool) Outcome {
	if err == nil {
		return OK
	}
	var se *ServerError
	if errors.As(err, &se) {
		switch {
		case se.Status == http.StatusServiceUnavailable:
			return Saturated503
		case se.Status == http.StatusRequestTimeout:
			return Stale408
		case se.Status == http.StatusTooManyRequests:
			return Throttled429
		case se.Status >= 500:
			return Server5xx
		case se.Status >= 400:
			return ClientError
		}
		return TransportError
	}
	if interrupted {
		return Cancelled
	}
	return TransportError
}
