package transport

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/bench"
)

// standIn is a server with a known service law: one model slot, a fixed service time per
// request, then the audio. Channel sends queue in FIFO order, so requests are served first come
// first served, and in a closed loop with N clients each request waits for the N−1 ahead of it:
// TTFAB ≈ N·service.
type standIn struct {
	service time.Duration
	// maxDepth, when >0, refuses requests beyond this many in the system with 503.
	maxDepth int
	// pieces of audio sent after the service time, each after its delay.
	pieces []piece
	// heard, when set, holds the pieces after the first until the client has the first: their
	// delays start once a receive from heard succeeds (heardTransport sends on it). For one
	// client at a time.
	heard chan struct{}

	slot     chan struct{}
	inSystem atomic.Int64
	requests atomic.Int64
	sessions sync.WaitGroup // WebSocket sessions, which httptest.Server.Close does not wait for
}

type piece struct {
	delay time.Duration
	audio time.Duration
}

func newStandIn(service time.Duration, pieces ...piece) *standIn {
	if len(pieces) == 0 {
		pieces = []piece{{0, 300 * time.Millisecond}, {0, 300 * time.Millisecond}}
	}
	return &standIn{service: service, pieces: pieces, slot: make(chan struct{}, 1)}
}

// bytesPerSecond of the PCM16 mono stream the stand-in sends.
const bytesPerSecond = 2 * api.SampleRate

func pcm(d time.Duration) []byte {
	return make([]byte, int(d.Seconds()*bytesPerSecond)&^1)
}

func wavHeader() []byte {
	h := audio.StreamingWAVHeader(audio.Mono24k)
	return h
}

// admit applies the admission bound; done must be called when the request leaves.
func (s *standIn) admit() (ok bool, depth int, done func()) {
	s.requests.Add(1)
	n := s.inSystem.Add(1)
	if s.maxDepth > 0 && int(n) > s.maxDepth {
		s.inSystem.Add(-1)
		return false, int(n - 1), func() {}
	}
	return true, int(n), func() { s.inSystem.Add(-1) }
}

// serve waits for the slot and the service time; false when the client went away.
func (s *standIn) serve(done <-chan struct{}) bool {
	select {
	case s.slot <- struct{}{}:
	case <-done:
		return false
	}
	defer func() { <-s.slot }()
	t := time.NewTimer(s.service)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}

func (s *standIn) sendPieces(done <-chan struct{}, send func([]byte) error) bool {
	for i, p := range s.pieces {
		if i == 1 && s.heard != nil {
			select {
			case <-s.heard:
			case <-done:
				return false
			}
		}
		if p.delay > 0 {
			select {
			case <-time.After(p.delay):
			case <-done:
				return false
			}
		}
		if send(pcm(p.audio)) != nil {
			return false
		}
	}
	return true
}

func (s *standIn) handleHTTP(w http.ResponseWriter, r *http.Request) {
	var req api.InvocationRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Text == "" {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(api.ErrorResponse{Error: "bad_request"})
		return
	}
	ok, depth, done := s.admit()
	defer done()
	if !ok {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(api.ErrorResponse{Error: api.ErrQueueSaturated, QueueDepth: &depth, MaxQueueDepth: &s.maxDepth})
		return
	}
	if !s.serve(r.Context().Done()) {
		return
	}
	w.Header().Set("Content-Type", "audio/wav")
	w.WriteHeader(http.StatusOK)
	fl := w.(http.Flusher)
	send := func(b []byte) error {
		if _, err := w.Write(b); err != nil {
			return err
		}
		fl.Flush()
		return nil
	}
	if send(wavHeader()) != nil {
		return
	}
	s.sendPieces(r.Context().Done(), send)
}

func (s *standIn) handleWS(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{}
	c, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	// Hijacked connections outlive httptest.Server.Close, so the session watches the socket
	// itself: when the client goes away, done closes and any wait in progress ends.
	done := make(chan struct{})
	msgs := make(chan api.WSClientMessage)
	go func() {
		defer close(done)
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			var m api.WSClientMessage
			if json.Unmarshal(data, &m) != nil || m.Type == api.WSTypeClose {
				return
			}
			select {
			case msgs <- m:
			case <-r.Context().Done():
				return
			}
		}
	}()
	defer func() { c.Close(); <-done }()
	for {
		var m api.WSClientMessage
		select {
		case m = <-msgs:
		case <-done:
			return
		}
		ok, depth, leave := s.admit()
		if !ok {
			c.WriteJSON(api.WSServerMessage{Type: api.WSTypeError, RequestID: m.RequestID, Message: api.ErrQueueSaturated, QueueDepth: &depth})
			continue
		}
		// The stand-in serves one utterance of a session at a time, as the ladder sends them.
		served := s.serve(done)
		if served {
			c.WriteJSON(api.WSServerMessage{Type: api.WSTypeSynthesisStart, RequestID: m.RequestID})
			served = s.sendPieces(done, func(b []byte) error { return c.WriteMessage(websocket.BinaryMessage, b) })
		}
		leave()
		if !served {
			return
		}
		c.WriteJSON(api.WSServerMessage{Type: api.WSTypeSynthesisComplete, RequestID: m.RequestID, TotalDurationS: 0.6})
	}
}

// start serves the stand-in over HTTP and WebSocket until the test ends.
func (s *standIn) start(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+api.RouteInvocations, s.handleHTTP)
	mux.HandleFunc("GET "+api.RouteBidiStream, func(w http.ResponseWriter, r *http.Request) {
		s.sessions.Add(1)
		defer s.sessions.Done()
		s.handleWS(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); s.sessions.Wait() })
	return srv.URL
}

// heardTransport tells a stand-in when its client has received the first audio of each
// response: after the ladder's own callback has timed it, the client hands a token to
// standIn.heard, so the stand-in's later delays are measured from the client's arrival time.
type heardTransport struct {
	bench.Transport
	heard chan<- struct{}
}

func (h heardTransport) Dial(ctx context.Context) (bench.Conn, error) {
	c, err := h.Transport.Dial(ctx)
	if err != nil {
		return nil, err
	}
	return heardConn{c, h.heard}, nil
}

type heardConn struct {
	bench.Conn
	heard chan<- struct{}
}

func (h heardConn) Synthesize(ctx context.Context, req bench.Request, onAudio func(pcm []byte)) error {
	first := true
	return h.Conn.Synthesize(ctx, req, func(pcm []byte) {
		onAudio(pcm)
		if first {
			first = false
			select {
			case h.heard <- struct{}{}:
			case <-ctx.Done():
			}
		}
	})
}

// transportFor builds the named transport from the registry against url and closes it when
// the test ends.
func transportFor(t *testing.T, name, url string, maxConns int) bench.Transport {
	t.Helper()
	tr, err := New(name, Options{BaseURL: url, MaxConns: maxConns})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}
