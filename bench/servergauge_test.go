package bench

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
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

// Any text: parseGauge never panics, and a value it returns is the first field of a line that
// starts with the metric's name and a space, read as Go reads a float.
func FuzzParseGauge(f *testing.F) {
	f.Add("kokoro_requests_in_flight 2\n")
	f.Add("kokoro_requests_in_flight  \n")
	f.Add("kokoro_requests_in_flight 1e400\n")
	f.Add("kokoro_requests_in_flight_total 9\nkokoro_requests_in_flight{a=\"b\"} 8\nkokoro_requests_in_flight -Inf 123\n")
	f.Fuzz(func(t *testing.T, text string) {
		v, err := parseGauge(strings.NewReader(text), DefaultServerGauge)
		if err != nil {
			return
		}
		for line := range strings.SplitSeq(text, "\n") {
			rest, ok := strings.CutPrefix(line, DefaultServerGauge+" ")
			if !ok {
				continue
			}
			if fields := strings.Fields(rest); len(fields) > 0 {
				w, err := strconv.ParseFloat(fields[0], 64)
				if err == nil && (w == v || math.IsNaN(w) && math.IsNaN(v)) {
					return
				}
			}
		}
		t.Errorf("%v read from %q, which has no line giving it", v, text)
	})
}

// What the Prometheus client library writes, parseGauge reads back exactly: the gauge's value
// (NaN and infinities included), with help text that has escapes, after the exposition of a
// second registry (as when two exporters share an endpoint) holding a labelled series of the
// same name and a counter whose name extends it. kokoro serve exports through this library.
func FuzzParseGaugeExposition(f *testing.F) {
	f.Add(2.0, 9.0, "in flight", "/invocations")
	f.Add(math.Inf(1), 1.0, "a \\ b\nc", "x\"y")
	f.Add(math.NaN(), 0.0, "", "")
	f.Add(math.Copysign(0, -1), 3.5e300, "kokoro_requests_in_flight 7", "kokoro_requests_in_flight 7")
	f.Add(0.1, -2.5, "x", "y")
	f.Fuzz(func(t *testing.T, value, other float64, help, label string) {
		if !utf8.ValidString(help) || !utf8.ValidString(label) || math.IsNaN(other) {
			return // the library refuses these; nothing would be exported
		}
		others := prometheus.NewRegistry()
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: DefaultServerGauge + "_total", Help: "distractor"})
		c.Add(math.Abs(other))
		v := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: DefaultServerGauge, Help: "distractor"}, []string{"route"})
		v.WithLabelValues(label).Set(other)
		others.MustRegister(c, v)
		reg := prometheus.NewRegistry()
		g := prometheus.NewGauge(prometheus.GaugeOpts{Name: DefaultServerGauge, Help: help})
		g.Set(value)
		reg.MustRegister(g)
		var body strings.Builder
		for _, r := range []*prometheus.Registry{others, reg} {
			rec := httptest.NewRecorder()
			promhttp.HandlerFor(r, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("exposition: %d %s", rec.Code, rec.Body)
			}
			body.WriteString(rec.Body.String())
		}
		got, err := parseGauge(strings.NewReader(body.String()), DefaultServerGauge)
		if err != nil {
			t.Fatalf("%v: exposition\n%s", err, body.String())
		}
		if got != value && !(math.IsNaN(got) && math.IsNaN(value)) { // the library writes −0 as 0
			t.Errorf("read %v, the gauge holds %v; exposition\n%s", got, value, body.String())
		}
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
		deadline := time.Now().Add(time.Minute) // a ceiling, not a timing check
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
