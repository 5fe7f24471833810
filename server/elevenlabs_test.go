package server

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
)

// elevenLabsRead collects messages until each of ids has had its isFinal.
func elevenLabsRead(t *testing.T, c *websocket.Conn, ids ...string) []elevenLabsMessage {
	t.Helper()
	open := map[string]bool{}
	for _, id := range ids {
		open[id] = true
	}
	var out []elevenLabsMessage
	for len(open) > 0 {
		_ = c.SetReadDeadline(time.Now().Add(waitLimit))
		var m elevenLabsMessage
		if err := c.ReadJSON(&m); err != nil {
			t.Fatalf("read: %v", err)
		}
		out = append(out, m)
		if m.IsFinal != nil && *m.IsFinal {
			delete(open, m.ContextID)
		}
	}
	return out
}

// wordsOf reads alignments as ElevenLabs' clients do: words are the runs of characters
// between spaces, timed on a clock that each message advances by its last character's end.
func wordsOf(msgs []elevenLabsMessage, id string) (words []string, starts []float64, clock float64) {
	cur := ""
	for _, m := range msgs {
		a := m.Alignment
		if m.ContextID != id || a == nil {
			continue
		}
		for i, ch := range a.Chars {
			if ch == " " {
				if cur != "" {
					words, cur = append(words, cur), ""
				}
				continue
			}
			if cur == "" {
				starts = append(starts, clock+a.StartsMS[i])
			}
			cur += ch
		}
		n := len(a.Chars) - 1
		clock += a.StartsMS[n] + a.DurationsMS[n]
	}
	if cur != "" {
		words = append(words, cur)
	}
	return words, starts, clock
}

// The ElevenLabs-style socket, as ElevenLabs' clients use it: the voice in the path, the
// format in the query, a context opened with a space, its text in pieces, close_context to
// end it; audio in base64 with character alignment whose words are the text's and whose clock
// keeps to the audio; isFinal.
func TestElevenLabsMultiContext(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialPath(t, h, "/v1/text-to-speech/af_bella/multi-stream-input?model_id=eleven_flash_v2_5&output_format=pcm_16000&auto_mode=true")
	for _, m := range []map[string]any{
		{"text": " ", "context_id": "turn-1", "voice_settings": map[string]any{"stability": 0.5}},
		{"text": "One two three. Four five ", "context_id": "turn-1"},
		{"text": "six seven. Eight.", "context_id": "turn-1"},
		{"text": ""}, // keep-alive
		{"context_id": "turn-1", "flush": true},
		{"context_id": "turn-1", "close_context": true},
		{"text": "", "context_id": "turn-1"}, // a late keep-alive opens nothing
	} {
		if err := c.WriteJSON(m); err != nil {
			t.Fatal(err)
		}
	}
	msgs := elevenLabsRead(t, c, "turn-1")
	var pcm []byte
	for _, m := range msgs {
		if m.Audio != "" {
			b, err := base64.StdEncoding.DecodeString(m.Audio)
			if err != nil || m.ContextID != "turn-1" {
				t.Fatalf("audio message %+v: %v", m.ContextID, err)
			}
			pcm = append(pcm, b...)
		}
	}
	words, starts, clock := wordsOf(msgs, "turn-1")
	if got := strings.Join(words, " "); got != "One two three. Four five six seven. Eight." {
		t.Errorf("words %q", got)
	}
	if ms := float64(len(pcm)/2) * 1000 / 16000; math.Abs(clock-ms) > 1e-6 {
		t.Errorf("alignment clock %.3f ms, audio %.3f ms", clock, ms)
	}
	for i := 1; i < len(starts); i++ {
		if starts[i] <= starts[i-1] {
			t.Errorf("word %d starts at %.1f ms, before the one before it (%.1f)", i, starts[i], starts[i-1])
		}
	}
	// The late keep-alive opened nothing: one utterance, counted once.
	eventually(t, waitLimit, "one utterance counted", func() bool {
		return testutil.ToFloat64(h.srv.Metrics().Requests.WithLabelValues(labelBidi, OutcomeOK)) == 1 && h.srv.gate.depth() == 0
	})
}

// A context opened while another is still being spoken interrupts it, as a voice agent's next
// turn does: the first stops mid-sentence with its isFinal, the second speaks, and nothing is
// left in flight. A format the socket does not send is refused before the upgrade.
func TestElevenLabsNextContextInterrupts(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(hold) }) }
	t.Cleanup(release)
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.hold, s.holdAfter = 1, hold, 1 })
	h.waitReady()
	c := dialPath(t, h, "/v1/text-to-speech/af_heart/multi-stream-input?output_format=ulaw_8000")
	send := func(m map[string]any) {
		if err := c.WriteJSON(m); err != nil {
			t.Fatal(err)
		}
	}
	send(map[string]any{"text": "First sentence here. A second one, held in the model. ", "context_id": "old"})
	send(map[string]any{"context_id": "old", "close_context": true})
	for {
		_ = c.SetReadDeadline(time.Now().Add(waitLimit))
		var m elevenLabsMessage
		if err := c.ReadJSON(&m); err != nil {
			t.Fatal(err)
		}
		if m.Audio != "" {
			break
		}
	}
	send(map[string]any{"text": " ", "context_id": "new"})
	send(map[string]any{"text": "Yes?", "context_id": "new"})
	eventually(t, waitLimit, "the old context cancelled", func() bool {
		return testutil.ToFloat64(h.srv.Metrics().Requests.WithLabelValues(labelBidi, OutcomeCancelled)) == 1
	})
	release()
	send(map[string]any{"context_id": "new", "close_context": true})
	msgs := elevenLabsRead(t, c, "old", "new")
	var newAudio int
	for _, m := range msgs {
		if m.ContextID == "new" && m.Audio != "" {
			b, _ := base64.StdEncoding.DecodeString(m.Audio)
			newAudio += len(b)
		}
	}
	if newAudio == 0 {
		t.Error("the new context spoke nothing")
	}
	eventually(t, waitLimit, "nothing in flight", func() bool {
		return h.srv.gate.depth() == 0 && testutil.ToFloat64(h.srv.Metrics().InFlight) == 0
	})

	url := "ws" + strings.TrimPrefix(h.url, "http") + "/v1/text-to-speech/af_heart/multi-stream-input?output_format=mp3_44100_128"
	_, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err == nil || resp == nil || resp.StatusCode != 400 {
		t.Fatalf("mp3: %v %v", err, resp)
	}
	var e api.OpenAIErrorResponse
	if json.NewDecoder(resp.Body).Decode(&e) != nil || e.Error.Code != api.ErrUnsupportedFormat {
		t.Errorf("mp3: %+v", e)
	}
}

func FuzzElevenLabsMessage(f *testing.F) {
	for _, s := range []string{`{"text":" ","context_id":"a","voice_settings":{}}`, `{"context_id":"a","close_context":true}`,
		`{"text":""}`, `{"close_socket":true}`, `{"context_id":"a","flush":true,"text":"Hi."}`, `{"text":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &elevenLabsDialect{voice: "af_heart", format: api.FormatPCM, rate: api.SampleRate}
		msgs, err := d.read(b, false)
		for _, m := range msgs {
			if checkRequestID(m.RequestID) != nil {
				t.Fatalf("context id %q would be echoed", m.RequestID)
			}
		}
		if err != nil && classify(err).status != 400 {
			t.Fatalf("message error %v is not a 400", err)
		}
	})
}
