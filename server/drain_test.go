package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
)

// Item 7: while draining, the server keeps accepting connections and says so — /ping 503
// "draining", new work 503 shutting_down — instead of refusing them.
func TestDrainingServerAnswers503(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	h := newHarness(t, func(c *Config, s *fakeSynth) { c.DrainTimeout, s.slots, s.hold = 5*time.Second, 1, hold })
	h.waitReady()
	inflight := make(chan *http.Response, 1)
	go func() {
		resp, err := client(t).Post(h.url+api.RouteInvocations, "application/json", strings.NewReader(`{"text":"Held."}`))
		if err == nil {
			inflight <- resp
		}
		close(inflight)
	}()
	eventually(t, waitLimit, "admitted", func() bool { return h.srv.gate.depth() == 1 })
	done := make(chan error, 1)
	go func() { done <- h.shutdown() }()
	eventually(t, waitLimit, "draining", func() bool { return h.srv.draining.Load() })
	c := client(t)
	for range 3 { // every time, not only the first: the listener stays open
		resp, err := c.Get(h.url + api.RoutePing)
		if err != nil {
			t.Fatalf("/ping while draining: %v, want a 503 answer", err)
		}
		if b := readAll(t, resp); resp.StatusCode != 503 || !strings.Contains(string(b), "draining") {
			t.Errorf("/ping while draining: %d %s", resp.StatusCode, b)
		}
		resp = post(t, c, h.url+api.RouteOpenAISpeech, `{"input":"Too late."}`)
		if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 503 || e.Error != api.ErrShuttingDown || resp.Header.Get("Retry-After") == "" {
			t.Errorf("new work while draining: %d %+v", resp.StatusCode, e)
		}
		time.Sleep(50 * time.Millisecond)
	}
	close(hold)
	resp := <-inflight
	if resp == nil {
		t.Fatal("the admitted request failed")
	}
	if b := readAll(t, resp); resp.StatusCode != 200 || len(b) != audio.WAVHeaderSize+2*wantSamples("Held.") {
		t.Errorf("admitted request: %d, %d bytes", resp.StatusCode, len(b))
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// Item 7: work that does not fit in the drain budget ends so that each client can tell: a
// request that has sent nothing gets 503 shutting_down, a stream is cut (an unterminated
// chunked body: the client reads an unexpected EOF), a WebSocket utterance gets an error and
// the session a 1001 close frame. Serve returns within the budget.
func TestDrainBudgetCutsDetectably(t *testing.T) {
	t.Parallel()
	const budget = 1500 * time.Millisecond
	h := newHarness(t, func(c *Config, s *fakeSynth) { c.DrainTimeout, s.slots, s.delay = budget, 2, 150*time.Millisecond })
	h.waitReady()
	long := sentences(400, 10) // a minute of synthesis: never fits
	c := client(t)

	streamed := post(t, c, h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q}`, long))
	head := make([]byte, audio.WAVHeaderSize+1)
	if _, err := io.ReadFull(streamed.Body, head); err != nil {
		t.Fatal(err)
	}
	whole := make(chan *http.Response, 1)
	go func() {
		resp, err := c.Post(h.url+api.RouteInvocations, "application/json", strings.NewReader(fmt.Sprintf(`{"text":%q,"stream":false}`, long)))
		if err != nil {
			t.Errorf("complete request: %v", err)
		}
		whole <- resp
	}()
	ws := dialWS(t, h)
	sendJSON(t, ws, websocket.TextMessage, api.WSClientMessage{Text: long, RequestID: "w"})
	sendJSON(t, ws, websocket.TextMessage, api.WSClientMessage{Text: "Queued behind.", RequestID: "q"})
	var tr transcript
	read(t, ws, &tr, func(tr *transcript) bool { return tr.pcm["w"] > 0 })
	eventually(t, waitLimit, "all admitted", func() bool { return h.srv.gate.depth() == 4 })

	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- h.shutdown() }()

	if _, err := io.ReadAll(streamed.Body); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("streamed response cut by the drain: %v, want an unexpected EOF", err)
	}
	streamed.Body.Close()
	if resp := <-whole; resp != nil {
		e := decodeError(t, readAll(t, resp))
		if resp.StatusCode != 503 || e.Error != api.ErrShuttingDown {
			t.Errorf("complete request cut by the drain: %d %+v, want 503 shutting_down", resp.StatusCode, e)
		}
	}
	var closeErr error
	_ = ws.SetReadDeadline(time.Now().Add(waitLimit))
	for closeErr == nil {
		mt, b, err := ws.ReadMessage()
		if err != nil {
			closeErr = err
			break
		}
		if mt == websocket.TextMessage {
			tr.order = append(tr.order, string(b))
		}
	}
	var got []string
	for _, line := range tr.order {
		var m api.WSServerMessage
		if json.Unmarshal([]byte(line), &m) == nil && m.Type != "" {
			got = append(got, m.Type+":"+m.RequestID+":"+m.Code)
		}
	}
	if want := "error:w:shutting_down synthesis_start:q: error:q:shutting_down"; strings.Join(got, " ") != want {
		t.Errorf("websocket messages after the cut: %v, want %s", got, want)
	}
	if !websocket.IsCloseError(closeErr, websocket.CloseGoingAway) {
		t.Errorf("websocket ended with %v, want close 1001", closeErr)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
	// The cut is timed on the server's clock; how long after it Serve returns depends on how
	// busy the machine is. The bound only catches a server that waited for the work, which
	// would take a minute.
	if d := time.Since(start); d > budget+waitLimit {
		t.Errorf("Serve returned %v after the shutdown began, the budget is %v", d, budget)
	}
}
