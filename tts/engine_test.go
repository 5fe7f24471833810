package tts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// checkStream is what a transport does with a request: the engine's check, then Stream of what it
// resolved.
func checkStream(ctx context.Context, e *Engine, req Request, emit func(Chunk) error) (Stats, error) {
	r, err := e.Check(req)
	if err != nil {
		return Stats{}, err
	}
	return e.Stream(ctx, r, emit)
}

// splitPhonemizer makes one chunk per "|"-separated part; each chunk's single id is the part's
// first byte, so the fake model can tell chunks apart.
type splitPhonemizer struct{}

func (splitPhonemizer) Chunks(text string, _ chunk.Options) ([]chunk.Chunk, error) {
	var out []chunk.Chunk
	for _, p := range strings.Split(text, "|") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, chunk.Chunk{Text: p, Phonemes: p, IDs: []int64{int64(p[0]), int64(len(p))}})
		}
	}
	return out, nil
}

type fakeVoices struct{}

func (fakeVoices) Resolve(spec string) (model.Pack, error) {
	if spec != "af_heart" && spec != "bf_emma" {
		return nil, fmt.Errorf("voice %q not found; have: af_heart, bf_emma", spec)
	}
	return make(model.Pack, model.PackRows*model.StyleDim), nil
}
func (fakeVoices) Names() []string { return []string{"af_heart", "bf_emma"} }

// gatedSynth runs a chunk only when the test releases it, and records the order chunks ran in.
// Every chunk yields one second of audio.
type gatedSynth struct {
	slots   int
	started chan string
	release chan struct{}
	mu      sync.Mutex
	ran     []string
}

func newGatedSynth(slots int) *gatedSynth {
	return &gatedSynth{slots: slots, started: make(chan string, 64), release: make(chan struct{})}
}

func (g *gatedSynth) Slots() int { return g.slots }
func (g *gatedSynth) Synthesize(ctx context.Context, _ int, ids []int64, _ []float32, _ float32) ([]float32, error) {
	label := fmt.Sprintf("%c%d", rune(ids[0]), ids[1])
	g.mu.Lock()
	g.ran = append(g.ran, label)
	g.mu.Unlock()
	g.started <- label
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	pcm := make([]float32, api.SampleRate)
	for i := range pcm {
		pcm[i] = 0.1
	}
	return pcm, nil
}

func (g *gatedSynth) order() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.ran...)
}

func drain(ctx context.Context, e *Engine, text string) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := checkStream(ctx, e, Request{Text: text}, func(Chunk) error { return nil })
		done <- err
	}()
	return done
}

// A new request's first chunk must not wait behind the tails of requests whose audio is
// already buffered ahead of playback. It runs in virtual time (synctest): no time passes while
// the test steps the slot, so every deadline is exactly where the scheduler puts it.
func TestNewRequestFirstChunkJumpsLongTails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		syn := newGatedSynth(1)
		e := New(Config{}, splitPhonemizer{}, syn, fakeVoices{})
		defer e.Close()
		ctx := context.Background()
		depth := func(n int) {
			t.Helper()
			synctest.Wait()
			if d := e.QueueDepth(); d != n {
				t.Fatalf("queue depth %d, want %d", d, n)
			}
		}

		a := drain(ctx, e, "a | aa | aaa")
		if got := <-syn.started; got != "a1" {
			t.Fatalf("first run %s", got)
		}
		c := drain(ctx, e, "c | cc | ccc")
		depth(1) // c1 queued behind a1
		syn.release <- struct{}{}
		if got := <-syn.started; got != "c1" {
			t.Fatalf("second run %s, want c1", got)
		}
		depth(1) // a2 queued, due when a1's second of audio has played
		b := drain(ctx, e, "b")
		depth(2)
		syn.release <- struct{}{} // c1 done → c2 queued; slot picks by deadline
		if got := <-syn.started; got != "b1" {
			t.Fatalf("after c1 the slot ran %s; want b1 (due in 300 ms) before tails due in ~1 s", got)
		}
		for i := 0; i < 4; i++ {
			syn.release <- struct{}{}
			<-syn.started
		}
		syn.release <- struct{}{}
		for _, ch := range []<-chan error{a, b, c} {
			if err := <-ch; err != nil {
				t.Fatal(err)
			}
		}
		if got := strings.Join(syn.order(), " "); !strings.HasPrefix(got, "a1 c1 b1") {
			t.Fatalf("run order %s", got)
		}
	})
}

