package tts

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/chunk"
)

// breaksPhonemizer returns one chunk per break, each ending on that break.
type breaksPhonemizer []chunk.Break

func (b breaksPhonemizer) Chunks(string, chunk.Options) ([]chunk.Chunk, error) {
	out := make([]chunk.Chunk, len(b))
	for i, br := range b {
		out[i] = chunk.Chunk{Text: br.String(), Phonemes: "x", IDs: []int64{int64('a' + i), 1}, Break: br}
	}
	return out, nil
}

// utteranceSynth speaks like the model: every chunk is a whole utterance, 300 ms of low noise,
// 400 ms of sound, 500 ms of low noise.
type utteranceSynth struct{}

func (utteranceSynth) Slots() int { return 1 }
func (utteranceSynth) Synthesize(_ context.Context, _ int, ids []int64, _ []float32, _ float32) ([]float32, error) {
	r := rand.New(rand.NewPCG(uint64(ids[0]), 2))
	pcm := make([]float32, 1200*api.SampleRate/1000)
	for i := range pcm {
		pcm[i] = float32(0.0005 * (2*r.Float64() - 1)) // about −66 dBFS
	}
	for i := 300 * api.SampleRate / 1000; i < 700*api.SampleRate/1000; i++ {
		pcm[i] = float32(0.3 * math.Sin(2*math.Pi*200*float64(i)/api.SampleRate))
	}
	return pcm, nil
}

// Joined chunks must sound like one utterance: the silence between two chunks' speech is the
// pause the boundary calls for, not the model's lead and tail added up; the first sound starts
// JoinLead after the first byte, and the request ends EndTail after its last sound.
func TestJoinsPutBackThePauseTheTextAsksFor(t *testing.T) {
	t.Parallel()
	breaks := breaksPhonemizer{chunk.BreakComma, chunk.BreakWord, chunk.BreakClause,
		chunk.BreakSentence, chunk.BreakParagraph, chunk.BreakSentence}
	e := New(Config{}, breaks, utteranceSynth{}, fakeVoices{})
	defer e.Close()
	var pcm []float32
	var firstChunk []float32
	_, err := checkStream(context.Background(), e, Request{Text: "x"}, func(c Chunk) error {
		if c.Index == 0 {
			firstChunk = c.PCM
		}
		pcm = append(pcm, c.PCM...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Second / api.SampleRate }
	span, ok := audio.AudibleSpan(pcm, api.SampleRate)
	if !ok {
		t.Fatal("no sound")
	}
	if lead := ms(span.Start); lead != JoinLead {
		t.Errorf("first sound %v after the first byte, want %v", lead, JoinLead)
	}
	if on, _ := audio.NewOnset(api.SampleRate).Write(firstChunk); ms(on) != JoinLead {
		t.Errorf("first chunk's sound starts at %v, want %v", ms(on), JoinLead)
	}
	if tail := ms(len(pcm) - span.End); tail != EndTail {
		t.Errorf("silence after the last sound %v, want %v", tail, EndTail)
	}
	pauses := audio.Pauses(pcm, api.SampleRate, 1)
	if len(pauses) != len(breaks)-1 {
		t.Fatalf("%d pauses, want one per join (%d): %v", len(pauses), len(breaks)-1, pauses)
	}
	for i, p := range pauses {
		if got, want := ms(p.Len()), JoinPause(breaks[i]); got != want {
			t.Errorf("join %d (%v): pause %v, want %v", i, breaks[i], got, want)
		}
	}
}

func TestJoinPausesGrowWithTheBoundary(t *testing.T) {
	t.Parallel()
	prev := time.Duration(0)
	for _, b := range []chunk.Break{chunk.BreakWord, chunk.BreakComma, chunk.BreakClause,
		chunk.BreakSentence, chunk.BreakParagraph} {
		p := JoinPause(b)
		if p < prev || p < JoinLead+joinFade || p >= 600*time.Millisecond && b < chunk.BreakParagraph {
			t.Errorf("%v: pause %v after %v", b, p, prev)
		}
		prev = p
	}
}

// Text streamed sentence by sentence is spoken as one request per sentence; the second starts
// after what remains of a sentence's pause, so the two sound like one utterance.
func TestResumedRequestStartsAfterASentencePause(t *testing.T) {
	t.Parallel()
	e := New(Config{}, breaksPhonemizer{chunk.BreakSentence}, utteranceSynth{}, fakeVoices{})
	defer e.Close()
	var pcm []float32
	for _, resumes := range []bool{false, true} {
		_, err := checkStream(context.Background(), e, Request{Text: "x", Resumes: resumes}, func(c Chunk) error {
			pcm = append(pcm, c.PCM...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pauses := audio.Pauses(pcm, api.SampleRate, 1)
	if len(pauses) != 1 || time.Duration(pauses[0].Len())*time.Second/api.SampleRate != JoinPause(chunk.BreakSentence) {
		t.Fatalf("pauses %v, want one of %v", pauses, JoinPause(chunk.BreakSentence))
	}
}
