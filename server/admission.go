package server

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// ErrQueueSaturated is the sentinel behind every admission rejection; transports map it to
// 503 queue_saturated (HTTP) or an error message (WebSocket).
var ErrQueueSaturated = errors.New("queue saturated")

// SaturatedError carries the numbers a rejected client is told.
type SaturatedError struct {
	Depth int // requests in the system when the request arrived
	Max   int // the configured bound
}

func (e *SaturatedError) Error() string {
	return fmt.Sprintf("queue saturated: %d requests in the system, the limit is %d", e.Depth, e.Max)
}

// Is makes errors.Is(err, ErrQueueSaturated) true.
func (e *SaturatedError) Is(target error) bool { return target == ErrQueueSaturated }

// gate counts requests in the system (queued and executing, HTTP requests and WebSocket
// utterances alike) and refuses one more at the bound. It never blocks: a client that is
// turned away learns it at once and the request costs no model work.
type gate struct {
	max int64 // 0 = unbounded
	n   atomic.Int64
}

func newGate(max int) *gate { return &gate{max: int64(max)} }

// acquire admits one request; the returned release must be called exactly once when the
// request leaves the system. Calling it more than once is harmless.
func (g *gate) acquire() (release func(), err error) {
	for {
		n := g.n.Load()
		if g.max > 0 && n >= g.max {
			return nil, &SaturatedError{Depth: int(n), Max: int(g.max)}
		}
		if g.n.CompareAndSwap(n, n+1) {
			var once atomic.Bool
			return func() {
				if once.CompareAndSwap(false, true) {
					g.n.Add(-1)
				}
			}, nil
		}
	}
}

// depth is the number of requests in the system.
func (g *gate) depth() int { return int(g.n.Load()) }
