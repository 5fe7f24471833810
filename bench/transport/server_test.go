package transport_test

import (
	"context"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/server/servertest"
)

// startOneSlotServer runs the real server in front of a one-slot engine of the given service
// time and admission bound (0: unbounded) until the test ends.
func startOneSlotServer(t testing.TB, service time.Duration, maxQueueDepth int) string {
	t.Helper()
	return servertest.Start(t, &servertest.Engine{Service: service}, maxQueueDepth)
}

// TestLadderAgainstTheRealServer drives the real server (with a stand-in engine) through every
// registered transport, the SageMaker ones through the emulator in front of it: every
// transport finds the Q_max of the one-slot queueing law, and the admission gate's refusals
// are classified as saturation on every protocol alike.
//
// The engine holds each request for one second on its one slot, so a request's first audio
// comes no sooner than N seconds after it was sent in a closed loop of N: 1 s and 2 s on
// rungs 1 and 2, under an SLO of 3 s, and rung 8 is refused past MAX_QUEUE_DEPTH 4. A busy
// machine only adds to those times; it would have to add a second to a request, or keep a
// client 50 ms from sending its next one (the client-bound check), to move the answer.
func TestLadderAgainstTheRealServer(t *testing.T) {
	t.Parallel()
	const service = time.Second
	for _, name := range transport.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// MaxQueueDepth not 2: the WebSocket session releases an utterance's admission
			// slot only after sending synthesis_complete, so a closed-loop client's next
			// utterance can briefly meet its previous one in the gate. 4 leaves room for that at
			// rung 2.
			url := startOneSlotServer(t, service, 4)
			tr, err := transport.New(name, optionsFor(t, name, url, 8))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { tr.Close() })
			l := &bench.Ladder{Transport: tr, Config: bench.Config{
				Ladder: []int{1, 2, 8}, Hold: 12 * time.Second, MeasureWindow: 10 * time.Second,
				Settle: 100 * time.Millisecond, SLO: 3 * time.Second,
			}}
			rep, err := l.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			rungs := rep.Runs[0].Rungs
			for _, s := range rungs {
				t.Logf("N=%d ok %d outcomes %v p95 %.1fms usable %v %v", s.N, s.OK, s.Outcomes, s.TTFAB.P95, s.Usable, s.Unusable)
				// The protocol: audio arrives whole.
				if s.OK > 0 && s.AudioSecondsMean != 0.5 {
					t.Errorf("N=%d: %.3f s of audio per request; the engine sends 0.5", s.N, s.AudioSecondsMean)
				}
			}
			// Refusals classify as saturation.
			if s := rungs[2]; !s.Saturated() || s.Outcomes[artifact.OutcomeSaturated503] == 0 {
				t.Errorf("N=8 against MAX_QUEUE_DEPTH=4: outcomes %v unusable %v", s.Outcomes, s.Unusable)
			}
			// The law's lower bound: a request waits for the one ahead of it, less only the
			// moment its client took between two requests.
			for _, s := range rungs[:2] {
				if floor := 0.9 * float64(s.N) * float64(service/time.Millisecond); s.TTFAB.P95 < floor {
					t.Errorf("N=%d: TTFAB p95 %.1fms is under the %.0fms queueing forces", s.N, s.TTFAB.P95, floor)
				}
			}
			if q := rep.Runs[0]; q.QMax != 2 || q.BracketRung != 8 {
				t.Errorf("Q_max %d bracket %d; the law gives 2, bracketed by 8", q.QMax, q.BracketRung)
			}
		})
	}
}
