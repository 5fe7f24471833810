package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

// statsEngine remembers the stats of the last finished stream, so that a measurement can
// subtract the first chunk's model time from the TTFAB its client saw.
type statsEngine struct {
	Engine
	mu   sync.Mutex
	last tts.Stats
	// hold, when set, keeps every chunk after the first from its client until it is closed.
	hold chan struct{}
}

func (e *statsEngine) Stream(ctx context.Context, req tts.Resolved, emit func(tts.Chunk) error) (tts.Stats, error) {
	e.mu.Lock()
	hold := e.hold
	e.mu.Unlock()
	if hold != nil {
		next := emit
		emit = func(c tts.Chunk) error {
			if c.Index > 0 {
				select {
				case <-hold:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return next(c)
		}
	}
	st, err := e.Engine.Stream(ctx, req, emit)
	e.mu.Lock()
	e.last = st
	e.mu.Unlock()
	return st, err
}

func (e *statsEngine) lastStats() tts.Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

// realHarness serves the real model (one slot, two threads: this is a shared CPU box) and
// returns the engine wrapper that records stats.
func realHarness(tb testing.TB) (*harness, *statsEngine) {
	tb.Helper()
	a := testenv.RealModel(tb)
	rec := &statsEngine{}
	h := newHarness(tb, func(c *Config, _ *fakeSynth) {
		c.Load = func(ctx context.Context, obs tts.Observer, stage func(string)) (Engine, func() error, error) {
			eng, err := tts.Load(ctx, tts.LoadConfig{Assets: a, Slots: 1, Threads: 2, Observer: obs}, stage)
			if err != nil {
				return nil, nil, err
			}
			rec.Engine = eng
			return rec, eng.Close, nil
		}
	})
	h.waitReadyFor(3 * time.Minute)
	return h, rec
}

// frameRMS is the RMS of consecutive 20 ms frames.
func frameRMS(pcm []float32) []float64 {
	const frame = 480
	var out []float64
	for i := 0; i+frame <= len(pcm); i += frame {
		var sum float64
		for _, s := range pcm[i : i+frame] {
			sum += float64(s) * float64(s)
		}
		out = append(out, math.Sqrt(sum/frame))
	}
	return out
}

func TestRealModelInvocationReturnsSpeech(t *testing.T) {
	h, rec := realHarness(t)
	text := "The quick brown fox jumps over the lazy dog. It was a bright cold day in April. The clocks were striking thirteen."
	words := len(strings.Fields(text))
	hold := make(chan struct{})
	rec.mu.Lock()
	rec.hold = hold
	rec.mu.Unlock()
	resp := post(t, client(t), h.url+api.RouteInvocations, fmt.Sprintf(`{"text":%q,"voice":"af_heart"}`, text))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, readAll(t, resp))
	}
	// The stream is incremental: the first chunk's audio reaches the client while the engine
	// holds the rest back.
	body := streamedBeforeTheEnd(t, resp, audio.WAVHeaderSize, func() { close(hold) })
	st := rec.lastStats()
	t.Logf("first chunk model %v, %d chunks, %v of audio", st.FirstChunkTime, st.Chunks, st.AudioDuration)
	if _, err := audio.ParseWAVHeader(body); err != nil {
		t.Fatal(err)
	}
	pcm := audio.DecodePCM16(body[audio.WAVHeaderSize:])
	dur := float64(len(pcm)) / api.SampleRate
	// Read English runs at about 2–4 words a second.
	if lo, hi := float64(words)/5, float64(words)/1.5; dur < lo || dur > hi {
		t.Errorf("%.2f s of audio for %d words, want %.1f–%.1f s", dur, words, lo, hi)
	}
	speechLike(t, "invocation", pcm)
	exp := scrape(t, h.url)
	if got := metricValue(t, exp, `kokoro_requests_total{outcome="ok",route="invocations"}`); got != 1 {
		t.Errorf("/metrics ok requests = %v, want 1", got)
	}
	if got := metricValue(t, exp, `kokoro_audio_seconds_total{route="invocations"}`); math.Abs(got-dur) > 0.01 {
		t.Errorf("/metrics audio seconds = %v, want %.3f", got, dur)
	}
	if got := metricValue(t, exp, `kokoro_chunk_model_seconds_count`); got < float64(st.Chunks) {
		t.Errorf("/metrics chunk count = %v, want at least %d", got, st.Chunks)
	}
}

