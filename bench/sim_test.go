package bench

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/internal/ctxtime"
)

// simServer is the stand-in service law without a network, for tests that run in a synctest
// bubble: virtual time makes the queueing law exact and the tests immune to a busy machine.
// One slot (a channel: blocked senders are served first come first served), a fixed service
// time, then the audio pieces.
type simServer struct {
	service  time.Duration
	maxDepth int
	pieces   []piece
	slot     chan struct{}
	inSystem atomic.Int64
}

func newSimServer(service time.Duration, pieces ...piece) *simServer {
	if len(pieces) == 0 {
		pieces = []piece{{0, 500 * time.Millisecond}}
	}
	return &simServer{service: service, pieces: pieces, slot: make(chan struct{}, 1)}
}

func (s *simServer) Name() string                                    { return "sim" }
func (s *simServer) Dial(context.Context) (Conn, error)              { return simConn{s}, nil }
func (simConn) Close() error                                         { return nil }
func (s *simServer) wait(ctx context.Context, d time.Duration) error { return ctxtime.Sleep(ctx, d) }

type simConn struct{ s *simServer }

// piece is some audio the server sends after a delay.
type piece struct {
	delay time.Duration
	audio time.Duration
}

func (c simConn) Synthesize(ctx context.Context, req Request, onAudio func([]byte)) error {
	s := c.s
	if n := s.inSystem.Add(1); s.maxDepth > 0 && int(n) > s.maxDepth {
		s.inSystem.Add(-1)
		return &ServerError{Status: http.StatusServiceUnavailable, Code: "queue_saturated"}
	}
	defer s.inSystem.Add(-1)
	select {
	case s.slot <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	err := s.wait(ctx, s.service)
	<-s.slot
	if err != nil {
		return err
	}
	for _, p := range s.pieces {
		if err := s.wait(ctx, p.delay); err != nil {
			return err
		}
		onAudio(make([]byte, int(p.audio.Seconds()*bytesPerSecond)))
	}
	return nil
}

// TestSimulatedLadderFollowsTheQueueingLaw runs a ladder (40 s holds, 20 s windows, 5 s
// settles, two runs) in virtual time against one slot with S = 100 ms. Closed-loop queueing
// predicts TTFAB = N·S exactly and X = 1/S at every rung, so with SLO = 600 ms Q_max is 4 of the
// ladder 1, 2, 4, 8, bracketed by 8; and the ladder takes the time Estimate gives its schedule.
func TestSimulatedLadderFollowsTheQueueingLaw(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		const service = 100 * time.Millisecond
		sim := newSimServer(service)
		begin := time.Now()
		l := &Ladder{Transport: sim, Config: Config{
			Ladder: []int{1, 2, 4, 8}, Hold: 40 * time.Second, MeasureWindow: 20 * time.Second, Settle: 5 * time.Second,
			SLO: 600 * time.Millisecond, Runs: 2,
		}}
		rep, err := l.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		// Requests outstanding when a hold ends drain for at most N·S (the whole queue), which
		// the estimate leaves out.
		var drain time.Duration
		for _, n := range l.Config.Ladder {
			drain += time.Duration(l.Config.Runs*n) * service
		}
		if took, want := time.Since(begin), Estimate(l.Config); took < want || took > want+drain {
			t.Errorf("ladder took %v of virtual time; the schedule says %v plus at most %v draining", took, want, drain)
		}
		for _, run := range rep.Runs {
			for _, s := range run.Rungs {
				want := ms(time.Duration(s.N) * service)
				if s.TTFAB.P50 != want || s.TTFAB.P95 != want || s.TTFAB.P99 != want {
					t.Errorf("run %d N=%d: TTFAB %+v; the law says %v ms", run.Run, s.N, s.TTFAB, want)
				}
				if s.RPS < 9.9 || s.RPS > 10.1 || s.InFlightMean != float64(s.N) || s.InFlightPeak != s.N || !s.Usable {
					t.Errorf("run %d N=%d: %.2f rps, in-flight %.3f peak %d, usable %v %v", run.Run, s.N, s.RPS, s.InFlightMean, s.InFlightPeak, s.Usable, s.Unusable)
				}
				if s.Stall.P95 != 0 || s.AudioSecondsMean != 0.5 {
					t.Errorf("run %d N=%d: stall %v audio %v", run.Run, s.N, s.Stall.P95, s.AudioSecondsMean)
				}
			}
		}
		want := Summary{QMax: 4, Bracketed: true, BracketRung: 8, SMeanMs: 100, SP95Ms: 100, Runs: 2}
		if rep.Summary != want {
			t.Errorf("summary %+v; want %+v", rep.Summary, want)
		}
	})
}

// TestSimulatedSaturation: with an admission bound of 3, rungs 4 and 8 are refused work and the
// ladder stops there; 16 never runs.
func TestSimulatedSaturation(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sim := newSimServer(100 * time.Millisecond)
		sim.maxDepth = 3
		l := &Ladder{Transport: sim, Config: Config{Ladder: []int{1, 2, 4, 8, 16}, Hold: 30 * time.Second, MeasureWindow: 10 * time.Second, SLO: time.Second}}
		rep, err := l.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		run := rep.Runs[0]
		if len(run.Rungs) != 4 || !run.StoppedSaturated || !run.Rungs[2].Saturated() || !run.Rungs[3].Saturated() {
			t.Fatalf("rungs %d stopped %v", len(run.Rungs), run.StoppedSaturated)
		}
		if run.QMax != 2 || run.BracketRung != 4 {
			t.Errorf("Q_max %d bracket %d; want 2 bracketed by 4", run.QMax, run.BracketRung)
		}
		if s := run.Rungs[2]; s.OK == 0 || s.TTFAB.P95 != 300 {
			t.Errorf("N=4 with three admitted: ok %d p95 %v; admitted requests still see three in the system", s.OK, s.TTFAB.P95)
		}
	})
}

// TestSimulatedStarvedPlayback: 20 ms of audio at once, the rest 150 ms later: every request
// stalls exactly 130 ms while TTFAB stays at the service time.
func TestSimulatedStarvedPlayback(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sim := newSimServer(10*time.Millisecond, piece{0, 20 * time.Millisecond}, piece{150 * time.Millisecond, 500 * time.Millisecond})
		l := &Ladder{Transport: sim, Config: Config{Ladder: []int{1}, Hold: 20 * time.Second, MeasureWindow: 10 * time.Second, SLO: time.Second}}
		rep, err := l.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		s := rep.Runs[0].Rungs[0]
		if s.TTFAB.P95 != 10 || s.Stall.P50 != 130 || s.Stall.P95 != 130 || s.StalledFraction != 1 {
			t.Errorf("TTFAB %+v stall %+v stalled %v; want 10 ms and 130 ms on every request", s.TTFAB, s.Stall, s.StalledFraction)
		}
	})
}

// TestSimulatedInterruptAndHooks: an interrupt in the second rung returns a partial report
// with the first rung intact; capacity is read around every finished rung.
func TestSimulatedInterruptAndHooks(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var reads, thawed atomic.Int64
		l := &Ladder{
			Transport: newSimServer(50 * time.Millisecond),
			Config:    Config{Ladder: []int{1, 2, 4}, Hold: 10 * time.Second, MeasureWindow: 5 * time.Second, Settle: time.Second, SLO: time.Second},
			Hooks: Hooks{
				Freeze: func(context.Context) (func(context.Context) error, error) {
					return func(ctx context.Context) error {
						if ctx.Err() != nil {
							t.Error("thaw got a cancelled context")
						}
						thawed.Add(1)
						return nil
					}, nil
				},
				Capacity: func(context.Context) (int, error) { reads.Add(1); return 1, nil },
				AfterRung: func(_ context.Context, s *RungStats) error {
					s.ConcurrencyRatio = 0.5
					return nil
				},
			},
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		time.AfterFunc(15*time.Second, cancel) // 4 s into rung 2
		rep, err := l.Run(ctx)
		if !errors.Is(err, context.Canceled) || !rep.Partial {
			t.Fatalf("err %v partial %v", err, rep.Partial)
		}
		rungs := rep.Runs[0].Rungs
		if len(rungs) != 2 || !rungs[0].Usable || rungs[0].ConcurrencyRatio != 0.5 || rungs[1].Usable || !rungs[1].Interrupts {
			t.Fatalf("rungs %+v", rungs)
		}
		if w := rungs[1].Window; w.End != 4*time.Second || w.Start != 0 {
			t.Errorf("interrupted window %+v; want the 4 s that ran", w)
		}
		if rungs[1].Outcomes[artifact.OutcomeCancelled] != 0 || rungs[1].Outcomes[artifact.OutcomeTransportError] != 0 {
			t.Errorf("interrupted rung outcomes %v", rungs[1].Outcomes)
		}
		if reads.Load() != 3 {
			t.Errorf("capacity read %d times; want before and after rung 1, before rung 2", reads.Load())
		}
		if thawed.Load() != 1 || !rep.Frozen {
			t.Errorf("thawed %d times, frozen %v; want one thaw after the interrupt", thawed.Load(), rep.Frozen)
		}
		if rep.Summary.QMax != 1 {
			t.Errorf("partial Q_max %d; want 1 from the finished rung", rep.Summary.QMax)
		}
	})
}

// TestSimulatedCapacityChange: an instance appearing during a rung makes it unusable.
func TestSimulatedCapacityChange(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var n atomic.Int64
		l := &Ladder{
			Transport: newSimServer(50 * time.Millisecond),
			Config:    Config{Ladder: []int{1}, Hold: 10 * time.Second, MeasureWindow: 5 * time.Second, SLO: time.Second},
			Hooks:     Hooks{Capacity: func(context.Context) (int, error) { return int(n.Add(1)), nil }},
		}
		rep, err := l.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if s := rep.Runs[0].Rungs[0]; s.Usable || !s.clientSideUnusable() || s.CapacityBefore != 1 || s.CapacityAfter != 2 {
			t.Errorf("rung %+v", s)
		}
	})
}

// TestSimulatedProgress: the live view shows the rung's position, phase, p95 and rate as the
// rung runs, over the same trailing window the rung is judged on.
func TestSimulatedProgress(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var snaps []Progress
		l := &Ladder{
			Transport:     newSimServer(100 * time.Millisecond),
			Config:        Config{Ladder: []int{1, 2}, Hold: 20 * time.Second, MeasureWindow: 5 * time.Second, SLO: time.Second},
			OnProgress:    func(p Progress) { snaps = append(snaps, p) },
			ProgressEvery: time.Second,
		}
		if _, err := l.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		var measuring, warm int
		lastOK := 0
		for _, p := range snaps {
			if p.N != 2 {
				continue
			}
			if p.Rung != 2 || p.Rungs != 2 || p.OK < lastOK {
				t.Errorf("snapshot %+v", p)
			}
			lastOK = p.OK
			if p.Elapsed >= 5*time.Second && (p.TTFABP95Ms != 200 || p.RPS < 9.5 || p.RPS > 10.5) {
				t.Errorf("at %v: p95 %v ms, %.2f rps; want 200 ms and 10 rps", p.Elapsed, p.TTFABP95Ms, p.RPS)
			}
			if p.Measuring {
				measuring++
			} else if !p.Draining {
				warm++
			}
		}
		if measuring < 4 || warm < 14 || lastOK < 190 {
			t.Errorf("%d measuring and %d warm-up snapshots, %d ok at the end", measuring, warm, lastOK)
		}
	})
}
