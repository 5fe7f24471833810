package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ServerGauge samples one unlabelled gauge of a Prometheus endpoint (by default kokoro's
// kokoro_requests_in_flight) while the ladder runs, and gives each rung the server's own view
// of concurrency over its measure window. The planner converts scaling thresholds with the
// ratio of that view to the client's in-flight count when CloudWatch was not read.
type ServerGauge struct {
	URL    string        // the /metrics address
	Metric string        // gauge name; default kokoro_requests_in_flight
	Every  time.Duration // sampling period; default 250 ms
	Client *http.Client  // default: a client with a 2 s timeout

	mu      sync.Mutex
	samples []gaugeSample
	lastErr error
}

type gaugeSample struct {
	at    time.Time
	value float64
}

// DefaultServerGauge is the in-flight gauge `kokoro serve` exports.
const DefaultServerGauge = "kokoro_requests_in_flight"

// Run samples until ctx ends. Failed scrapes are skipped; Err reports the last one.
func (g *ServerGauge) Run(ctx context.Context) {
	every := g.Every
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		v, err := g.Scrape(ctx)
		if ctx.Err() != nil {
			return // a scrape cut short by the end of the ladder is not a failure
		}
		g.mu.Lock()
		if err != nil {
			g.lastErr = err
		} else {
			g.samples = append(g.samples, gaugeSample{at: time.Now(), value: v})
		}
		g.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Err is the last scrape error, nil when every scrape succeeded.
func (g *ServerGauge) Err() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lastErr
}

// Scrape reads the gauge once.
func (g *ServerGauge) Scrape(ctx context.Context) (float64, error) {
	c := g.Client
	if c == nil {
		c = &http.Client{Timeout: 2 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.URL, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("scrape %s: %s", g.URL, resp.Status)
	}
	return parseGauge(io.LimitReader(resp.Body, 8<<20), g.metric())
}

func (g *ServerGauge) metric() string {
	if g.Metric == "" {
		return DefaultServerGauge
	}
	return g.Metric
}

// parseGauge finds `name value` in the Prometheus text exposition format.
func parseGauge(r io.Reader, name string) (float64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, name)
		if !ok || !strings.HasPrefix(rest, " ") {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0, fmt.Errorf("metric %s has no value", name)
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return 0, fmt.Errorf("metric %s: %w", name, err)
		}
		return v, nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("metric %s not exported", name)
}

// AfterRung is a Hooks.AfterRung: the mean and peak of the samples inside the rung's window.
// A rung with no samples is left as it is.
func (g *ServerGauge) AfterRung(_ context.Context, s *RungStats) error {
	if s.HoldStartedAt.IsZero() {
		return nil
	}
	from, to := s.HoldStartedAt.Add(s.Window.Start), s.HoldStartedAt.Add(s.Window.End)
	g.mu.Lock()
	defer g.mu.Unlock()
	var sum, peak float64
	n := 0
	for _, x := range g.samples {
		if x.at.Before(from) || x.at.After(to) {
			continue
		}
		sum += x.value
		peak = max(peak, x.value)
		n++
	}
	if n > 0 {
		s.ServerInFlightMean, s.ServerInFlightPeak = sum/float64(n), peak
	}
	return nil
}
