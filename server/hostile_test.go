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
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/tts"
)

// Item 5: text with nothing to say is the client's 400 empty_text, not a 500 (which a client
// retries and the server logs as its own failure), and costs no model work.
func TestNothingSpeakableIs400(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	for _, text := range []string{"#", "---", "|", "♪", "\u200b", "\ufeff", "\u0000", "* * *", "— …"} {
		for _, route := range []string{api.RouteInvocations, api.RouteOpenAISpeech} {
			field := map[string]string{api.RouteInvocations: "text", api.RouteOpenAISpeech: "input"}[route]
			body, _ := json.Marshal(map[string]string{field: text})
			resp := post(t, c, h.url+route, string(body))
			e := decodeError(t, readAll(t, resp))
			if resp.StatusCode != 400 || e.Error != api.ErrEmptyText {
				t.Errorf("%s %q: %d %+v, want 400 empty_text", route, text, resp.StatusCode, e)
			}
		}
	}
	if n := h.syn.calls.Load(); n != 0 {
		t.Errorf("the model ran %d chunks", n)
	}
	m := h.srv.Metrics()
	if got := testutil.ToFloat64(m.Requests.WithLabelValues(labelInvocations, OutcomeError)); got != 0 {
		t.Errorf("%v requests counted as server errors", got)
	}
}

// Item 5: a markdown rule or heading marker in the middle of streamed text is skipped, and the
// utterance goes on to its end.
func TestStreamedTextSkipsSegmentsWithNothingToSay(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialWS(t, h)
	pieces := []string{"## Plan\n", "First point. ", "\n---\n", "# ", ". | | . ", "Second point. ", "♪. ", "Last."}
	for _, p := range pieces {
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: p, RequestID: "md"})
	}
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "flush", RequestID: "md"})
	var tr transcript
	read(t, c, &tr, completed(1))
	m := tr.find(api.WSTypeSynthesisComplete, "md")
	if m == nil || m.Cancelled {
		t.Fatalf("markdown in streamed text ended the utterance: %v", tr.msgs)
	}
	want := 0
	for _, s := range []string{"## Plan\nFirst point.", "Second point.", "Last."} {
		want += wantSamples(s)
	}
	// Every spoken sentence after the first resumes: the engine keeps its sentence pause.
	if tr.pcm["md"] < 2*want/2 {
		t.Errorf("%d PCM bytes, want the three sentences (about %d)", tr.pcm["md"], 2*want)
	}
}

// Item 6: streaming past MAX_TEXT_CHARS gets one text_too_long; the rest of that id is dropped
// (no duplicate_request_id, no new utterance under the same id) until its flush.
func TestStreamPastTheLimitGetsOneError(t *testing.T) {
	t.Parallel()
	for _, delay := range []time.Duration{0, 30 * time.Millisecond} { // the race both ways
		h := newHarness(t, maxTextChars(60), func(_ *Config, s *fakeSynth) { s.slots, s.delay = 1, delay })
		h.waitReady()
		c := dialWS(t, h)
		for i := range 30 {
			sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: fmt.Sprintf("Piece %d. ", i), RequestID: "long"})
		}
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Next.", RequestID: "next"})
		var tr transcript
		read(t, c, &tr, func(tr *transcript) bool { return tr.find(api.WSTypeSynthesisComplete, "next") != nil })
		var errs []string
		for _, m := range tr.msgs {
			if m.Type == api.WSTypeError {
				errs = append(errs, m.RequestID+":"+m.Code)
			}
		}
		if strings.Join(errs, ",") != "long:"+api.ErrTextTooLong {
			t.Errorf("delay %v: errors %v, want one text_too_long for long", delay, errs)
		}
		starts := strings.Count(strings.Join(tr.order, " "), "start:long")
		if starts != 1 {
			t.Errorf("delay %v: %d synthesis_start for long, want 1: %v", delay, starts, tr.order)
		}
		// After its flush the id is free again.
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "flush", RequestID: "long"})
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: "Fresh.", RequestID: "long"})
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "flush", RequestID: "long"})
		read(t, c, &tr, completed(3))
		if n := len(tr.msgs); tr.msgs[n-1].Type != api.WSTypeSynthesisComplete || tr.msgs[n-1].RequestID != "long" {
			t.Errorf("delay %v: the reused id ended with %+v", delay, tr.msgs[n-1])
		}
	}
}

