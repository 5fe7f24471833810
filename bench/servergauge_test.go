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

// The gauge's samples inside a rung's window, and only those, make its server-side view. The
// window is placed by the samples themselves (from the first that read 4 to just before the
// first that read 20), so a machine slow to scrape cannot move a sample across its edge.
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
	// firstReading is the time of the first sample that read v.
	firstReading := func(v float64) time.Time {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			g.mu.Lock()
			for _, x := range g.samples {
				if x.value == v {
					g.mu.Unlock()
					return x.at
				}
			}
			g.mu.Unlock()
			time.Sleep(time.Millisecond)
		}
		t.Fatalf("no sample read %v", v)
		return time.Time{}
	}

	value.Store(10) // before the window: ignored
	firstReading(10)
	value.Store(4)
	hold := firstReading(4)
	time.Sleep(30 * time.Millisecond)
	value.Store(6)
	firstReading(6)
	time.Sleep(30 * time.Millisecond)
	value.Store(20) // after the window: ignored
	end := firstReading(20).Add(-time.Nanosecond).Sub(hold)
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
