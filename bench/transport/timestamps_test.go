package transport_test

import (
	"context"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
)

// With --word-timestamps the http and ws transports hand the ladder the same audio, without
// the framing the timings travel in.
func TestWordTimestampsCarryTheSameAudio(t *testing.T) {
	t.Parallel()
	url := startOneSlotServer(t, 10*time.Millisecond, 0)
	for _, name := range []string{"http", "ws"} {
		for _, ts := range []bool{false, true} {
			tr, err := transport.New(name, transport.Options{BaseURL: url, MaxConns: 1, WordTimestamps: ts})
			if err != nil {
				t.Fatal(err)
			}
			c, err := tr.Dial(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			err = c.Synthesize(context.Background(), bench.Request{ID: "r1", Text: "Hello there."}, func(b []byte) { n += len(b) })
			c.Close()
			tr.Close()
			if err != nil {
				t.Fatalf("%s, timestamps %v: %v", name, ts, err)
			}
			// The engine sends 0.5 s of PCM16 at 24 kHz.
			if n != 24000 {
				t.Errorf("%s, timestamps %v: %d bytes of audio, want 24000", name, ts, n)
			}
		}
	}
}
