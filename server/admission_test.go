package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
)

func TestGateAdmitsUpToTheBound(t *testing.T) {
	t.Parallel()
	g := newGate(2)
	r1, err1 := g.acquire()
	r2, err2 := g.acquire()
	_, err3 := g.acquire()
	if err1 != nil || err2 != nil {
		t.Fatalf("first two: %v, %v", err1, err2)
	}
	var sat *SaturatedError
	if !errorsAs(err3, &sat) || sat.Depth != 2 || sat.Max != 2 {
		t.Fatalf("third = %v, want SaturatedError{2, 2}", err3)
	}
	r1()
	r1() // a second release must not free a second slot
	if g.depth() != 1 {
		t.Fatalf("depth after one release = %d, want 1", g.depth())
	}
	if _, err := g.acquire(); err != nil {
		t.Fatalf("after a release: %v", err)
	}
	if _, err := g.acquire(); err == nil {
		t.Fatal("bound exceeded after a double release")
	}
	r2()
	unbounded := newGate(0)
	for i := 0; i < 100; i++ {
		if _, err := unbounded.acquire(); err != nil {
			t.Fatalf("unbounded gate refused request %d: %v", i, err)
		}
	}
}

// With MAX_QUEUE_DEPTH=2 and ten requests at once, exactly eight are turned away with the
// JSON body, the model never sees them, and the two admitted ones complete intact.
func TestAdmissionGateRejectsExactlyTheExcess(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	h := newHarness(t, func(c *Config, s *fakeSynth) { c.MaxQueueDepth, s.hold = 2, hold })
	h.waitReady()
	const n, text = 10, "Admitted requests finish whole. Every byte of them."
	type res struct {
		status int
		body   []byte
		hdr    http.Header
	}
	results := make(chan res, n)
	c := client(t)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.Post(h.url+api.RouteInvocations, "application/json", jsonBody(fmt.Sprintf(`{"text":%q}`, text)))
			if err != nil {
				t.Error(err)
				return
			}
			results <- res{resp.StatusCode, readAll(t, resp), resp.Header}
		}()
	}
	// The admitted two are held in the model until every rejection has come back.
	var rejected, ok int
	for rejected < n-2 {
		select {
		case r := <-results:
			if r.status != http.StatusServiceUnavailable {
				t.Fatalf("status %d before the model was released: %s", r.status, r.body)
			}
			var e api.ErrorResponse
			if err := json.Unmarshal(r.body, &e); err != nil || e.Error != api.ErrQueueSaturated ||
				e.QueueDepth == nil || *e.QueueDepth != 2 || e.MaxQueueDepth == nil || *e.MaxQueueDepth != 2 {
				t.Fatalf("rejection body %s (%v), want queue_saturated with queue_depth 2, max_queue_depth 2", r.body, err)
			}
			if r.hdr.Get("Retry-After") != "1" {
				t.Errorf("Retry-After = %q, want 1", r.hdr.Get("Retry-After"))
			}
			rejected++
		case <-time.After(waitLimit):
			t.Fatalf("only %d rejections after %v", rejected, waitLimit)
		}
	}
	if got := testutil.ToFloat64(h.srv.Metrics().InFlight); got != 2 {
		t.Errorf("in-flight gauge with two held = %v, want 2", got)
	}
	close(hold)
	wg.Wait()
	close(results)
	for r := range results {
		if r.status != http.StatusOK {
			t.Fatalf("after release: status %d %s", r.status, r.body)
		}
		if len(r.body) != audio.WAVHeaderSize+2*wantSamples(text) {
			t.Errorf("admitted response has %d bytes, want %d", len(r.body), audio.WAVHeaderSize+2*wantSamples(text))
		}
		ok++
	}
	if ok != 2 {
		t.Errorf("%d requests completed, want 2", ok)
	}
	m := h.srv.Metrics()
	if calls := h.syn.calls.Load(); calls != 4 {
		t.Errorf("model ran %d chunks, want 4 (two chunks × two admitted requests)", calls)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"rejections", testutil.ToFloat64(m.Rejections.WithLabelValues(labelInvocations)), 8},
		{"rejected outcome", testutil.ToFloat64(m.Requests.WithLabelValues(labelInvocations, OutcomeRejected)), 8},
		{"ok outcome", testutil.ToFloat64(m.Requests.WithLabelValues(labelInvocations, OutcomeOK)), 2},
		{"in flight", testutil.ToFloat64(m.InFlight), 0},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}
