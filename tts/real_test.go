package tts_test

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

// checkStream is what a transport does with a request: the engine's check, then Stream of what it
// resolved.
func checkStream(ctx context.Context, e *tts.Engine, req tts.Request, emit func(tts.Chunk) error) (tts.Stats, error) {
	r, err := e.Check(req)
	if err != nil {
		return tts.Stats{}, err
	}
	return e.Stream(ctx, r, emit)
}

// realEngine loads the engine exactly as `kokoro serve` does, on the installed assets.
func realEngine(tb testing.TB, slots, threads int) *tts.Engine {
	tb.Helper()
	e, err := tts.Load(context.Background(), tts.LoadConfig{Assets: testenv.RealModel(tb), Provider: "cpu", Slots: slots, Threads: threads}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close() })
	return e
}

// The end-to-end check a listener would make: English sentences in, speech of a plausible
// length out, audible, never clipped or NaN, and chunk joins without clicks.
func TestRealModelSpeaksEnglishSentences(t *testing.T) {
	t.Parallel()
	e := realEngine(t, 1, 2)
	text := "The quick brown fox jumps over the lazy dog. " +
		"She sells seashells by the seashore, and the shells she sells are surely seashells! " +
		"Can you call me back at three thirty tomorrow afternoon?"
	var chunks []tts.Chunk
	st, err := checkStream(context.Background(), e, tts.Request{Text: text, Voice: "af_heart"}, func(c tts.Chunk) error {
		chunks = append(chunks, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) < 2 || len(chunks[0].PCM) >= len(chunks[1].PCM) {
		t.Fatalf("%d chunks; the first must be a small clause so audio starts early", len(chunks))
	}
	// Conversational English runs at roughly 10–20 characters per second.
	chars := float64(utf8.RuneCountInString(text))
	sec := st.AudioDuration.Seconds()
	if rate := chars / sec; rate < 8 || rate > 25 {
		t.Errorf("%.0f characters in %.2f s of audio = %.1f chars/s, not speech-paced", chars, sec, rate)
	}
	var all []float32
	for i, c := range chunks {
		rms, peak := levels(c.PCM)
		t.Logf("chunk %d: %.2f s, rms %.3f, peak %.3f, model %v: %q → %s", i, c.Duration().Seconds(), rms, peak, c.ModelTime, c.Text, c.Phonemes)
		if rms < 0.02 {
			t.Errorf("chunk %d is near silence (rms %.4f)", i, rms)
		}
		if peak >= 0.999 {
			t.Errorf("chunk %d clips (peak %.3f)", i, peak)
		}
		for _, s := range c.PCM {
			if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
				t.Fatalf("chunk %d has NaN/Inf", i)
			}
		}
		if i > 0 {
			// A click is a step between the last sample of one chunk and the first of the next
			// much larger than the signal's own sample-to-sample movement.
			prev := chunks[i-1].PCM
			if step := math.Abs(float64(c.PCM[0] - prev[len(prev)-1])); step > 0.05 {
				t.Errorf("join %d→%d jumps by %.3f", i-1, i, step)
			}
			if edge := edgeRMS(prev[len(prev)-1200:]) + edgeRMS(c.PCM[:1200]); edge > 0.05 {
				t.Errorf("join %d→%d is not at a pause (edge rms %.3f)", i-1, i, edge)
			}
		}
		all = append(all, c.PCM...)
	}
	if out := os.Getenv("KOKORO_TEST_WAV"); out != "" {
		if err := os.WriteFile(out, audio.EncodeWAV(audio.Mono24k, all), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%.2f s of audio, model %.2f s, RTF %.3f, first chunk after %v", sec, st.ModelTime.Seconds(), st.ModelTime.Seconds()/sec, st.TTFA)
}

func TestRealModelBritishVoiceAndBlend(t *testing.T) {
	t.Parallel()
	e := realEngine(t, 1, 2)
	for _, voice := range []string{"bf_emma", "af_bella(2)+af_sky(1)"} {
		var pcm []float32
		st, err := checkStream(context.Background(), e, tts.Request{Text: "Good morning, how are you today?", Voice: voice}, func(c tts.Chunk) error {
			pcm = append(pcm, c.PCM...)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", voice, err)
		}
		if rms, _ := levels(pcm); rms < 0.02 || st.AudioDuration.Seconds() < 1 || st.AudioDuration.Seconds() > 4 {
			t.Errorf("%s: %.2f s, rms %.3f", voice, st.AudioDuration.Seconds(), rms)
		}
	}
	if _, err := e.Check(tts.Request{Text: "hi", Voice: "xx_nobody"}); err == nil || !strings.Contains(err.Error(), "af_heart") {
		t.Errorf("unknown voice error should list the valid voices: %v", err)
	}
}

func levels(pcm []float32) (rms, peak float64) {
	var sum float64
	for _, s := range pcm {
		sum += float64(s) * float64(s)
		peak = math.Max(peak, math.Abs(float64(s)))
	}
	return math.Sqrt(sum / float64(len(pcm))), peak
}

func edgeRMS(pcm []float32) float64 { r, _ := levels(pcm); return r }
