package tts_test

import (
	"context"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/listen"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

// The bounds of TestRealWordTimes, in milliseconds: the target the judge holds the times to
// (docs/timings.md), where these 124 words measure a median of 14 ms and a 95th percentile of
// 82 ms. Words in running speech started at their own first sounds instead of where the words
// before end miss the median (62 ms, 95th percentile 117 ms), and an error in how the times follow a cut moves
// words by a chunk's length, hundreds of milliseconds.
const maxMedianMS, maxP95MS = 50, 120

// A slice of the word-timing judge (internal/tools/wordjudge, docs/timings.md): pocketsphinx
// force-aligns four listening sentences spoken by two voices with small chunks, so that words
// sit on both sides of context cuts and joins, and each word's start is compared with the time
// the engine gave it (`go test -run TestRealWordTimes -v ./tts/`).
func TestRealWordTimes(t *testing.T) {
	t.Parallel()
	testenv.LookPath(t, "pocketsphinx_continuous")
	rec, err := listen.Pocketsphinx()
	if err != nil {
		t.Fatal(err)
	}
	e, err := tts.Load(context.Background(), tts.LoadConfig{
		Assets: testenv.RealModel(t), Provider: "cpu", Slots: 1, Threads: 2,
		Policy: chunk.Policy{FirstChunkMaxIDs: 40, MaxChunkIDs: 70, Ramp: chunk.DefaultRamp},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	b, err := os.ReadFile("../testdata/listen/sentences.txt")
	if err != nil {
		t.Fatal(err)
	}
	texts := strings.Split(strings.TrimSpace(string(b)), "\n")[8:12]
	var diffs []float64
	for _, voice := range []string{"af_heart", "am_michael"} {
		for _, text := range texts {
			var pcm []float32
			var words []tts.Word
			chunks := 0
			if _, err := checkStream(context.Background(), e, tts.Request{Text: text, Voice: voice}, func(c tts.Chunk) error {
				for _, w := range c.Words {
					words = append(words, tts.Word{Text: w.Text, Start: len(pcm) + w.Start, End: len(pcm) + w.End})
				}
				pcm = append(pcm, c.PCM...)
				chunks++
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			var tokens []string
			first := make([]int, len(words))
			for i, w := range words {
				first[i] = len(tokens)
				tokens = append(tokens, listen.Words(w.Text)...)
			}
			if got := strings.Join(tokens, " "); got != strings.Join(listen.Words(text), " ") {
				t.Fatalf("%s: words %q, want the text's %q", voice, got, text)
			}
			segs, err := rec.Align(context.Background(), pcm, api.SampleRate, tokens)
			if err != nil {
				t.Fatalf("%s %q: %v", voice, text, err)
			}
			for i, w := range words {
				diffs = append(diffs, float64(w.Start)/api.SampleRate-segs[first[i]].Start)
			}
			t.Logf("%s, %d chunks: %q", voice, chunks, text)
		}
	}
	abs := make([]float64, len(diffs))
	for i, d := range diffs {
		abs[i] = math.Abs(d) * 1000
	}
	slices.Sort(abs)
	median, p95 := abs[len(abs)/2], abs[int(math.Ceil(0.95*float64(len(abs))))-1]
	t.Logf("%d words: median |start diff| %.0f ms, p95 %.0f ms", len(abs), median, p95)
	if median > maxMedianMS || p95 > maxP95MS {
		t.Errorf("median |start diff| %.0f ms, p95 %.0f ms; bounds %d and %d ms", median, p95, maxMedianMS, maxP95MS)
	}
}
