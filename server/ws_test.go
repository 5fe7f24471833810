package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
)

func dialWS(t *testing.T, h *harness) *websocket.Conn {
	t.Helper()
	url := "ws" + strings.TrimPrefix(h.url, "http") + api.RouteBidiStream
	d := *websocket.DefaultDialer
	if pl, ok := h.ln.(*pipeListener); ok {
		d.Proxy, d.NetDialContext = nil, pl.DialContext
	}
	conn, resp, err := d.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v (%v)", url, err, resp)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func sendJSON(t *testing.T, c *websocket.Conn, frame int, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteMessage(frame, b); err != nil {
		t.Fatal(err)
	}
}

// transcript is what a client saw: control messages in order, and PCM bytes per request
// (binary frames belong to the utterance of the last synthesis_start).
type transcript struct {
	current string
	msgs    []api.WSServerMessage
	pcm     map[string]int
	order   []string // "start:id", "audio:id", "complete:id", "error:id"
}

// read collects messages until stop says the transcript is complete.
func read(t *testing.T, c *websocket.Conn, tr *transcript, stop func(*transcript) bool) {
	t.Helper()
	if tr.pcm == nil {
		tr.pcm = map[string]int{}
	}
	for !stop(tr) {
		_ = c.SetReadDeadline(time.Now().Add(waitLimit))
		mt, b, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read after %v: %v", tr.order, err)
		}
		if mt == websocket.BinaryMessage {
			if tr.current == "" {
				t.Fatal("audio frame outside an utterance")
			}
			if n := len(tr.order); n == 0 || tr.order[n-1] != "audio:"+tr.current {
				tr.order = append(tr.order, "audio:"+tr.current)
			}
			tr.pcm[tr.current] += len(b)
			continue
		}
		var m api.WSServerMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("text frame %q is not JSON: %v", b, err)
		}
		tr.msgs = append(tr.msgs, m)
		kind := map[string]string{api.WSTypeSynthesisStart: "start", api.WSTypeSynthesisComplete: "complete", api.WSTypeError: "error"}[m.Type]
		tr.order = append(tr.order, kind+":"+m.RequestID)
		switch m.Type {
		case api.WSTypeSynthesisStart:
			tr.current = m.RequestID
		case api.WSTypeSynthesisComplete:
			tr.current = ""
		}
	}
}

func completed(n int) func(*transcript) bool {
	return func(tr *transcript) bool {
		c := 0
		for _, m := range tr.msgs {
			if m.Type == api.WSTypeSynthesisComplete || m.Type == api.WSTypeError {
				c++
			}
		}
		return c >= n
	}
}

func (tr *transcript) find(typ, id string) *api.WSServerMessage {
	for i := range tr.msgs {
		if tr.msgs[i].Type == typ && tr.msgs[i].RequestID == id {
			return &tr.msgs[i]
		}
	}
	return nil
}

func TestWebSocketSpeaksSeveralUtterancesFromTextAndBinaryFrames(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialWS(t, h)
	texts := map[string]string{"u1": "First utterance.", "u2": "Second one, sent as a binary frame.", "u3": "Third. With two sentences."}
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: texts["u1"], RequestID: "u1"})
	sendJSON(t, c, websocket.BinaryMessage, api.WSClientMessage{Text: texts["u2"], RequestID: "u2", Voice: "am_adam"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "speak", Text: texts["u3"], RequestID: "u3", Speed: ptr(1.25)})
	var tr transcript
	read(t, c, &tr, completed(3))
	want := "start:u1 audio:u1 complete:u1 start:u2 audio:u2 complete:u2 start:u3 audio:u3 complete:u3"
	if got := strings.Join(tr.order, " "); got != want {
		t.Fatalf("order = %s\nwant    %s", got, want)
	}
	for id, text := range texts {
		if tr.pcm[id] != 2*wantSamples(text) {
			t.Errorf("%s: %d PCM bytes, want %d", id, tr.pcm[id], 2*wantSamples(text))
		}
		m := tr.find(api.WSTypeSynthesisComplete, id)
		if dur := float64(wantSamples(text)) / 24000; m.TotalDurationS < dur-1e-6 || m.TotalDurationS > dur+1e-6 || m.ElapsedS <= 0 || m.Cancelled {
			t.Errorf("%s complete = %+v, want total_duration_s %v", id, m, dur)
		}
	}
	// {"type":"close"} ends the session with a normal close frame.
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "close"})
	_ = c.SetReadDeadline(time.Now().Add(waitLimit))
	_, _, err := c.ReadMessage()
	if !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
		t.Errorf("after close: %v, want a normal close frame", err)
	}
	if got := testutil.ToFloat64(h.srv.Metrics().Requests.WithLabelValues(labelBidi, OutcomeOK)); got != 3 {
		t.Errorf("bidi ok = %v, want 3", got)
	}
}

