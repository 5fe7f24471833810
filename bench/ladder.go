package bench

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
)

// Hooks let a target add control-plane steps around the ladder without changing it: the
// SageMaker targets read the instance count and CloudWatch's view of concurrency. Every field
// is optional.
type Hooks struct {
	// Freeze runs once before the ladder: against SageMaker it suspends autoscaling and pins
	// one instance. The thaw it returns always runs when the ladder ends, interrupted or not,
	// with a context of its own so that a Ctrl-C cannot cut the restore short.
	Freeze func(ctx context.Context) (thaw func(context.Context) error, err error)
	// Capacity returns the number of serving instances; read before and after every rung, a
	// change makes the rung unusable.
	Capacity func(ctx context.Context) (int, error)
	// AfterRung may enrich a finished rung (e.g. set ConcurrencyRatio) before it is judged.
	AfterRung func(ctx context.Context, s *RungStats) error
}

// Ladder runs the closed-loop Q_max ladder against one transport.
type Ladder struct {
	Transport Transport
	Config    Config
	Hooks     Hooks
	// OnResult receives every result as it completes, from a single goroutine; the raw JSONL
	// writer plugs in here. An error stops the ladder.
	OnResult func(Result) error
	// OnProgress receives a snapshot every ProgressEvery while a rung runs (default 250 ms).
	OnProgress    func(Progress)
	ProgressEvery time.Duration
	// OnRung receives every rung as soon as it is judged.
	OnRung func(RungStats)
}

// Report is everything a ladder measured.
type Report struct {
	Transport string       `json:"transport"`
	Epoch     time.Time    `json:"epoch"` // when the ladder began; RungStats.Started counts from here
	Finished  time.Time    `json:"finished"`
	Config    Config       `json:"-"`
	Runs      []RunSummary `json:"runs"`
	Summary   Summary      `json:"summary"`
	// Partial: the ladder was interrupted and did not finish its schedule.
	Partial bool `json:"partial"`
	// Frozen: the Freeze hook ran, so scaling was held still for the measurement.
	Frozen bool `json:"frozen"`
}

// thawTimeout bounds the restore after the ladder; it runs even after an interrupt.
const thawTimeout = 2 * time.Minute

// Run executes the schedule. When ctx is cancelled every worker stops, requests in flight are
// cancelled, and Run returns the report so far marked Partial together with ctx's error; the
// report is nil only when the configuration is invalid or the Freeze hook failed.
func (l *Ladder) Run(ctx context.Context) (_ *Report, retErr error) {
	if err := l.Config.Validate(); err != nil {
		return nil, err
	}
	if l.Transport == nil {
		return nil, errors.New("ladder has no transport")
	}
	cfg := l.Config.withDefaults()
	epoch := time.Now()
	rep := &Report{Transport: l.Transport.Name(), Epoch: epoch, Config: cfg}
	r := &runner{l: l, cfg: cfg, epoch: epoch}

	if l.Hooks.Freeze != nil {
		thaw, err := l.Hooks.Freeze(ctx)
		if err != nil {
			return nil, fmt.Errorf("freeze scaling: %w", err)
		}
		rep.Frozen = true
		defer func() {
			if thaw == nil {
				return
			}
			tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), thawTimeout)
			defer cancel()
			if err := thaw(tctx); err != nil {
				retErr = errors.Join(retErr, fmt.Errorf("thaw scaling: %w", err))
			}
		}()
	}

	var runErr error
	for run := 1; run <= cfg.Runs && runErr == nil; run++ {
		picker := newTextPicker(cfg.Texts, cfg.Seed, run)
		var rungs []RungStats
		saturatedInARow := 0
		stopped := false
		for i, n := range cfg.Ladder {
			s, err := r.runRung(ctx, run, i+1, n, picker)
			rungs = append(rungs, s)
			if l.OnRung != nil {
				l.OnRung(s)
			}
			if err != nil {
				runErr = err
				break
			}
			if s.Saturated() {
				saturatedInARow++
			} else {
				saturatedInARow = 0
			}
			if saturatedInARow >= cfg.StopAfterSaturated {
				stopped = i < len(cfg.Ladder)-1
				break
			}
			last := run == cfg.Runs && i == len(cfg.Ladder)-1
			if !last {
				if err := ctxtime.Sleep(ctx, cfg.Settle); err != nil {
					runErr = err
					break
				}
			}
		}
		sum := SummarizeRun(run, rungs, cfg.SLO)
		sum.StoppedSaturated = stopped
		sum.Interrupted = runErr != nil
		rep.Runs = append(rep.Runs, sum)
		if stopped && run < cfg.Runs && runErr == nil {
			// The next run starts from rung 1 on a server that was just saturated.
			runErr = ctxtime.Sleep(ctx, cfg.Settle)
		}
	}
	rep.Summary = Summarize(rep.Runs)
	rep.Finished = time.Now()
	if runErr != nil {
		rep.Partial = true
		return rep, runErr
	}
	return rep, nil
}

// runner carries what every rung of one ladder shares.
type runner struct {
	l     *Ladder
	cfg   Config
	epoch time.Time
	seq   atomic.Uint64 // dispatch order across the whole ladder
}
