package bench

import (
	"math"
	"slices"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Thresholds of the rung usability checks (docs/bench.md).
const (
	// ClientBoundFraction: a rung whose mean in-flight falls more than this fraction under N
	// measured the client, not the server.
	ClientBoundFraction = 0.05
	// SaturatedFraction: a rung that had more than this fraction of its requests refused is
	// saturated.
	SaturatedFraction = 0.01
	// DriftFraction: a rung whose TTFAB moved by more than this fraction of its p95 across the
	// measure window had not settled.
	DriftFraction = 0.25
)

// Reasons a rung is unusable.
const (
	ReasonCapacityChanged  = "capacity_changed"
	ReasonNothingCompleted = "nothing_completed"
	ReasonClientBound      = "client_bound"
	ReasonSaturated        = "saturated"
	ReasonNotSettled       = "not_settled"
	ReasonInterrupted      = "interrupted"
)

// Window is the measured part of a rung, as offsets from the start of its hold: [Start, End).
type Window struct {
	Start time.Duration `json:"start_ns"`
	End   time.Duration `json:"end_ns"`
}

// Seconds is the window's length in seconds.
func (w Window) Seconds() float64 { return (w.End - w.Start).Seconds() }

// Quantiles holds p50/p95/p99 in milliseconds.
type Quantiles struct {
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	P99 float64 `json:"p99_ms"`
}

// RungStats are the statistics of one rung over its measure window.
type RungStats struct {
	Run     int           `json:"run"`
	N       int           `json:"concurrency"`
	Started time.Duration `json:"started_ns"` // when the hold began, from the ladder's epoch
	// HoldStartedAt is the wall-clock start of the hold, from which Window counts; zero in
	// statistics recomputed from raw results.
	HoldStartedAt time.Time `json:"hold_started_at,omitzero"`
	Window        Window    `json:"window"`

	Requests int                      `json:"requests"` // dispatched inside the window, cancelled excluded
	OK       int                      `json:"ok"`
	Chars    int                      `json:"chars"` // characters synthesized by ok requests
	Outcomes map[artifact.Outcome]int `json:"outcomes"`
	// RejectionRate is the fraction of Requests the server refused (503 or 429).
	RejectionRate float64 `json:"rejection_rate"`
	// RPS counts ok requests that completed inside the window, per second.
	RPS float64 `json:"achieved_rps"`

	TTFAB       Quantiles `json:"ttfab"`
	TTFABMeanMs float64   `json:"ttfab_mean_ms"`
	// TTFAS is the time to the first audible sample, of the ok requests that carried sound.
	TTFAS       Quantiles `json:"ttfas"`
	Latency     Quantiles `json:"latency"`
	LatencyMean float64   `json:"latency_mean_ms"`
	Stall       Quantiles `json:"stall"`
	// StalledFraction is the fraction of ok requests whose playback stalled at all.
	StalledFraction   float64 `json:"stalled_fraction"`
	AudioSecondsMean  float64 `json:"audio_seconds_mean"`
	InFlightMean      float64 `json:"inflight_mean"`
	InFlightPeak      int     `json:"inflight_peak"`
	DriftMsPerS       float64 `json:"ttfab_drift_ms_per_s"` // least-squares slope of TTFAB against dispatch time
	DriftMsOverWindow float64 `json:"ttfab_drift_ms"`       // slope × window length

	CapacityBefore int `json:"capacity_before,omitempty"`
	CapacityAfter  int `json:"capacity_after,omitempty"`
	// ConcurrencyRatio is filled by a hook that reads the server side's view of concurrency
	// (CloudWatch ConcurrentRequestsPerModel ÷ client mean in-flight); 0 when unknown.
	ConcurrencyRatio float64 `json:"concurrency_ratio,omitempty"`
	// CloudWatchMean/Peak are ConcurrentRequestsPerModel (Maximum per 10 s period) over the
	// window, filled by the SageMaker hook that sets ConcurrencyRatio; 0 when not read.
	CloudWatchMean float64 `json:"cloudwatch_mean,omitempty"`
	CloudWatchPeak float64 `json:"cloudwatch_peak,omitempty"`
	// ServerInFlightMean/Peak are the server's own count of requests in the system over the
	// window, filled by a hook that samples it (ServerGauge); 0 when not sampled.
	ServerInFlightMean float64 `json:"server_inflight_mean,omitempty"`
	ServerInFlightPeak float64 `json:"server_inflight_peak,omitempty"`

	Usable     bool     `json:"usable"`
	Unusable   []string `json:"unusable_reasons,omitempty"`
	Interrupts bool     `json:"interrupted,omitempty"`
}

// Saturated reports whether the rung was unusable because the server refused requests.
func (s RungStats) Saturated() bool { return slices.Contains(s.Unusable, ReasonSaturated) }

// RungAggregator computes RungStats from the results of one rung: Add every result of the
// rung (not only those of the window: requests dispatched before the window still occupy it),
// then Close.
type RungAggregator struct {
	run, n  int
	win     Window
	results []Result
}

// NewRungAggregator returns an aggregator for rung n of run run measured over win.
func NewRungAggregator(run, n int, win Window) *RungAggregator {
	return &RungAggregator{run: run, n: n, win: win}
}

// Add records one result.
func (a *RungAggregator) Add(r Result) { a.results = append(a.results, r) }

// Close computes the statistics. Capacity, interruption and the concurrency ratio are the
// ladder's to fill afterwards; Judge then decides usability.
func (a *RungAggregator) Close() RungStats {
	s := RungStats{Run: a.run, N: a.n, Window: a.win, Outcomes: map[artifact.Outcome]int{}}
	var ttfab, ttfas, lat, stall, ttfabT []float64
	var audio float64
	stalled, rejected := 0, 0
	for _, r := range a.results {
		if r.Outcome == artifact.OutcomeCancelled || r.Start < a.win.Start || r.Start >= a.win.End {
			continue
		}
		s.Requests++
		s.Outcomes[r.Outcome]++
		if r.Outcome.Rejection() {
			rejected++
		}
		if r.Outcome != artifact.OutcomeOK {
			continue
		}
		s.OK++
		s.Chars += r.TextChars
		ttfab = append(ttfab, ms(r.TTFAB))
		if r.TTFAS > 0 {
			ttfas = append(ttfas, ms(r.TTFAS))
		}
		ttfabT = append(ttfabT, r.Start.Seconds())
		lat = append(lat, ms(r.Latency()))
		stall = append(stall, ms(r.Stall))
		audio += r.AudioSeconds()
		if r.Stall > 0 {
			stalled++
		}
	}
	for _, r := range a.results {
		if r.Outcome == artifact.OutcomeOK && r.End >= a.win.Start && r.End < a.win.End {
			s.RPS++
		}
	}
	if sec := a.win.Seconds(); sec > 0 {
		s.RPS /= sec
	} else {
		s.RPS = 0
	}
	if s.Requests > 0 {
		s.RejectionRate = float64(rejected) / float64(s.Requests)
	}
	if s.OK > 0 {
		s.TTFABMeanMs = mean(ttfab)
		s.LatencyMean = mean(lat)
		s.StalledFraction = float64(stalled) / float64(s.OK)
		s.AudioSecondsMean = audio / float64(s.OK)
		s.DriftMsPerS = slope(ttfabT, ttfab)
		s.DriftMsOverWindow = s.DriftMsPerS * a.win.Seconds()
	}
	s.TTFAB = quantiles(ttfab)
	s.TTFAS = quantiles(ttfas)
	s.Latency = quantiles(lat)
	s.Stall = quantiles(stall)
	s.InFlightMean, s.InFlightPeak = inFlight(a.results, a.win)
	return s
}

// Judge sets Usable and the reasons against the checks of docs/bench.md.
func (s *RungStats) Judge() {
	s.Unusable = s.Unusable[:0]
	if s.Interrupts {
		s.Unusable = append(s.Unusable, ReasonInterrupted)
	}
	if s.CapacityBefore != s.CapacityAfter {
		s.Unusable = append(s.Unusable, ReasonCapacityChanged)
	}
	if s.OK == 0 {
		s.Unusable = append(s.Unusable, ReasonNothingCompleted)
	}
	if s.InFlightMean < (1-ClientBoundFraction)*float64(s.N) {
		s.Unusable = append(s.Unusable, ReasonClientBound)
	}
	if s.RejectionRate > SaturatedFraction {
		s.Unusable = append(s.Unusable, ReasonSaturated)
	}
	if s.OK > 0 && math.Abs(s.DriftMsOverWindow) > DriftFraction*s.TTFAB.P95 {
		s.Unusable = append(s.Unusable, ReasonNotSettled)
	}
	s.Usable = len(s.Unusable) == 0
	if len(s.Unusable) == 0 {
		s.Unusable = nil
	}
}

// inFlight is the time-weighted mean and the peak number of requests outstanding during win.
// Cancelled requests count: they occupied a worker's slot until the interruption.
func inFlight(results []Result, win Window) (meanN float64, peak int) {
	if win.End <= win.Start {
		return 0, 0
	}
	type event struct {
		t     time.Duration
		delta int
	}
	var events []event
	var busy time.Duration
	for _, r := range results {
		lo, hi := max(r.Start, win.Start), min(r.End, win.End)
		if hi <= lo {
			continue
		}
		busy += hi - lo
		events = append(events, event{lo, +1}, event{hi, -1})
	}
	// At equal times a finish sorts before a start: a worker that completes and dispatches in
	// the same instant holds one slot, not two.
	slices.SortFunc(events, func(a, b event) int {
		if a.t != b.t {
			if a.t < b.t {
				return -1
			}
			return 1
		}
		return a.delta - b.delta
	})
	cur := 0
	for _, e := range events {
		cur += e.delta
		peak = max(peak, cur)
	}
	return float64(busy) / float64(win.End-win.Start), peak
}

// Percentile returns the p-quantile (0 ≤ p ≤ 1) of sorted values by linear interpolation
// between closest ranks (rank p·(n−1)); NaN for no values.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	if n == 1 {
		return sorted[0]
	}
	rank := p * float64(n-1)
	lo := int(math.Floor(rank))
	if lo >= n-1 {
		return sorted[n-1]
	}
	frac := rank - float64(lo)
	return sorted[lo] + frac*(sorted[lo+1]-sorted[lo])
}

// quantiles of values in milliseconds; zeros for no values so the JSON stays valid.
func quantiles(values []float64) Quantiles {
	if len(values) == 0 {
		return Quantiles{}
	}
	v := slices.Clone(values)
	slices.Sort(v)
	return Quantiles{P50: Percentile(v, 0.50), P95: Percentile(v, 0.95), P99: Percentile(v, 0.99)}
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// slope is the least-squares slope of y against x; 0 when x does not vary.
func slope(x, y []float64) float64 {
	mx, my := mean(x), mean(y)
	var sxy, sxx float64
	for i := range x {
		dx := x[i] - mx
		sxy += dx * (y[i] - my)
		sxx += dx * dx
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
