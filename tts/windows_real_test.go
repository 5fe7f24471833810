package tts_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/listen"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/model"
	"github.com/kokoro-sm/kokoro/tts"
)

// TestRealDecoderWindows: with decoder windows on, the listening text is spoken sentence by
// sentence, each heard whole by the predictor and sent in windows; the recognizer understands
// it as well as the default's bound, the first sound leaves with the first bytes, a window
// joins the one before it without a step, and sentences join at their pause, no longer.
func TestRealDecoderWindows(t *testing.T) {
	t.Parallel()
	testenv.LookPath(t, "pocketsphinx_continuous")
	rec, err := listen.Pocketsphinx()
	if err != nil {
		t.Fatal(err)
	}
	e, err := tts.Load(context.Background(), tts.LoadConfig{
		Assets: testenv.RealModel(t), Provider: "cpu", Slots: 1, Threads: 2, DecoderWindows: model.ToggleOn,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })

	var pieces []tts.Chunk
	if _, err := checkStream(context.Background(), e, tts.Request{Text: listenText, Voice: "af_heart"}, func(c tts.Chunk) error {
		pieces = append(pieces, c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	chunks := 0
	var pcm []float32
	var joins []int
	for i, c := range pieces {
		if c.Phonemes != "" {
			chunks++
		}
		if i > 0 {
			joins = append(joins, len(pcm))
		}
		pcm = append(pcm, c.PCM...)
	}
	// Where a window joins the one before, the step between their samples is no larger than
	// the speech's own largest step in the 10 ms on either side: the join is no rougher than
	// the sound around it, wherever the pacing happened to cut.
	for i, j := range joins {
		if pieces[i+1].Phonemes != "" || j < 240 || j+240 > len(pcm) {
			continue
		}
		step := math.Abs(float64(pcm[j] - pcm[j-1]))
		if around := max(largestStep(pcm[j-240:j]), largestStep(pcm[j:j+240])); step > 0.005+around {
			t.Errorf("window join %d→%d jumps by %.3f where the speech around it steps at most %.3f", i, i+1, step, around)
		}
	}
	// The first chunk is the first sentence whole; the others are whole sentences packed up
	// to the model's limit.
	if first := strings.TrimSpace(pieces[0].Phonemes); chunks < 2 || !strings.HasSuffix(first, ".") || strings.Count(first, ".") != 1 {
		t.Errorf("%d chunks, the first %q: want the first sentence heard whole, then the rest", chunks, first)
	}
	heard, err := rec.Transcribe(context.Background(), pcm, api.SampleRate)
	if err != nil {
		t.Fatal(err)
	}
	errs, words := listen.WordErrors(listenText, heard)
	wer := float64(errs) / float64(words)
	t.Logf("%d pieces; WER %.1f %% (%d of %d words); heard: %s", len(pieces), 100*wer, errs, words, heard)
	if wer > 0.12 {
		t.Errorf("word error rate %.1f %%, bound 12 %% (as the default's)", 100*wer)
	}
	if onset, _ := audio.NewOnset(api.SampleRate).Write(pieces[0].PCM); onset < 0 ||
		time.Duration(onset)*time.Second/api.SampleRate > tts.JoinLead+10*time.Millisecond {
		t.Errorf("first sound at sample %d, want within %v of the first byte", onset, tts.JoinLead+10*time.Millisecond)
	}
	// A pause where two pieces join is at most a sentence's pause (and the 10 ms frames it is
	// measured in); one inside a piece is the model's own, under 0.7 s even at a semicolon.
	for _, p := range audio.Pauses(pcm, api.SampleRate, 5) {
		d := time.Duration(p.Len()) * time.Second / api.SampleRate
		atJoin := slices.ContainsFunc(joins, func(j int) bool { return j >= p.Start && j <= p.End })
		if atJoin && d > tts.JoinPause(chunk.BreakSentence)+30*time.Millisecond {
			t.Errorf("a pause of %v where two pieces join", d)
		}
		if d >= 700*time.Millisecond {
			t.Errorf("a pause of %v inside the speech", d)
		}
	}
}

// largestStep is the largest absolute step between neighbouring samples of pcm.
func largestStep(pcm []float32) float64 {
	var m float64
	for i := 1; i < len(pcm); i++ {
		m = max(m, math.Abs(float64(pcm[i]-pcm[i-1])))
	}
	return m
}
