package bench

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
)

// rung is one rung while it runs: its place in the ladder, its clock and where its results go.
// Results and windows are offsets from the start of the hold (t0), so a rung's raw results and
// the configuration alone recompute its statistics.
type rung struct {
	run     int           // 1-based run
	pos     int           // 1-based position in the ladder
	n       int           // concurrency
	t0      time.Time     // start of the hold
	hold    time.Duration // end of the hold, from t0
	picker  *textPicker   // the run's text sequence
	results chan<- Result // every request, as it ends
}

// since is the time elapsed in the rung.
func (g *rung) since() time.Duration { return time.Since(g.t0) }

// runRung runs one rung: N workers each keep one request outstanding until the hold ends, then
// finish what they have in flight (bounded by DrainTimeout).
func (r *runner) runRung(ctx context.Context, run, pos, n int, picker *textPicker) (RungStats, error) {
	cfg := r.cfg
	capBefore, err := r.capacity(ctx)
	if err != nil {
		return RungStats{Run: run, N: n, Interrupts: true}, err
	}
	resCh := make(chan Result, 4*n)
	g := &rung{run: run, pos: pos, n: n, t0: time.Now(), hold: cfg.Hold, picker: picker, results: resCh}
	win := Window{Start: g.hold - cfg.MeasureWindow, End: g.hold}

	// reqCtx outlives the hold so outstanding requests can drain, and is cancelled when the
	// drain deadline passes or the user interrupts.
	reqCtx, cancelReqs := context.WithCancel(ctx)
	defer cancelReqs()

	var (
		mu      sync.Mutex
		results []Result
		sinkErr error
	)
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
		wg.Go(func() { r.worker(ctx, reqCtx, g, w) })
	}
	workersDone := make(chan struct{})
	go func() { wg.Wait(); close(workersDone) }()

	stopProgress := r.progress(g, func(from int) []Result {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(results[from:])
	})

	// Wait for the hold to end, then give outstanding requests DrainTimeout to finish.
	holdTimer := time.NewTimer(g.hold - g.since())
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
	if end := g.since(); interrupted && end < win.End {
		// The window was not reached or not finished: measure the part that ran so the
		// partial artifact still says something (the rung is marked unusable anyway).
		win = Window{Start: max(0, end-cfg.MeasureWindow), End: end}
	}
	agg := NewRungAggregator(run, n, win)
	for _, res := range results {
		agg.Add(res)
	}
	s := agg.Close()
	s.Started = g.t0.Sub(r.epoch)
	s.HoldStartedAt = g.t0
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

// worker w of rung g keeps one request outstanding until the hold ends. ctx is the user's (its
// cancellation means interrupted); reqCtx also ends at the drain deadline.
func (r *runner) worker(ctx, reqCtx context.Context, g *rung, w int) {
	var conn Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for reqCtx.Err() == nil && g.since() < g.hold {
		if conn == nil {
			start := g.since()
			c, err := r.l.Transport.Dial(reqCtx)
			if err != nil {
				res := Result{Run: g.run, Rung: g.n, Worker: w, Start: start, End: g.since()}
				res.Outcome = Classify(err, ctx.Err() != nil)
				res.Error = fmt.Sprintf("dial: %v", err)
				res.Seq = r.seq.Add(1)
				g.results <- res
				// A refused dial returns at once; pause so a dead target is not hammered.
				if ctxtime.Sleep(reqCtx, 100*time.Millisecond) != nil {
					return
				}
				continue
			}
			conn = c
		}
		res, err := r.request(ctx, reqCtx, g, w, conn)
		g.results <- res
		if res.Outcome.Rejection() {
			// A refusal comes back at once; retrying at once would spin client and server on
			// the accept path. The rung is already judged saturated by the refusal itself.
			if ctxtime.Sleep(reqCtx, rejectionPause) != nil {
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

// request sends the next text of the rung on conn and measures it.
func (r *runner) request(ctx, reqCtx context.Context, g *rung, w int, conn Conn) (Result, error) {
	text := g.picker.Next()
	res := Result{Run: g.run, Rung: g.n, Worker: w, Seq: r.seq.Add(1), TextChars: len([]rune(text))}
	req := Request{ID: fmt.Sprintf("bench-%d-%d-%s", g.run, g.n, strconv.FormatUint(res.Seq, 10)), Text: text, Voice: r.cfg.Voice, Speed: r.cfg.Speed}

	var pb Playback
	rctx, cancel := context.WithTimeout(reqCtx, r.cfg.RequestTimeout)
	res.Start = g.since()
	err := conn.Synthesize(rctx, req, func(pcm []byte) { pb.Add(g.since(), pcm) })
	res.End = g.since()
	cancel()

	res.settle(err, ctx.Err() != nil, &pb)
	return res, err
}

// rejectionPause is how long a worker waits after the server refused its request.
const rejectionPause = 10 * time.Millisecond
