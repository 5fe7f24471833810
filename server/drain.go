package server

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// errDrainCut is the cause of the request contexts' end when the drain budget runs out: the
// client is told the server is shutting down (503 before the header; an error message and a
// close frame on a WebSocket), or finds its stream cut short.
var errDrainCut = fmt.Errorf("%w: the drain budget ran out before this request finished", errShuttingDown)

// cutGrace is the part of the drain budget kept for cutting what did not finish: cancellation
// reaches a running chunk inside ONNX Runtime within milliseconds (RunOptions.Terminate), and
// the handlers then write their 503s, error messages and close frames.
func cutGrace(budget time.Duration) time.Duration { return min(3*time.Second, budget/5) }

// drain shuts the server down within cfg.DrainTimeout. At once it stops admitting (new work
// gets 503 shutting_down, /ping says draining, connections are closed after their answer) but
// keeps accepting, so that a health checker or load balancer sees a 503 rather than a refused
// connection. Admitted work then has until cutGrace before the end of the budget to finish;
// what is left is cut (cut ends the request contexts with errDrainCut) and given cutGrace to
// tell its clients. Last, the listener and every connection are closed.
func (s *Server) drain(hs *http.Server, cut context.CancelCauseFunc) {
	start := time.Now()
	budget := s.cfg.DrainTimeout
	grace := cutGrace(budget)
	s.draining.Store(true)
	s.metrics.Ready.Set(0)
	close(s.drainCh)
	hs.SetKeepAlivesEnabled(false)
	s.log.Info("draining", "in_flight", s.gate.depth(), "budget_s", budget.Seconds())

	if !s.waitIdle(start.Add(budget - grace)) {
		s.log.Warn("drain budget ran out; cutting in-flight work", "in_flight", s.gate.depth(), "waited_s", time.Since(start).Seconds())
		cut(errDrainCut)
		s.waitIdle(start.Add(budget))
	}
	// Close the listener and what is idle; whatever still holds a connection is closed.
	ctx, cancel := context.WithDeadline(context.Background(), start.Add(budget))
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		_ = hs.Close()
	}
	cut(errDrainCut)
	s.activeMu.Lock()
	s.stopped = true
	s.activeMu.Unlock()
	s.active.Wait()
	s.log.Info("drained", "seconds", time.Since(start).Seconds())
}

// waitIdle waits until nothing is admitted and no handler or WebSocket session runs, or until
// the deadline; it reports whether the server went idle.
func (s *Server) waitIdle(deadline time.Time) bool {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if s.gate.depth() == 0 && s.busy.Load() == 0 {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		<-tick.C
	}
}
