package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

func TestReadWAVStream(t *testing.T) {
	t.Parallel()
	valid := append(wavHeader(), make([]byte, 1000)...)
	tests := []struct {
		name    string
		r       io.Reader
		want    int
		wantErr string
	}{
		{"whole", bytes.NewReader(valid), 1000, ""},
		{"one byte at a time", iotest.OneByteReader(bytes.NewReader(valid)), 1000, ""},
		{"header only", bytes.NewReader(wavHeader()), 0, ""},
		{"cut inside the header", bytes.NewReader(valid[:20]), 0, "inside the WAV header"},
		{"not a wav", bytes.NewReader(append([]byte("ID3\x03"), make([]byte, 100)...)), 0, "not a WAV"},
		{"broken connection", io.MultiReader(bytes.NewReader(valid[:500]), iotest.ErrReader(errors.New("reset"))), 456, "reset"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, calls := 0, 0
			err := readWAVStream(tc.r, func(pcm []byte) {
				n := len(pcm)
				if n <= 0 {
					t.Errorf("onAudio(%d)", n)
				}
				got += n
				calls++
			})
			if (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("err %v; want %q", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("%d audio bytes; want %d", got, tc.want)
			}
		})
	}
}

func FuzzReadWAVStream(f *testing.F) {
	f.Add(append(wavHeader(), 1, 2, 3, 4))
	f.Add([]byte("RIFF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := 0
		err := readWAVStream(bytes.NewReader(data), func(pcm []byte) { got += len(pcm) })
		if err == nil && got != len(data)-api.StreamingWAVHeader {
			t.Fatalf("%d audio bytes from %d bytes of stream", got, len(data))
		}
		if got < 0 || got > max(0, len(data)-api.StreamingWAVHeader) {
			t.Fatalf("%d audio bytes from %d bytes of stream", got, len(data))
		}
	})
}

// TestHTTPTransportRequestAndRefusal checks the request the transport sends and how it reads a
// refusal's JSON body.
func TestHTTPTransportRequestAndRefusal(t *testing.T) {
	t.Parallel()
	var got api.InvocationRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/prefix"+api.RouteInvocations || r.Method != http.MethodPost {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		json.NewDecoder(r.Body).Decode(&got)
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":"queue_saturated","queue_depth":4,"max_queue_depth":4}`))
	}))
	defer srv.Close()
	tr, err := NewHTTP(srv.URL+"/prefix/", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	c, _ := tr.Dial(context.Background())
	err = c.Synthesize(context.Background(), bench.Request{ID: "r1", Text: "Hello.", Voice: "af_sky", Speed: 1.2}, func([]byte) { t.Error("audio from a refusal") })
	var se *bench.ServerError
	if !errors.As(err, &se) || se.Status != 503 || se.Code != api.ErrQueueSaturated || bench.Classify(err, false) != artifact.OutcomeSaturated503 {
		t.Errorf("err %#v", err)
	}
	if got.Text != "Hello." || got.Voice != "af_sky" || got.Speed == nil || *got.Speed != 1.2 || got.Stream == nil || !*got.Stream || got.RequestID != "r1" || got.Format != "wav" {
		t.Errorf("request %+v", got)
	}
}

func TestTransportURLs(t *testing.T) {
	t.Parallel()
	if _, err := NewHTTP("ftp://x", 1); err == nil {
		t.Error("ftp accepted for http")
	}
	ws, err := NewWS("https://host:9/base")
	if err != nil || ws.endpoint != "wss://host:9/base"+api.RouteBidiStream {
		t.Errorf("ws endpoint %q, %v", ws.endpoint, err)
	}
}

func TestWSServerErrorClassifiesLikeHTTP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg  api.WSServerMessage
		want artifact.Outcome
	}{
		{api.WSServerMessage{Type: "error", Code: "queue_saturated", Message: "queue_saturated"}, artifact.OutcomeSaturated503},
		{api.WSServerMessage{Type: "error", Message: "queue_saturated"}, artifact.OutcomeSaturated503},
		{api.WSServerMessage{Type: "error", Code: "request_stale", Message: "too old"}, artifact.OutcomeStale408},
		{api.WSServerMessage{Type: "error", Code: "unknown_voice", Message: `voice "xx" not found`}, artifact.OutcomeClientError},
		{api.WSServerMessage{Type: "error", Code: "internal", Message: "boom"}, artifact.OutcomeServer5xx},
		{api.WSServerMessage{Type: "error", Message: "something broke"}, artifact.OutcomeServer5xx},
	}
	for _, tc := range tests {
		if got := bench.Classify(wsServerError(tc.msg), false); got != tc.want {
			t.Errorf("%+v → %s; want %s", tc.msg, got, tc.want)
		}
	}
}

func TestRegistry(t *testing.T) {
	t.Parallel()
	sm := &SageMaker{
		InvokeStream: func(context.Context, []byte, func([]byte)) error { return nil },
		OpenBidi:     func(context.Context) (BidiSession, error) { return nil, errors.New("none") },
	}
	for _, name := range Names() {
		if strings.HasPrefix(name, "sagemaker-") {
			if _, err := New(name, Options{BaseURL: "http://127.0.0.1:1"}); err == nil || !strings.Contains(err.Error(), "--endpoint-name") {
				t.Errorf("%s without a SageMaker client: %v", name, err)
			}
		}
		tr, err := New(name, Options{BaseURL: "http://127.0.0.1:1", MaxConns: 1, SageMaker: sm})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.Name() != name || Check(name) != nil {
			t.Errorf("transport registered as %q calls itself %q", name, tr.Name())
		}
		if !strings.Contains(Help(), name+" (") {
			t.Errorf("help %q does not describe %s", Help(), name)
		}
		tr.Close()
	}
	if err := Check("carrier-pigeon"); err == nil || !strings.Contains(err.Error(), "have: http, ws") {
		t.Errorf("unknown transport: %v", err)
	}
}
