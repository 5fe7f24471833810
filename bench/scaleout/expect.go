package scaleout

import (
	"math"
	"sort"

	"github.com/kokoro-sm/kokoro/artifact"
)

// ExpectedP95 is the p95 TTFAB (ms) the qmax ladder measured at concurrency c per instance,
// interpolated linearly between rungs and held flat outside them; the slowest run counts at
// each rung. NaN when no rung completed a request.
func ExpectedP95(q *artifact.Qmax, c float64) float64 {
	worst := map[int]float64{}
	for _, s := range q.Steps {
		if s.OK > 0 && s.TTFABP95Ms > worst[s.Concurrency] {
			worst[s.Concurrency] = s.TTFABP95Ms
		}
	}
	if len(worst) == 0 {
		return math.NaN()
	}
	xs := make([]int, 0, len(worst))
	for x := range worst {
		xs = append(xs, x)
	}
	sort.Ints(xs)
	if c <= float64(xs[0]) {
		return worst[xs[0]]
	}
	for i := 1; i < len(xs); i++ {
		if c <= float64(xs[i]) {
			lo, hi := float64(xs[i-1]), float64(xs[i])
			return worst[xs[i-1]] + (c-lo)/(hi-lo)*(worst[xs[i]]-worst[xs[i-1]])
		}
	}
	return worst[xs[len(xs)-1]]
}
