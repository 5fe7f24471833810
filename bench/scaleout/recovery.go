package scaleout

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Sample is one probe request that delivered audio: when its first byte arrived and its
// TTFAB. A sample exists from the moment its first byte does.
type Sample struct {
	At    time.Time
	TTFAB time.Duration
}

// Recovery defaults.
const (
	DefaultRecoverWindow     = 60 * time.Second
	DefaultRecoverMinSamples = 5
)

// Recovered finds traffic_recovered: the earliest sample at or after `after` from which the
// p95 TTFAB of the samples in the following window stays at or under target, with at least
// minSamples in that window. It is an upper bound on the new instance taking traffic
// (SageMaker does not say which instance served a request), so the caller marks it bounded.
// The explanation is kept either way: "never recovered" is a result too, and it names its
// cause: windows that held too few completions to judge say so, with the count they needed
// and the settings that give more, and are never reported as a p95 over target. Only windows
// that have closed by until count (zero: all), so a run that is still probing does not judge a
// window on its first few samples.
func Recovered(samples []Sample, after, until time.Time, target, window time.Duration, minSamples int) (time.Time, string, bool) {
	s := make([]Sample, 0, len(samples))
	for _, x := range samples {
		if !x.At.Before(after) {
			s = append(s, x)
		}
	}
	slices.SortFunc(s, func(a, b Sample) int { return a.At.Compare(b.At) })
	if len(s) < minSamples {
		return time.Time{}, fmt.Sprintf("only %d probe completion(s) after the new instance came into service; %d are needed: hold the probe longer (--hold) or raise --probe-concurrency", len(s), minSamples), false
	}
	closed, judged, most := 0, 0, 0
	best := math.Inf(1) // the lowest p95 of a judged window
	for i := range s {
		if !until.IsZero() && s[i].At.Add(window).After(until) {
			break
		}
		closed++
		var w []float64
		for j := i; j < len(s) && s[j].At.Sub(s[i].At) <= window; j++ {
			w = append(w, float64(s[j].TTFAB))
		}
		most = max(most, len(w))
		if len(w) < minSamples {
			continue // too few to judge; a later window may hold more
		}
		judged++
		p := P95(w)
		best = min(best, p)
		if time.Duration(p) <= target {
			return s[i].At, fmt.Sprintf("probe p95 TTFAB held at or under %d ms across %d completions in the following %v",
				target.Milliseconds(), len(w), window), true
		}
	}
	switch {
	case closed == 0:
		return time.Time{}, fmt.Sprintf("the probe ended before a %v window after the new instance came into service had closed: T_total is a floor; hold the probe longer (--hold)", window), false
	case judged == 0:
		return time.Time{}, fmt.Sprintf("too few probe completions to judge recovery: at most %d in any %v window after the new instance came into service, %d needed: T_total is a floor; raise --recover-window or --probe-concurrency so that a window holds %d",
			most, window, minSamples, minSamples), false
	}
	return time.Time{}, fmt.Sprintf("probe p95 TTFAB never held under %d ms for %v after the new instance came into service (lowest p95 of %d window(s) with %d+ completions: %d ms): T_total is a floor; if that p95 is the new normal, set --recovered-ms above it",
		target.Milliseconds(), window, judged, minSamples, time.Duration(best).Milliseconds()), false
}

// P95 is the 95th percentile with linear interpolation between closest ranks (the bench's
// convention); NaN for no values.
func P95(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	pos := 0.95 * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (pos-float64(lo))*(s[hi]-s[lo])
}

// p95Between is the p95 TTFAB in ms of the samples in [from, to) and how many there were.
func p95Between(samples []Sample, from, to time.Time) (float64, int) {
	var v []float64
	for _, s := range samples {
		if !s.At.Before(from) && (to.IsZero() || s.At.Before(to)) {
			v = append(v, float64(s.TTFAB)/float64(time.Millisecond))
		}
	}
	if len(v) == 0 {
		return 0, 0
	}
	return P95(v), len(v)
}