func waitDepth(t *testing.T, e *Engine, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a ceiling for a starved machine, not a timing check
	for e.QueueDepth() != n {
		if time.Now().After(deadline) {
			t.Fatalf("queue depth %d, want %d", e.QueueDepth(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestCancelWithdrawsQueuedChunks(t *testing.T) {
	syn := newGatedSynth(1)
	e := New(Config{}, splitPhonemizer{}, syn, fakeVoices{})
	defer e.Close()
	first := drain(context.Background(), e, "x")
	<-syn.started
	ctx, cancel := context.WithCancel(context.Background())
	second := drain(ctx, e, "y | yy")
	waitDepth(t, e, 1)
	cancel()
	if err := <-second; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled stream: %v", err)
	}
	if d := e.QueueDepth(); d != 0 {
		t.Fatalf("queue depth %d after cancel, want 0", d)
	}
	syn.release <- struct{}{}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for _, l := range syn.order() {
		if l[0] == 'y' {
			t.Fatalf("cancelled request ran %s", l)
		}
	}
}

// instantSynth returns 100 ms of a constant per chunk.
type instantSynth struct{}

func (s *instantSynth) Slots() int { return 2 }
func (s *instantSynth) Synthesize(_ context.Context, _ int, ids []int64, _ []float32, speed float32) ([]float32, error) {
	pcm := make([]float32, int(float32(api.SampleRate/10)/speed))
	for i := range pcm {
		pcm[i] = float32(ids[1]) / 100
	}
	return pcm, nil
}

func TestStreamDeliversChunksInOrder(t *testing.T) {
	e := New(Config{}, splitPhonemizer{}, &instantSynth{}, fakeVoices{})
	defer e.Close()
	var got []Chunk
	st, err := checkStream(context.Background(), e, Request{Text: "a|bb|ccc|dddd", Speed: speed(2)}, func(c Chunk) error {
		got = append(got, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || st.Chunks != 4 {
		t.Fatalf("%d chunks emitted, stats say %d", len(got), st.Chunks)
	}
	lead := samples(JoinLead)
	for i, c := range got {
		if c.Index != i || c.PCM[lead] != float32(i+1)/100 || c.Final != (i == 3) {
			t.Errorf("chunk %d: index %d first sound %v final %v", i, c.Index, c.PCM[lead], c.Final)
		}
	}
	// 50 ms of sound per chunk at speed 2, each framed by the silence of its join.
	want := 4*(50*time.Millisecond+JoinLead) + 3*(JoinPause(chunk.BreakWord)-JoinLead) + EndTail
	if st.AudioDuration != want {
		t.Errorf("audio %v at speed 2, want %v", st.AudioDuration, want)
	}
}

func TestEmitErrorStopsTheStream(t *testing.T) {
	e := New(Config{}, splitPhonemizer{}, &instantSynth{}, fakeVoices{})
	defer e.Close()
	boom := errors.New("client gone")
	n := 0
	_, err := checkStream(context.Background(), e, Request{Text: "a|b|c|d"}, func(Chunk) error {
		n++
		if n == 2 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || n != 2 {
		t.Fatalf("err %v after %d chunks", err, n)
	}
}

func speed(v float64) *float64 { return &v }

func TestCheck(t *testing.T) {
	e := New(Config{MaxTextChars: 10}, splitPhonemizer{}, &instantSynth{}, fakeVoices{})
	defer e.Close()
	for _, c := range []struct {
		req  Request
		want error
		msg  string
	}{
		{Request{Text: "  \n"}, ErrEmptyText, "missing or blank"},
		{Request{Text: "12345678901"}, ErrTextTooLong, "11 characters, the limit is 10"},
		{Request{Text: "hi", Speed: speed(2.5)}, ErrBadSpeed, "2.5"},
		{Request{Text: "hi", Speed: speed(0.2)}, ErrBadSpeed, "0.2"},
		{Request{Text: "hi", Speed: speed(0)}, ErrBadSpeed, "0 is not in"}, // a given zero is not "unset"
		{Request{Text: "hi", Voice: "zz_nobody"}, ErrUnknownVoice, "have: af_heart, bf_emma"},
		{Request{Text: "hi", Voice: "bf_emma", Speed: speed(0.5)}, nil, ""},
	} {
		t.Run(c.msg, func(t *testing.T) {
			_, err := e.Check(c.req)
			if !errors.Is(err, c.want) || (err != nil && !strings.Contains(err.Error(), c.msg)) {
				t.Errorf("%+v: err = %v, want %v containing %q", c.req, err, c.want, c.msg)
			}
		})
	}
	got, err := e.Check(Request{Text: "hi", Voice: " bf_emma "})
	if err != nil || got.Voice.Spec != "bf_emma" || got.Lang != "en-gb" {
		t.Errorf("checked request %+v, %v; want the voice trimmed and its language", got, err)
	}
	if got, err := e.Check(Request{Text: "hi"}); err != nil || got.Voice.Spec != api.DefaultVoice {
		t.Errorf("checked request %+v, %v; want the default voice", got, err)
	}
	// CheckVoice leaves the text to later: an utterance streamed in pieces starts with none.
	if _, err := e.CheckVoice(Request{Voice: "bf_emma"}); err != nil {
		t.Errorf("CheckVoice without text: %v", err)
	}
	var ve *VoiceError
	if _, err := e.CheckVoice(Request{Voice: "zz_nobody"}); !errors.As(err, &ve) || len(ve.Valid) != 2 {
		t.Errorf("CheckVoice of an unknown voice: %v", err)
	}
	if _, err := checkStream(context.Background(), e, Request{Text: ""}, func(Chunk) error { return nil }); !errors.Is(err, ErrEmptyText) {
		t.Errorf("Stream with empty text: %v", err)
	}
}

func TestCloseFailsQueuedWork(t *testing.T) {
	syn := newGatedSynth(1)
	e := New(Config{}, splitPhonemizer{}, syn, fakeVoices{})
	running := drain(context.Background(), e, "r")
	<-syn.started
	queued := drain(context.Background(), e, "q")
	waitDepth(t, e, 1)
	closed := make(chan struct{})
	go func() { e.Close(); close(closed) }()
	if err := <-queued; !errors.Is(err, ErrClosed) {
		t.Fatalf("queued request: %v, want ErrClosed", err)
	}
	syn.release <- struct{}{} // Close waits for the running chunk
	<-closed
	if err := <-running; err != nil {
		t.Fatalf("running request: %v", err)
	}
	if _, err := checkStream(context.Background(), e, Request{Text: "late"}, func(Chunk) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
}

// optionsPhonemizer records the options the engine asks for.
type optionsPhonemizer struct {
	splitPhonemizer
	got chan chunk.Options
}

func (p optionsPhonemizer) Chunks(text string, opt chunk.Options) ([]chunk.Chunk, error) {
	p.got <- opt
	return p.splitPhonemizer.Chunks(text, opt)
}

func TestChunkBudgetsReachThePhonemizer(t *testing.T) {
	ph := optionsPhonemizer{got: make(chan chunk.Options, 1)}
	e := New(Config{Policy: chunk.Policy{FirstChunkMaxIDs: 40, MaxChunkIDs: 200}}, ph, &instantSynth{}, fakeVoices{})
	defer e.Close()
	sw := phonemize.Switches{UnitsOff: true, SymbolsOff: true}
	if _, err := checkStream(context.Background(), e, Request{Text: "a|b", Voice: "bf_emma", Switches: sw}, func(Chunk) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if o := <-ph.got; o.FirstChunkMaxIDs != 40 || o.MaxChunkIDs != 200 || o.Lang != "en-gb" || o.Switches != sw {
		t.Fatalf("phonemizer asked with %+v", o)
	}
}

// recorder keeps what a fake is asked for, in order.
type recorder[T any] struct {
	mu  sync.Mutex
	got []T
}

func (r *recorder[T]) add(v T) {
	r.mu.Lock()
	r.got = append(r.got, v)
	r.mu.Unlock()
}

// sentencePhonemizer is splitPhonemizer with every chunk a part of one 40-id sentence; it
// records the options it is asked to chunk with.
type sentencePhonemizer struct {
	splitPhonemizer
	recorder[chunk.Options]
}

func (p *sentencePhonemizer) Chunks(text string, opt chunk.Options) ([]chunk.Chunk, error) {
	p.add(opt)
	cs, err := p.splitPhonemizer.Chunks(text, opt)
	for i := range cs {
		cs[i].SentenceIDs = 40
	}
	return cs, err
}

// rowVoices has the voices of fakeVoices, each with style row r all r, so that a synthesizer
// can tell which row it was handed; it records the specs it is asked to read.
type rowVoices struct {
	fakeVoices
	recorder[string]
}

func (v *rowVoices) Resolve(spec string) (model.Pack, error) {
	v.add(spec)
	if _, err := v.fakeVoices.Resolve(spec); err != nil {
		return nil, err
	}
	p := make(model.Pack, model.PackRows*model.StyleDim)
	for i := range p {
		p[i] = float32(i / model.StyleDim)
	}
	return p, nil
}

// rowSynth is instantSynth recording the utterance length whose style row each chunk is run
// with (rowVoices).
type rowSynth struct {
	instantSynth
	recorder[int]
}

func (s *rowSynth) Synthesize(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, error) {
	s.add(int(style[0]) + 1)
	return s.instantSynth.Synthesize(ctx, slot, ids, style, speed)
}

// TestPartsOfASentenceShareItsStyle: each chunk of a sentence cut into parts is spoken with the
// style row of the whole sentence's length, as the sentence spoken whole would be.
func TestPartsOfASentenceShareItsStyle(t *testing.T) {
	syn := &rowSynth{}
	e := New(Config{}, &sentencePhonemizer{}, syn, &rowVoices{})
	defer e.Close()
	if _, err := checkStream(context.Background(), e, Request{Text: "a|bb|ccc", Voice: "af_heart"}, func(Chunk) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(syn.got) != 3 {
		t.Fatalf("%d chunks run, want 3", len(syn.got))
	}
	for i, n := range syn.got {
		if n != 40 {
			t.Errorf("chunk %d spoken with the row for %d ids, want the sentence's 40", i, n)
		}
	}
}

// TestStreamSpeaksWhatCheckResolved: the voice spec is read once, by the check, however many
// chunks the request has; Stream speaks the resolved language as it is, not the one its
// voice's name would give.
func TestStreamSpeaksWhatCheckResolved(t *testing.T) {
	v := &rowVoices{}
	ph := &sentencePhonemizer{}
	e := New(Config{}, ph, &rowSynth{}, v)
	defer e.Close()
	r, err := e.Check(Request{Text: "a|bb|ccc|dddd", Voice: " af_heart "})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.got) != 1 || v.got[0] != "af_heart" {
		t.Fatalf("the check read the specs %q, want af_heart once", v.got)
	}
	r.Lang = "en-gb" // what a check reads for a request with lang en-gb
	st, err := e.Stream(context.Background(), r, func(Chunk) error { return nil })
	if err != nil || st.Chunks != 4 {
		t.Fatalf("stream: %d chunks, %v; want 4", st.Chunks, err)
	}
	if len(v.got) != 1 {
		t.Errorf("Stream read the voice spec again: %q", v.got[1:])
	}
	if len(ph.got) != 1 || ph.got[0].Lang != "en-gb" {
		t.Errorf("phonemized with %+v, want the resolved en-gb", ph.got)
	}
	if _, err := e.Stream(context.Background(), Resolved{Text: "a"}, func(Chunk) error { return nil }); !errors.Is(err, errUnresolved) {
		t.Errorf("Stream of a request no check resolved: %v, want errUnresolved", err)
	}
}

// TestBritishStartsOnAWholeSentence: a British voice's first chunk is its first sentence
// whole, an American voice's its first phrase.
func TestBritishStartsOnAWholeSentence(t *testing.T) {
	ph := &sentencePhonemizer{}
	e := New(Config{}, ph, &instantSynth{}, fakeVoices{})
	defer e.Close()
	for _, r := range []Request{{Text: "a|b", Voice: "bf_emma"}, {Text: "a|b", Voice: "af_heart"}, {Text: "a|b", Voice: "af_heart", Lang: "en-gb"}} {
		if _, err := checkStream(context.Background(), e, r, func(Chunk) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if len(ph.got) != 3 {
		t.Fatalf("%d calls to Chunks", len(ph.got))
	}
	for i, want := range []bool{true, false, true} {
		if got := ph.got[i].FirstChunkWholeSentence; got != want {
			t.Errorf("request %d (%s): FirstChunkWholeSentence %v, want %v", i, ph.got[i].Lang, got, want)
		}
	}
}
