package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
)

// Every refusal on a /v1/* route has OpenAI's nested shape, with kokoro's code as its code, the
// field at fault as its param (by the OpenAI route's names) and the valid values named in its
// message, which is all an OpenAI SDK shows; the same refusal on /invocations keeps kokoro's
// flat shape.
func TestOpenAIShapedErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)
	cases := []struct {
		name, method, path, body string
		status                   int
		code, param, errType     string
		mentions                 []string
	}{
		{"unknown voice", "POST", api.RouteOpenAISpeech, `{"input":"Hi.","voice":"af_nobody"}`,
			400, api.ErrUnknownVoice, "voice", api.OpenAIInvalidRequest, append([]string{"af_nobody"}, testVoices...)},
		{"unknown format", "POST", api.RouteOpenAISpeech, `{"input":"Hi.","response_format":"ogg"}`,
			400, api.ErrUnsupportedFormat, "response_format", api.OpenAIInvalidRequest, []string{"ogg", "mp3", "opus", "flac", "wav", "pcm"}},
		{"unknown model", "POST", api.RouteOpenAISpeech, `{"model":"whisper-1","input":"Hi."}`,
			400, api.ErrUnsupportedModel, "model", api.OpenAIInvalidRequest, append([]string{"whisper-1"}, openAIModels...)},
		{"speed", "POST", api.RouteOpenAISpeech, `{"input":"Hi.","speed":9}`,
			400, api.ErrInvalidSpeed, "speed", api.OpenAIInvalidRequest, []string{"9", "0.25", "4"}},
		{"empty input", "POST", api.RouteOpenAISpeech, `{"input":"  "}`,
			400, api.ErrEmptyText, "input", api.OpenAIInvalidRequest, nil},
		{"stream format", "POST", api.RouteOpenAISpeech, `{"input":"Hi.","stream_format":"chunks"}`,
			400, api.ErrUnsupportedStream, "stream_format", api.OpenAIInvalidRequest, []string{"chunks", "audio", "sse"}},
		{"malformed", "POST", api.RouteOpenAISpeech, `{"input":`,
			400, api.ErrInvalidJSON, "", api.OpenAIInvalidRequest, nil},
		{"method", "GET", api.RouteOpenAISpeech, ``,
			405, api.ErrMethodNotAllowed, "", api.OpenAIInvalidRequest, []string{"POST"}},
		{"no such model", "GET", api.RouteOpenAIModels + "/whisper-1", ``,
			404, api.ErrNotFound, "model", api.OpenAIInvalidRequest, append([]string{"whisper-1"}, openAIModels...)},
		{"no such route", "GET", "/v1/audio/transcriptions", ``,
			404, api.ErrNotFound, "", api.OpenAIInvalidRequest, []string{"/v1/audio/transcriptions"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, h.url+tc.path, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b := readAll(t, resp)
			var got struct {
				Error map[string]any `json:"error"`
			}
			if err := json.Unmarshal(b, &got); err != nil || got.Error == nil {
				t.Fatalf("%d %s: not OpenAI's shape (%v)", resp.StatusCode, b, err)
			}
			e := got.Error
			wantParam := any(nil)
			if tc.param != "" {
				wantParam = tc.param
			}
			if resp.StatusCode != tc.status || e["code"] != tc.code || e["type"] != tc.errType || e["param"] != wantParam {
				t.Errorf("%d %s; want %d with code %s, type %s, param %v", resp.StatusCode, b, tc.status, tc.code, tc.errType, wantParam)
			}
			msg, _ := e["message"].(string)
			for _, m := range tc.mentions {
				if !strings.Contains(msg, m) {
					t.Errorf("message %q does not name %q", msg, m)
				}
			}
		})
	}
	// The same refusal on /invocations is kokoro's flat body, the param named as it is there.
	resp := post(t, c, h.url+api.RouteInvocations, `{"text":"Hi.","voice":"af_nobody"}`)
	b := readAll(t, resp)
	var flat api.ErrorResponse
	if err := json.Unmarshal(b, &flat); err != nil || resp.StatusCode != 400 || flat.Error != api.ErrUnknownVoice || !strings.Contains(flat.Message, "af_nobody") {
		t.Errorf("/invocations: %d %s (%v), want a flat unknown_voice", resp.StatusCode, b, err)
	}
	if n := h.syn.calls.Load(); n != 0 {
		t.Errorf("the model ran %d chunks for refused requests", n)
	}
}

// A rejection by the admission gate on the OpenAI route is a server_error with the gate's
// numbers, and Retry-After.
func TestOpenAIShapedSaturation(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	defer close(hold)
	h := newHarness(t, func(c *Config, s *fakeSynth) { c.MaxQueueDepth, s.hold = 1, hold })
	h.waitReady()
	c := client(t)
	go func() {
		resp, err := c.Post(h.url+api.RouteOpenAISpeech, "application/json", jsonBody(`{"input":"Held in the model.","response_format":"pcm"}`))
		if err == nil {
			_ = resp.Body.Close()
		}
	}()
	eventually(t, waitLimit, "one request admitted", func() bool { return h.srv.gate.depth() == 1 })
	resp := post(t, c, h.url+api.RouteOpenAISpeech, `{"input":"Hi.","response_format":"pcm"}`)
	var got api.OpenAIErrorResponse
	b := readAll(t, resp)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	e := got.Error
	if resp.StatusCode != 503 || e.Code != api.ErrQueueSaturated || e.Type != api.OpenAIServerError || e.Param != nil ||
		e.QueueDepth == nil || *e.QueueDepth != 1 || e.MaxQueueDepth == nil || *e.MaxQueueDepth != 1 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("%d %s", resp.StatusCode, b)
	}
}
