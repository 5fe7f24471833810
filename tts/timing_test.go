package tts

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// wordsPhonemizer speaks "one, two three four." in two chunks cut between "two" and "three",
// with the words grouped as the real phonemizer groups them. Each id is its own sound, so the
// audio says which id is playing (levelSynth).
type wordsPhonemizer struct{}

func (wordsPhonemizer) Chunks(_ string, o chunk.Options) ([]chunk.Chunk, error) {
	sp, comma, stop := phonemize.SpaceID, int64(3), int64(4)
	c := []chunk.Chunk{
		{Text: "one, two", IDs: []int64{30, 31, comma, sp, 40, 41, 42}, Break: chunk.BreakWord,
			Words: []chunk.Word{{Text: "one,", Start: 0, End: 4}, {Text: "two", Start: 4, End: 7}}},
		{Text: "three four.", IDs: []int64{50, sp, 60, 61, stop}, Break: chunk.BreakEnd,
			Words: []chunk.Word{{Text: "three", Start: 0, End: 2}, {Text: "four.", Start: 2, End: 5}}},
	}
	if o.Context {
		c[0].After = []int64{sp, 50}
		c[1].Before = []int64{42, sp}
	}
	return c, nil
}

// levelSynth makes each padded id a block of constant level id/200 (silence for pads,
// punctuation and spaces), of a length of its own over the speed: the pads 0.3 s, like the
// model's lead and tail silence, the other ids 1000+10·id samples. With align it says where
// each block lies.
type levelSynth struct {
	align bool
	gate  chan struct{} // when set, every run after the first waits for it
	runs  int
}

func (s *levelSynth) Slots() int   { return 1 }
func (s *levelSynth) Aligns() bool { return s.align }

func (s *levelSynth) Synthesize(ctx context.Context, slot int, ids []int64, style []float32, speed float32) ([]float32, error) {
	pcm, _, err := s.run(ctx, ids, speed)
	return pcm, err
}

func (s *levelSynth) SynthesizeAligned(ctx context.Context, _ int, ids []int64, _ []float32, speed float32) ([]float32, []int, error) {
	return s.run(ctx, ids, speed)
}