// Item 6: what a session keeps for streamed text is bounded even with no text limit: the dead
// ids, the text without a sentence end, and the text waiting to be spoken.
func TestStreamedTextStateIsBounded(t *testing.T) {
	t.Parallel()
	var ts textStream
	for i := range 10 * maxDead {
		ts.kill(fmt.Sprintf("id-%d", i))
	}
	if len(ts.dead) != maxDead || len(ts.order) != maxDead || !ts.isDead(fmt.Sprintf("id-%d", 10*maxDead-1)) || ts.isDead("id-0") {
		t.Errorf("dead ids: %d remembered, want the newest %d", len(ts.dead), maxDead)
	}
	u := testUtterance("run-on", true)
	ts.start(u)
	word := "word "
	for range 3 * maxBuffered / len(word) {
		ts.feed(word, 0) // never a sentence end
	}
	if n := len([]rune(ts.buf)); n >= maxBuffered {
		t.Errorf("%d characters buffered without a sentence end, the bound is %d", n, maxBuffered)
	}
	if u.waiting() == 0 {
		t.Error("run-on text was never handed to the speaker")
	}
	// A client that streams faster than the speaker speaks is stopped, not buffered forever.
	for i := 0; ts.open != nil && i < 2*maxWaiting/len(word); i++ {
		ts.feed(word, 0)
	}
	if !errors.Is(u.cause(nil), tts.ErrTextTooLong) || !ts.isDead("run-on") || u.waiting() > maxWaiting+maxBuffered {
		t.Errorf("unspoken text: cause %v, %d characters waiting", u.cause(nil), u.waiting())
	}
}

// Item 8: a huge or malformed request id is refused before any model work and never echoed,
// over HTTP (in the body or the header) and on the WebSocket; no other field is echoed whole.
func TestRequestIDsAreBoundedBeforeModelWork(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	huge := strings.Repeat("x", 100_000)
	req, _ := http.NewRequest(http.MethodPost, h.url+api.RouteInvocations, strings.NewReader(`{"text":"hi","request_id":"`+huge+`"}`))
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	e := decodeError(t, readAll(t, resp))
	if resp.StatusCode != 400 || e.Error != api.ErrInvalidRequestID || len(resp.Header.Get(api.HeaderRequestID)) > api.MaxRequestIDLen || strings.Contains(e.Message, "xxxx") {
		t.Errorf("huge id: %d %+v, X-Request-Id of %d bytes", resp.StatusCode, e.Error, len(resp.Header.Get(api.HeaderRequestID)))
	}
	req, _ = http.NewRequest(http.MethodPost, h.url+api.RouteOpenAISpeech, strings.NewReader(`{"input":"hi"}`))
	req.Header.Set(api.HeaderRequestID, strings.Repeat("y", 4096))
	resp, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 400 || e.Error != api.ErrInvalidRequestID || len(resp.Header.Get(api.HeaderRequestID)) > api.MaxRequestIDLen {
		t.Errorf("huge header id: %d %+v", resp.StatusCode, e)
	}
	future := float64(time.Now().Add(time.Hour).Unix())
	resp = post(t, c, h.url+api.RouteInvocations, fmt.Sprintf(`{"text":"hi","request_timestamp":%v}`, future))
	if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 400 || e.Error != api.ErrInvalidTimestamp {
		t.Errorf("future timestamp: %d %+v", resp.StatusCode, e)
	}
	ws := dialWS(t, h)
	sendJSON(t, ws, websocket.TextMessage, api.WSClientMessage{Text: "hi", RequestID: huge})
	var tr transcript
	read(t, ws, &tr, completed(1))
	if m := tr.msgs[0]; m.Type != api.WSTypeError || m.Code != api.ErrInvalidRequestID || m.RequestID != "" || len(m.Message) > 200 {
		t.Errorf("websocket huge id: %+v", m)
	}
	// Every other value a client sends is quoted in at most 64 bytes, or refused by its length.
	for _, body := range []string{
		`{"text":"hi","voice":"` + huge + `"}`, `{"text":"hi","format":"` + huge + `"}`, `{"text":"hi","lang":"` + huge + `"}`,
		`{"input":"hi","model":"` + huge + `"}`, `{"input":"hi","stream_format":"` + huge + `"}`,
	} {
		route := api.RouteInvocations
		if strings.Contains(body, `"input"`) {
			route = api.RouteOpenAISpeech
		}
		resp := post(t, c, h.url+route, body)
		if e := decodeError(t, readAll(t, resp)); resp.StatusCode != 400 || len(e.Message) > 300 {
			t.Errorf("%.40s…: %d, a message of %d bytes", body, resp.StatusCode, len(e.Message))
		}
	}
	resp, _ = c.Get(h.url + api.RouteOpenAIModels + "/" + strings.Repeat("m", 50_000))
	if b := readAll(t, resp); resp.StatusCode != 404 || len(b) > 500 {
		t.Errorf("long model id: %d, %d bytes", resp.StatusCode, len(b))
	}
	sendJSON(t, ws, websocket.TextMessage, map[string]string{"type": huge})
	sendJSON(t, ws, websocket.TextMessage, api.WSClientMessage{Text: "hi", Voice: huge})
	read(t, ws, &tr, completed(3))
	for _, m := range tr.msgs[1:] {
		if m.Type != api.WSTypeError || len(m.Message) > 300 {
			t.Errorf("websocket: %s %s… (%d bytes)", m.Type, m.Code, len(m.Message))
		}
	}
	if n := h.syn.calls.Load(); n != 0 {
		t.Errorf("the model ran %d chunks for refused ids", n)
	}
}

