package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
)

// By default a field no route knows is refused, naming it; a server started with
// AllowUnknownFields ignores it and speaks, on HTTP and on the WebSocket alike.
func TestAllowUnknownFields(t *testing.T) {
	t.Parallel()
	for _, allow := range []bool{false, true} {
		h := newHarness(t, func(c *Config, _ *fakeSynth) { c.AllowUnknownFields = allow })
		h.waitReady()
		c := client(t)
		for route, body := range map[string]string{
			api.RouteInvocations:     `{"text":"hi","format":"pcm","voice_name":"af_bella"}`,
			api.RouteOpenAISpeech:    `{"input":"hi","response_format":"pcm","voice_name":"af_bella"}`,
			api.RouteCaptionedSpeech: `{"input":"hi","response_format":"pcm","voice_name":"af_bella"}`,
		} {
			resp := post(t, c, h.url+route, body)
			b := readAll(t, resp)
			if allow {
				if resp.StatusCode != 200 {
					t.Errorf("allowed, %s: %d %.200s", route, resp.StatusCode, b)
				}
				continue
			}
			if e := decodeError(t, b); resp.StatusCode != 400 || e.Error != api.ErrUnknownField || len(e.Valid) == 0 {
				t.Errorf("refused, %s: %d %.200s", route, resp.StatusCode, b)
			}
		}
		conn := dialWS(t, h)
		if err := conn.WriteMessage(1, []byte(`{"text":"hi","request_id":"x","voice_name":"af_bella"}`)); err != nil {
			t.Fatal(err)
		}
		var tr transcript
		read(t, conn, &tr, completed(1))
		if got := tr.find(api.WSTypeSynthesisComplete, "x") != nil; got != allow {
			t.Errorf("allow=%v: the socket spoke: %v (%v)", allow, got, tr.order)
		}
	}
}

// The field check knows the SSML, speech mark, lexicon, phoneme and normalization fields: a
// server that refuses unknown fields speaks an SSML request that names all of them, at another
// sample rate, on every route they apply to, and on the WebSocket, where its speech marks are
// timed at the frames' rate.
func TestStrictFieldsTakeMarkupFields(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withLexicons("../markup/testdata/lexicons/good"))
	h.waitReady()
	c := client(t)
	ssml := `"<speak>One <break time=\"100ms\"/> two.</speak>"`
	norm := `"normalization_options":{"normalize":true,"url_normalization":false,"email_normalization":true,"unit_normalization":true,"phone_normalization":true,"optional_pluralization_normalization":true,"replace_remaining_symbols":true}`
	for route, body := range map[string]string{
		api.RouteInvocations: `{"text":` + ssml + `,"text_type":"ssml","input_type":"text","lexicon_names":["acme"],"speech_marks":["word","ssml"],"timestamps":true,` +
			norm + `,"format":"pcm","sample_rate":16000}`,
		api.RouteOpenAISpeech: `{"model":"kokoro","voice":"af_heart","input":` + ssml + `,"text_type":"ssml","input_type":"text","lexicon_names":["acme"],` +
			norm + `,"response_format":"pcm","sample_rate":16000}`,
		api.RouteCaptionedSpeech:      `{"input":"One two.",` + norm + `,"response_format":"pcm","sample_rate":16000}`,
		api.RouteGenerateFromPhonemes: `{"phonemes":"hˈi","voice":"af_heart","sample_rate":16000}`,
	} {
		resp := post(t, c, h.url+route, body)
		b := readAll(t, resp)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d %.300s", route, resp.StatusCode, b)
			continue
		}
		if route != api.RouteInvocations {
			continue
		}
		var marks int
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var ev api.InvocationEvent
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatal(err)
			}
			for _, w := range ev.Words {
				if float64(w.Start)*1000/16000 != w.StartMS {
					t.Errorf("word %+v not timed at 16000 Hz", w)
				}
			}
			for _, m := range ev.Marks {
				marks++
				if lo, hi := float64(ev.Offset)*1000/16000, float64(ev.Offset+ev.Samples)*1000/16000; float64(m.Time) < lo-1 || float64(m.Time) > hi+1 {
					t.Errorf("mark %+v outside its event's [%v, %v] ms at 16000 Hz", m, lo, hi)
				}
			}
		}
		if marks < 2 {
			t.Errorf("%s: %d speech marks, want one a word: %.300s", route, marks, b)
		}
	}
	conn := dialWS(t, h)
	msg := `{"type":"speak","request_id":"s","text":` + ssml + `,"text_type":"ssml","input_type":"text","lexicon_names":["acme"],"speech_marks":["word"],"format":"mulaw","sample_rate":8000}`
	if err := conn.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	var tr transcript
	read(t, conn, &tr, completed(1))
	if tr.find(api.WSTypeSynthesisComplete, "s") == nil {
		t.Fatalf("the socket did not speak: %v", tr.order)
	}
	var marks []api.SpeechMark
	for _, m := range tr.msgs {
		if m.Type != api.WSTypeAudio || m.Offset == nil || m.Samples == nil {
			continue
		}
		for _, mk := range m.Marks {
			if lo, hi := float64(*m.Offset)*1000/8000, float64(*m.Offset+*m.Samples)*1000/8000; float64(mk.Time) < lo-1 || float64(mk.Time) > hi+1 {
				t.Errorf("mark %+v outside its frame's [%v, %v] ms at 8000 Hz", mk, lo, hi)
			}
		}
		marks = append(marks, m.Marks...)
	}
	if len(marks) != 2 || marks[0].Value != "One" {
		t.Errorf("the socket's marks: %+v", marks)
	}
}
