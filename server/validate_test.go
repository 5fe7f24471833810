package server

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/tts"
)

// TestHTTPAndWebSocketRefuseTheSameFields: the same hostile fields sent as a POST
// /invocations body and as a WebSocket utterance get the same error code (one validation,
// checkSynthesis, decides both), and the model runs for none of them. The cases include what
// used to pass on one transport only (a language the server does not speak was spoken over
// WebSocket) or on both (denormal blend weights, a voice name with a newline or a NUL).
func TestHTTPAndWebSocketRefuseTheSameFields(t *testing.T) {
	t.Parallel()
	h := newHarness(t, maxTextChars(100))
	h.waitReady()
	c := client(t)
	cases := []struct {
		name   string
		fields map[string]any
		code   string
	}{
		{"unspoken lang", map[string]any{"lang": "de"}, api.ErrUnsupportedLang},
		{"lang not a code", map[string]any{"lang": "en-us\n"}, api.ErrUnsupportedLang},
		{"denormal weights", map[string]any{"voice": "af_heart(1e-320)+af_bella(1e-320)"}, api.ErrUnknownVoice},
		{"weight below the minimum", map[string]any{"voice": "af_heart(1)+af_bella(0.00001)"}, api.ErrUnknownVoice},
		{"zero weight", map[string]any{"voice": "af_heart(0)+af_bella"}, api.ErrUnknownVoice},
		{"newline in the name", map[string]any{"voice": "af_heart\n"}, api.ErrUnknownVoice},
		{"NUL in the name", map[string]any{"voice": "af_he\u0000art"}, api.ErrUnknownVoice},
		{"escape in a blend", map[string]any{"voice": "af_heart+\u001b[31maf_bella"}, api.ErrUnknownVoice},
		{"unknown voice", map[string]any{"voice": "xx_nobody"}, api.ErrUnknownVoice},
		{"voice spec too long", map[string]any{"voice": strings.Repeat("a", 300)}, api.ErrUnknownVoice},
		{"speed out of range", map[string]any{"speed": 9}, api.ErrInvalidSpeed},
		{"speed not a number", map[string]any{"speed": "fast"}, api.ErrInvalidJSON},
		{"blank text", map[string]any{"text": "   "}, api.ErrEmptyText},
		{"nothing speakable", map[string]any{"text": "#"}, api.ErrEmptyText},
		{"text too long", map[string]any{"text": strings.Repeat("word ", 40)}, api.ErrTextTooLong},
		{"request id with a space", map[string]any{"request_id": "a b"}, api.ErrInvalidRequestID},
		{"request id too long", map[string]any{"request_id": strings.Repeat("x", 200)}, api.ErrInvalidRequestID},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"text": "Hello there."}
			for k, v := range tc.fields {
				body[k] = v
			}
			b, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			resp := post(t, c, h.url+api.RouteInvocations, string(b))
			httpCode := ""
			if resp.StatusCode != 200 {
				httpCode = decodeError(t, readAll(t, resp)).Error
			} else {
				readAll(t, resp)
			}
			wsCode := wsVerdict(t, h, b)
			if httpCode != tc.code || wsCode != tc.code {
				t.Errorf("%s: HTTP %q (status %d), WebSocket %q; want %q on both", tc.name, httpCode, resp.StatusCode, wsCode, tc.code)
			}
		})
	}
	if n := h.syn.calls.Load(); n != 0 {
		t.Errorf("the model ran %d chunks for refused requests", n)
	}
}

// wsVerdict sends one utterance on a new session and returns the code of the error it ended
// with, or "" when it was spoken.
func wsVerdict(t *testing.T, h *harness, msg []byte) string {
	t.Helper()
	conn := dialWS(t, h)
	defer conn.Close()
	if err := conn.WriteMessage(websocket.TextMessage, msg); err != nil {
		t.Fatal(err)
	}
	for {
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		mt, b, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("websocket read: %v", err)
		}
		if mt != websocket.TextMessage {
			continue
		}
		var m api.WSServerMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		switch m.Type {
		case api.WSTypeError:
			return m.Code
		case api.WSTypeSynthesisComplete:
			return ""
		}
	}
}

// countingVoices is fakeVoices recording each voice spec the engine reads.
type countingVoices struct {
	fakeVoices
	mu    sync.Mutex
	specs []string
}

func (v *countingVoices) Resolve(spec string) (model.Pack, error) {
	v.mu.Lock()
	v.specs = append(v.specs, spec)
	v.mu.Unlock()
	return v.fakeVoices.Resolve(spec)
}

// TestARequestIsResolvedOnce: a request's voice spec is read once, by the check, and what it
// resolved is what is spoken: not again for each chunk, each SSML segment or a segment's own
// language.
func TestARequestIsResolvedOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, text string }{
		{"plain", "One. Two. Three."},
		{"ssml", `<speak>One. Two. <lang xml:lang="en-gb">Three. Four.</lang> <prosody rate="fast">Five.</prosody></speak>`},
		{"speech marks", "One. Two. Three."},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := &countingVoices{fakeVoices: fakeVoices{testVoices}}
			eng := tts.New(tts.Config{}, fakePhonemizer{}, &fakeSynth{slots: 1}, v)
			defer eng.Close()
			f := fields{Text: c.text, Voice: "af_heart(2)+af_bella", Lang: "en-us"}
			if c.name == "speech marks" {
				f.SpeechMarks = []string{tts.MarkWord}
			}
			r, err := checkSynthesis(eng, f, testLimits(), false)
			if err != nil {
				t.Fatal(err)
			}
			var chunks int
			if _, err := tts.StreamMarkup(context.Background(), eng, r, func(tts.Chunk) error { chunks++; return nil }); err != nil {
				t.Fatal(err)
			}
			if chunks < 3 {
				t.Fatalf("%d chunks spoken, want several", chunks)
			}
			if len(v.specs) != 1 || v.specs[0] != "af_heart(2)+af_bella" {
				t.Errorf("voice specs read %q, want the request's once", v.specs)
			}
		})
	}
}
