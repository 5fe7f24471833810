package bench

import (
	"testing"
	"time"
)

// BenchmarkRungAggregator measures turning one rung's raw results into statistics, which the
// live progress display repeats every 250 ms; the unit is per result.
func BenchmarkRungAggregator(b *testing.B) {
	results := steady(64, 200*time.Millisecond, 300*time.Second, 0, func(s time.Duration) time.Duration { return s / 1000 })
	win := Window{Start: 240 * time.Second, End: 300 * time.Second}
	b.ResetTimer()
	for b.Loop() {
		a := NewRungAggregator(1, 64, win)
		for _, r := range results {
			a.Add(r)
		}
		s := a.Close()
		s.Judge()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(results)), "ns/result")
}