func ptr[T any](v T) *T { return &v }

// The model speaks the first chunk of "long" and holds the rest until "long" has ended, so the
// cancel always lands midway; after that, whatever of "long" was not withdrawn would run.
func TestWebSocketCancelStopsOneUtteranceMidway(t *testing.T) {
	t.Parallel()
	held, release := holdAfter(1)
	defer release()
	h := newHarness(t, held, func(_ *Config, s *fakeSynth) { s.slots = 1 })
	h.waitReady()
	c := dialWS(t, h)
	long := sentences(20, 10)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: long, RequestID: "long"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "After the barge in.", RequestID: "next"})
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.pcm["long"] > 0 })
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "cancel", RequestID: "long"})
	read(t, c, &tr, completed(1))
	release()
	read(t, c, &tr, completed(2))
	m := tr.find(api.WSTypeSynthesisComplete, "long")
	if m == nil || !m.Cancelled {
		t.Fatalf("long: %+v, want synthesis_complete with cancelled", m)
	}
	if tr.pcm["long"] >= 2*wantSamples(long) {
		t.Errorf("cancelled utterance sent all its audio (%d bytes)", tr.pcm["long"])
	}
	// Without timestamps asked for: no audio messages, and still the report of what was sent,
	// in the bytes received, the words sent whole and the next one.
	if tr.find(api.WSTypeAudio, "long") != nil {
		t.Error("audio messages sent to a client that did not ask for timestamps")
	}
	if s := m.Sent; s == nil || 2*s.Samples != tr.pcm["long"] || s.Words == 0 || s.LastWord == nil || s.LastWord.End > s.Samples ||
		s.LastWord.Index != s.Words-1 || s.CutWord == nil || s.CutWord.Index != s.Words || s.CutWord.Word != strings.Fields(long)[s.Words] {
		t.Errorf("sent report %+v after %d bytes", m.Sent, tr.pcm["long"])
	}
	if n := tr.find(api.WSTypeSynthesisComplete, "next"); n == nil || n.Cancelled || tr.pcm["next"] != 2*wantSamples("After the barge in.") {
		t.Errorf("the utterance after the cancel: %+v with %d bytes", n, tr.pcm["next"])
	}
	if calls := h.syn.calls.Load(); calls >= 20 {
		t.Errorf("model ran %d chunks; the cancelled ones should have been withdrawn", calls)
	}
}

// The model speaks the first chunk of "a" and holds the rest, so the cancel finds "a" midway
// and "b" waiting.
func TestWebSocketCancelWithoutIDStopsEverything(t *testing.T) {
	t.Parallel()
	held, release := holdAfter(1)
	defer release()
	h := newHarness(t, held, func(_ *Config, s *fakeSynth) { s.slots = 1 })
	h.waitReady()
	c := dialWS(t, h)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: sentences(10, 10), RequestID: "a"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: sentences(10, 10), RequestID: "b"})
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.pcm["a"] > 0 })
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "cancel"})
	read(t, c, &tr, completed(2))
	for _, id := range []string{"a", "b"} {
		if m := tr.find(api.WSTypeSynthesisComplete, id); m == nil || !m.Cancelled {
			t.Errorf("%s: %+v, want cancelled", id, m)
		}
	}
	if tr.pcm["b"] != 0 {
		t.Errorf("queued utterance b sent %d bytes after a cancel-all", tr.pcm["b"])
	}
	if s := tr.find(api.WSTypeSynthesisComplete, "b").Sent; s == nil || s.Samples != 0 || s.Words != 0 || s.LastWord != nil {
		t.Errorf("queued utterance b reports %+v sent", s)
	}
	eventually(t, waitLimit, "idle", idle(h))
}

// Text that arrives in pieces, as an LLM writes it, is spoken sentence by sentence before
// the flush.
func TestWebSocketStreamedTextSpeaksBeforeTheFlush(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialWS(t, h)
	for _, piece := range []string{"Hello th", "ere, my friend. How a"} {
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: piece, RequestID: "llm"})
	}
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.pcm["llm"] > 0 })
	if got := tr.pcm["llm"]; got != 2*wantSamples("Hello there, my friend.") {
		t.Errorf("before the flush: %d bytes, want the first sentence (%d)", got, 2*wantSamples("Hello there, my friend."))
	}
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: "re you today", RequestID: "llm"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "flush", RequestID: "llm"})
	read(t, c, &tr, completed(1))
	// Spoken as two requests, joined by the pause of a sentence end.
	want := 2 * wantSamples("Hello there, my friend. How are you today")
	if got := tr.pcm["llm"]; got != want {
		t.Errorf("after the flush: %d bytes, want %d", got, want)
	}
	if strings.Join(tr.order, " ") != "start:llm audio:llm complete:llm" {
		t.Errorf("order = %v", tr.order)
	}
}

