package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/bench"
)

// SageMaker is what the sagemaker-* transports need from a SageMaker runtime client. Package
// sagemaker implements the calls with the AWS SDK and the CLI wires them in, so that the SDK
// stays out of the bench. Errors the service reported implement SageMakerFault (below); any
// other error is a transport failure.
type SageMaker struct {
	// InvokeStream sends body through InvokeEndpointWithResponseStream and calls onPart with
	// the bytes of each PayloadPart as it arrives.
	InvokeStream func(ctx context.Context, body []byte, onPart func([]byte)) error
	// OpenBidi opens an InvokeEndpointWithBidirectionalStream session.
	OpenBidi func(ctx context.Context) (BidiSession, error)
	// PreflightTimeout bounds the preflight (default DefaultPreflightTimeout): an endpoint
	// that takes the connection and never answers fails it in that time.
	PreflightTimeout time.Duration
	// Where names the runtime's address and the flag that set it, for the preflight's
	// messages ("http://127.0.0.1:8081 (--aws-endpoint-url)").
	Where string
}

// DefaultPreflightTimeout bounds the preflight's one short utterance on an idle endpoint.
const DefaultPreflightTimeout = 15 * time.Second

// BidiSession is one InvokeEndpointWithBidirectionalStream session.
type BidiSession interface {
	// Send sends one PayloadPart: DataType UTF8 when text, BINARY otherwise.
	Send(ctx context.Context, payload []byte, text bool) error
	// Recv returns the next message from the container and whether it is text; text split
	// over PARTIAL parts arrives joined. It is unblocked by Close.
	Recv() (payload []byte, text bool, err error)
	Close() error
}

// sageMakerFault is how a SageMaker client's error says what the service answered: its error
// code (ModelError, ThrottlingException, ModelStreamError, …), the HTTP status of the error
// response (0 for an event inside a stream), and for a ModelError the container's own status
// and body.
type sageMakerFault interface {
	error
	SageMakerFault() (code string, status, containerStatus int, containerBody string)
}

// sageMakerError maps an error of a SageMaker client onto the bench's outcomes:
//
//   - ModelError carries the container's verdict, so it classifies as that verdict would on
//     POST /invocations: 503 queue_saturated → saturated_503, 408 → stale_408, 4xx →
//     client_error, 5xx → server_5xx. A ModelError with status 0 (the container did not
//     answer within SageMaker's limit) is the server's failure: server_5xx.
//   - ThrottlingException → throttled_429: SageMaker refused the call before the container.
//   - ServiceUnavailable(Error) → saturated_503: the service refused the call for capacity, a
//     refusal like the admission gate's, which makes the rung saturated.
//   - ModelStreamError and InternalStreamFailure inside a stream → server_5xx. Both are
//     typed events on a stream that is itself intact: the service reports that the container
//     (ModelStreamError: it stopped or overran the limit) or SageMaker (InternalStreamFailure)
//     failed the request. transport_error stays for what the client's own connection did
//     (resets, truncation without any event), which says nothing about the server.
//   - ValidationError / InputValidationError and the signing errors → client_error when they
//     happen inside the ladder; the preflight stops the run on them before it starts.
//   - Anything else the service answered: its HTTP status.
//
// Errors that are not the service's (no connection, no credentials) are returned unchanged
// and classify as transport_error.
func sageMakerError(err error) error {
	var f sageMakerFault
	if !errors.As(err, &f) {
		return err
	}
	code, status, cstatus, cbody := f.SageMakerFault()
	se := &bench.ServerError{Code: code, Message: f.Error()}
	switch {
	case code == "ModelError":
		se.Status, se.Code, se.Message = containerVerdict(cstatus, cbody)
		if se.Status == 0 {
			se.Status = http.StatusGatewayTimeout
		}
	case code == "ThrottlingException" || code == "ThrottledException" || code == "TooManyRequestsException":
		se.Status = http.StatusTooManyRequests
	case code == "ServiceUnavailable" || code == "ServiceUnavailableError":
		se.Status = http.StatusServiceUnavailable
	case code == "ModelStreamError":
		se.Status = http.StatusBadGateway
	case code == "InternalStreamFailure" || code == "InternalFailure" || code == "InternalServerError" || code == "InternalDependencyException":
		se.Status = http.StatusInternalServerError
	case fatalSageMakerCode(code):
		se.Status = http.StatusBadRequest
	case status >= 400:
		se.Status = status
	default:
		se.Status = http.StatusBadGateway
	}
	return se
}

