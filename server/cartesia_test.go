package server

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
)

func dialPath(t *testing.T, h *harness, path string) *websocket.Conn {
	t.Helper()
	url := "ws" + strings.TrimPrefix(h.url, "http") + path
	conn, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v (%v)", url, err, resp)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// cartesiaRead collects Cartesia messages until each of ids has its done or error.
func cartesiaRead(t *testing.T, c *websocket.Conn, ids ...string) []cartesiaMessage {
	t.Helper()
	var out []cartesiaMessage
	open := map[string]bool{}
	for _, id := range ids {
		open[id] = true
	}
	for len(open) > 0 {
		_ = c.SetReadDeadline(time.Now().Add(waitLimit))
		mt, b, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if mt != websocket.TextMessage {
			t.Fatalf("a binary frame on the Cartesia socket")
		}
		var m cartesiaMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		_ = json.Unmarshal(b, &raw)
		if _, ok := raw["context_id"]; !ok {
			t.Fatalf("message without context_id: %s", b)
		}
		out = append(out, m)
		if m.Done {
			delete(open, m.ContextID)
		}
	}
	return out
}

// The Cartesia socket, as Cartesia's clients use it: a context's transcript in pieces with
// continue, closed by an empty transcript; a second context on the same socket in μ-law at
// 8 kHz; word timestamps in seconds, each word once; chunks of base64 audio; done; and
// refusals as error messages naming the context.
func TestCartesiaContexts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialPath(t, h, api.RouteCartesia+"?api_key=unused&cartesia_version=2025-04-16")
	pcm16k := map[string]any{"container": "raw", "encoding": "pcm_s16le", "sample_rate": 16000}
	send := func(v map[string]any) {
		t.Helper()
		if err := c.WriteJSON(v); err != nil {
			t.Fatal(err)
		}
	}
	base := func(ctx, text string, more bool) map[string]any {
		return map[string]any{"context_id": ctx, "transcript": text, "continue": more, "model_id": "sonic-2",
			"voice": map[string]any{"mode": "id", "id": "af_bella"}, "language": "en", "output_format": pcm16k,
			"add_timestamps": true, "use_normalized_timestamps": false, "generation_config": map[string]any{"speed": 1.0}}
	}
	send(base("turn-1", "One two three. ", true))
	send(base("turn-1", "Four five six seven. ", true))
	send(base("turn-1", "Eight.", true))
	send(base("turn-1", "", false))
	tel := base("turn-2", "Nine ten.", false)
	tel["output_format"] = map[string]any{"container": "raw", "encoding": "pcm_mulaw", "sample_rate": 8000}
	send(tel)
	send(map[string]any{"context_id": "bad-voice", "transcript": "Hi.", "voice": map[string]any{"mode": "id", "id": "zz_nobody"}})
	send(map[string]any{"context_id": "bad-encoding", "transcript": "Hi.", "output_format": map[string]any{"container": "raw", "encoding": "pcm_f32le", "sample_rate": 24000}})
	send(map[string]any{"context_id": "bad-field", "transcript": "Hi.", "voice_name": "af_bella"})
	msgs := cartesiaRead(t, c, "turn-1", "turn-2", "bad-voice", "bad-encoding", "bad-field")

	audioOf := map[string][]byte{}
	words := map[string]*cartesiaWords{}
	errs := map[string]string{}
	for _, m := range msgs {
		switch m.Type {
		case "chunk":
			b, err := base64.StdEncoding.DecodeString(m.Data)
			if err != nil || m.StatusCode != 206 || m.Done {
				t.Fatalf("chunk %+v: %v", m, err)
			}
			audioOf[m.ContextID] = append(audioOf[m.ContextID], b...)
		case "timestamps":
			w := words[m.ContextID]
			if w == nil {
				w = &cartesiaWords{}
				words[m.ContextID] = w
			}
			w.Words = append(w.Words, m.WordTimestamps.Words...)
			w.Start = append(w.Start, m.WordTimestamps.Start...)
			w.End = append(w.End, m.WordTimestamps.End...)
		case "error":
			errs[m.ContextID] = m.ErrorCode
		}
	}
	if got := strings.Join(words["turn-1"].Words, " "); got != "One two three. Four five six seven. Eight." {
		t.Errorf("turn-1 words %q", got)
	}
	if got := strings.Join(words["turn-2"].Words, " "); got != "Nine ten." {
		t.Errorf("turn-2 words %q", got)
	}
	// 16-bit samples at 16 kHz; μ-law bytes at 8 kHz: the last word ends inside the audio.
	for id, perSecond := range map[string]float64{"turn-1": 32000, "turn-2": 8000} {
		w := words[id]
		secs := float64(len(audioOf[id])) / perSecond
		for i := range w.Words {
			if w.Start[i] >= w.End[i] || w.End[i] > secs+1e-9 || (i > 0 && w.Start[i] < w.End[i-1]) {
				t.Errorf("%s word %q [%v, %v] in %.3f s of audio", id, w.Words[i], w.Start[i], w.End[i], secs)
			}
		}
	}
	// turn-1 is the model's audio at 16 kHz: as long as the same text's at 24 kHz, to the sample.
	want := wantSamples("One two three. Four five six seven. Eight.")
	if r, _ := audio.NewResampler(api.SampleRate, 16000); len(audioOf["turn-1"])/2 != r.Len(want) {
		t.Errorf("turn-1: %d samples at 16 kHz, want %d", len(audioOf["turn-1"])/2, r.Len(want))
	}
	for id, code := range map[string]string{"bad-voice": api.ErrUnknownVoice, "bad-encoding": api.ErrUnsupportedFormat, "bad-field": api.ErrUnknownField} {
		if errs[id] != code {
			t.Errorf("%s: error %q, want %q", id, errs[id], code)
		}
	}
	// Each context is one utterance to the metrics, counted once its end is sent.
	eventually(t, waitLimit, "two utterances counted ok", func() bool {
		return testutil.ToFloat64(h.srv.Metrics().Requests.WithLabelValues(labelBidi, OutcomeOK)) == 2
	})
}

