package transport

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestLadderStopsAfterTwoSaturatedRungs: a server that admits three requests refuses work from
// rung 4 on; the ladder stops after rungs 4 and 8 and never runs 16. Each request holds the
// one slot 300 ms, far longer than a client, however slow its machine, takes to send its next
// one, so at rung 4 all four requests are outstanding and one is refused.
func TestLadderStopsAfterTwoSaturatedRungs(t *testing.T) {
	t.Parallel()
	si := newStandIn(300 * time.Millisecond)
	si.maxDepth = 3
	url := si.start(t)
	l := &bench.Ladder{
		Transport: transportFor(t, "http", url, 16),
		Config: bench.Config{Ladder: []int{1, 2, 4, 8, 16}, Hold: 2400 * time.Millisecond, MeasureWindow: 1800 * time.Millisecond,
			Settle: 20 * time.Millisecond, SLO: 3 * time.Second},
	}
	rep, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	run := rep.Runs[0]
	var ns []int
	for _, s := range run.Rungs {
		ns = append(ns, s.N)
		if s.N >= 4 && (!s.Saturated() || s.Outcomes[artifact.OutcomeSaturated503] == 0) {
			t.Errorf("N=%d not saturated: %+v", s.N, s.Unusable)
		}
		if s.N < 4 && s.Saturated() {
			t.Errorf("N=%d within the bound saturated: %v", s.N, s.Outcomes)
		}
	}
	if len(ns) != 4 || ns[3] != 8 || !run.StoppedSaturated {
		t.Errorf("rungs run %v stopped=%v; want 1 2 4 8 and a stop", ns, run.StoppedSaturated)
	}
	if run.QMax > 2 {
		t.Errorf("Q_max %d above the admission bound's last clean rung 2", run.QMax)
	}
}

// TestLadderShowsStarvedPlayback: a server that sends a sliver of audio at once and the rest
// late wins TTFAB, and the stall statistics must show the starvation.
func TestLadderShowsStarvedPlayback(t *testing.T) {
	t.Parallel()
	si := newStandIn(5*time.Millisecond, piece{0, 20 * time.Millisecond}, piece{150 * time.Millisecond, 200 * time.Millisecond})
	si.heard = make(chan struct{})
	url := si.start(t)
	l := &bench.Ladder{
		Transport: heardTransport{transportFor(t, "ws", url, 1), si.heard},
		Config:    bench.Config{Ladder: []int{1}, Hold: 1500 * time.Millisecond, MeasureWindow: time.Second, SLO: time.Second},
	}
	rep, err := l.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Runs[0].Rungs[0]
	// Each response: 20 ms of audio, then 150 ms, counted from when the client timed the first
	// piece's arrival, before the rest is sent: playback waits at least 130 ms, however late any
	// goroutine runs. The exact value is checked in virtual time.
	if s.Stall.P50 < 130 || s.Stall.P50 > s.TTFAB.P50+1000 {
		t.Errorf("stall p50 %.1fms (TTFAB p50 %.1fms); want about 130ms", s.Stall.P50, s.TTFAB.P50)
	}
	if s.StalledFraction < 0.9 {
		t.Errorf("stalled fraction %.2f; every response stalls", s.StalledFraction)
	}
}

// TestLadderInterrupt: cancelling the context mid-rung stops every worker promptly and returns
// a partial report; goleak in TestMain checks no worker outlives it.
func TestLadderInterrupt(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"http", "ws"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			si := newStandIn(10*time.Millisecond, piece{0, 50 * time.Millisecond}, piece{time.Second, 50 * time.Millisecond})
			url := si.start(t)
			l := &bench.Ladder{
				Transport: transportFor(t, transport, url, 4),
				Config:    bench.Config{Ladder: []int{2, 4}, Hold: 20 * time.Second, MeasureWindow: 10 * time.Second, SLO: time.Second},
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(400*time.Millisecond, cancel)
			begin := time.Now()
			rep, err := l.Run(ctx)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err %v; want context.Canceled", err)
			}
			// A hang check, not a speed check: the rung would hold for 20 s.
			if d := time.Since(begin); d > 10*time.Second {
				t.Errorf("interrupt took %v to stop the workers", d)
			}
			if rep == nil || !rep.Partial || len(rep.Runs) != 1 || len(rep.Runs[0].Rungs) != 1 {
				t.Fatalf("report %+v; want a partial report with the interrupted rung", rep)
			}
			s := rep.Runs[0].Rungs[0]
			if s.Usable || !s.Interrupts || s.N != 2 {
				t.Errorf("interrupted rung %+v", s)
			}
			if s.Outcomes[artifact.OutcomeTransportError] != 0 {
				t.Errorf("interrupted requests counted as transport errors: %v", s.Outcomes)
			}
		})
	}
}
