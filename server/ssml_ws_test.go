package server

import (
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/kokoro-sm/kokoro/api"
)

// TestWebSocketSSMLAndSpeechMarks speaks a whole SSML message on the WebSocket, its pause as
// silence, with the speech marks of each binary frame in the audio message before it; SSML
// streamed in pieces is refused.
func TestWebSocketSSMLAndSpeechMarks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := dialWS(t, h)
	doc := `<speak>One two. <break time="2s"/><mark name="m"/>Three.</speak>`
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Text: doc, RequestID: "s1", SpeechMarks: []string{"word", "ssml"}})
	var tr transcript
	read(t, c, &tr, completed(1))
	var words []string
	ssml := 0
	for _, m := range tr.msgs {
		if m.Type != api.WSTypeAudio {
			continue
		}
		if len(m.Words) > 0 {
			t.Errorf("words sent without timestamps: %+v", m.Words)
		}
		for _, mk := range m.Marks {
			if from, to := api.SamplesMS(*m.Offset), api.SamplesMS(*m.Offset+*m.Samples); float64(mk.Time) < from-1 || float64(mk.Time) > to+1 {
				t.Errorf("mark %+v outside its frame's [%v, %v] ms", mk, from, to)
			}
			switch mk.Type {
			case "word":
				words = append(words, mk.Value)
			case "ssml":
				ssml++
			}
		}
	}
	if strings.Join(words, " ") != "One two. Three." || ssml != 1 {
		t.Errorf("words %q, %d ssml marks", words, ssml)
	}
	if m := tr.find(api.WSTypeSynthesisComplete, "s1"); m == nil || m.TotalDurationS < 2 {
		t.Errorf("complete %+v: the pause is not in the audio", m)
	}
	sendJSON(t, c, websocket.TextMessage, api.WSClientMessage{Type: api.WSTypeText, Text: "<speak>One ", RequestID: "s2"})
	read(t, c, &tr, completed(2))
	if m := tr.find(api.WSTypeError, "s2"); m == nil || m.Code != api.ErrInvalidSSML {
		t.Errorf("streamed SSML: %+v, want an invalid_ssml error", m)
	}
}
