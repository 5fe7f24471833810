package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"
)

// Arrival is one request of a trace: when to send it, from the start, and how long its text
// should be (0: any).
type Arrival struct {
	At    time.Duration
	Chars int
}

// Replayer drives a trace through a transport open-loop: every request leaves at its time,
// whatever the ones before it are doing, as real callers do. It is the real-run side of
// `kokoro plan replay`: the same trace against a server (or an emulated endpoint that scales)
// records what the simulation predicts.
type Replayer struct {
	Transport Transport
	Texts     []string // the utterances; a request takes the one nearest its length
	Voice     string
	// RequestTimeout bounds each request; 0 means 60 s (SageMaker's invocation limit).
	RequestTimeout time.Duration
	// OnResult receives every request's result as it completes, from one goroutine at a time.
	OnResult func(Result) error
	// Now is the clock; nil = time.Now. Tests may inject one.
	Now func() time.Time
}

// ReplayStats counts what a replay sent.
type ReplayStats struct {
	Sent      int           `json:"sent"`
	Late      int           `json:"late"`        // left over 100 ms after their time (the client could not keep up)
	MaxLateMs float64       `json:"max_late_ms"` // the latest a request left after its time
	Length    time.Duration `json:"length_ns"`
}

// Run sends arrivals (in time order) and returns when every request has ended or ctx ends.
// Results' Start and End count from the replay's start; Rung holds nothing, Worker the
// connection the request used.
func (r *Replayer) Run(ctx context.Context, arrivals []Arrival) (ReplayStats, error) {
	if len(r.Texts) == 0 {
		return ReplayStats{}, errors.New("bench replay: no texts to send")
	}
	now := r.Now
	if now == nil {
		now = time.Now
	}
	timeout := r.RequestTimeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	lengths := make([]int, len(r.Texts))
	for i, t := range r.Texts {
		lengths[i] = len([]rune(t))
	}
	pool := &connPool{tr: r.Transport}
	defer pool.close()
	var (
		mu      sync.Mutex
		sinkErr error
		wg      sync.WaitGroup
		st      ReplayStats
	)
	deliver := func(res Result) {
		mu.Lock()
		defer mu.Unlock()
		if sinkErr == nil && r.OnResult != nil {
			sinkErr = r.OnResult(res)
		}
	}
	start := now()
	since := func() time.Duration { return now().Sub(start) }
	for i, a := range arrivals {
		if wait := a.At - since(); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
		}
		if ctx.Err() != nil {
			break
		}
		late := since() - a.At
		if late > 100*time.Millisecond {
			st.Late++
		}
		st.MaxLateMs = math.Max(st.MaxLateMs, float64(late)/float64(time.Millisecond))
		st.Sent++
		text := r.Texts[i%len(r.Texts)]
		if a.Chars > 0 {
			text = nearest(r.Texts, lengths, a.Chars)
		}
		wg.Add(1)
		seq := uint64(i + 1) // the arrival's place in the trace, whatever order the sends start in
		go func() {
			defer wg.Done()
			deliver(r.one(ctx, pool, since, seq, text, timeout))
		}()
		mu.Lock()
		err := sinkErr
		mu.Unlock()
		if err != nil {
			break
		}
	}
	wg.Wait()
	st.Length = since()
	mu.Lock()
	defer mu.Unlock()
	if sinkErr != nil {
		return st, sinkErr
	}
	return st, ctx.Err()
}

// nearest is the text whose length is closest to chars.
func nearest(texts []string, lengths []int, chars int) string {
	best := 0
	for i, n := range lengths {
		if abs(n-chars) < abs(lengths[best]-chars) {
			best = i
		}
	}
	return texts[best]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// one sends one request on a connection from the pool and measures it.
func (r *Replayer) one(ctx context.Context, pool *connPool, since func() time.Duration, seq uint64, text string, timeout time.Duration) Result {
	res := Result{Seq: seq, TextChars: len([]rune(text)), Start: since()}
	conn, id, err := pool.get(ctx)
	if err != nil {
		res.End = since()
		res.Outcome = Classify(err, ctx.Err() != nil)
		res.Error = err.Error()
		return res
	}
	res.Worker = id
	var pb Playback
	rctx, cancel := context.WithTimeout(ctx, timeout)
	err = conn.Synthesize(rctx, Request{ID: "replay-" + strconv.FormatUint(seq, 10), Text: text, Voice: r.Voice},
		func(pcm []byte) { pb.Add(since(), pcm) })
	cancel()
	res.End = since()
	res.settle(err, ctx.Err() != nil, &pb)
	pool.put(conn, id, err != nil && res.Status == 0)
	return res
}

// connPool hands out idle connections and dials new ones when none is idle: an open-loop
// client holds as many as it has requests in flight.
type connPool struct {
	tr   Transport
	mu   sync.Mutex
	idle []pooled
	all  []Conn
}

type pooled struct {
	c  Conn
	id int
}

func (p *connPool) get(ctx context.Context) (Conn, int, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c.c, c.id, nil
	}
	p.mu.Unlock()
	c, err := p.tr.Dial(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("dial: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.all = append(p.all, c)
	return c, len(p.all) - 1, nil
}

// put returns a connection; a broken one is closed and forgotten.
func (p *connPool) put(c Conn, id int, broken bool) {
	if broken {
		c.Close()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, pooled{c, id})
}

func (p *connPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.idle {
		c.c.Close()
	}
	p.idle = nil
}
