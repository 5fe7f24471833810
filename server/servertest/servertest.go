// Package servertest runs kokoro's real server (admission gate, HTTP and WebSocket routes,
// streaming) in front of an engine whose timing a test sets, for tests of what sits around
// the model: the bench's transports, the SageMaker emulator, the planner's replay.
//
// The engine holds each request on one of its slots for a fixed service time, first come first
// served, then sends its audio. That makes the queueing law exact from below on any machine:
// in a closed loop of N clients over k slots, a request's first audio comes no sooner than
// ceil(N/k)·Service after it was sent, and a slow machine only adds to that. A test that puts
// its SLO between two rungs with a margin of whole service times learns Q_max exactly.
package servertest

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/server"
	"github.com/kokoro-sm/kokoro/tts"
)

// Engine is a server.Engine with a fixed service time. Its zero value serves at once on one
// slot and sends half a second of silence in two chunks.
type Engine struct {
	Service time.Duration // how long a request holds its slot before its audio
	Slots   int           // requests served at once; 0 = 1
	Audio   time.Duration // audio per request, sent in two chunks; 0 = 500 ms

	once     sync.Once
	slots    chan struct{}
	requests atomic.Int64
}

func (e *Engine) init() {
	e.once.Do(func() { e.slots = make(chan struct{}, max(1, e.Slots)) })
}

// Requests is the number of requests that reached Stream.
func (e *Engine) Requests() int { return int(e.requests.Load()) }

// CheckVoice accepts every request, spoken by its voice spec as written (the default voice
// for none) at its speed (1 for none), in its lang.
func (e *Engine) CheckVoice(req tts.Request) (tts.Resolved, error) {
	r := tts.Resolved{ID: req.ID, Voice: tts.Voice{Spec: req.Voice}, Speed: 1, Lang: req.Lang, Resumes: req.Resumes}
	if r.Voice.Spec == "" {
		r.Voice.Spec = api.DefaultVoice
	}
	if req.Speed != nil {
		r.Speed = *req.Speed
	}
	return r, nil
}

// CheckText refuses an empty text, as the real engine does.
func (e *Engine) CheckText(r tts.Resolved, text string) (tts.Resolved, error) {
	if text == "" {
		return r, tts.ErrEmptyText
	}
	r.Text = text
	return r, nil
}

// VoiceNames is the default voice alone.
func (e *Engine) VoiceNames() []string { return []string{api.DefaultVoice} }

// MaxTextChars is 0: any length.
func (e *Engine) MaxTextChars() int { return 0 }

// Stream waits for a slot (first come first served), holds it for Service, releases it and
// emits the audio. A cancelled context ends the wait at once.
func (e *Engine) Stream(ctx context.Context, req tts.Resolved, emit func(tts.Chunk) error) (tts.Stats, error) {
	e.init()
	e.requests.Add(1)
	start := time.Now()
	select {
	case e.slots <- struct{}{}:
	case <-ctx.Done():
		return tts.Stats{}, ctx.Err()
	}
	t := time.NewTimer(e.Service)
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
	}
	<-e.slots
	if err := ctx.Err(); err != nil {
		return tts.Stats{}, err
	}
	audio := e.Audio
	if audio <= 0 {
		audio = 500 * time.Millisecond
	}
	half := int(audio.Seconds()*api.SampleRate) / 2
	st := tts.Stats{Chunks: 2, AudioDuration: audio, ModelTime: e.Service, FirstChunkTime: e.Service}
	for i := range 2 {
		if i == 0 {
			st.TTFA = time.Since(start)
		}
		if err := emit(tts.Chunk{Index: i, Text: req.Text, PCM: make([]float32, half), ModelTime: e.Service / 2, Final: i == 1}); err != nil {
			return st, err
		}
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// Start serves the real server in front of e on a loopback port until the test ends and
// returns its base URL. maxQueueDepth is MAX_QUEUE_DEPTH (0: unbounded).
func Start(tb testing.TB, e *Engine, maxQueueDepth int) string {
	tb.Helper()
	url, stop, err := StartLocal(context.Background(), e, maxQueueDepth)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := stop(); err != nil {
			tb.Errorf("servertest: serve: %v", err)
		}
	})
	return url
}

// StartLocal is Start for code that manages the server's life itself (an emulator that adds
// and removes instances): it returns the base URL and the function that stops the server.
func StartLocal(ctx context.Context, e *Engine, maxQueueDepth int) (url string, stop func() error, err error) {
	srv, err := server.New(server.Config{
		MaxQueueDepth: maxQueueDepth,
		Logger:        slog.New(slog.DiscardHandler),
		Load: func(context.Context, tts.Observer, func(string)) (server.Engine, func() error, error) {
			return e, func() error { return nil }, nil
		},
	})
	if err != nil {
		return "", nil, err
	}
	return srv.StartLocal(ctx)
}
