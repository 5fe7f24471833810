package bench

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

func TestPercentileLinearInterpolation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		values []float64
		p      float64
		want   float64
	}{
		{[]float64{5}, 0.95, 5},
		{[]float64{1, 2}, 0.5, 1.5},
		{[]float64{1, 2, 3, 4}, 0.95, 3.85},      // rank 2.85
		{[]float64{10, 20, 30, 40, 50}, 0.5, 30}, // exact rank
		{[]float64{10, 20, 30, 40, 50}, 0.99, 49.6},
		{[]float64{10, 20, 30, 40, 50}, 1, 50},
		{[]float64{10, 20, 30, 40, 50}, 0, 10},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v_p%v", tc.values, tc.p), func(t *testing.T) {
			if got := Percentile(tc.values, tc.p); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("Percentile(%v, %v) = %v; want %v", tc.values, tc.p, got, tc.want)
			}
		})
	}
	if !math.IsNaN(Percentile(nil, 0.5)) {
		t.Error("percentile of nothing should be NaN")
	}
}

// steady builds a closed loop of n workers each issuing back-to-back requests of latency lat
// from 0 to end, with ttfab(i) giving the TTFAB of the i-th request of a worker.
func steady(n int, lat, end time.Duration, gap time.Duration, ttfab func(start time.Duration) time.Duration) []Result {
	var out []Result
	for w := range n {
		// Stagger the workers so completions spread over time as in a real loop.
		t := time.Duration(w) * lat / time.Duration(n)
		for t < end {
			out = append(out, Result{Run: 1, Rung: n, Worker: w, Start: t, End: t + lat, TTFAB: ttfab(t), AudioBytes: bytesPerSecond, Outcome: artifact.OutcomeOK, TextChars: 20})
			t += lat + gap
		}
	}
	return out
}

func aggregate(n int, win Window, rs []Result) RungStats {
	a := NewRungAggregator(1, n, win)
	for _, r := range rs {
		a.Add(r)
	}
	s := a.Close()
	s.Judge()
	return s
}