func (s *levelSynth) run(ctx context.Context, ids []int64, speed float32) ([]float32, []int, error) {
	if s.runs++; s.gate != nil && s.runs > 1 {
		select {
		case <-s.gate:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
	var pcm []float32
	var spans []int
	for _, id := range slices.Concat([]int64{0}, ids, []int64{0}) {
		n := 1000 + 10*int(id)
		if id == 0 {
			n = api.SampleRate * 3 / 10
		}
		n = int(float32(n) / speed)
		pcm = append(pcm, slices.Repeat([]float32{level(id)}, n)...)
		spans = append(spans, n)
	}
	return pcm, spans, nil
}

func level(id int64) float32 {
	if id == 0 || phonemize.Silent(id) {
		return 0
	}
	return float32(id) / 200
}

// speak runs one request and returns its chunks.
func speak(t *testing.T, e *Engine, req Request) []Chunk {
	t.Helper()
	var chunks []Chunk
	if _, err := checkStream(context.Background(), e, req, func(c Chunk) error {
		chunks = append(chunks, c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return chunks
}

// A word's times are sample-exact in the audio sent, whatever was cut around it, and
// SoundLead earlier than the model's frames: it starts where its first sound does, or, after a
// space only, where the word before ends, and ends where its last sound does; the
// punctuation's pause after it is not included; the model's lead and tail silence trimmed,
// context cut away, at any speed.
func TestWordTimesAreSampleExact(t *testing.T) {
	t.Parallel()
	// The sounds each word is made of, and whether only a space parts it from the word before
	// in its chunk ("two" follows a comma, "three" starts the second chunk).
	sounds := map[string][]int64{"one,": {30, 31}, "two": {40, 41, 42}, "three": {50}, "four.": {60, 61}}
	joined := map[string]bool{"four.": true}
	lead := samples(SoundLead)
	for _, c := range []struct {
		name    string
		context model.Toggle
		speed   float64
	}{
		{"context", model.ToggleOn, 1},
		{"plain cut", model.ToggleOff, 1},
		{"slow", model.ToggleOn, 0.5},
		{"fast", model.ToggleOff, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := New(Config{Policy: chunk.Policy{ChunkContext: c.context}}, wordsPhonemizer{}, &levelSynth{align: true}, fakeVoices{})
			defer e.Close()
			speed := c.speed
			var got []string
			for _, ch := range speak(t, e, Request{Text: "one, two three four.", Speed: &speed}) {
				pcm, prevEnd := ch.PCM, 0
				for _, w := range ch.Words {
					got = append(got, w.Text)
					s := sounds[w.Text]
					first, last := level(s[0]), level(s[len(s)-1])
					if w.Start < prevEnd || w.End+lead >= len(pcm) || w.End <= w.Start {
						t.Fatalf("%q at [%d,%d) after %d, of %d samples", w.Text, w.Start, w.End, prevEnd, len(pcm))
					}
					// Its first sound's block begins at: searched from the end of the word
					// before, whose sound ends lead after its End.
					at := prevEnd + slices.Index(pcm[prevEnd:], first)
					if at <= prevEnd || pcm[at-1] == first {
						t.Fatalf("%q: no block of level %v after %d", w.Text, first, prevEnd)
					}
					want := max(at-lead, prevEnd)
					if joined[w.Text] {
						want = prevEnd
					}
					if w.Start != want {
						t.Errorf("%q starts at %d, want %d (its first sound at %d, the word before ends at %d)", w.Text, w.Start, want, at, prevEnd)
					}
					prevEnd = w.End
					// Its last sound's block ends lead after End. (A context cut fades the last
					// samples before it, so only silence tells.)
					if e := w.End + lead; pcm[e-1] == 0 || pcm[e] == last {
						t.Errorf("%q ends at %d: sample %v before %v at %d, want the last of level %v", w.Text, w.End, pcm[e-1], pcm[e], e, last)
					}
					// Speed is in the model's durations: the sounds last their samples at it.
					n := 0
					for _, id := range s {
						n += int(float32(1000+10*int(id)) / float32(speed))
					}
					if d := w.End + lead - at; d != n {
						t.Errorf("%q: its sounds last %d samples, want %d", w.Text, d, n)
					}
				}
			}
			if want := []string{"one,", "two", "three", "four."}; !slices.Equal(got, want) {
				t.Errorf("words %q, want %q", got, want)
			}
		})
	}
}

// A synthesizer that cannot say where its ids lie still gets every word, in order, inside the
// chunk's speech.
func TestWordTimesWithoutAlignment(t *testing.T) {
	t.Parallel()
	e := New(Config{}, wordsPhonemizer{}, &levelSynth{}, fakeVoices{})
	defer e.Close()
	var got []string
	for _, ch := range speak(t, e, Request{Text: "one, two three four."}) {
		at := 0
		for _, w := range ch.Words {
			got = append(got, w.Text)
			if w.Start < at || w.End <= w.Start || w.End > len(ch.PCM) {
				t.Errorf("%q at [%d,%d) after %d, of %d samples", w.Text, w.Start, w.End, at, len(ch.PCM))
			}
			at = w.End
		}
	}
	if want := []string{"one,", "two", "three", "four."}; !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
}

// wordlessPhonemizer is wordsPhonemizer without the words.
type wordlessPhonemizer struct{}

func (wordlessPhonemizer) Chunks(text string, o chunk.Options) ([]chunk.Chunk, error) {
	c, err := wordsPhonemizer{}.Chunks(text, o)
	for i := range c {
		c[i].Words = nil
	}
	return c, err
}

// A phonemizer that does not group words gets its chunks' text read as words.
func TestWordTimesOfChunksWithoutWords(t *testing.T) {
	t.Parallel()
	e := New(Config{}, wordlessPhonemizer{}, &levelSynth{align: true}, fakeVoices{})
	defer e.Close()
	var got []string
	for _, ch := range speak(t, e, Request{Text: "one, two three four."}) {
		for _, w := range ch.Words {
			got = append(got, w.Text)
		}
	}
	if want := []string{"one,", "two", "three", "four."}; !slices.Equal(got, want) {
		t.Errorf("words %q, want %q", got, want)
	}
}

// A stream stopped before its end names the first word it did not speak.
func TestStatsNameTheFirstWordNotSpoken(t *testing.T) {
	t.Parallel()
	syn := &levelSynth{align: true, gate: make(chan struct{})}
	e := New(Config{}, wordsPhonemizer{}, syn, fakeVoices{})
	defer e.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := checkStream(ctx, e, Request{Text: "one, two three four."}, func(c Chunk) error {
		cancel() // the second chunk waits for the gate, which stays shut
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want cancelled", err)
	}
	if st.NextWord != "three" {
		t.Errorf("next word %q, want three", st.NextWord)
	}
	close(syn.gate)
	st, err = checkStream(context.Background(), e, Request{Text: "one, two three four."}, func(c Chunk) error {
		return errors.New("client gone")
	})
	if err == nil || st.NextWord != "one," {
		t.Errorf("emit failed (%v): next word %q, want one,", err, st.NextWord)
	}
	st, err = checkStream(context.Background(), e, Request{Text: "one, two three four."}, func(Chunk) error { return nil })
	if err != nil || st.NextWord != "" {
		t.Errorf("a whole stream (%v) names %q as not spoken", err, st.NextWord)
	}
}