func TestWebSocketBadMessagesGetErrorsAndTheSessionGoesOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, maxTextChars(50))
	h.waitReady()
	c := dialWS(t, h)
	cases := []struct {
		frame         string
		id, code, msg string
	}{
		{`{"text":`, "", "invalid_json", "malformed"},
		{`"just a string"`, "", "invalid_json", "object"},
		{`{"type":"dance"}`, "", "unknown_message_type", "dance"},
		{`{}`, "", "unknown_message_type", "type or a text"},
		{`{"type":"speak","text":"  ","request_id":"e1"}`, "e1", "empty_text", "blank"},
		{`{"text":"hi","voice":"zz_nobody","request_id":"e2"}`, "e2", "unknown_voice", "af_heart"},
		{`{"text":"hi","speed":9,"request_id":"e3"}`, "e3", "invalid_speed", "9"},
		{`{"text":"` + strings.Repeat("a", 51) + `","request_id":"e4"}`, "e4", "text_too_long", "limit is 50"},
	}
	for _, tc := range cases {
		if err := c.WriteMessage(websocket.TextMessage, []byte(tc.frame)); err != nil {
			t.Fatal(err)
		}
		var tr transcript
		read(t, c, &tr, completed(1))
		m := tr.msgs[0]
		if m.Type != api.WSTypeError || m.RequestID != tc.id || m.Code != tc.code || !strings.Contains(m.Message, tc.msg) {
			t.Errorf("%s: %+v, want error %s for %q containing %q", tc.frame, m, tc.code, tc.id, tc.msg)
		}
	}
	// Streamed text past the limit is stopped with an error, not a cancellation.
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: strings.Repeat("b", 30), RequestID: "s1"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: strings.Repeat("b", 30), RequestID: "s1"})
	var tr transcript
	read(t, c, &tr, completed(1))
	if m := tr.find(api.WSTypeError, "s1"); m == nil || m.Code != "text_too_long" {
		t.Errorf("streamed text over the limit: %v", tr.msgs)
	}
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Still here.", RequestID: "ok"})
	tr = transcript{}
	read(t, c, &tr, completed(1))
	if m := tr.find(api.WSTypeSynthesisComplete, "ok"); m == nil {
		t.Errorf("session did not recover: %v", tr.msgs)
	}
	if h.syn.calls.Load() != 1 {
		t.Errorf("model ran %d chunks, want 1: bad messages must cost no model work", h.syn.calls.Load())
	}
}

// WebSocket utterances and HTTP requests share the admission gate.
func TestWebSocketUtterancesCountAgainstTheQueueDepth(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	h := newHarness(t, func(c *Config, s *fakeSynth) { c.MaxQueueDepth, s.hold = 1, hold })
	h.waitReady()
	c := dialWS(t, h)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Held in the model.", RequestID: "held"})
	eventually(t, waitLimit, "first utterance admitted", func() bool { return h.srv.gate.depth() == 1 })
	sendJSON(t, c, websocket.BinaryMessage, api.WSClientMessage{Text: "One too many.", RequestID: "excess"})
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.find(api.WSTypeError, "excess") != nil })
	m := tr.find(api.WSTypeError, "excess")
	if m.Message != api.ErrQueueSaturated || m.Code != api.ErrQueueSaturated || m.QueueDepth == nil || *m.QueueDepth != 1 || *m.MaxQueueDepth != 1 {
		t.Errorf("rejection = %+v, want message queue_saturated with depth 1 of 1", m)
	}
	resp := post(t, client(t), h.url+api.RouteInvocations, `{"text":"HTTP too."}`)
	if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 503 || e.Error != api.ErrQueueSaturated {
		t.Errorf("HTTP while a WebSocket utterance holds the only slot: %d %+v", resp.StatusCode, e)
	}
	close(hold)
	read(t, c, &tr, func(tr *transcript) bool { return tr.find(api.WSTypeSynthesisComplete, "held") != nil })
	if got := testutil.ToFloat64(h.srv.Metrics().Rejections.WithLabelValues(labelBidi)); got != 1 {
		t.Errorf("bidi rejections = %v, want 1", got)
	}
	if h.syn.calls.Load() != 1 {
		t.Errorf("model ran %d chunks, want 1", h.syn.calls.Load())
	}
}

