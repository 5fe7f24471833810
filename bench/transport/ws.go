package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

// WS drives the bidirectional WebSocket protocol: each worker holds one session and speaks
// one utterance at a time on it.
type WS struct {
	endpoint string
	dialer   *websocket.Dialer
	// WordTimestamps asks for an audio message naming the words before each binary frame.
	WordTimestamps bool
}

// NewWS returns a transport for the server at baseURL; http(s) schemes are mapped to ws(s).
func NewWS(baseURL string) (*WS, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("parse base url %q: %w", baseURL, err)
	}
	switch u.Scheme {
	case "http", "ws":
		u.Scheme = "ws"
	case "https", "wss":
		u.Scheme = "wss"
	default:
		return nil, fmt.Errorf("base url %q: scheme must be http, https, ws or wss", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + api.RouteBidiStream
	d := *websocket.DefaultDialer
	return &WS{endpoint: u.String(), dialer: &d}, nil
}

func openWS(o Options) (Transport, error) {
	t, err := NewWS(o.BaseURL)
	if err != nil {
		return nil, err
	}
	t.WordTimestamps = o.WordTimestamps
	return t, nil
}

// Name implements bench.Transport.
func (t *WS) Name() string { return artifact.TransportWS }

// Close implements Transport: every session belongs to a worker, which closes it.
func (t *WS) Close() error { return nil }

// Dial implements bench.Transport.
func (t *WS) Dial(ctx context.Context) (bench.Conn, error) {
	c, resp, err := t.dialer.DialContext(ctx, t.endpoint, nil)
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			defer resp.Body.Close()
			return nil, readServerError(resp)
		}
		return nil, fmt.Errorf("dial %s: %w", t.endpoint, err)
	}
	return &wsConn{c: c, timestamps: t.WordTimestamps}, nil
}

type wsConn struct {
	c          *websocket.Conn
	timestamps bool
	closeOnce  sync.Once
}

func (w *wsConn) Close() error {
	var err error
	w.closeOnce.Do(func() {
		// Say goodbye politely, but never wait long on a peer that stopped reading.
		msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
		_ = w.c.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
		err = w.c.Close()
	})
	return err
}

func (w *wsConn) Synthesize(ctx context.Context, req bench.Request, onAudio func([]byte)) error {
	// gorilla's reads block without a context: closing the socket is what unblocks them. The
	// ladder then dials a fresh session, since this one is in an unknown state.
	stop := context.AfterFunc(ctx, func() { w.c.Close() })
	defer stop()

	msg := api.WSClientMessage{Text: req.Text, Voice: req.Voice, RequestID: req.ID, Timestamps: w.timestamps}
	if req.Speed != 0 {
		msg.Speed = &req.Speed
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	if err := w.c.WriteMessage(websocket.TextMessage, b); err != nil {
		return w.ctxErr(ctx, fmt.Errorf("send utterance: %w", err))
	}
	for {
		kind, data, err := w.c.ReadMessage()
		if err != nil {
			return w.ctxErr(ctx, fmt.Errorf("read session: %w", err))
		}
		if kind == websocket.BinaryMessage {
			if len(data) > 0 {
				onAudio(data)
			}
			continue
		}
		var sm api.WSServerMessage
		if err := json.Unmarshal(data, &sm); err != nil {
			return fmt.Errorf("decode server message: %w", err)
		}
		if sm.RequestID != "" && sm.RequestID != req.ID {
			// A message about another utterance means the session is out of step.
			return fmt.Errorf("server message %q for request %q while waiting for %q", sm.Type, sm.RequestID, req.ID)
		}
		switch sm.Type {
		case api.WSTypeSynthesisStart, api.WSTypeAudio:
		case api.WSTypeSynthesisComplete:
			if sm.Cancelled {
				return fmt.Errorf("server reported utterance %q cancelled", req.ID)
			}
			return nil
		case api.WSTypeError:
			return wsServerError(sm)
		}
	}
}

// ctxErr prefers the context's error: a read that failed because the context closed the
// socket should say so.
func (w *wsConn) ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// wsServerError maps a WebSocket error message onto the HTTP status the same verdict carries on
// POST /invocations, so outcomes classify alike on both transports. The machine-readable code
// is preferred; servers that predate it put queue_saturated in the message.
func wsServerError(sm api.WSServerMessage) error {
	code := sm.Code
	if code == "" && (sm.Message == api.ErrQueueSaturated || sm.Message == api.ErrRequestStale) {
		code = sm.Message
	}
	se := &bench.ServerError{Code: code, Message: sm.Message}
	switch code {
	case api.ErrQueueSaturated, api.ErrNotReady, api.ErrShuttingDown:
		se.Status = http.StatusServiceUnavailable
	case api.ErrRequestStale:
		se.Status = http.StatusRequestTimeout
	case "", api.ErrInternal:
		// No code, or the server's own failure.
		se.Status = http.StatusInternalServerError
	default:
		// Any other named code is the server judging the request itself (empty text, unknown
		// voice, …): bad input gets a 4xx on HTTP.
		se.Status = http.StatusBadRequest
	}
	return se
}
