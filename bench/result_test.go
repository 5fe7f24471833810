package bench

import (
	"bytes"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

func TestJSONLRoundTrip(t *testing.T) {
	t.Parallel()
	in := []Result{
		{Run: 1, Rung: 4, Worker: 3, Seq: 9, TextChars: 22, Start: 1234567 * time.Nanosecond, End: 2 * time.Second, TTFAB: 80 * time.Millisecond,
			Stall: 3 * time.Millisecond, Stalls: 1, AudioBytes: 48000, Chunks: 3, Outcome: OK},
		{Run: 1, Rung: 4, Start: time.Second, End: time.Second + time.Millisecond, Outcome: Saturated503, Status: 503, Error: "server answered 503 queue_saturated"},
	}
	var buf bytes.Buffer
	w := NewJSONLWriter(&buf)
	for _, r := range in {
		if err := w.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	out, err := ReadResults(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip\n%+v\n%+v", in, out)
	}
}

func TestReadResultsRejectsNonsense(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		`{"rung":0,"outcome":"ok"}`,
		`{"rung":1,"start_ns":5,"end_ns":1,"outcome":"ok"}`,
		`{"rung":1,"outcome":"maybe"}`,
		`{"rung":1,"outcome":"ok","ttfab_ns":-1}`,
		`not json`,
	} {
		if _, err := ReadResults(strings.NewReader(line + "\n")); err == nil {
			t.Errorf("accepted %s", line)
		}
	}
}

func FuzzReadResults(f *testing.F) {
	f.Add([]byte(`{"run":1,"rung":2,"start_ns":1,"end_ns":2,"outcome":"ok"}` + "\n"))
	f.Add([]byte("\n\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ReadResults(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, r := range rs {
			if r.validate() != nil {
				t.Fatalf("returned an invalid result %+v", r)
			}
		}
	})
}

func FuzzLoadTexts(f *testing.F) {
	f.Add("Hello.\n# c\n\nWorld")
	f.Fuzz(func(t *testing.T, s string) {
		texts, err := LoadTexts(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, x := range texts {
			if x == "" || strings.TrimSpace(x) != x || strings.HasPrefix(x, "#") {
				t.Fatalf("bad text %q", x)
			}
		}
	})
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err         error
		interrupted bool
		want        Outcome
	}{
		{nil, false, OK},
		{&ServerError{Status: http.StatusServiceUnavailable, Code: "queue_saturated"}, false, Saturated503},
		{&ServerError{Status: http.StatusRequestTimeout}, false, Stale408},
		{&ServerError{Status: http.StatusTooManyRequests}, false, Throttled429},
		{&ServerError{Status: http.StatusBadGateway}, false, Server5xx},
		{&ServerError{Status: http.StatusBadRequest}, false, ClientError},
		{&ServerError{Status: http.StatusServiceUnavailable}, true, Saturated503},
		{errors.New("connection reset"), false, TransportError},
		{errors.New("connection reset"), true, Cancelled},
	}
	for _, tc := range tests {
		if got := Classify(tc.err, tc.interrupted); got != tc.want {
			t.Errorf("Classify(%v, %v) = %s; want %s", tc.err, tc.interrupted, got, tc.want)
		}
	}
}

func TestRenderProgress(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	p := Progress{Run: 1, Runs: 2, N: 8, Rung: 4, Rungs: 6, Elapsed: 30 * time.Second, Hold: 60 * time.Second, Measuring: true, TTFABP95Ms: 812, StallP95Ms: 14, RPS: 17.9, OK: 500}
	if err := RenderProgress(&b, p, 10); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"\r", "N=8", "█████░░░░░", "50%", "meas", "p95     812ms", "17.90 rps", "rung 4/6"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress %q lacks %q", got, want)
		}
	}
}

func TestWSServerErrorClassifiesLikeHTTP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg  api.WSServerMessage
		want Outcome
	}{
		{api.WSServerMessage{Type: "error", Code: "queue_saturated", Message: "queue_saturated"}, Saturated503},
		{api.WSServerMessage{Type: "error", Message: "queue_saturated"}, Saturated503},
		{api.WSServerMessage{Type: "error", Code: "request_stale", Message: "too old"}, Stale408},
		{api.WSServerMessage{Type: "error", Code: "unknown_voice", Message: `voice "xx" not found`}, ClientError},
		{api.WSServerMessage{Type: "error", Code: "internal", Message: "boom"}, Server5xx},
		{api.WSServerMessage{Type: "error", Message: "something broke"}, Server5xx},
	}
	for _, tc := range tests {
		if got := Classify(wsServerError(tc.msg), false); got != tc.want {
			t.Errorf("%+v → %s; want %s", tc.msg, got, tc.want)
		}
	}
}
