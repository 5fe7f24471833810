package transport_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
)

// BenchmarkTransportTTFAB measures what each transport adds to a request: the server answers
// at once (a stand-in engine with no service time behind the real server), so TTFAB is the
// protocol path alone, direct for http and ws, through `kokoro emulate` for the SageMaker
// transports. One request at a time; ttfab-p50-ms is the median over the run. With -count the
// transports alternate, so a drift of the machine's load spreads over all of them:
//
//	go test -run '^$' -bench BenchmarkTransportTTFAB -count 6 ./bench/transport/
func BenchmarkTransportTTFAB(b *testing.B) {
	url := startOneSlotServer(b, 0, 0)
	for _, name := range transport.Names() {
		b.Run(name, func(b *testing.B) {
			tr, err := transport.New(name, optionsFor(b, name, url, 1))
			if err != nil {
				b.Fatal(err)
			}
			defer tr.Close()
			conn, err := tr.Dial(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			var ttfab []float64
			i := 0
			for b.Loop() {
				start := time.Now()
				var first time.Duration
				err := conn.Synthesize(context.Background(), bench.Request{ID: fmt.Sprint("b", i), Text: "Hello."}, func([]byte) {
					if first == 0 {
						first = time.Since(start)
					}
				})
				if err != nil {
					b.Fatal(err)
				}
				ttfab = append(ttfab, float64(first)/float64(time.Millisecond))
				i++
			}
			slices.Sort(ttfab)
			b.ReportMetric(ttfab[len(ttfab)/2], "ttfab-p50-ms")
		})
	}
}

// BenchmarkTransportThroughput: requests per second each transport carries at concurrency 4
// (4 workers, one connection or session each) against the same instant server; rps =
// 1e9 / (ns/op).
//
//	go test -run '^$' -bench BenchmarkTransportThroughput -cpu 4 -count 6 ./bench/transport/
func BenchmarkTransportThroughput(b *testing.B) {
	url := startOneSlotServer(b, 0, 0)
	for _, name := range transport.Names() {
		b.Run(name, func(b *testing.B) {
			tr, err := transport.New(name, optionsFor(b, name, url, 4))
			if err != nil {
				b.Fatal(err)
			}
			defer tr.Close()
			b.SetParallelism(1) // GOMAXPROCS workers: -cpu 4 gives the rung N=4
			b.RunParallel(func(pb *testing.PB) {
				conn, err := tr.Dial(context.Background())
				if err != nil {
					b.Error(err)
					return
				}
				defer conn.Close()
				for pb.Next() {
					if err := conn.Synthesize(context.Background(), bench.Request{ID: "t", Text: "Hello."}, func([]byte) {}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rps")
		})
	}
}
