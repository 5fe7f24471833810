package server

import (
	"testing"

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
