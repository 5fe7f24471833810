package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
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
			s, err := r.rung(ctx, run, n, picker)
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
				if err := sleepCtx(ctx, cfg.Settle); err != nil {
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
			runErr = sleepCtx(ctx, cfg.Settle)
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

type runner struct {
	l     *Ladder
	cfg   Config
	epoch time.Time
	seq   atomic.Uint64
}

// rung runs one rung: N workers each keep one request outstanding until the hold ends, then
// finish what they have in flight (bounded by DrainTimeout).
func (r *runner) rung(ctx context.Context, run, n int, picker *textPicker) (RungStats, error) {
	cfg := r.cfg
	capBefore, err := r.capacity(ctx)
	if err != nil {
		return RungStats{Run: run, N: n, Interrupts: true}, err
	}
	// Results and windows are offsets from the start of the rung's hold, so a rung's raw
	// results and the configuration alone recompute its statistics.
	t0 := time.Now()
	started := t0.Sub(r.epoch)
	since := func() time.Duration { return time.Since(t0) }
	holdEnd := cfg.Hold
	win := Window{Start: holdEnd - cfg.MeasureWindow, End: holdEnd}

	// reqCtx outlives the hold so outstanding requests can drain, and is cancelled when the
	// drain deadline passes or the user interrupts.
	reqCtx, cancelReqs := context.WithCancel(ctx)
	defer cancelReqs()

	var (
		mu      sync.Mutex
		results []Result
		sinkErr error
	)
	resCh := make(chan Result, 4*n)
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for res := range resCh {
			if r.l.OnResult != nil && sinkErr == nil {
				if err := r.l.OnResult(res); err != nil {
					sinkErr = err
					cancelReqs()
				}
			}
			mu.Lock()
			results = append(results, res)
			mu.Unlock()
		}
	}()

	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.worker(ctx, reqCtx, run, n, w, since, holdEnd, picker, resCh)
		}()
	}
	workersDone := make(chan struct{})
	go func() { wg.Wait(); close(workersDone) }()

	stopProgress := r.progress(run, n, since, holdEnd, func(from int) []Result {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(results[from:])
	})

	// Wait for the hold to end, then give outstanding requests DrainTimeout to finish.
	holdTimer := time.NewTimer(holdEnd - since())
	select {
	case <-holdTimer.C:
	case <-ctx.Done():
		holdTimer.Stop()
	case <-workersDone:
		holdTimer.Stop()
	}
	drain := time.NewTimer(cfg.DrainTimeout)
	select {
	case <-workersDone:
	case <-drain.C:
		cancelReqs()
		<-workersDone
	}
	drain.Stop()
	stopProgress()
	close(resCh)
	<-collected

	interrupted := ctx.Err() != nil || sinkErr != nil
	if end := since(); interrupted && end < win.End {
		// The window was not reached or not finished: measure the part that ran so the
		// partial artifact still says something (the rung is marked unusable anyway).
		win = Window{Start: max(0, end-cfg.MeasureWindow), End: end}
	}
	agg := NewRungAggregator(run, n, win)
	for _, res := range results {
		agg.Add(res)
	}
	s := agg.Close()
	s.Started = started
	s.HoldStartedAt = t0
	s.CapacityBefore = capBefore
	s.Interrupts = interrupted
	if !interrupted {
		s.CapacityAfter, err = r.capacity(ctx)
		if err == nil && r.l.Hooks.AfterRung != nil {
			err = r.l.Hooks.AfterRung(ctx, &s)
		}
	} else {
		s.CapacityAfter = capBefore
	}
	s.Judge()
	switch {
	case sinkErr != nil:
		return s, sinkErr
	case ctx.Err() != nil:
		return s, ctx.Err()
	case err != nil:
		return s, fmt.Errorf("after rung %d: %w", n, err)
	}
	return s, nil
}

func (r *runner) capacity(ctx context.Context) (int, error) {
	if r.l.Hooks.Capacity == nil {
		return 0, nil
	}
	c, err := r.l.Hooks.Capacity(ctx)
	if err != nil {
		return 0, fmt.Errorf("read capacity: %w", err)
	}
	return c, nil
}

// worker keeps one request outstanding until the hold ends. ctx is the user's (its
// cancellation means interrupted); reqCtx also ends at the drain deadline.
func (r *runner) worker(ctx, reqCtx context.Context, run, n, w int, since func() time.Duration, holdEnd time.Duration, picker *textPicker, out chan<- Result) {
	var conn Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for reqCtx.Err() == nil && since() < holdEnd {
		res := Result{Run: run, Rung: n, Worker: w}
		if conn == nil {
			res.Start = since()
			c, err := r.l.Transport.Dial(reqCtx)
			if err != nil {
				res.End = since()
				res.Outcome = Classify(err, ctx.Err() != nil)
				res.Error = fmt.Sprintf("dial: %v", err)
				res.Seq = r.seq.Add(1)
				out <- res
				// A refused dial returns at once; pause so a dead target is not hammered.
				if sleepCtx(reqCtx, 100*time.Millisecond) != nil {
					return
				}
				continue
			}
			conn = c
		}
		text := picker.Next()
		res.Seq = r.seq.Add(1)
		res.TextChars = len([]rune(text))
		req := Request{ID: fmt.Sprintf("bench-%d-%d-%s", run, n, strconv.FormatUint(res.Seq, 10)), Text: text, Voice: r.cfg.Voice, Speed: r.cfg.Speed}

		var pb Playback
		rctx, cancel := context.WithTimeout(reqCtx, r.cfg.RequestTimeout)
		res.Start = since()
		err := conn.Synthesize(rctx, req, func(nb int) { pb.Add(since(), nb) })
		res.End = since()
		cancel()

		res.Outcome = Classify(err, ctx.Err() != nil)
		if err != nil {
			res.Error = err.Error()
			var se *ServerError
			if errors.As(err, &se) {
				res.Status = se.Status
			}
		}
		if res.Outcome == OK && !pb.Started() {
			// A completed response without audio is not a success a listener would accept.
			res.Outcome = TransportError
			res.Error = "response carried no audio"
		}
		if pb.Started() {
			res.TTFAB = pb.First() - res.Start
			res.Stall, res.Stalls = pb.Stall(), pb.Stalls()
			res.AudioBytes, res.Chunks = pb.Bytes(), pb.Chunks()
		}
		out <- res
		if res.Outcome.Rejection() {
			// A refusal comes back at once; retrying at once would spin client and server on
			// the accept path. The rung is already judged saturated by the refusal itself.
			if sleepCtx(reqCtx, rejectionPause) != nil {
				return
			}
		}
		if err != nil && res.Status == 0 {
			// A transport failure may leave the connection in an unknown state: start afresh.
			conn.Close()
			conn = nil
		}
	}
}

// rejectionPause is how long a worker waits after the server refused its request.
const rejectionPause = 10 * time.Millisecond

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
