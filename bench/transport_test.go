package bench

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
			err := readWAVStream(tc.r, func(n int) {
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
		err := readWAVStream(bytes.NewReader(data), func(n int) { got += n })
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
	tr, err := NewHTTPTransport(srv.URL+"/prefix/", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.CloseIdle()
	c, _ := tr.Dial(context.Background())
	err = c.Synthesize(context.Background(), Request{ID: "r1", Text: "Hello.", Voice: "af_sky", Speed: 1.2}, func(int) { t.Error("audio from a refusal") })
	var se *ServerError
	if !errors.As(err, &se) || se.Status != 503 || se.Code != api.ErrQueueSaturated || Classify(err, false) != Saturated503 {
		t.Errorf("err %#v", err)
	}
	if got.Text != "Hello." || got.Voice != "af_sky" || got.Speed == nil || *got.Speed != 1.2 || got.Stream == nil || !*got.Stream || got.RequestID != "r1" || got.Format != "wav" {
		t.Errorf("request %+v", got)
	}
}

func TestTransportURLs(t *testing.T) {
	t.Parallel()
	if _, err := NewHTTPTransport("ftp://x", 1); err == nil {
		t.Error("ftp accepted for http")
	}
	ws, err := NewWSTransport("https://host:9/base")
	if err != nil || ws.endpoint != "wss://host:9/base"+api.RouteBidiStream {
		t.Errorf("ws endpoint %q, %v", ws.endpoint, err)
	}
}
