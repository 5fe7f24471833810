package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
	"github.com/kokoro-sm/kokoro/tts"
)

// samplesPerID sizes the fake model's output: 10 ms of audio per phoneme id.
const samplesPerID = 240

// fakeSynth stands in for the ONNX model: it takes delay per chunk (or until ctx ends) and
// returns a sine wave as long as the ids ask for.
type fakeSynth struct {
	slots int
	delay time.Duration
	// hold, when set, makes every chunk after the first holdAfter wait for it to be closed
	// (or for its ctx to end) before its delay. Set them in a harness option, or with
	// holdFrom while the server runs.
	hold      chan struct{}
	holdAfter int64 // how many chunks run before hold applies (0: every chunk waits)
	calls     atomic.Int64
	fail      atomic.Bool
	mu        sync.Mutex
	speed     float32 // of the last chunk
}

// holdAfter makes the model run n chunks and hold every later one until release is called,
// so that a test's cancel or disconnect always finds the utterance midway. Call release before
// the harness shuts down (defer it), or the drain waits for a held chunk.
func holdAfter(n int64) (opt harnessOpt, release func()) {
	hold := make(chan struct{})
	var once sync.Once
	return func(_ *Config, s *fakeSynth) { s.hold, s.holdAfter = hold, n }, func() { once.Do(func() { close(hold) }) }
}

// holdFrom makes every chunk after the next n wait for hold to be closed. The caller knows
// that no chunk is being started meanwhile.
func (f *fakeSynth) holdFrom(n int64, hold chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hold, f.holdAfter = hold, f.calls.Load()+n
}

func (f *fakeSynth) Slots() int { return f.slots }

