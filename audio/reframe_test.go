package audio

import (
	"math"
	"testing"
)

func TestReframeCutsAndPadsToTheAskedSilence(t *testing.T) {
	t.Parallel()
	speech := tone(500, -20)
	for _, c := range []struct {
		name       string
		pcm        []float32
		lead, tail int // asked, ms
		hadLead    int // ms of silence the source has before the speech
	}{
		{"long silence both sides is cut", cat(noise(300, -70, 1), speech, noise(600, -70, 2)), 10, 40, 300},
		{"short silence is padded", cat(noise(10, -70, 1), speech, noise(20, -70, 2)), 30, 100, 10},
		{"nothing asked", cat(noise(300, -70, 1), speech, noise(600, -70, 2)), 0, 0, 300},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			lead, tail := c.lead*rate/1000, c.tail*rate/1000
			out, from := Reframe(c.pcm, rate, lead, tail, 120)
			if want := lead + len(speech) + tail; len(out) != want {
				t.Fatalf("%.1f ms out, want %.1f", ms(len(out)), ms(want))
			}
			// The source's first sample of speech is the result's sample lead.
			if want := c.hadLead*rate/1000 - lead; from != want {
				t.Fatalf("starts at source sample %d, want %d", from, want)
			}
			span, ok := AudibleSpan(out, rate)
			if !ok || span.Start != lead || span.End != lead+len(speech) {
				t.Fatalf("speech at %.1f–%.1f ms, want %d–%.1f", ms(span.Start), ms(span.End), c.lead, ms(lead+len(speech)))
			}
			// The speech itself is untouched when the fade fits in the kept silence.
			if lead >= 120 && tail >= 120 {
				for i, s := range speech {
					if out[lead+i] != s {
						t.Fatalf("speech sample %d changed: %v -> %v", i, s, out[lead+i])
					}
				}
			}
			// Padding is digital silence placed outside what the source had.
			if pad := (c.lead - c.hadLead) * rate / 1000; pad > 0 {
				for i := range pad {
					if out[i] != 0 {
						t.Fatalf("padded sample %d is %v", i, out[i])
					}
				}
			}
		})
	}
}

// A cut through loud noise must not step: the first and last samples fade from zero, so no
// click is heard where a chunk's silence was trimmed.
func TestReframeFadesTheCutEdges(t *testing.T) {
	t.Parallel()
	pcm := cat(noise(200, -52, 7), tone(300, -20), noise(200, -52, 8))
	out, _ := Reframe(pcm, rate, 240, 240, 120)
	if math.Abs(float64(out[0])) > 1e-4 || math.Abs(float64(out[len(out)-1])) > 1e-4 {
		t.Fatalf("edges %v … %v, want faded to ~0", out[0], out[len(out)-1])
	}
	for i := 1; i < 120; i++ {
		if math.Abs(float64(out[i])) > math.Abs(float64(pcm[200*rate/1000-240+i]))+1e-7 {
			t.Fatalf("fade-in sample %d louder than its source", i)
		}
	}
}

func TestReframeOfSilenceIsTheAskedSilence(t *testing.T) {
	t.Parallel()
	out, _ := Reframe(noise(800, -70, 3), rate, 100, 200, 50)
	if len(out) != 300 {
		t.Fatalf("%d samples, want 300", len(out))
	}
	for _, s := range out {
		if s != 0 {
			t.Fatal("silent input must come out as zeros")
		}
	}
}