// Item 9: a text frame that is not UTF-8 fails the connection with close code 1007, as
// RFC 6455 says, instead of being spoken.
func TestWebSocketInvalidUTF8Closes1007(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialWS(t, h)
	if err := c.WriteMessage(websocket.TextMessage, []byte("{\"text\":\"caf\xe9\"}")); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(waitLimit))
	for {
		mt, b, err := c.ReadMessage()
		if err != nil {
			if !websocket.IsCloseError(err, websocket.CloseInvalidFramePayloadData) {
				t.Errorf("after an invalid text frame: %v, want close 1007", err)
			}
			break
		}
		t.Errorf("frame %d %q before the close", mt, b)
	}
	if n := h.syn.calls.Load(); n != 0 {
		t.Errorf("the model ran %d chunks", n)
	}
	// A binary frame may carry any bytes; its JSON must still be UTF-8, and the session goes on.
	c2 := dialWS(t, h)
	if err := c2.WriteMessage(websocket.BinaryMessage, []byte("{\"text\":\"caf\xe9\"}")); err != nil {
		t.Fatal(err)
	}
	var tr transcript
	read(t, c2, &tr, completed(1))
	if m := tr.msgs[0]; m.Type != api.WSTypeError || m.Code != api.ErrInvalidJSON {
		t.Errorf("binary frame with invalid UTF-8: %+v", m)
	}
}

// Item 9: every admitted utterance gets synthesis_start and then one end, a cancelled one that
// never left the queue too; a refused one gets only its error. The model speaks the first chunk
// of "a" and holds the rest, so both cancels find "a" midway and "b" still queued.
func TestWebSocketEveryAdmittedUtteranceStartsAndEnds(t *testing.T) {
	t.Parallel()
	held, release := holdAfter(1)
	defer release()
	h := newHarness(t, held, func(_ *Config, s *fakeSynth) { s.slots = 1 })
	h.waitReady()
	c := dialWS(t, h)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: sentences(5, 10), RequestID: "a"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Queued.", RequestID: "b"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Bad voice.", RequestID: "c", Voice: "zz_nobody"})
	var tr transcript
	read(t, c, &tr, func(tr *transcript) bool { return tr.pcm["a"] > 0 })
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "cancel", RequestID: "b"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "cancel", RequestID: "a"})
	read(t, c, &tr, completed(3))
	// Per id (an error for a refused message may come between another's frames).
	for id, want := range map[string]string{"a": "start audio complete", "b": "start complete", "c": "error"} {
		var got []string
		for _, e := range tr.order {
			if kind, rid, _ := strings.Cut(e, ":"); rid == id {
				got = append(got, kind)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %v, want %s (all: %v)", id, got, want, tr.order)
		}
	}
	if m := tr.find(api.WSTypeSynthesisComplete, "b"); m == nil || !m.Cancelled {
		t.Errorf("b: %+v, want cancelled", m)
	}
}

// Item 10 on the WebSocket: emoji and text in other scripts are not read out; a streamed piece
// with nothing else is skipped.
func TestWebSocketUnspeakableText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialWS(t, h)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "😀 你好", RequestID: "emoji"})
	for _, p := range []string{"Hi there. ", "你好世界。", "🎉🎉. ", "Bye."} {
		sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "text", Text: p, RequestID: "mixed"})
	}
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: "flush", RequestID: "mixed"})
	var tr transcript
	read(t, c, &tr, completed(2))
	if m := tr.find(api.WSTypeError, "emoji"); m == nil || m.Code != api.ErrEmptyText {
		t.Errorf("emoji alone: %v", tr.msgs)
	}
	if m := tr.find(api.WSTypeSynthesisComplete, "mixed"); m == nil || m.Cancelled || tr.pcm["mixed"] == 0 {
		t.Errorf("mixed stream: %v, %d bytes", tr.msgs, tr.pcm["mixed"])
	}
}

// Item 10 over HTTP with the body not UTF-8 at all: refused, never decoded with replacement
// characters.
func TestInvalidUTF8BodyIs400(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	resp, err := client(t).Post(h.url+api.RouteOpenAISpeech, "application/json", strings.NewReader("{\"input\":\"na\xefve\"}"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if e := decodeError(t, b); resp.StatusCode != 400 || e.Error != api.ErrInvalidJSON || !strings.Contains(e.Message, "UTF-8") {
		t.Errorf("%d %+v", resp.StatusCode, e)
	}
}
