package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
)

// TestPhonemeRoutes answers Kokoro-FastAPI's phoneme routes with the bodies its clients send
// ({"text", "language": "a"} and {"phonemes", "voice"}), and input_type phonemes on
// /invocations; bad input is a 400 naming the problem.
func TestPhonemeRoutes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.waitReady()
	c := client(t)

	resp := post(t, c, h.url+api.RoutePhonemize, `{"text":"Hello world.","language":"a"}`)
	b := readAll(t, resp)
	var ph api.PhonemeResponse
	if err := json.Unmarshal(b, &ph); err != nil || resp.StatusCode != http.StatusOK || ph.Phonemes != "Hello world." || len(ph.Tokens) != 10 {
		t.Errorf("phonemize: %d %s (%v)", resp.StatusCode, b, err)
	}

	resp = post(t, c, h.url+api.RouteGenerateFromPhonemes, `{"phonemes":"həlˈO wˈɜɹld.","voice":"am_adam"}`)
	b = readAll(t, resp)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "audio/wav" || len(b) <= api.StreamingWAVHeader {
		t.Errorf("generate_from_phonemes: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(b))
	}

	resp = post(t, c, h.url+api.RouteInvocations, `{"text":"həlˈO wˈɜɹld.","input_type":"phonemes","format":"pcm"}`)
	if b = readAll(t, resp); resp.StatusCode != http.StatusOK || len(b) == 0 {
		t.Errorf("input_type phonemes: %d, %d bytes", resp.StatusCode, len(b))
	}

	for _, bad := range []struct{ route, body, code string }{
		{api.RoutePhonemize, `{"text":"","language":"a"}`, api.ErrEmptyText},
		{api.RoutePhonemize, `{"text":"hi","language":"klingon"}`, api.ErrUnsupportedLang},
		{api.RouteGenerateFromPhonemes, `{"phonemes":"hello ☃","voice":"af_heart"}`, api.ErrInvalidPhonemes},
		{api.RouteGenerateFromPhonemes, `{"phonemes":"hˈi","voice":"nobody"}`, api.ErrUnknownVoice},
		{api.RouteInvocations, `{"text":"hi","input_type":"morse"}`, api.ErrInvalidInputType},
	} {
		resp := post(t, c, h.url+bad.route, bad.body)
		b := readAll(t, resp)
		if e := decodeError(t, b); resp.StatusCode != http.StatusBadRequest || e.Error != bad.code {
			t.Errorf("%s %s: %d %s, want %s", bad.route, bad.body, resp.StatusCode, b, bad.code)
		}
	}
	resp, err := c.Get(h.url + api.RoutePhonemize)
	if err != nil {
		t.Fatal(err)
	}
	if readAll(t, resp); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET phonemize: %d", resp.StatusCode)
	}
}
