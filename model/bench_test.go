package model

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/phonemize"
)

// BenchmarkRealModel measures real-time factor on this machine: audio seconds produced per
// wall-clock second of model time, for a typical one-sentence chunk, at 1 and 2 intra-op
// threads. Run with `make bench` or
// `go test -run '^$' -bench RealModel -benchtime 5x ./model/`.
func BenchmarkRealModel(b *testing.B) {
	a := testenv.Assets(b)
	ph, err := phonemize.New(phonemize.Config{LexiconDir: a.Lexicon})
	if err != nil {
		b.Fatal(err)
	}
	chunks, err := ph.Chunks("Thanks for calling, your appointment is confirmed for Tuesday at ten in the morning.", phonemize.Options{MaxIDs: 510, FirstChunkMaxIDs: 510})
	if err != nil {
		b.Fatal(err)
	}
	ids := chunks[0].IDs
	v, err := LoadVoices(a.Voices)
	if err != nil {
		b.Fatal(err)
	}
	style, _ := v.Style("af_heart", len(ids))
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			m, err := Open(context.Background(), Config{Path: a.Model, ORTLib: a.ORTLib, Provider: ProviderCPU, Slots: 1, Threads: threads})
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			if _, err := m.Warmup(context.Background()); err != nil {
				b.Fatal(err)
			}
			var audio, wall time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				pcm, err := m.Synthesize(context.Background(), 0, ids, style, 1)
				if err != nil {
					b.Fatal(err)
				}
				wall += time.Since(start)
				audio += time.Duration(len(pcm)) * time.Second / 24000
			}
			b.ReportMetric(audio.Seconds()/wall.Seconds(), "audio_s/s")
			b.ReportMetric(float64(len(ids)), "ids")
		})
	}
}