// containerVerdict reads the container's status and body out of a ModelError, keeping
// kokoro's JSON error code ({"error":"queue_saturated",…}) when the body has one.
func containerVerdict(status int, body string) (int, string, string) {
	var er api.ErrorResponse
	if json.Unmarshal([]byte(body), &er) == nil && er.Error != "" {
		return status, er.Error, er.Message
	}
	return status, "", strings.TrimSpace(body)
}

// fatalSageMakerCode reports the errors that say the run cannot measure anything: the
// endpoint or variant does not exist, the request is malformed, the caller is not allowed.
func fatalSageMakerCode(code string) bool {
	switch code {
	case "ValidationError", "InputValidationError", "ValidationException",
		"AccessDeniedException", "UnrecognizedClientException", "InvalidSignatureException",
		"IncompleteSignatureException", "MissingAuthenticationTokenException", "ExpiredTokenException",
		"InvalidClientTokenId", "UnknownOperationException":
		return true
	}
	return false
}

// Preflight runs a transport's check before the ladder when it has one: the SageMaker
// transports speak one short utterance and stop the run on an error that no rung could
// survive (an unknown endpoint or variant, refused credentials, an unreachable service).
// Refusals a busy endpoint gives (throttling, a saturated container) pass.
func Preflight(ctx context.Context, t Transport) error {
	p, ok := t.(interface{ Preflight(context.Context) error })
	if !ok {
		return nil
	}
	return p.Preflight(ctx)
}

// preflightText is the utterance of the preflight.
const preflightText = "Ready."

func preflight(parent context.Context, t bench.Transport, sm *SageMaker) error {
	if sm == nil {
		sm = &SageMaker{}
	}
	limit := sm.PreflightTimeout
	if limit <= 0 {
		limit = DefaultPreflightTimeout
	}
	ctx, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	conn, err := t.Dial(ctx)
	if err == nil {
		err = conn.Synthesize(ctx, bench.Request{ID: "preflight", Text: preflightText}, func([]byte) {})
		conn.Close()
	}
	if err == nil {
		return nil
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
		where := sm.Where
		if where == "" {
			where = "the SageMaker runtime"
		}
		return fmt.Errorf("%s preflight: timeout: no audio from %s within %v: the endpoint took the request and sent nothing back; check that the address is the SageMaker runtime (kokoro emulate, a VPC endpoint) and that the endpoint's containers answer /invocations", t.Name(), where, limit)
	}
	var se *bench.ServerError
	if errors.As(err, &se) {
		if fatalSageMakerCode(se.Code) || (se.Status >= 400 && se.Status < 500 && se.Status != http.StatusTooManyRequests && se.Status != http.StatusRequestTimeout) {
			return fmt.Errorf("%s preflight: the endpoint refused the request, so no rung could measure anything: %w", t.Name(), err)
		}
		return nil
	}
	return fmt.Errorf("%s preflight: %w", t.Name(), err)
}

// invocationBody is the JSON of POST /invocations for a request, which sagemaker-stream sends
// as the invocation body.
// timestamp, when set, supplies request_timestamp (Options.Timestamp).
func invocationBody(req bench.Request, timestamp func() float64) ([]byte, error) {
	stream := true
	body := api.InvocationRequest{Text: req.Text, Voice: req.Voice, Stream: &stream, Format: api.FormatWAV, RequestID: req.ID}
	if req.Speed != 0 {
		body.Speed = &req.Speed
	}
	if timestamp != nil {
		ts := timestamp()
		body.RequestTimestamp = &ts
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	return b, nil
}
