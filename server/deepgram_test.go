package server

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
)

// deepgramRead collects binary audio and control messages until want control messages came.
func deepgramRead(t *testing.T, c *websocket.Conn, want int) (pcm []byte, msgs []deepgramMessage) {
	t.Helper()
	for len(msgs) < want {
		_ = c.SetReadDeadline(time.Now().Add(waitLimit))
		mt, b, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		if mt == websocket.BinaryMessage {
			pcm = append(pcm, b...)
			continue
		}
		var m deepgramMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	return pcm, msgs
}

// The shapes Pipecat's SageMaker TTS service sends through a bidirectional stream whose
// ModelInvocationPath is v1/speak: Speak pieces, Flush (answered by Flushed after the audio),
// Clear mid-utterance (Cleared, nothing left in flight), in the query's encoding and rate.
func TestDeepgramSpeakSocket(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialPath(t, h, api.RouteDeepgramSpeak+"?model=af_heart&encoding=linear16&sample_rate=16000")
	for _, m := range []string{`{"type":"Speak","text":"One two three. "}`, `{"type":"Speak","text":"Four five"}`, `{"type":"Flush"}`} {
		if err := c.WriteMessage(websocket.TextMessage, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	pcm, msgs := deepgramRead(t, c, 1)
	r, _ := audio.NewResampler(api.SampleRate, 16000)
	want := r.Len(wantSamples("One two three.") + wantSamples("Four five"))
	if msgs[0].Type != "Flushed" || msgs[0].SequenceID != 1 || len(pcm)/2 < want*9/10 {
		t.Errorf("%+v after %d samples at 16 kHz, want Flushed 1 after about %d", msgs, len(pcm)/2, want)
	}
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"type":"Speak","text":"Six."}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"type":"Nope"}`)); err != nil {
		t.Fatal(err)
	}
	_, msgs = deepgramRead(t, c, 1)
	if msgs[0].Type != "Warning" || msgs[0].Code != api.ErrUnknownMessageType {
		t.Errorf("%+v, want a Warning for the unknown type", msgs)
	}
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"type":"Clear"}`)); err != nil {
		t.Fatal(err)
	}
	_, msgs = deepgramRead(t, c, 1)
	if msgs[0].Type != "Cleared" || msgs[0].SequenceID != 2 {
		t.Errorf("%+v, want Cleared 2", msgs)
	}
	eventually(t, waitLimit, "nothing in flight", func() bool {
		return h.srv.gate.depth() == 0 && testutil.ToFloat64(h.srv.Metrics().InFlight) == 0
	})
}

func FuzzDeepgramMessage(f *testing.F) {
	for _, s := range []string{`{"type":"Speak","text":"Hi."}`, `{"type":"Flush"}`, `{"type":"Clear"}`, `{"type":"Close"}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &deepgramDialect{voice: "af_heart", format: api.FormatPCM}
		msgs, err := d.read(b, false)
		if err != nil && classify(err).status != 400 {
			t.Fatalf("message error %v is not a 400", err)
		}
		for _, m := range msgs {
			if checkRequestID(m.RequestID) != nil {
				t.Fatalf("request id %q", m.RequestID)
			}
		}
	})
}
