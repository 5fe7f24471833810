package tts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// wordChunkPhonemizer speaks n words of three ids each, spaces between, a full stop at the
// end, as one chunk.
type wordChunkPhonemizer struct{ n int }

func (p wordChunkPhonemizer) Chunks(_ string, _ chunk.Options) ([]chunk.Chunk, error) {
	var c chunk.Chunk
	for w := range p.n {
		if w > 0 {
			c.IDs = append(c.IDs, phonemize.SpaceID)
		}
		start := len(c.IDs)
		c.IDs = append(c.IDs, int64(43+w%20), int64(44+w%20), int64(45+w%20))
		c.Words = append(c.Words, chunk.Word{Text: fmt.Sprintf("w%d", w), Start: start, End: len(c.IDs)})
	}
	c.IDs = append(c.IDs, 4)
	c.Words[len(c.Words)-1].End = len(c.IDs)
	c.Text = "words"
	c.Break = chunk.BreakEnd
	return []chunk.Chunk{c}, nil
}

// windowSynth is a split model whose every padded id lasts whole frames (pads 12, the others
// 3 + id%3) of a constant level (levelSynth's): its windows join into exactly its whole audio.
// gate, when set, holds every Decode after the first until it is closed.
type windowSynth struct {
	gate     chan struct{}
	mu       sync.Mutex
	decodes  [][2]int
	predicts int
}

func (s *windowSynth) Slots() int   { return 1 }
func (s *windowSynth) Splits() bool { return true }

func (s *windowSynth) frames(id int64) int {
	if id == 0 {
		return 12
	}
	return 3 + int(id)%3
}

func (s *windowSynth) Synthesize(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, error) {
	return nil, errors.New("a split model is run through Predict and Decode")
}

func (s *windowSynth) Predict(ctx context.Context, _ int, ids []int64, style []float32, _ float32) (*model.Features, error) {
	s.mu.Lock()
	s.predicts++
	s.mu.Unlock()
	f := &model.Features{Channels: 1, Style: style}
	for _, id := range slices.Concat([]int64{0}, ids, []int64{0}) {
		n := s.frames(id)
		f.Spans = append(f.Spans, n*model.FrameSamples)
		for range n {
			f.Aligned = append(f.Aligned, level(id))
		}
		f.Frames += n
	}
	f.F0, f.Energy = make([]float32, 2*f.Frames), make([]float32, 2*f.Frames)
	return f, nil
}

func (s *windowSynth) Decode(ctx context.Context, _ int, f *model.Features, w model.Window) ([]float32, error) {
	from, to := w.From, w.To
	s.mu.Lock()
	s.decodes = append(s.decodes, [2]int{from, to})
	held := s.gate != nil && len(s.decodes) > 1
	s.mu.Unlock()
	if held {
		select {
		case <-s.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var pcm []float32
	for k := from; k < to; k++ {
		pcm = append(pcm, slices.Repeat([]float32{f.Aligned[k]}, model.FrameSamples)...)
	}
	return pcm, nil
}

func TestWindowsJoinIntoTheWholeSentence(t *testing.T) {
	syn := &windowSynth{}
	e := New(Config{Windows: true}, wordChunkPhonemizer{n: 40}, syn, fakeVoices{})
	defer e.Close()
	if !e.windows {
		t.Fatal("the engine does not decode a split model in windows")
	}
	var pieces []Chunk
	if _, err := checkStream(context.Background(), e, Request{Text: "x"}, func(c Chunk) error {
		pieces = append(pieces, c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(pieces) < 2 {
		t.Fatalf("%d pieces, want a first window and later ones", len(pieces))
	}
	if syn.predicts != 1 {
		t.Errorf("%d predictor runs for one sentence", syn.predicts)
	}
	// The same sentence's audio, whole, reframed as the engine reframes a chunk alone, with
	// its words.
	f, _ := syn.Predict(context.Background(), 0, mustChunk(t).IDs, nil, 1)
	whole, _ := syn.Decode(context.Background(), 0, f, model.Window{To: f.Frames})
	want, from := reframe(whole, chunk.BreakEnd, false, false, false)
	wantWords := placeWords(mustChunk(t), boundsFromSpans(f.Spans, 0, len(mustChunk(t).IDs), 0), from, len(want), samples(SoundLead))

	var got []float32
	var gotWords []Word
	for i, p := range pieces {
		if p.Index != i || p.Final != (i == len(pieces)-1) {
			t.Errorf("piece %d: index %d final %v", i, p.Index, p.Final)
		}
		if len(p.Words) == 0 {
			t.Errorf("piece %d has no words", i)
		}
		for _, w := range p.Words {
			if w.Start < 0 || w.End > len(p.PCM) || w.End < w.Start {
				t.Errorf("piece %d: word %+v outside its %d samples", i, w, len(p.PCM))
			}
			gotWords = append(gotWords, w.shifted(-len(got), math.MaxInt))
		}
		got = append(got, p.PCM...)
	}
	// The last piece's tail is trimmed on its own 10 ms grid.
	if d := len(got) - len(want); d <= -samples(10*time.Millisecond) || d >= samples(10*time.Millisecond) {
		t.Fatalf("pieces make %d samples, the whole sentence %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) - samples(EndTail) {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("sample %d: %g, the whole sentence has %g", i, got[i], want[i])
		}
	}
	if !slices.EqualFunc(gotWords, wantWords, func(a, b Word) bool { return reflect.DeepEqual(a, b) }) {
		t.Errorf("words\n got %v\nwant %v", gotWords, wantWords)
	}
	// The first piece is a phrase: at least firstWindow from its first word, ending where a
	// word starts.
	first := pieces[0]
	if d := len(first.PCM) - first.Words[0].Start; d < samples(firstWindow) {
		t.Errorf("first piece has %.2f s from its first word, want at least %v", float64(d)/api.SampleRate, firstWindow)
	}
	if next := pieces[1].Words[0]; next.Start != 0 {
		t.Errorf("second piece starts %d samples before its first word", next.Start)
	}
}

func mustChunk(t *testing.T) chunk.Chunk {
	c, err := wordChunkPhonemizer{n: 40}.Chunks("", chunk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c[0]
}

// TestCancelWithdrawsTheNextWindow: a listener gone after the first window costs no further
// decoder window, and the stream names the first word it did not hear.
func TestCancelWithdrawsTheNextWindow(t *testing.T) {
	syn := &windowSynth{gate: make(chan struct{})}
	e := New(Config{Windows: true}, wordChunkPhonemizer{n: 40}, syn, fakeVoices{})
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var heard []string
	st, err := checkStream(ctx, e, Request{Text: "x"}, func(c Chunk) error {
		for _, w := range c.Words {
			heard = append(heard, w.Text)
		}
		cancel()
		return nil
	})
	close(syn.gate)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want cancelled", err)
	}
	if len(syn.decodes) > 2 {
		t.Errorf("%d decoder windows ran after the listener left after the first", len(syn.decodes))
	}
	if want := fmt.Sprintf("w%d", len(heard)); st.NextWord != want {
		t.Errorf("next word %q, want %q (heard %v)", st.NextWord, want, heard)
	}
}
