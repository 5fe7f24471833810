package planner

import (
	"math"
	"sort"

	"github.com/kokoro-sm/kokoro/artifact"
)

// curvePoint is one (concurrency, throughput) sample of a run's ladder.
type curvePoint struct {
	c   float64
	rps float64
}

// curve is a run's closed-loop throughput X(n): completions per second with n requests in
// the system, measured at each rung and linear in between. It starts at (0, 0) and is flat
// beyond the highest rung, which is what a saturated server does.
type curve []curvePoint

// runCurves returns one throughput curve per run, from its usable rungs (all rungs when
// none is usable, so that a broken artifact still yields numbers for the findings to judge).
func runCurves(q *artifact.Qmax) map[int]curve {
	out := map[int]curve{}
	for _, run := range q.Runs() {
		rungs := q.Run(run)
		var pts curve
		for _, r := range rungs {
			if r.Usable {
				pts = append(pts, curvePoint{float64(r.Concurrency), r.AchievedRPS})
			}
		}
		if len(pts) == 0 {
			for _, r := range rungs {
				pts = append(pts, curvePoint{float64(r.Concurrency), r.AchievedRPS})
			}
		}
		sort.SliceStable(pts, func(i, j int) bool { return pts[i].c < pts[j].c })
		out[run] = pts
	}
	return out
}

// at interpolates X(n). The second result is false when n lies beyond the highest rung.
func (k curve) at(n float64) (float64, bool) {
	if len(k) == 0 || n <= 0 {
		return 0, len(k) > 0
	}
	prev := curvePoint{}
	for _, p := range k {
		if n <= p.c {
			if p.c == prev.c {
				return p.rps, true
			}
			f := (n - prev.c) / (p.c - prev.c)
			return prev.rps + f*(p.rps-prev.rps), true
		}
		prev = p
	}
	return prev.rps, false
}

// peak is the highest throughput the run measured.
func (k curve) peak() float64 {
	var m float64
	for _, p := range k {
		m = math.Max(m, p.rps)
	}
	return m
}

// throughputAt is X(n) of the slowest run (multiple runs → the minimum, as for Q_max), the
// run it came from, and whether n lay inside every run's ladder.
func throughputAt(curves map[int]curve, n float64) (rps float64, run int, inside bool) {
	first := true
	inside = true
	runs := make([]int, 0, len(curves))
	for r := range curves {
		runs = append(runs, r)
	}
	sort.Ints(runs)
	for _, r := range runs {
		x, in := curves[r].at(n)
		inside = inside && in
		if first || x < rps {
			rps, run, first = x, r, false
		}
	}
	return rps, run, inside
}

// Ratio sources for converting client concurrency to CloudWatch units.
const (
	RatioCloudWatch = "cloudwatch" // the bench read ConcurrentRequestsPerModel
	RatioServer     = "server"     // the server's own in-flight gauge stood in for it
	RatioAssumed    = "assumed"    // nothing measured: 1.0
)

// unitRatio finds the rung nearest to c (ties → the lower rung, the more conservative
// reading) and returns its CloudWatch-to-client concurrency ratio, averaged over runs.
func unitRatio(q *artifact.Qmax, c float64) (ratio float64, rung int, source string) {
	best := math.Inf(1)
	for _, r := range q.Steps {
		d := math.Abs(float64(r.Concurrency) - c)
		if d < best || d == best && r.Concurrency < rung {
			best, rung = d, r.Concurrency
		}
	}
	var cw, srv []float64
	for _, r := range q.Steps {
		if r.Concurrency != rung {
			continue
		}
		if r.CWRatio > 0 {
			cw = append(cw, r.CWRatio)
		}
		if r.ServerConcurrencyMean > 0 && r.ConcurrencyMean > 0 {
			srv = append(srv, r.ServerConcurrencyMean/r.ConcurrencyMean)
		}
	}
	switch {
	case len(cw) > 0:
		return mean(cw), rung, RatioCloudWatch
	case len(srv) > 0:
		return mean(srv), rung, RatioServer
	}
	return 1, rung, RatioAssumed
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// deriveQmax recomputes Q_max from the rungs for an SLO other than the one the bench used:
// per run the highest usable rung whose p95 TTFAB is within the SLO, then the minimum over
// runs. A higher rung brackets it when it shows the SLO cannot be held there: it broke the SLO
// on completed requests, or it was saturated (with MAX_QUEUE_DEPTH = Q_max, rejections are how
// an overloaded rung shows). Rungs that measured the client or a changing fleet say nothing
// about the server and bracket nothing. The bracket comes from the run that set Q_max, as the
// bench reports it.
func deriveQmax(q *artifact.Qmax, sloMs float64) (qmax int, perRun []int, bracketed bool) {
	for i, run := range q.Runs() {
		best, broke := 0, false
		for _, r := range q.Run(run) {
			if r.Usable && r.TTFABP95Ms <= sloMs {
				best = max(best, r.Concurrency)
			}
		}
		for _, r := range q.Run(run) {
			if r.Concurrency > best && breaksSLO(r, sloMs) {
				broke = true
			}
		}
		perRun = append(perRun, best)
		if i == 0 || best < qmax {
			qmax, bracketed = best, broke
		}
	}
	return qmax, perRun, bracketed
}

func breaksSLO(r artifact.Rung, sloMs float64) bool {
	if r.Saturated {
		return true
	}
	return r.OK > 0 && r.TTFABP95Ms > sloMs && !r.ClientBound && !r.CapacityChanged
}
