package tts

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// contextPhonemizer cuts "a b | c d" between words, giving each side the word across the cut
// when the options ask for context. Ids: a=1 b=2 c=3 d=4, space=SpaceID.
type contextPhonemizer struct{}

func (contextPhonemizer) Chunks(_ string, o chunk.Options) ([]chunk.Chunk, error) {
	sp := phonemize.SpaceID
	c := []chunk.Chunk{
		{Text: "a b", IDs: []int64{1, sp, 2}, Break: chunk.BreakWord},
		{Text: "c d", IDs: []int64{3, sp, 4}, Break: chunk.BreakEnd},
	}
	if o.Context {
		c[0].After = []int64{sp, 3}
		c[1].Before = []int64{2, sp}
	}
	return c, nil
}

// blockSynth makes every padded id a block of 600 samples at a level of its own (an id's level
// is id/100; pads and spaces are quiet), and says so when asked.
type blockSynth struct {
	mu    sync.Mutex
	heard [][]int64
	align bool
}

func (s *blockSynth) Slots() int   { return 1 }
func (s *blockSynth) Aligns() bool { return s.align }
func (s *blockSynth) Synthesize(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, error) {
	pcm, _, err := s.SynthesizeAligned(ctx, slot, ids, style, speed)
	return pcm, err
}
func (s *blockSynth) SynthesizeAligned(_ context.Context, _ int, ids []int64, _ []float32, _ float32) ([]float32, []int, error) {
	s.mu.Lock()
	s.heard = append(s.heard, slices.Clone(ids))
	s.mu.Unlock()
	padded := slices.Concat([]int64{0}, ids, []int64{0})
	var pcm []float32
	var spans []int
	for _, id := range padded {
		level := float32(id) / 100
		if id == phonemize.SpaceID {
			level = 0.0001
		}
		for i := range 600 {
			pcm = append(pcm, level*float32(math.Sin(float64(i)/3)))
		}
		spans = append(spans, 600)
	}
	return pcm, spans, nil
}

// levels lists the distinct loud blocks in pcm, in order.
func levels(pcm []float32) []int {
	var out []int
	for at := 0; at+600 <= len(pcm); at += 50 {
		var peak float64
		for _, v := range pcm[at : at+50] {
			peak = math.Max(peak, math.Abs(float64(v)))
		}
		l := int(math.Round(peak * 100))
		if l > 0 && (len(out) == 0 || out[len(out)-1] != l) {
			out = append(out, l)
		}
	}
	return out
}

