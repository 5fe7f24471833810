package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
)

// A WebSocket utterance takes lang as /invocations does: a language the server speaks is
// spoken, another is an error naming those it speaks, and the session goes on.
func TestWebSocketLang(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialWS(t, h)
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Hola, ¿qué tal?", Lang: "es", RequestID: "es"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "Guten Tag.", Lang: "de", RequestID: "de"})
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: "नमस्ते, आप कैसे हैं।", Lang: "HI", RequestID: "hi"})
	var tr transcript
	read(t, c, &tr, completed(3))
	if tr.find(api.WSTypeSynthesisComplete, "es") == nil || tr.find(api.WSTypeSynthesisComplete, "hi") == nil {
		t.Errorf("es and hi were not spoken: %v", tr.order)
	}
	m := tr.find(api.WSTypeError, "de")
	if m == nil || m.Code != api.ErrUnsupportedLang || !strings.Contains(m.Message, "es, fr-fr, hi, it, pt-br") {
		t.Errorf("lang de: %+v; want unsupported_lang naming the languages", m)
	}
	if tr.pcm["hi"] == 0 {
		t.Error("the Hindi text was dropped as unspeakable")
	}
}

// /v1/audio/voices says which language each voice speaks and which a request may name.
func TestVoicesListLanguages(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	resp, err := client(t).Get(h.url + api.RouteOpenAIVoices)
	if err != nil {
		t.Fatal(err)
	}
	var vl api.VoiceList
	if err := json.Unmarshal(readAll(t, resp), &vl); err != nil {
		t.Fatal(err)
	}
	if vl.Languages["af_heart"] != "en-us" || vl.Languages["am_adam"] != "en-us" || !slices.Contains(vl.Langs, "pt-br") {
		t.Errorf("voices = %+v", vl)
	}
}

// Devanagari text is speech in Hindi and noise in English: a Hindi request keeps it, an
// English one is refused as having nothing speakable.
func TestInvocationKeepsTheLanguagesScript(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	for lang, status := range map[string]int{"hi": 200, "en-us": 400} {
		resp := post(t, c, h.url+api.RouteInvocations, `{"text":"नमस्ते, आप कैसे हैं।","lang":"`+lang+`","format":"pcm"}`)
		if body := readAll(t, resp); resp.StatusCode != status {
			t.Errorf("lang %s: %d %s, want %d", lang, resp.StatusCode, body, status)
		}
	}
}