func (f *fakeSynth) Synthesize(ctx context.Context, _ int, ids []int64, _ []float32, speed float32) ([]float32, error) {
	call := f.calls.Add(1)
	f.mu.Lock()
	f.speed = speed
	hold, after := f.hold, f.holdAfter
	f.mu.Unlock()
	if hold != nil && call > after {
		select {
		case <-hold:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case <-time.After(f.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if f.fail.Load() {
		return nil, fmt.Errorf("fake model failure")
	}
	pcm := make([]float32, len(ids)*samplesPerID)
	for i := range pcm {
		pcm[i] = float32(0.5 * math.Sin(2*math.Pi*440*float64(i)/api.SampleRate))
	}
	return pcm, nil
}

// fakeVoices knows a fixed set of names and accepts "+"-joined blends of them.
type fakeVoices struct{ names []string }

func (v fakeVoices) Resolve(spec string) (model.Pack, error) {
	parts, err := model.ParseBlend(spec) // the real engine's syntax and weight rules
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		if !slices.Contains(v.names, p.Voice) {
			return nil, &model.UnknownVoiceError{Name: p.Voice, Have: v.names}
		}
	}
	return make(model.Pack, model.PackRows*model.StyleDim), nil
}

func (v fakeVoices) Names() []string { return v.names }

// fakePhonemizer makes one chunk per sentence with one id per letter or digit, so tests
// control the number of chunks with punctuation and their length with the text.
type fakePhonemizer struct{}

func (fakePhonemizer) Chunks(text string, _ chunk.Options) ([]chunk.Chunk, error) {
	var out []chunk.Chunk
	start := 0
	flush := func(end int) {
		s := strings.TrimSpace(text[start:end])
		start = end
		var ids []int64
		for _, r := range s {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				ids = append(ids, 43)
			}
		}
		if len(ids) > 0 {
			out = append(out, chunk.Chunk{Text: s, Phonemes: s, IDs: ids, Break: chunk.BreakSentence})
		}
	}
	for i, r := range text {
		if strings.ContainsRune(".!?", r) {
			flush(i + 1)
		}
	}
	flush(len(text))
	if len(out) == 0 {
		// The real phonemizer's answer to text with nothing to say ("#", "---", "|").
		return nil, fmt.Errorf("chunks: nothing speakable in the text: %w", phonemize.ErrEmptyText)
	}
	return out, nil
}

var testVoices = []string{"af_heart", "af_bella", "am_adam"}

// harness is a server on a loopback port (or a pipeListener) backed by the fakes.
type harness struct {
	t     testing.TB
	srv   *Server
	syn   *fakeSynth
	url   string
	ln    net.Listener
	reg   *prometheus.Registry
	stop  context.CancelFunc
	done  chan error
	stage *testenv.Buffer
}

type harnessOpt func(*Config, *fakeSynth)

// fakeLoader loads an engine of the fakes configured by ec, reporting both loader stages.
func fakeLoader(syn *fakeSynth, ec tts.Config) Loader {
	return func(ctx context.Context, obs tts.Observer, stage func(string)) (Engine, func() error, error) {
		stage(api.StageWeightsReady)
		stage(api.StageWarmupDone)
		ec.Observer = obs
		eng := tts.New(ec, fakePhonemizer{}, syn, fakeVoices{testVoices})
		return eng, eng.Close, nil
	}
}

// maxTextChars makes the harness engine accept at most n characters.
func maxTextChars(n int) harnessOpt {
	return func(c *Config, s *fakeSynth) { c.Load = fakeLoader(s, tts.Config{MaxTextChars: n}) }
}

// newHarness starts a server whose engine loads at once (or when gate is closed, if given)
// and stops it, waiting for Serve to return, when the test ends.
func newHarness(t testing.TB, opts ...harnessOpt) *harness {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return newHarnessOn(t, ln, opts...)
}

// newHarnessOn is newHarness serving on ln.
func newHarnessOn(t testing.TB, ln net.Listener, opts ...harnessOpt) *harness {
	t.Helper()
	syn := &fakeSynth{slots: 2, delay: 20 * time.Millisecond}
	h := &harness{t: t, syn: syn, reg: prometheus.NewRegistry(), done: make(chan error, 1), stage: &testenv.Buffer{}}
	cfg := Config{
		MaxRequestAge: 56 * time.Second,
		Registry:      h.reg,
		Logger:        slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Stages:        h.stage,
		DrainTimeout:  5 * time.Second,
	}
	cfg.Load = fakeLoader(syn, tts.Config{})
	for _, o := range opts {
		o(&cfg, syn)
	}
	srv, err := New(cfg)
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.srv, h.url, h.ln, h.stop = srv, "http://"+ln.Addr().String(), ln, cancel
	go func() { h.done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { h.shutdown() })
	return h
}

func (h *harness) waitReady() { h.waitReadyFor(5 * time.Second) }

func (h *harness) waitReadyFor(d time.Duration) {
	h.t.Helper()
	select {
	case <-h.srv.Ready():
	case err := <-h.done:
		close(h.done)
		h.t.Fatalf("Serve ended before ready: %v", err)
	case <-time.After(d):
		h.t.Fatalf("server not ready after %v", d)
	}
}

// shutdown stops the server and returns Serve's error; safe to call twice.
func (h *harness) shutdown() error {
	h.stop()
	select {
	case err, ok := <-h.done:
		if ok {
			close(h.done)
		}
		return err
	case <-time.After(waitLimit):
		h.t.Errorf("Serve did not return within %v of cancel", waitLimit)
		return nil
	}
}

// client is an HTTP client whose idle connections are closed when the test ends, so goleak
// sees no transport goroutines.
func client(t testing.TB) *http.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 3 * time.Minute}
}

func jsonBody(s string) io.Reader { return strings.NewReader(s) }

func errorsAs(err error, target any) bool { return errors.As(err, target) }

// pipeListener is a listener whose connections are in-memory pipes (net.Pipe), made by its
// DialContext. A server on it runs entirely inside a testing/synctest bubble, where the fakes'
// delays and the server's timers run on the bubble's clock.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

// DialContext connects to the listener; the network and address are ignored.
func (l *pipeListener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
	case <-ctx.Done():
	}
	client.Close()
	server.Close()
	return nil, net.ErrClosed
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }
