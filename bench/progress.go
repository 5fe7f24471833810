package bench

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Progress is a live view of the rung that is running.
type Progress struct {
	Run, Runs int
	N         int
	Rung      int // 1-based position of N in the ladder
	Rungs     int
	Elapsed   time.Duration // since the rung started
	Hold      time.Duration
	Measuring bool // inside the measure window
	Draining  bool // hold over, waiting for outstanding requests
	OK        int  // ok requests so far in the rung
	Rejected  int  // refused requests so far in the rung
	Failed    int  // other failures so far in the rung
	// TTFABP95Ms, StallP95Ms and RPS are over the trailing measure window (or what has run of
	// it), the same window the rung will be judged on.
	TTFABP95Ms float64
	StallP95Ms float64
	RPS        float64
}

// progress starts a ticker that reports snapshots until the returned stop is called. newSince
// returns the results completed after the first `from`; the ticker keeps running counts and
// only the recent results, so a long rung at a high rate costs no more per tick than a short one.
func (r *runner) progress(run, n int, since func() time.Duration, holdEnd time.Duration, newSince func(from int) []Result) (stop func()) {
	if r.l.OnProgress == nil {
		return func() {}
	}
	every := r.l.ProgressEvery
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	pos := 0
	for i, v := range r.cfg.Ladder {
		if v == n {
			pos = i + 1
		}
	}
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		t := time.NewTicker(every)
		defer t.Stop()
		var (
			seen                 int
			ok, rejected, failed int
			recent               []Result
		)
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			now := since()
			p := Progress{Run: run, Runs: r.cfg.Runs, N: n, Rung: pos, Rungs: len(r.cfg.Ladder), Elapsed: now, Hold: r.cfg.Hold,
				Measuring: now >= holdEnd-r.cfg.MeasureWindow && now < holdEnd, Draining: now >= holdEnd}
			fresh := newSince(seen)
			seen += len(fresh)
			for _, res := range fresh {
				switch {
				case res.Outcome == OK:
					ok++
				case res.Outcome.Rejection():
					rejected++
				case res.Outcome != Cancelled:
					failed++
				}
			}
			p.OK, p.Rejected, p.Failed = ok, rejected, failed
			win := Window{Start: max(0, min(now, holdEnd)-r.cfg.MeasureWindow), End: min(now, holdEnd)}
			// Results arrive in completion order; one that ended before the window cannot
			// touch it. A second of slack covers the reordering between workers.
			recent = append(recent, fresh...)
			drop := 0
			for drop < len(recent) && recent[drop].End < win.Start-time.Second {
				drop++
			}
			recent = append(recent[:0], recent[drop:]...)
			agg := NewRungAggregator(run, n, win)
			for _, res := range recent {
				agg.Add(res)
			}
			s := agg.Close()
			p.TTFABP95Ms, p.StallP95Ms, p.RPS = s.TTFAB.P95, s.Stall.P95, s.RPS
			r.l.OnProgress(p)
		}
	}()
	return func() { close(done); <-exited }
}

// RenderProgress writes p as one terminal line (no newline), a bar over the hold followed by
// the current p95 TTFAB, stall p95 and rps.
func RenderProgress(w io.Writer, p Progress, barWidth int) error {
	if barWidth < 1 {
		barWidth = 1
	}
	frac := 1.0
	if p.Hold > 0 {
		frac = min(1, max(0, float64(p.Elapsed)/float64(p.Hold)))
	}
	filled := int(frac * float64(barWidth))
	bar := strings.Repeat("█", filled) + strings.Repeat("░", barWidth-filled)
	phase := "warm"
	switch {
	case p.Draining:
		phase = "drain"
	case p.Measuring:
		phase = "meas"
	}
	_, err := fmt.Fprintf(w, "\rrun %d/%d rung %d/%d N=%-4d %s %3.0f%% %-5s p95 %7.0fms stall p95 %6.0fms %7.2f rps ok %d rej %d err %d\x1b[K",
		p.Run, p.Runs, p.Rung, p.Rungs, p.N, bar, frac*100, phase, p.TTFABP95Ms, p.StallP95Ms, p.RPS, p.OK, p.Rejected, p.Failed)
	if err != nil {
		return fmt.Errorf("write progress: %w", err)
	}
	return nil
}
