package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/tts"
)

func sentences(n, letters int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%s. ", strings.Repeat("a", letters))
	}
	return b.String()
}

// eventually polls cond every 10 ms for up to d.
// waitLimit bounds how long a test waits for a condition the server reaches in milliseconds when
// the machine is idle. It is a ceiling, not a timing check: CI runs every package at once under
// the race detector, and a starved scheduler has taken more than 2 s to admit 17 WebSocket messages.
const waitLimit = 20 * time.Second

func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not true after %v", what, d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// idle reports whether the server has nothing admitted and the model has nothing queued.
func idle(h *harness) func() bool {
	return func() bool {
		m := h.srv.Metrics()
		return testutil.ToFloat64(m.InFlight) == 0 && testutil.ToFloat64(m.QueuedChunks) == 0
	}
}

// The model speaks the first chunk and holds the rest, so the client always leaves midway;
// once the server is idle the model is let go, and nothing left may reach it.
func TestClientDisconnectCancelsRemainingChunks(t *testing.T) {
	t.Parallel()
	held, release := holdAfter(1)
	defer release()
	h := newHarness(t, held, func(_ *Config, s *fakeSynth) { s.slots = 1 })
	h.waitReady()
	const n = 20
	resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q}`, sentences(n, 10)))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	buf := make([]byte, audio.WAVHeaderSize+1)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() // mid-stream: the connection goes away with the body unread
	eventually(t, waitLimit, "in-flight back to zero", idle(h))
	release()
	calls := h.syn.calls.Load()
	time.Sleep(200 * time.Millisecond)
	if later := h.syn.calls.Load(); later != calls || calls >= n {
		t.Errorf("model ran %d chunks at cancel, %d later, of %d: work continued after the disconnect", calls, later, n)
	}
	m := h.srv.Metrics()
	if got := testutil.ToFloat64(m.Requests.WithLabelValues(labelInvocations, OutcomeCancelled)); got != 1 {
		t.Errorf("cancelled outcome = %v, want 1", got)
	}
}

// A client that stops reading is cut off by the write timeout instead of holding a slot.
func TestSlowReaderIsCutOffByTheWriteTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, s *fakeSynth) { c.WriteTimeout, s.delay = 300*time.Millisecond, 0 })
	h.waitReady()
	const n = 300
	body := fmt.Sprintf(`{"text":%q}`, sentences(n, 200)) // about 29 MB of PCM
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", api.RouteInvocations, len(body), body)
	// The buffers between the server and a client that reads nothing fill within a few MB of
	// audio; then the write stalls and the timeout cuts it. How soon depends on how fast this
	// machine makes those MB; the bound only catches a request that is never cut.
	eventually(t, 2*time.Minute, "slow reader released", func() bool {
		return testutil.ToFloat64(h.srv.Metrics().Requests.WithLabelValues(labelInvocations, OutcomeCancelled)) == 1
	})
	eventually(t, waitLimit, "server idle", idle(h))
	if calls := h.syn.calls.Load(); calls >= n {
		t.Errorf("all %d chunks were synthesized for a client that never read", calls)
	}
}

func TestSlowBodyGets408(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, _ *fakeSynth) { c.ReadTimeout = 200 * time.Millisecond })
	h.waitReady()
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"text\":", api.RouteInvocations)
	_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response to a stalled body: %v", err)
	}
	e := decodeError(t, readAll(t, resp))
	if resp.StatusCode != http.StatusRequestTimeout || e.Error != "body_timeout" {
		t.Errorf("stalled body: %d %+v, want 408 body_timeout", resp.StatusCode, e)
	}
	if h.syn.calls.Load() != 0 {
		t.Error("a request whose body never arrived reached the model")
	}
}

func TestSlowHeadersAreDropped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, _ *fakeSynth) { c.ReadTimeout = 200 * time.Millisecond })
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\n", api.RouteInvocations)
	_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
	// The server closing the connection ends ReadAll without an error; the read deadline
	// passing first would return one.
	_, err = io.ReadAll(conn)
	if err != nil {
		t.Errorf("connection with unfinished headers: %v, want closed by the server", err)
	}
}

// SIGTERM (the Serve context ending) stops new work but lets an admitted stream finish whole.
func TestShutdownDrainsInFlightRequests(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(_ *Config, s *fakeSynth) { s.slots, s.delay = 1, 60*time.Millisecond })
	h.waitReady()
	text := sentences(5, 20)
	resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q}`, text))
	buf := make([]byte, audio.WAVHeaderSize+1)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	serveDone := make(chan error, 1)
	go func() { serveDone <- h.shutdown() }()
	eventually(t, waitLimit, "draining", func() bool { return h.srv.draining.Load() })
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(h.url, "http://"), time.Second); err == nil {
		// The listener may close a moment after draining is flagged; a connection that gets
		// through must still be refused work.
		resp2, err := client(t).Post(h.url+api.RouteInvocations, "application/json", jsonBody(`{"text":"late"}`))
		if err == nil {
			if readAll(t, resp2); resp2.StatusCode != 503 {
				t.Errorf("request during drain: %d, want 503 or a refused connection", resp2.StatusCode)
			}
		}
	}
	rest, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("in-flight stream cut by shutdown: %v", err)
	}
	if got := len(buf) + len(rest); got != audio.WAVHeaderSize+2*wantSamples(text) {
		t.Errorf("drained stream has %d bytes, want %d", got, audio.WAVHeaderSize+2*wantSamples(text))
	}
	if err := <-serveDone; err != nil {
		t.Errorf("Serve after drain: %v", err)
	}
}