// A cancel stops its context mid-sentence: the model stops, the context ends with done, the
// socket goes on with the next context, and nothing is left in flight.
func TestCartesiaCancel(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	defer close(hold)
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.hold, s.holdAfter = 1, hold, 1 })
	h.waitReady()
	c := dialPath(t, h, api.RouteCartesia)
	if err := c.WriteJSON(map[string]any{"context_id": "long", "transcript": "First sentence here. A second one, held in the model.", "continue": true}); err != nil {
		t.Fatal(err)
	}
	// The first chunk arrives; the second is held until the cancel.
	for {
		_ = c.SetReadDeadline(time.Now().Add(waitLimit))
		var m cartesiaMessage
		if err := c.ReadJSON(&m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "chunk" {
			break
		}
	}
	if err := c.WriteJSON(map[string]any{"context_id": "long", "cancel": true}); err != nil {
		t.Fatal(err)
	}
	msgs := cartesiaRead(t, c, "long")
	if last := msgs[len(msgs)-1]; last.Type != "done" {
		t.Errorf("cancelled context ended with %+v", last)
	}
	eventually(t, waitLimit, "nothing in flight", func() bool {
		return h.srv.gate.depth() == 0 && testutil.ToFloat64(h.srv.Metrics().InFlight) == 0
	})
	eventually(t, waitLimit, "one cancelled utterance counted", func() bool {
		return testutil.ToFloat64(h.srv.Metrics().Requests.WithLabelValues(labelBidi, OutcomeCancelled)) == 1
	})
}

func FuzzCartesiaMessage(f *testing.F) {
	for _, s := range []string{`{"context_id":"a","transcript":"Hi. ","continue":true}`, `{"context_id":"a","cancel":true}`,
		`{"context_id":"a","transcript":"","continue":false,"output_format":{"container":"raw","encoding":"pcm_mulaw","sample_rate":8000}}`,
		`{"context_id":"a","voice":{"mode":"embedding","id":"x"}}`, `{"generation_config":{"speed":1e309}}`, `{}`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		msgs, err := (&cartesiaDialect{}).read(b, false)
		for _, m := range msgs {
			if checkRequestID(m.RequestID) != nil {
				t.Fatalf("context id %q would be echoed", m.RequestID)
			}
		}
		if err != nil {
			if classify(err).status != 400 {
				t.Fatalf("message error %v is not a 400", err)
			}
			return
		}
		for _, m := range msgs {
			switch m.Type {
			case api.WSTypeText, api.WSTypeFlush, api.WSTypeCancel:
			default:
				t.Fatalf("type %q", m.Type)
			}
			if m.Format != "" && !strings.HasPrefix(m.Format, "pcm") && m.Format != api.FormatMulaw && m.Format != api.FormatAlaw {
				t.Fatalf("format %q", m.Format)
			}
		}
	})
}