func TestRungStatsUsability(t *testing.T) {
	t.Parallel()
	ms100 := 100 * time.Millisecond
	win := Window{Start: 10 * time.Second, End: 20 * time.Second}
	flat := func(time.Duration) time.Duration { return 50 * time.Millisecond }
	tests := []struct {
		name    string
		results []Result
		want    []string
		check   func(t *testing.T, s RungStats)
	}{
		{
			name:    "steady loop is usable",
			results: steady(4, ms100, 21*time.Second, 0, flat),
			check: func(t *testing.T, s RungStats) {
				if math.Abs(s.InFlightMean-4) > 0.01 || s.InFlightPeak != 4 {
					t.Errorf("in-flight mean %.3f peak %d; want 4", s.InFlightMean, s.InFlightPeak)
				}
				if math.Abs(s.RPS-40) > 0.5 {
					t.Errorf("rps %.2f; want 40", s.RPS)
				}
				if s.TTFAB.P95 != 50 || s.Latency.P95 != 100 || s.DriftMsOverWindow != 0 {
					t.Errorf("ttfab %+v latency %+v drift %v", s.TTFAB, s.Latency, s.DriftMsOverWindow)
				}
			},
		},
		{
			// 10 ms of client overhead per 100 ms request leaves 4·100/110 ≈ 3.64 in flight.
			name:    "client gaps make it client-bound",
			results: steady(4, ms100, 21*time.Second, 10*time.Millisecond, flat),
			want:    []string{ReasonClientBound},
		},
		{
			// TTFAB climbing 5 ms per second: 50 ms over the window against a p95 near 145 ms.
			name: "rising TTFAB has not settled",
			results: steady(2, ms100, 21*time.Second, 0, func(s time.Duration) time.Duration {
				return time.Duration(s.Seconds() * 5 * float64(time.Millisecond))
			}),
			want: []string{ReasonNotSettled},
			check: func(t *testing.T, s RungStats) {
				if math.Abs(s.DriftMsPerS-5) > 0.01 || math.Abs(s.DriftMsOverWindow-50) > 0.1 {
					t.Errorf("drift %.3f ms/s %.2f ms; want 5 and 50", s.DriftMsPerS, s.DriftMsOverWindow)
				}
			},
		},
		{
			name:    "nothing completed",
			results: []Result{{Rung: 2, Start: 0, End: 21 * time.Second, Outcome: artifact.OutcomeTransportError}, {Rung: 2, Worker: 1, Start: 0, End: 21 * time.Second, Outcome: artifact.OutcomeTransportError}},
			want:    []string{ReasonNothingCompleted},
		},
		{
			name: "two percent refused is saturated",
			results: func() []Result {
				rs := steady(4, ms100, 21*time.Second, 0, flat)
				for i := 0; i < len(rs); i += 50 {
					rs[i].Outcome = artifact.OutcomeSaturated503
				}
				return rs
			}(),
			want: []string{ReasonSaturated},
		},
		{
			name: "cancelled requests are not counted",
			results: func() []Result {
				rs := steady(4, ms100, 21*time.Second, 0, flat)
				for i := 0; i < len(rs); i += 10 {
					rs[i].Outcome = artifact.OutcomeCancelled
				}
				return rs
			}(),
			check: func(t *testing.T, s RungStats) {
				if s.Outcomes[artifact.OutcomeCancelled] != 0 || s.Requests != s.OK {
					t.Errorf("outcomes %v requests %d ok %d", s.Outcomes, s.Requests, s.OK)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := tc.results[0].Rung
			s := aggregate(n, win, tc.results)
			if !slices.Equal(s.Unusable, tc.want) || s.Usable != (len(tc.want) == 0) {
				t.Errorf("unusable %v usable %v; want %v", s.Unusable, s.Usable, tc.want)
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

func TestJudgeCapacityChanged(t *testing.T) {
	t.Parallel()
	s := aggregate(1, Window{Start: 0, End: 10 * time.Second}, steady(1, 100*time.Millisecond, 11*time.Second, 0, func(time.Duration) time.Duration { return time.Millisecond }))
	s.CapacityBefore, s.CapacityAfter = 1, 2
	s.Judge()
	if s.Usable || !slices.Equal(s.Unusable, []string{ReasonCapacityChanged}) {
		t.Errorf("unusable %v", s.Unusable)
	}
}

func TestSummarizeRun(t *testing.T) {
	t.Parallel()
	slo := time.Second
	rung := func(n int, p95 float64, reasons ...string) RungStats {
		return RungStats{N: n, OK: 10, TTFAB: Quantiles{P95: p95}, Latency: Quantiles{P95: p95 + 1}, LatencyMean: p95 / 2,
			Usable: len(reasons) == 0, Unusable: reasons}
	}
	tests := []struct {
		name          string
		rungs         []RungStats
		qmax, bracket int
		sRung         int
	}{
		{"bracketed by the next rung", []RungStats{rung(1, 100), rung(2, 400), rung(4, 900), rung(8, 1800)}, 4, 8, 1},
		{"not bracketed", []RungStats{rung(1, 100), rung(2, 400)}, 2, 0, 1},
		{"an unusable rung under the SLO does not count", []RungStats{rung(1, 100), rung(2, 400), rung(4, 900, ReasonNotSettled), rung(8, 1800)}, 2, 8, 1},
		{"saturation brackets", []RungStats{rung(1, 100), rung(2, 400), rung(4, 500, ReasonSaturated)}, 2, 4, 1},
		{"client-bound rung over the SLO does not bracket", []RungStats{rung(1, 100), rung(2, 1400, ReasonClientBound)}, 1, 0, 1},
		{"S from the lowest usable rung", []RungStats{rung(1, 100, ReasonNotSettled), rung(2, 400), rung(4, 800)}, 4, 0, 2},
		{"nothing meets the SLO", []RungStats{rung(1, 1100), rung(2, 2000)}, 0, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := SummarizeRun(1, tc.rungs, slo)
			if s.QMax != tc.qmax || s.BracketRung != tc.bracket || s.Bracketed != (tc.bracket > 0) || s.SRung != tc.sRung {
				t.Errorf("got q_max %d bracket %d/%v s_rung %d; want %d %d %d", s.QMax, s.BracketRung, s.Bracketed, s.SRung, tc.qmax, tc.bracket, tc.sRung)
			}
		})
	}
}

// Over several runs each number is taken on the safe side: the smallest Q_max and the largest
// service times, so that W_max = SLO − S_p95 holds in the slowest run as well.
func TestSummarizeIsConservative(t *testing.T) {
	t.Parallel()
	got := Summarize([]RunSummary{
		{Run: 1, QMax: 8, Bracketed: true, BracketRung: 16, SRung: 1, SMeanMs: 70, SP95Ms: 90},
		{Run: 2, QMax: 4, Bracketed: true, BracketRung: 8, SRung: 1, SMeanMs: 75, SP95Ms: 85},
		{Run: 3, QMax: 8, SRung: 1, SMeanMs: 72, SP95Ms: 95},
		{Run: 4, QMax: 0}, // found no usable rung: no service time to offer
	})
	want := Summary{QMax: 0, SMeanMs: 75, SP95Ms: 95, Runs: 4}
	if got != want {
		t.Errorf("got %+v; want %+v", got, want)
	}
	got = Summarize([]RunSummary{
		{Run: 1, QMax: 8, Bracketed: true, BracketRung: 16, SRung: 1, SMeanMs: 70, SP95Ms: 90},
		{Run: 2, QMax: 4, Bracketed: true, BracketRung: 8, SRung: 1, SMeanMs: 75, SP95Ms: 85},
		{Run: 3, QMax: 8, SRung: 1, SMeanMs: 72, SP95Ms: 95},
	})
	want = Summary{QMax: 4, Bracketed: true, BracketRung: 8, SMeanMs: 75, SP95Ms: 95, Runs: 3}
	if got != want {
		t.Errorf("got %+v; want %+v", got, want)
	}
	// An interrupted run stopped early for the user's reasons: it does not lower Q_max while a
	// complete run exists, and is all there is otherwise.
	partial := RunSummary{Run: 2, QMax: 1, SRung: 1, SMeanMs: 60, SP95Ms: 60, Interrupted: true}
	got = Summarize([]RunSummary{{Run: 1, QMax: 8, SRung: 1, SMeanMs: 70, SP95Ms: 90}, partial})
	if want := (Summary{QMax: 8, SMeanMs: 70, SP95Ms: 90, Runs: 1}); got != want {
		t.Errorf("with an interrupted run: got %+v; want %+v", got, want)
	}
	if got := Summarize([]RunSummary{partial}); got.QMax != 1 || got.Runs != 1 {
		t.Errorf("only an interrupted run: got %+v", got)
	}
}
