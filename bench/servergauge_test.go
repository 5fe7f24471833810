package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseGauge(t *testing.T) {
	t.Parallel()
	text := `# HELP kokoro_requests_in_flight Admitted requests.
# TYPE kokoro_requests_in_flight gauge
kokoro_requests_in_flight_total 99
kokoro_requests_in_flight{route="x"} 98
kokoro_requests_in_flight 3
`
	v, err := parseGauge(strings.NewReader(text), DefaultServerGauge)
	if err != nil || v != 3 {
		t.Fatalf("got %v, %v; want 3 (not the _total or labelled series)", v, err)
	}
	if _, err := parseGauge(strings.NewReader("other 1\n"), DefaultServerGauge); err == nil {
		t.Error("missing metric accepted")
	}
	if _, err := parseGauge(strings.NewReader("kokoro_requests_in_flight x\n"), DefaultServerGauge); err == nil {
		t.Error("non-numeric value accepted")
	}
}

func FuzzParseGauge(f *testing.F) {
	f.Add("kokoro_requests_in_flight 2\n")
	f.Add("kokoro_requests_in_flight  \n")
	f.Add("kokoro_requests_in_flight 1e400\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, _ = parseGauge(strings.NewReader(text), DefaultServerGauge)
	})
}

// The gauge's samples inside a rung's window, and only those, make its server-side view.
func TestServerGaugeAveragesTheWindow(t *testing.T) {
	var value atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "kokoro_requests_in_flight %d\n", value.Load())
	}))
	defer srv.Close()
	g := &ServerGauge{URL: srv.URL, Every: 5 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { g.Run(ctx); close(done) }()

	value.Store(10) // before the window: ignored
	time.Sleep(40 * time.Millisecond)
	hold := time.Now()
	value.Store(4)
	time.Sleep(60 * time.Millisecond)
	value.Store(6)
	time.Sleep(60 * time.Millisecond)
	end := time.Since(hold)
	value.Store(20) // after the window: ignored
	time.Sleep(40 * time.Millisecond)
	cancel()
	<-done

	s := RungStats{HoldStartedAt: hold, Window: Window{Start: 0, End: end}}
	if err := g.AfterRung(context.Background(), &s); err != nil {
		t.Fatal(err)
	}
	if s.ServerInFlightMean < 4 || s.ServerInFlightMean > 6 || s.ServerInFlightPeak != 6 {
		t.Fatalf("server in-flight mean %.2f peak %.0f, want between 4 and 6, peak 6", s.ServerInFlightMean, s.ServerInFlightPeak)
	}
	if g.Err() != nil {
		t.Fatalf("scrape error: %v", g.Err())
	}
}