// speechLike fails the test unless pcm is mostly sound with syllable-rate swings in loudness:
// neither silence, nor a steady tone, nor steady noise.
func speechLike(t *testing.T, what string, pcm []float32) {
	t.Helper()
	rms := frameRMS(pcm)
	if len(rms) == 0 {
		t.Errorf("%s: no audio", what)
		return
	}
	var voiced int
	var mean, sq float64
	for _, r := range rms {
		if r > 0.01 {
			voiced++
		}
		mean += r
		sq += r * r
	}
	mean /= float64(len(rms))
	cv := math.Sqrt(sq/float64(len(rms))-mean*mean) / mean
	if frac := float64(voiced) / float64(len(rms)); frac < 0.4 || cv < 0.3 {
		t.Errorf("%s does not look like speech: %.0f%% of frames audible, loudness variation %.2f", what, 100*frac, cv)
	}
}

// The official OpenAI SDK against the real model: what it asks for by default (mp3) and Ogg
// Opus decode, here, to speech of a plausible length.
func TestRealModelOpenAIClient(t *testing.T) {
	h, _ := realHarness(t)
	_, out := runPython(t, h, "openai_sdk.py", "real", nil)
	for file, format := range map[string]string{"real.mp3": api.FormatMP3, "real.opus": api.FormatOpus, "real.flac": api.FormatFLAC} {
		pcm := codectest.Decode(t, format, readOut(t, out, file))
		// Eight words: about 2–4 words a second.
		if dur := float64(len(pcm)) / api.SampleRate; dur < 8.0/5 || dur > 8/1.5 {
			t.Errorf("%s: %.2f s for eight words", file, dur)
		}
		speechLike(t, file, pcm)
	}
}

// BenchmarkTTFAB measures, on the real model over loopback HTTP, the time to the first audio
// byte of a streamed request and the server's overhead: TTFAB minus the first chunk's model
// time (phonemization, scheduling, encoding and the HTTP path).
func BenchmarkTTFAB(b *testing.B) {
	h, rec := realHarness(b)
	sentence := "The quick brown fox jumps over the lazy dog near the river bank. "
	for _, n := range []int{1, 5} {
		text := strings.TrimSpace(strings.Repeat(sentence, n))
		b.Run(fmt.Sprintf("sentences=%d", n), func(b *testing.B) {
			c := client(b)
			var ttfab, model time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				resp, err := c.Post(h.url+api.RouteInvocations, "application/json", jsonBody(fmt.Sprintf(`{"text":%q}`, text)))
				if err != nil {
					b.Fatal(err)
				}
				buf := make([]byte, 64<<10)
				got, first := 0, time.Time{}
				for {
					k, err := resp.Body.Read(buf)
					got += k
					if first.IsZero() && got > audio.WAVHeaderSize {
						first = time.Now()
					}
					if err != nil {
						break
					}
				}
				resp.Body.Close()
				ttfab += first.Sub(start)
				model += rec.lastStats().FirstChunkTime
			}
			n := float64(b.N)
			b.ReportMetric(float64(ttfab.Microseconds())/1000/n, "ttfab_ms")
			b.ReportMetric(float64(model.Microseconds())/1000/n, "first_chunk_model_ms")
			b.ReportMetric(float64((ttfab-model).Microseconds())/1000/n, "overhead_ms")
			b.ReportMetric(100*float64(ttfab-model)/float64(ttfab), "overhead_%")
		})
	}
}