// With a synthesizer that aligns, a chunk cut between two words is run with the word across
// the cut, and the listener hears each word once, in order, with no pause added at the cut.
func TestContextIsHeardButNotPlayed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		align   bool
		setting model.Toggle
		heard   [][]int64
	}{
		{"aligns", true, model.ToggleAuto, [][]int64{{1, phonemize.SpaceID, 2, phonemize.SpaceID, 3}, {2, phonemize.SpaceID, 3, phonemize.SpaceID, 4}}},
		{"off", true, model.ToggleOff, [][]int64{{1, phonemize.SpaceID, 2}, {3, phonemize.SpaceID, 4}}},
		{"cannot align", false, model.ToggleOn, [][]int64{{1, phonemize.SpaceID, 2}, {3, phonemize.SpaceID, 4}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			syn := &blockSynth{align: c.align}
			e := New(Config{Policy: chunk.Policy{ChunkContext: c.setting}}, contextPhonemizer{}, syn, fakeVoices{})
			defer e.Close()
			var pcm []float32
			var chunks []Chunk
			if _, err := checkStream(context.Background(), e, Request{Text: "a b c d"}, func(ch Chunk) error {
				chunks = append(chunks, ch)
				pcm = append(pcm, ch.PCM...)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(syn.heard, c.heard, slices.Equal) {
				t.Fatalf("the model heard %v, want %v", syn.heard, c.heard)
			}
			if got := levels(pcm); !slices.Equal(got, []int{1, 2, 3, 4}) {
				t.Fatalf("the listener heard blocks %v, want 1 2 3 4", got)
			}
			if c.name != "aligns" {
				return
			}
			// The cut is inside the space: the first chunk ends and the second starts within
			// the quiet block, and nothing is added around it.
			first, second := chunks[0].PCM, chunks[1].PCM
			if tail := quietRun(first, true); tail > 600 {
				t.Errorf("first chunk ends with %d quiet samples, want at most the space's 600", tail)
			}
			if head := quietRun(second, false); head > 600 {
				t.Errorf("second chunk starts with %d quiet samples, want at most the space's 600", head)
			}
			if n := len(first) + len(second); n > (3+3+1)*600+api.SampleRate/5 {
				t.Errorf("%d samples for six ids", n)
			}
		})
	}
}

// quietRun counts the samples under 0.005 at the end (or start) of pcm.
func quietRun(pcm []float32, end bool) int {
	n := 0
	for i := range pcm {
		k := i
		if end {
			k = len(pcm) - 1 - i
		}
		if math.Abs(float64(pcm[k])) >= 0.005 {
			break
		}
		n++
	}
	return n
}

// optsPhonemizer records the options of each call and cuts like contextPhonemizer.
type optsPhonemizer struct {
	mu   sync.Mutex
	opts []chunk.Options
}

func (p *optsPhonemizer) Chunks(text string, o chunk.Options) ([]chunk.Chunk, error) {
	p.mu.Lock()
	p.opts = append(p.opts, o)
	p.mu.Unlock()
	return contextPhonemizer{}.Chunks(text, o)
}

// gatedBlockSynth is blockSynth whose runs wait for gate.
type gatedBlockSynth struct {
	blockSynth
	gate chan struct{}
}

func (s *gatedBlockSynth) SynthesizeAligned(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, []int, error) {
	select {
	case <-s.gate:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	return s.blockSynth.SynthesizeAligned(ctx, slot, ids, style, speed)
}

func (s *gatedBlockSynth) Synthesize(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, error) {
	pcm, _, err := s.SynthesizeAligned(ctx, slot, ids, style, speed)
	return pcm, err
}

// FIRST_CHUNK_AT=auto starts a lone request on its first words when cuts are heard with
// context, and a request that arrives beside another on its first phrase, without context.
func TestFirstChunkAtAutoFollowsTheLoad(t *testing.T) {
	t.Parallel()
	for _, align := range []bool{true, false} {
		syn := &gatedBlockSynth{blockSynth: blockSynth{align: align}, gate: make(chan struct{})}
		ph := &optsPhonemizer{}
		e := New(Config{Policy: chunk.Policy{FirstChunkAt: chunk.FirstAtAuto}}, ph, syn, fakeVoices{})
		speak := func() <-chan error {
			done := make(chan error, 1)
			go func() {
				_, err := checkStream(context.Background(), e, Request{Text: "a b c d"}, func(Chunk) error { return nil })
				done <- err
			}()
			return done
		}
		first := speak()
		// Wait until the first request holds a slot, then start a second beside it.
		for e.sched.idle() {
			runtime.Gosched()
		}
		second := speak()
		for {
			ph.mu.Lock()
			n := len(ph.opts)
			ph.mu.Unlock()
			if n == 2 {
				break
			}
			runtime.Gosched()
		}
		close(syn.gate)
		for _, d := range []<-chan error{first, second} {
			if err := <-d; err != nil {
				t.Fatal(err)
			}
		}
		e.Close()
		want := []chunk.FirstAt{chunk.FirstAtWord, chunk.FirstAtPunctuation}
		if !align {
			want[0] = chunk.FirstAtPunctuation
		}
		// Context too is for the lone request.
		wantContext := []bool{align, false}
		for i, o := range ph.opts {
			if o.FirstChunkAt != want[i] || o.Context != wantContext[i] {
				t.Errorf("aligns %v, request %d: first chunk at %v with context %v, want %v and %v", align, i, o.FirstChunkAt, o.Context, want[i], wantContext[i])
			}
		}
	}
}