// Past the drain timeout the server cancels what is left and still returns promptly.
func TestShutdownCutsWorkPastTheDrainTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, s *fakeSynth) {
		c.DrainTimeout, s.slots, s.delay = 300*time.Millisecond, 1, 100*time.Millisecond
	})
	h.waitReady()
	// 1000 chunks of 100 ms: the whole request would take 100 s.
	resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q}`, sentences(1000, 10)))
	defer resp.Body.Close()
	buf := make([]byte, audio.WAVHeaderSize+1)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := h.shutdown(); err != nil {
		t.Errorf("Serve: %v", err)
	}
	// A hang check, not a speed check: a server that let the request finish would take 100 s.
	if d := time.Since(start); d > waitLimit {
		t.Errorf("shutdown took %v with a 300 ms drain timeout", d)
	}
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Error("a stream cut by the drain timeout ended like a complete one")
	}
	if calls := h.syn.calls.Load(); calls >= 100 {
		t.Errorf("model ran all %d chunks", calls)
	}
}

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := client(t).Get(url + api.RouteMetrics)
	if err != nil {
		t.Fatal(err)
	}
	return string(readAll(t, resp))
}

func metricValue(t *testing.T, exposition, series string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(exposition)
	if m == nil {
		t.Fatalf("series %s not exposed", series)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMetricsCountWhatWasServed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(c *Config, _ *fakeSynth) { c.Registry = nil }) // the default registry, runtime collectors included
	h.waitReady()
	text := "Count me. And me too."
	resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q}`, text))
	if readAll(t, resp); resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode)
	}
	m := h.srv.Metrics()
	audioS := float64(wantSamples(text)) / api.SampleRate
	if got := testutil.ToFloat64(m.AudioSeconds.WithLabelValues(labelInvocations)); got < audioS-1e-9 || got > audioS+1e-9 {
		t.Errorf("audio seconds = %v, want %v", got, audioS)
	}
	if got := testutil.ToFloat64(m.ChunksTotal); got != 2 {
		t.Errorf("chunks = %v, want 2", got)
	}
	busy := testutil.ToFloat64(m.SlotBusy.WithLabelValues("0")) + testutil.ToFloat64(m.SlotBusy.WithLabelValues("1"))
	if busy < 2*0.020 {
		t.Errorf("slot busy seconds = %v, want at least two 20 ms chunks", busy)
	}
	exp := scrape(t, h.url)
	for series, want := range map[string]float64{
		`kokoro_requests_total{outcome="ok",route="invocations"}`:    1,
		`kokoro_ttfab_seconds_count{route="invocations"}`:            1,
		`kokoro_ttfas_seconds_count{route="invocations"}`:            1,
		`kokoro_request_duration_seconds_count{route="invocations"}`: 1,
		`kokoro_real_time_factor_count{route="invocations"}`:         1,
		`kokoro_chunk_model_seconds_count`:                           2,
		`kokoro_requests_in_flight`:                                  0,
		`kokoro_ready`:                                               1,
	} {
		if got := metricValue(t, exp, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
	if metricValue(t, exp, "go_goroutines") <= 0 {
		t.Error("go runtime collector missing")
	}
	// The fake model sounds from its first sample, which the engine puts JoinLead after the first
	// byte: a client playing from the first byte hears it that much later.
	if n := testutil.CollectAndCount(m.TTFAS); n != 1 {
		t.Errorf("%d time-to-first-audible series, want the invocations route only", n)
	}
	ttfab := metricValue(t, exp, `kokoro_ttfab_seconds_sum{route="invocations"}`)
	ttfas := metricValue(t, exp, `kokoro_ttfas_seconds_sum{route="invocations"}`)
	if d := ttfas - ttfab; math.Abs(d-tts.JoinLead.Seconds()) > 1e-6 {
		t.Errorf("first sound %.4f s after the first byte, want %v", d, tts.JoinLead)
	}
}

func TestNewRejectsAMissingLoader(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}); err == nil {
		t.Error("New without a loader succeeded")
	}
	s, err := New(Config{Load: func(context.Context, tts.Observer, func(string)) (Engine, func() error, error) { return nil, nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	_ = s.Serve(ctx, ln)
	if err := s.Serve(ctx, ln); err == nil {
		t.Error("second Serve succeeded")
	}
}

// TestServeRefusesANilEngine: a loader that returns no engine and no error fails the start
// with a clear error, instead of the server crashing on the first use of the engine.
func TestServeRefusesANilEngine(t *testing.T) {
	t.Parallel()
	closed := false
	s, err := New(Config{
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Load: func(context.Context, tts.Observer, func(string)) (Engine, func() error, error) {
			return nil, func() error { closed = true; return nil }, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Serve(context.Background(), ln)
	if !errors.Is(err, errNoEngine) {
		t.Fatalf("Serve = %v, want errNoEngine", err)
	}
	if !closed {
		t.Error("the loader's close function was not called")
	}
}

// StartLocal returns a serving URL once ready, the loader's error when loading fails, and
// gives up when its context ends first; each time nothing is left running.
func TestStartLocal(t *testing.T) {
	t.Parallel()
	quiet := slog.New(slog.DiscardHandler)
	syn := &fakeSynth{slots: 1}
	srv, err := New(Config{Logger: quiet, Load: fakeLoader(syn, tts.Config{})})
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := srv.StartLocal(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	resp := post(t, client(t), url+api.RouteInvocations, `{"text":"Hello."}`)
	if b := readAll(t, resp); resp.StatusCode != http.StatusOK || len(b) == 0 {
		t.Errorf("status %d, %d bytes", resp.StatusCode, len(b))
	}
	if err := stop(); err != nil {
		t.Errorf("stop: %v", err)
	}

	boom := errors.New("no model here")
	failing, _ := New(Config{Logger: quiet, Load: func(context.Context, tts.Observer, func(string)) (Engine, func() error, error) {
		return nil, nil, boom
	}})
	if _, _, err := failing.StartLocal(context.Background()); !errors.Is(err, boom) {
		t.Errorf("failed load: %v", err)
	}

	never := make(chan struct{})
	slow, _ := New(Config{Logger: quiet, Load: func(ctx context.Context, _ tts.Observer, _ func(string)) (Engine, func() error, error) {
		select {
		case <-never:
		case <-ctx.Done():
		}
		return nil, nil, ctx.Err()
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, _, err := slow.StartLocal(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("context ended while loading: %v", err)
	}
}
