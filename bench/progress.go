package bench

import (
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
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

// progress starts a ticker that reports snapshots of rung g until the returned stop is called.
// newSince returns the results completed after the first `from`; the ticker keeps running
// counts and only the recent results, so a long rung at a high rate costs no more per tick
// than a short one.
func (r *runner) progress(g *rung, newSince func(from int) []Result) (stop func()) {
	if r.l.OnProgress == nil {
		return func() {}
	}
	every := r.l.ProgressEvery
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	holdEnd := g.hold
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
			now := g.since()
			p := Progress{Run: g.run, Runs: r.cfg.Runs, N: g.n, Rung: g.pos, Rungs: len(r.cfg.Ladder), Elapsed: now, Hold: r.cfg.Hold,
				Measuring: now >= holdEnd-r.cfg.MeasureWindow && now < holdEnd, Draining: now >= holdEnd}
			fresh := newSince(seen)
			seen += len(fresh)
			for _, res := range fresh {
				switch {
				case res.Outcome == artifact.OutcomeOK:
					ok++
				case res.Outcome.Rejection():
					rejected++
				case res.Outcome != artifact.OutcomeCancelled:
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
			agg := NewRungAggregator(g.run, g.n, win)
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