func TestWebSocketAnswersPings(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialWS(t, h)
	pong := make(chan string, 1)
	c.SetPongHandler(func(s string) error { pong <- s; return nil })
	if err := c.WriteControl(websocket.PingMessage, []byte("are you there"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	go func() { _, _, _ = c.ReadMessage() }() // pongs are handled inside reads
	select {
	case s := <-pong:
		if s != "are you there" {
			t.Errorf("pong payload %q", s)
		}
	case <-time.After(waitLimit):
		t.Fatal("no pong")
	}
	c.Close()
}

// The model speaks the first chunk of "gone" and holds the rest, so the client always leaves
// midway; once the server is idle the model is let go, and nothing left may reach it.
func TestWebSocketDisconnectMidUtteranceLeavesNothingRunning(t *testing.T) {
	t.Parallel()
	held, release := holdAfter(1)
	defer release()
	h := newHarness(t, held, func(_ *Config, s *fakeSynth) { s.slots = 1 })
	h.waitReady()
	c := dialWS(t, h)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: sentences(20, 10), RequestID: "gone"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: sentences(5, 10), RequestID: "queued"})
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.pcm["gone"] > 0 })
	c.Close()
	eventually(t, waitLimit, "idle after disconnect", idle(h))
	eventually(t, waitLimit, "session closed", func() bool { return testutil.ToFloat64(h.srv.Metrics().WSSessions) == 0 })
	release()
	calls := h.syn.calls.Load()
	time.Sleep(200 * time.Millisecond)
	if h.syn.calls.Load() != calls || calls >= 20 {
		t.Errorf("model ran %d chunks (then %d) after the client vanished", calls, h.syn.calls.Load())
	}
}

func TestWebSocketSessionEndsOnShutdown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.delay = 1, 40*time.Millisecond })
	h.waitReady()
	c := dialWS(t, h)
	text := sentences(3, 10)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: text, RequestID: "drained"})
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.pcm["drained"] > 0 })
	done := make(chan error, 1)
	go func() { done <- h.shutdown() }()
	read(t, c, &tr, completed(1))
	if m := tr.find(api.WSTypeSynthesisComplete, "drained"); m == nil || m.Cancelled || tr.pcm["drained"] != 2*wantSamples(text) {
		t.Errorf("utterance in flight at shutdown: %+v, %d bytes", m, tr.pcm["drained"])
	}
	_ = c.SetReadDeadline(time.Now().Add(waitLimit))
	_, _, err := c.ReadMessage()
	if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
		t.Errorf("after drain: %v, want a going-away close frame", err)
	}
	c.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return")
	}
}

// The idle timer counts silence in both directions: a client listening to a long utterance
// keeps its session, a session with no traffic at all is closed, and so is one whose utterance
// stalls in the model for longer than the timeout. The server runs in a synctest bubble, so
// the model's 100 ms per chunk and the 300 ms timeout are exact, whatever the machine's speed.
func TestWebSocketIdleTimeout(t *testing.T) {
	t.Parallel()
	const timeout, perChunk = 300 * time.Millisecond, 100 * time.Millisecond
	synctest.Test(t, func(t *testing.T) {
		hold := make(chan struct{})
		defer close(hold)
		h := newHarnessOn(t, newPipeListener(), func(c *Config, s *fakeSynth) {
			c.WSIdleTimeout, s.slots, s.delay = timeout, 1, perChunk
		})
		h.waitReady()

		// Ten chunks, a second in which the client says nothing: the audio frames keep the
		// session open, and it closes one timeout after the last of them.
		c := dialWS(t, h)
		text := sentences(10, 10)
		start := time.Now()
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: text, RequestID: "long"})
		var tr transcript
		read(t, c, &tr, completed(1))
		if m := tr.find(api.WSTypeSynthesisComplete, "long"); m == nil || m.Cancelled || tr.pcm["long"] != 2*wantSamples(text) {
			t.Fatalf("long utterance to a listening client: %v, %d bytes", tr.msgs, tr.pcm["long"])
		}
		if d := time.Since(start); d != 10*perChunk {
			t.Fatalf("utterance took %v, want %v", d, 10*perChunk)
		}
		last := time.Now()
		_ = c.SetReadDeadline(time.Now().Add(waitLimit))
		if _, _, err := c.ReadMessage(); err == nil {
			t.Error("idle session: a message arrived, want the session closed")
		} else if d := time.Since(last); d != timeout {
			t.Errorf("idle session: closed %v after the last frame (%v), want %v", d, err, timeout)
		}
		eventually(t, waitLimit, "session gone", func() bool { return testutil.ToFloat64(h.srv.Metrics().WSSessions) == 0 })

		// An utterance whose model stalls after two chunks sends nothing more: the session
		// closes one timeout after its last frame, mid-utterance.
		h.syn.holdFrom(2, hold)
		c = dialWS(t, h)
		start = time.Now()
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: text, RequestID: "stalled"})
		var at []time.Duration // when each message arrived
		_ = c.SetReadDeadline(time.Now().Add(waitLimit))
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				break
			}
			at = append(at, time.Since(start))
		}
		if d := time.Since(start); d != 2*perChunk+timeout {
			t.Errorf("stalled session: closed after %v (messages at %v), want %v", d, at, 2*perChunk+timeout)
		}
		eventually(t, waitLimit, "stalled session gone", func() bool { return testutil.ToFloat64(h.srv.Metrics().WSSessions) == 0 })
		eventually(t, waitLimit, "idle", idle(h))
	})
}

