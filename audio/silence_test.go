package audio

import (
	"math"
	"math/rand/v2"
	"testing"
)

const rate = 24000

// tone is ms milliseconds of a 220 Hz sine at dB dBFS peak.
func tone(ms int, dB float64) []float32 {
	a := math.Pow(10, dB/20)
	out := make([]float32, ms*rate/1000)
	for i := range out {
		out[i] = float32(a * math.Sin(2*math.Pi*220*float64(i)/rate))
	}
	return out
}

// noise is ms milliseconds of uniform noise at dB dBFS peak: the model's "silence" is such
// low-level noise rather than zeros.
func noise(ms int, dB float64, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	a := math.Pow(10, dB/20)
	out := make([]float32, ms*rate/1000)
	for i := range out {
		out[i] = float32(a * (2*r.Float64() - 1))
	}
	return out
}

func cat(parts ...[]float32) []float32 {
	var out []float32
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func ms(samples int) float64 { return float64(samples) * 1000 / rate }

func TestAudibleSpanIgnoresLowLevelNoise(t *testing.T) {
	t.Parallel()
	pcm := cat(noise(250, -70, 1), tone(400, -20), noise(120, -65, 2), tone(300, -25), noise(600, -70, 3))
	span, ok := AudibleSpan(pcm, rate)
	if !ok {
		t.Fatal("speech-level tone not found")
	}
	if span.Start != 250*rate/1000 || span.End != (250+400+120+300)*rate/1000 {
		t.Fatalf("span %.0f–%.0f ms, want 250–1070 ms", ms(span.Start), ms(span.End))
	}
	if _, ok := AudibleSpan(noise(500, -60, 4), rate); ok {
		t.Fatal("noise at −60 dBFS counted as audible")
	}
	if _, ok := AudibleSpan(nil, rate); ok {
		t.Fatal("empty audio counted as audible")
	}
}

func TestPausesAreInsideTheSpeechOnly(t *testing.T) {
	t.Parallel()
	pcm := cat(noise(300, -70, 1), tone(200, -20), noise(30, -70, 2), tone(200, -20),
		noise(350, -70, 3), tone(200, -20), noise(500, -70, 4))
	got := Pauses(pcm, rate, 5)
	if len(got) != 1 {
		t.Fatalf("pauses %v; want only the 350 ms one (the 30 ms gap is under 5 frames, lead and tail are not pauses)", got)
	}
	if d := ms(got[0].Len()); d != 350 {
		t.Fatalf("pause of %.0f ms, want 350", d)
	}
	if got := Pauses(pcm, rate, 1); len(got) != 2 {
		t.Fatalf("with a 1-frame minimum: %v, want the 30 ms gap too", got)
	}
	if got := Pauses(noise(500, -70, 5), rate, 1); len(got) != 0 {
		t.Fatalf("silence has no pauses, got %v", got)
	}
}

func TestOnsetInPiecesMatchesTheWholeSignal(t *testing.T) {
	t.Parallel()
	pcm := cat(noise(337, -75, 1), tone(100, -30), noise(100, -75, 2))
	want, _ := AudibleSpan(pcm, rate)
	for _, piece := range []int{1, 7, 240, 241, 1000, len(pcm)} {
		o := NewOnset(rate)
		var at int
		found := false
		for i := 0; i < len(pcm) && !found; i += piece {
			at, found = o.Write(pcm[i:min(i+piece, len(pcm))])
		}
		if !found || at != want.Start {
			t.Errorf("pieces of %d: onset %d (found %v), want %d", piece, at, found, want.Start)
		}
		if at2, ok := o.Found(); !ok || at2 != at {
			t.Errorf("Found() = %d, %v after the onset", at2, ok)
		}
	}
	o := NewOnset(rate)
	if _, found := o.Write(noise(1000, -60, 3)); found {
		t.Fatal("onset found in silence")
	}
}
