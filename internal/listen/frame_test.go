package listen

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kokoro-sm/kokoro/audio"
)

// hiss is low-level noise under the silence floor (about -60 dBFS RMS), like the model's own
// silence between phrases.
func hiss(rng *rand.Rand, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(rng.NormFloat64() * 0.001)
	}
	return out
}

func TestAudibleSpanFindsTheSpeechToTheSample(t *testing.T) {
	t.Parallel()
	const rate, win = 24000, 240
	tone := sine(440, rate, 4802)[2:] // audible from its first sample to its last
	for _, c := range []struct {
		name     string
		pcm      []float32
		want     audio.Span
		audible  bool
		wantNote string
	}{
		{"silence", make([]float32, 4800), audio.Span{}, false, "no window above the floor"},
		{"shorter than a window", tone[:win-1], audio.Span{}, false, "no whole window"},
		{"tone at 1000", slices.Concat(make([]float32, 1000), tone, make([]float32, 1000)),
			audio.Span{Start: 1000 - win + 1, End: 1000 + 4800 + win - 1}, true,
			"from the first window that reaches into the tone to the last"},
		{"tone at 1003, off any 10 ms grid", slices.Concat(make([]float32, 1003), tone, make([]float32, 7)),
			audio.Span{Start: 1003 - win + 1, End: 1003 + 4800 + 7}, true, "the clip ends inside the last window"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := AudibleSpan(c.pcm, rate)
			if ok != c.audible || got != c.want {
				t.Errorf("%s: AudibleSpan = %+v, %v; want %+v, %v (%s)", c.name, got, ok, c.want, c.audible, c.wantNote)
			}
		})
	}
}

// The judge hears the same speech identically whatever silence a system left around it: digital
// zeros or the model's hiss, on any grid.
func TestJudgeHearsTheSpeechNotTheFrame(t *testing.T) {
	t.Parallel()
	const rate = 24000
	rng := rand.New(rand.NewPCG(1, 2))
	// Speech as the model makes it: two bursts with a pause between them, in the model's hiss.
	speech := slices.Concat(hiss(rng, 300), sine(300, rate, 3000), hiss(rng, 2400), sine(500, rate, 2000), hiss(rng, 300))
	want := heard(speech, rate)
	if n := len(want) - rate; n < 3000+2400+2000 || n > len(speech) {
		t.Fatalf("%d samples of speech heard as %d, want them cut to the audible span plus half a second on each side", len(speech), len(want))
	}
	for _, c := range []struct {
		name        string
		lead, trail []float32
	}{
		{"no silence", nil, nil},
		{"zeros, 13 ms and 7 ms", make([]float32, 312), make([]float32, 168)},
		{"hiss, 0.31 s and 0.5 s", hiss(rng, 7440), hiss(rng, 12000)},
		{"zeros then hiss", slices.Concat(make([]float32, 1001), hiss(rng, 499)), hiss(rng, 3)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := heard(slices.Concat(c.lead, speech, c.trail), rate)
			if !slices.Equal(got, want) {
				t.Errorf("%s: the judge hears something else (%d samples, want %d)", c.name, len(got), len(want))
			}
		})
	}
	// The cuts are faded: the samples at both cuts are brought near zero.
	if first, last := abs32(want[rate/2]), abs32(want[len(want)-rate/2-1]); first > 1e-4 || last > 1e-4 {
		t.Errorf("samples at the cuts %v and %v, want faded", first, last)
	}
	if silent := heard(make([]float32, 4800), rate); len(silent) != rate || slices.ContainsFunc(silent, func(s float32) bool { return s != 0 }) {
		t.Errorf("a silent clip is heard as %d samples, not as one second of silence", len(silent))
	}
}

func abs32(x float32) float32 { return max(x, -x) }