// A closed-loop client at exactly MAX_QUEUE_DEPTH sends its next utterance the moment it reads
// synthesis_complete; the slot must already be free then.
func TestWebSocketSlotIsFreeWhenCompleteArrives(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, s *fakeSynth) { c.MaxQueueDepth, s.delay = 1, time.Millisecond })
	h.waitReady()
	c := dialWS(t, h)
	var tr transcript
	for i := 0; i < 30; i++ {
		id := fmt.Sprintf("u%d", i)
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Next one.", RequestID: id})
		read(t, c, &tr, func(tr *transcript) bool {
			return tr.find(api.WSTypeSynthesisComplete, id) != nil || tr.find(api.WSTypeError, id) != nil
		})
		if m := tr.find(api.WSTypeError, id); m != nil {
			t.Fatalf("utterance %d refused right after the previous one completed: %+v", i, m)
		}
	}
}

// One rule for a stopped streamed utterance: once cancelled, its id is dead, and the pieces
// the client still sends for it are dropped (no new utterance, no error per piece) until it
// flushes the id, after which the id may start a new utterance.
func TestWebSocketPiecesOfAStoppedStreamAreDropped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.delay = 1, 60*time.Millisecond })
	h.waitReady()
	c := dialWS(t, h)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: sentences(5, 10) + " And", RequestID: "x"})
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.pcm["x"] > 0 })
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "cancel", RequestID: "x"})
	read(t, c, &tr, completed(1))
	if m := tr.find(api.WSTypeSynthesisComplete, "x"); m == nil || !m.Cancelled {
		t.Fatalf("x: %v, want a cancelled synthesis_complete", tr.msgs)
	}
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: " more words. Even more.", RequestID: "x"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "flush", RequestID: "x"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "After.", RequestID: "y"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: "Again.", RequestID: "x"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "flush", RequestID: "x"})
	read(t, c, &tr, completed(3))
	want := "start:x audio:x complete:x start:y audio:y complete:y start:x audio:x complete:x"
	if got := strings.Join(tr.order, " "); got != want {
		t.Errorf("order = %s\nwant    %s", got, want)
	}
}

// A streamed utterance that finds the session's queue full is refused once, its later pieces
// are dropped, and the session goes on.
func TestWebSocketStreamIntoAFullSessionIsRefusedOnce(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.hold = 1, hold })
	h.waitReady()
	c := dialWS(t, h)
	for i := range maxPending + 1 { // one spoken (held in the model), the rest waiting
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Wait.", RequestID: fmt.Sprintf("q%d", i)})
	}
	eventually(t, waitLimit, "session full", func() bool { return h.srv.gate.depth() == maxPending+1 })
	for range 2 {
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: "No room. ", RequestID: "over"})
	}
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.find(api.WSTypeError, "over") != nil })
	if m := tr.find(api.WSTypeError, "over"); m.Code != api.ErrQueueSaturated {
		t.Errorf("refusal %+v", m)
	}
	close(hold)
	read(t, c, &tr, completed(maxPending+2))
	errs := 0
	for _, m := range tr.msgs {
		if m.Type == api.WSTypeError {
			errs++
		}
	}
	if errs != 1 || tr.find(api.WSTypeSynthesisStart, "over") != nil {
		t.Errorf("%d errors, start for over %v; want one refusal and nothing spoken for it", errs, tr.find(api.WSTypeSynthesisStart, "over"))
	}
}
