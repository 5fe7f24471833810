package scaleout

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/bench/transport"
)

// standIn answers POST /invocations with a streamed WAV whose first audio comes after the
// delay the test sets, as a loaded or an idle instance would.
func standIn(t *testing.T, delay *atomic.Int64) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(time.Duration(delay.Load())):
		case <-r.Context().Done():
			return
		}
		hdr := audio.StreamingWAVHeader(audio.Mono24k)
		w.Header().Set("Content-Type", "audio/wav")
		_, _ = w.Write(hdr)
		_, _ = w.Write(make([]byte, 4800))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// A real probe over HTTP across a scale-out that relieves the server: a second a request before
// the new instance, at once after; the run finds traffic_recovered (p95 within 600 ms over a
// second, which a busy machine would have to slow every request by half a second to hide). The
// new instance comes into service only once the probe has a completed request, and the server
// speeds up only once the run has seen it in service, so every request before in_service is
// one answered in a second.
func TestRunWithProbe(t *testing.T) {
	t.Parallel()
	var delay atomic.Int64
	delay.Store(int64(time.Second))
	url := standIn(t, &delay)
	tr, err := transport.New("http", transport.Options{BaseURL: url, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	probe := &Probe{Transport: tr, Concurrency: 4}
	cloud := &fakeCloud{clk: wallClock{}, current: 1, upAfter: 300 * time.Millisecond, logAfter: 200 * time.Millisecond,
		ready: func() bool { return len(probe.Samples()) > 0 }}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Run(ctx, cloud, Config{
		Probe: probe, Lead: time.Second, Poll: 50 * time.Millisecond,
		RecoverTarget: 600 * time.Millisecond, RecoverWindow: time.Second, RecoverMinSamples: 5, Hold: 20 * time.Second,
		OnEvent: func(s string) {
			if len(s) > 11 && s[:11] == "in_service:" {
				delay.Store(int64(2 * time.Millisecond)) // the second instance takes half the load
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Obs
	if o.LoadApplied.IsZero() || o.Recovered.IsZero() || o.Recovered.Before(o.InService) || o.DesiredSet.Sub(o.LoadApplied) < time.Second {
		t.Fatalf("observed %+v (%s)", o, o.RecoveryNote)
	}
	// Every request before the new instance takes a second or more. p95 after is not compared
	// with it: requests are counted by their first byte, so the few that started slow before
	// in_service and ended after it count as after, and on a busy machine they can be many of
	// the few after.
	if res.RequestsBefore == 0 || res.RequestsAfter == 0 || res.P95BeforeMs < 1000 {
		t.Fatalf("p95 before %.0f ms over %d, after %.0f ms over %d", res.P95BeforeMs, res.RequestsBefore, res.P95AfterMs, res.RequestsAfter)
	}
	tab, err := NewTable(Stages(o))
	if err != nil {
		t.Fatal(err)
	}
	if tab.PreClock != o.DesiredSet.Sub(o.LoadApplied) || tab.Clocked != o.Recovered.Sub(o.DesiredSet) {
		t.Fatalf("table %v / %v", tab.PreClock, tab.Clocked)
	}
}
