package emulate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

// The bidirectional stream (service "SageMaker Runtime HTTP2", model
// sagemaker-runtime-http2-2025-10-01) bridges a client's HTTP/2 event stream to a WebSocket
// on the container: each request PayloadPart becomes one WebSocket message, text for DataType
// UTF8 and binary otherwise, and each message the container sends comes back as one
// PayloadPart with the matching DataType ("Introducing bidirectional streaming for real-time
// inference on Amazon SageMaker AI", AWS Machine Learning Blog, 2025). SageMaker never looks
// inside the payloads.

// defaultBidiPath is where SageMaker connects on the container when the client names no
// ModelInvocationPath.
const defaultBidiPath = "invocations-bidirectional-stream"

// Patterns and lengths of the request headers (the model's @pattern and @length traits).
var (
	invocationPathRE = regexp.MustCompile(`^[A-Za-z0-9\-._]+(?:/[A-Za-z0-9\-._]+)*$`)
	queryStringRE    = regexp.MustCompile(`^[a-zA-Z0-9][A-Za-z0-9_-]*=(?:[A-Za-z0-9._~\-]|%[0-9A-Fa-f]{2})+(?:&[a-zA-Z0-9][A-Za-z0-9_-]*=(?:[A-Za-z0-9._~\-]|%[0-9A-Fa-f]{2})+)*$`)
)

func (e *Emulator) handleBidi(w http.ResponseWriter, r *http.Request) {
	if r.ProtoMajor != 2 {
		writeError(w, http.StatusBadRequest, "InputValidationError", "InvokeEndpointWithBidirectionalStream is served over HTTP/2 only")
		return
	}
	if !e.checkAuth(w, r, true) {
		return
	}
	path, query := r.Header.Get(headerInvocationPath), r.Header.Get(headerQueryString)
	if path != "" && (len(path) > 100 || !invocationPathRE.MatchString(path)) {
		writeError(w, http.StatusBadRequest, "InputValidationError", "ModelInvocationPath does not match "+invocationPathRE.String())
		return
	}
	if query != "" && (len(query) > 2048 || !queryStringRE.MatchString(query)) {
		writeError(w, http.StatusBadRequest, "InputValidationError", "ModelQueryString does not match "+queryStringRE.String())
		return
	}
	if r.Header.Get("Content-Type") != smruntime.EventStreamContentType {
		writeError(w, http.StatusBadRequest, "InputValidationError", "the request body is an event stream: Content-Type "+smruntime.EventStreamContentType)
		return
	}
	v, in, ok := e.route(w, r, "InputValidationError")
	if !ok {
		return
	}
	if e.throttled(w) {
		return
	}
	release := in.acquire()
	defer release()

	if path == "" {
		path = defaultBidiPath
	}
	u := *in.base
	u.Scheme = map[string]string{"http": "ws", "https": "wss"}[u.Scheme]
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + path
	u.RawQuery = query
	dctx, cancel := context.WithTimeout(r.Context(), min(e.cfg.InvocationTimeout, 30*time.Second))
	ws, resp, err := websocket.DefaultDialer.DialContext(dctx, u.String(), nil)
	cancel()
	if err != nil {
		status, body := 0, err.Error()
		if resp != nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			status, body = resp.StatusCode, string(b)
		}
		e.writeModelError(w, status, body)
		return
	}
	defer ws.Close()

	h := w.Header()
	h.Set("Content-Type", smruntime.EventStreamContentType)
	h.Set(headerInvokedVariant, v.name)
	h.Set(headerRequestID, requestID())
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil {
		return
	}
	ew := smruntime.NewEventWriter(w, rc.Flush)

	sctx, cancelSession := context.WithCancel(r.Context())
	defer cancelSession()
	if e.cfg.SessionTimeout > 0 {
		var c context.CancelFunc
		sctx, c = context.WithTimeout(sctx, e.cfg.SessionTimeout)
		defer c()
	}
	// Closing the socket is what unblocks gorilla's reads.
	stop := context.AfterFunc(sctx, func() { ws.Close() })
	defer stop()

	up := &upstream{ws: ws}
	var wg sync.WaitGroup
	wg.Go(func() { up.run(smruntime.NewRequestReader(r.Body)) })
	defer func() {
		// The request body's reader unblocks once the body is closed.
		r.Body.Close()
		ws.Close()
		wg.Wait()
	}()

	failAfterFirst := e.draw(e.cfg.Faults.StreamFailure)
	for {
		kind, msg, err := ws.ReadMessage()
		if err != nil {
			e.endSession(ew, sctx, r.Context(), up, in, err)
			return
		}
		dt := smruntime.DataTypeBinary
		if kind == websocket.TextMessage {
			dt = smruntime.DataTypeUTF8
		}
		if err := ew.Part(smruntime.Part{Bytes: msg, DataType: dt, CompletionState: smruntime.CompletePart}); err != nil {
			return // the client went away
		}
		if failAfterFirst {
			_ = ew.Exception(smruntime.StreamException{Type: smruntime.ExceptionInternalStreamFailure, Message: msgInternalStreamFailure})
			return
		}
	}
}

// endSession ends the response after the container's socket stopped: quietly when the client
// had ended its stream or went away, with ModelStreamError otherwise.
func (e *Emulator) endSession(ew *smruntime.EventWriter, sctx, rctx context.Context, up *upstream, in *instance, err error) {
	switch {
	case rctx.Err() != nil:
		return
	case errors.Is(sctx.Err(), context.DeadlineExceeded):
		_ = ew.Exception(smruntime.StreamException{Type: smruntime.ExceptionModelStreamError, ErrorCode: smruntime.StreamErrorTimeout, Message: msgStreamTimeout})
		return
	case up.endedCleanly() && websocket.IsCloseError(err, websocket.CloseNormalClosure, websocket.CloseGoingAway):
		return
	}
	if bad := up.failure(); bad != nil {
		_ = ew.Exception(smruntime.StreamException{Type: "InputValidationError", Message: bad.Error()})
		return
	}
	e.log.Warn("container session broken", "instance", in.base.String(), "err", err)
	_ = ew.Exception(smruntime.StreamException{Type: smruntime.ExceptionModelStreamError, ErrorCode: smruntime.StreamErrorBroken, Message: msgStreamBroken})
}

// upstream carries the client's events to the container's socket.
type upstream struct {
	ws    *websocket.Conn
	mu    sync.Mutex
	ended bool  // the client sent its end-of-stream frame
	err   error // the client's stream was malformed
}

func (u *upstream) run(rr *smruntime.RequestReader) {
	for {
		p, err := rr.Next()
		if errors.Is(err, io.EOF) {
			u.mu.Lock()
			u.ended = true
			u.mu.Unlock()
			msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			_ = u.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			return
		}
		if err != nil {
			if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, http.ErrBodyReadAfterClose) {
				u.mu.Lock()
				u.err = fmt.Errorf("request stream: %w", err)
				u.mu.Unlock()
			}
			u.ws.Close()
			return
		}
		kind := websocket.BinaryMessage
		if p.Text() {
			kind = websocket.TextMessage
		}
		if err := u.ws.WriteMessage(kind, p.Bytes); err != nil {
			return // the socket is gone; the reading side reports it
		}
	}
}

func (u *upstream) endedCleanly() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.ended
}

func (u *upstream) failure() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.err
}
