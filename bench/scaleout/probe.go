package scaleout

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/bench"
)

// Probe is a closed-loop load: Concurrency workers each keep one request outstanding over a
// bench transport, as the ladder's workers do. It records when each request's first audio
// byte arrived and its TTFAB, the signal a scale-out is judged by.
type Probe struct {
	Transport   bench.Transport
	Concurrency int
	Texts       []string // default bench.DefaultTexts
	Voice       string
	// RequestTimeout bounds one request; 0 means 65 s.
	RequestTimeout time.Duration
	// Now is the clock samples are stamped with; nil is time.Now.
	Now func() time.Time

	mu       sync.Mutex
	samples  []Sample
	failures int
	lastErr  error
}

// Start runs the workers until stop is called; stop waits for them to end.
func (p *Probe) Start(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	texts := p.Texts
	if len(texts) == 0 {
		texts = bench.DefaultTexts()
	}
	for w := range max(1, p.Concurrency) {
		wg.Go(func() { p.worker(ctx, w, texts) })
	}
	return func() { cancel(); wg.Wait() }
}

func (p *Probe) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Probe) worker(ctx context.Context, w int, texts []string) {
	timeout := p.RequestTimeout
	if timeout <= 0 {
		timeout = 65 * time.Second
	}
	var conn bench.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for i := w; ctx.Err() == nil; i += max(1, p.Concurrency) {
		if conn == nil {
			c, err := p.Transport.Dial(ctx)
			if err != nil {
				p.fail(ctx, err)
				continue
			}
			conn = c
		}
		req := bench.Request{ID: fmt.Sprintf("probe-%d-%d", w, i), Text: texts[i%len(texts)], Voice: p.Voice}
		rctx, cancel := context.WithTimeout(ctx, timeout)
		start := p.now()
		var first time.Time
		err := conn.Synthesize(rctx, req, func(pcm []byte) {
			if first.IsZero() && len(pcm) > 0 {
				first = p.now()
			}
		})
		cancel()
		switch {
		case ctx.Err() != nil:
			return // cut short by stop: not a measurement
		case err == nil && !first.IsZero():
			p.mu.Lock()
			p.samples = append(p.samples, Sample{At: first, TTFAB: first.Sub(start)})
			p.mu.Unlock()
		default:
			if err == nil {
				err = errors.New("response carried no audio")
			}
			var se *bench.ServerError
			if !errors.As(err, &se) {
				conn.Close()
				conn = nil
			}
			p.fail(ctx, err)
		}
	}
}

// fail counts a failed request and pauses, so a refusing target is not hammered.
func (p *Probe) fail(ctx context.Context, err error) {
	p.mu.Lock()
	p.failures++
	p.lastErr = err
	p.mu.Unlock()
	t := time.NewTimer(50 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// Samples returns the completed requests so far.
func (p *Probe) Samples() []Sample {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Sample(nil), p.samples...)
}

// Failures returns how many requests failed and the last failure.
func (p *Probe) Failures() (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failures, p.lastErr
}
