package transport

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kokoro-sm/kokoro/bench"
)

// The OpenAI transport asks for streamed pcm and hands every body read over as audio; a
// refusal is a server error, not audio.
func TestOpenAITransport(t *testing.T) {
	t.Parallel()
	var got openAISpeech
	refuse := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/audio/speech" || r.Method != http.MethodPost {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		json.NewDecoder(r.Body).Decode(&got)
		if refuse {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error":{"message":"queue saturated","type":"server_error","param":null,"code":"queue_saturated"}}`))
			return
		}
		w.Header().Set("Content-Type", "audio/pcm")
		w.Write(make([]byte, 4800))
		w.(http.Flusher).Flush()
		w.Write(make([]byte, 2400))
	}))
	defer srv.Close()
	tr, err := NewOpenAI(srv.URL+"/", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	c, _ := tr.Dial(context.Background())
	n := 0
	if err := c.Synthesize(context.Background(), bench.Request{Text: "Hello.", Speed: 1.5}, func(b []byte) { n += len(b) }); err != nil {
		t.Fatal(err)
	}
	if n != 7200 {
		t.Errorf("%d audio bytes, want 7200", n)
	}
	if got.Input != "Hello." || got.ResponseFormat != "pcm" || !got.Stream || got.Voice != "af_heart" || got.Speed == nil || *got.Speed != 1.5 {
		t.Errorf("request %+v", got)
	}
	refuse = true
	err = c.Synthesize(context.Background(), bench.Request{Text: "Hello."}, func([]byte) { t.Error("audio from a refusal") })
	var se *bench.ServerError
	if !errors.As(err, &se) || se.Status != 503 || se.Code != "queue_saturated" {
		t.Errorf("refusal: %v", err)
	}
	if _, err := NewOpenAI("ftp://x", 1); err == nil {
		t.Error("ftp accepted")
	}
}
