package emulate_test

import (
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
)

// container stands in for a model container on the SageMaker contract with behaviour a test
// chooses: a streamed WAV on /invocations, kokoro's WebSocket protocol on
// /invocations-bidirectional-stream, and the failures SageMaker must report.
type container struct {
	status int           // non-zero: /invocations and the WebSocket handshake answer it, with body
	body   string        // the error body
	chunks int           // PCM chunks after the WAV header (default 3)
	every  time.Duration // pause before each chunk
	stall  time.Duration // pause before the response starts
	// killAfter > 0 cuts the connection after that many chunks, as a dying container does.
	killAfter int
	// hold, when set, keeps each request open until it is closed (for spreading tests).
	hold chan struct{}
	// step, when set, is received from before each chunk: a test that sends on it as each
	// part reaches the client runs the stream in lockstep.
	step chan struct{}

	inFlight, peak atomic.Int64
	requests       atomic.Int64
	mu             sync.Mutex
	lastHeader     http.Header
	lastURL        string
	sessions       sync.WaitGroup
}

const chunkBytes = 2400 // 50 ms of PCM16 at 24 kHz

func wavHeader() []byte {
	h := audio.StreamingWAVHeader(audio.Mono24k)
	return h
}

func (c *container) nChunks() int {
	if c.chunks == 0 {
		return 3
	}
	return c.chunks
}

func (c *container) enter(r *http.Request) func() {
	c.requests.Add(1)
	n := c.inFlight.Add(1)
	for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
	}
	c.mu.Lock()
	c.lastHeader, c.lastURL = r.Header.Clone(), r.URL.String()
	c.mu.Unlock()
	return func() { c.inFlight.Add(-1) }
}

func (c *container) start(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /invocations", c.invocations)
	mux.HandleFunc("GET /", c.bidi)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		if c.hold != nil {
			select {
			case <-c.hold:
			default:
				close(c.hold)
			}
		}
		srv.CloseClientConnections()
		srv.Close()
		c.sessions.Wait()
	})
	return srv.URL
}

func (c *container) invocations(w http.ResponseWriter, r *http.Request) {
	defer c.enter(r)()
	if c.hold != nil {
		select {
		case <-c.hold:
		case <-r.Context().Done():
			return
		}
	}
	if !sleep(r, c.stall) {
		return
	}
	if c.status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(c.status)
		_, _ = w.Write([]byte(c.body))
		return
	}
	w.Header().Set("Content-Type", "audio/wav")
	_, _ = w.Write(wavHeader())
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	for i := range c.nChunks() {
		if c.killAfter > 0 && i == c.killAfter {
			panic(http.ErrAbortHandler) // the connection is cut without the final chunk
		}
		if !sleep(r, c.every) {
			return
		}
		if c.step != nil {
			select {
			case <-c.step:
			case <-r.Context().Done():
				return
			}
		}
		_, _ = w.Write(make([]byte, chunkBytes))
		_ = rc.Flush()
	}
}

func sleep(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
		return false
	}
}

func (c *container) bidi(w http.ResponseWriter, r *http.Request) {
	defer c.enter(r)()
	if c.status != 0 {
		w.WriteHeader(c.status)
		_, _ = w.Write([]byte(c.body))
		return
	}
	ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c.sessions.Add(1)
	defer c.sessions.Done()
	defer ws.Close()
	for {
		kind, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		if kind != websocket.TextMessage {
			_ = ws.WriteJSON(api.WSServerMessage{Type: api.WSTypeError, Message: "binary frame"})
			continue
		}
		var m api.WSClientMessage
		if err := json.Unmarshal(data, &m); err != nil {
			_ = ws.WriteJSON(api.WSServerMessage{Type: api.WSTypeError, Message: "bad json"})
			continue
		}
		if c.hold != nil {
			<-c.hold
		}
		time.Sleep(c.stall)
		_ = ws.WriteJSON(api.WSServerMessage{Type: api.WSTypeSynthesisStart, RequestID: m.RequestID})
		for i := range c.nChunks() {
			if c.killAfter > 0 && i == c.killAfter {
				ws.NetConn().Close()
				return
			}
			time.Sleep(c.every)
			if err := ws.WriteMessage(websocket.BinaryMessage, make([]byte, chunkBytes)); err != nil {
				return // the session is gone
			}
		}
		_ = ws.WriteJSON(api.WSServerMessage{Type: api.WSTypeSynthesisComplete, RequestID: m.RequestID})
	}
}
