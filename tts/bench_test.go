package tts_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/chunk"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

const longText = "Kokoro is an open-weight text to speech model with eighty two million parameters. " +
	"Despite its lightweight architecture, it delivers comparable quality to larger models while being " +
	"significantly faster and more cost-efficient. With Apache-licensed weights, it can be deployed " +
	"anywhere from production environments to personal projects. The voices cover several languages " +
	"and accents, and new ones can be blended from the packs that ship with it."

// BenchmarkArrivalBehindLongRequest measures the time to first audio of a short request that
// arrives, on one slot, just after a long request's first chunk: it waits for whatever chunk
// of the long request holds the slot, so the later-chunk budget sets its wait. Run with
// `go test -run '^$' -bench ArrivalBehind -benchtime 2x ./tts/`.
func BenchmarkArrivalBehindLongRequest(b *testing.B) {
	a := testenv.Assets(b)
	for _, maxIDs := range []int{510, 200} {
		b.Run(fmt.Sprintf("max_chunk_ids=%d", maxIDs), func(b *testing.B) {
			e, err := tts.Load(context.Background(), tts.LoadConfig{Assets: a, Provider: "cpu", Slots: 1, Threads: 2, Policy: chunk.Policy{MaxChunkIDs: maxIDs}}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer e.Close()
			var total time.Duration
			for i := 0; i < b.N; i++ {
				firstOut := make(chan struct{})
				longDone := make(chan error, 1)
				go func() {
					once := false
					_, err := checkStream(context.Background(), e, tts.Request{Text: longText}, func(tts.Chunk) error {
						if !once {
							once = true
							close(firstOut)
						}
						return nil
					})
					longDone <- err
				}()
				<-firstOut
				time.Sleep(50 * time.Millisecond) // the long request's second chunk is on the slot
				st, err := checkStream(context.Background(), e, tts.Request{Text: "Are you still there?"}, func(tts.Chunk) error { return nil })
				if err != nil {
					b.Fatal(err)
				}
				total += st.TTFA
				if err := <-longDone; err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "short_ttfa_ms")
		})
	}
}
