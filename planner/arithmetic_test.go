package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/kokoro-sm/kokoro/artifact"
)

func TestMinSafe(t *testing.T) {
	t.Parallel()
	cases := []struct {
		surge float64
		want  int
	}{
		{1.25, 3},  // r = 1.5
		{1.2, 4},   // r = 0.8/0.6
		{1.1, 9},   // r = 0.9/0.8
		{1.05, 19}, // r = 0.95/0.9: exactly 19, where rounding would give 20
		{1.4, 2},   // r = 3 → bound 1.5, but N starts at 2
		{1.0, 0},   // r = 1: no safe N
		{1.5, 0},   // C_scale_min = 0
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.surge), func(t *testing.T) {
			h := c.surge - 1
			if got := minSafe((1-h)*50, (1-2*h)*50); got != c.want {
				t.Errorf("surge %v: min_safe = %d, want %d", c.surge, got, c.want)
			}
			// The definition itself: N/(N−1) ≤ r for the answer, not for N−1.
			if c.want > 2 {
				r := (1 - h) / (1 - 2*h)
				n := float64(c.want)
				if n/(n-1) > r*(1+1e-9) || (n-1)/(n-2) <= r*(1-1e-9) {
					t.Errorf("surge %v: %d is not the smallest N with N/(N−1) ≤ %v", c.surge, c.want, r)
				}
			}
		})
	}
}

func TestCooldowns(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tTotal, lag float64
		out, in     int
	}{
		{5, 5, 10, 300},    // T/2 = 5 → clamped up to 10
		{30, 10, 20, 300},  // T/2 = 20
		{100, 60, 30, 480}, // T/2 = 80 → 30; 3T = 480
		{260.248496, 60, 30, 960},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("T%v_lag%v", c.tTotal, c.lag), func(t *testing.T) {
			q := parallelQmax(1)
			sc := parallelScenario()
			sc.AssumeTTotalS, sc.PolicyLagBoundS = c.tTotal, c.lag
			p, err := Make(Inputs{Qmax: q}, sc)
			if err != nil {
				t.Fatal(err)
			}
			th := p.Thresholds
			if th.TS != c.tTotal+c.lag || th.CooldownOutS != c.out || th.CooldownInS != c.in {
				t.Errorf("T_total %v + %v: T %v, cooldowns %d/%d, want %d/%d", c.tTotal, c.lag, th.TS, th.CooldownOutS, th.CooldownInS, c.out, c.in)
			}
		})
	}
}

func TestRederiveQmaxForAnotherSLO(t *testing.T) {
	t.Parallel()
	in := refInputs(t)
	for _, c := range []struct {
		slo       float64
		want      int
		bracketed bool
	}{
		{3000, 50, true},  // the artifact's own
		{2000, 30, true},  // rung 40 is at 2245 ms
		{5000, 60, false}, // every rung meets it: a lower bound
		{50, 0, true},     // none does
	} {
		t.Run(fmt.Sprint(c.slo), func(t *testing.T) {
			sc := refScenario()
			sc.SLOms = c.slo
			p, err := Make(in, sc)
			if err != nil {
				t.Fatal(err)
			}
			if p.Thresholds.QMax != c.want || p.Thresholds.QMaxBracketed != c.bracketed {
				t.Errorf("SLO %v: Q_max %d bracketed %v, want %d %v", c.slo, p.Thresholds.QMax, p.Thresholds.QMaxBracketed, c.want, c.bracketed)
			}
			if p.Thresholds.QMaxRederived != (c.slo != 3000) {
				t.Errorf("SLO %v: rederived = %v", c.slo, p.Thresholds.QMaxRederived)
			}
		})
	}
}

func TestThroughputInterpolation(t *testing.T) {
	t.Parallel()
	k := curve{{1, 16}, {5, 18}, {10, 20}}
	for _, c := range []struct {
		n, want float64
		inside  bool
	}{
		{0, 0, true}, {0.5, 8, true}, {1, 16, true}, {3, 17, true}, {7.5, 19, true}, {10, 20, true}, {12, 20, false},
	} {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			got, in := k.at(c.n)
			if math.Abs(got-c.want) > 1e-12 || in != c.inside {
				t.Errorf("X(%v) = %v (inside %v), want %v (%v)", c.n, got, in, c.want, c.inside)
			}
		})
	}
	// Two runs: the slower one sizes the fleet.
	q := parallelQmax(2)
	for i := range q.Steps {
		if q.Steps[i].RunIndex == 1 {
			q.Steps[i].AchievedRPS *= 0.9
		}
	}
	rps, run, _ := throughputAt(runCurves(q), 37.5)
	if run != 1 || math.Abs(rps-0.9*75) > 1e-9 {
		t.Errorf("throughput at 37.5 = %v from run %d, want 67.5 from run 1", rps, run)
	}
}

func TestFleetFromStreams(t *testing.T) {
	t.Parallel()
	q := parallelQmax(1)
	sc := parallelScenario()
	sc.PeakRPS, sc.TroughRPS, sc.PeakStreams, sc.TroughStreams, sc.MinFloor = 0, 0, 400, 100, 1
	p, err := Make(Inputs{Qmax: q, TTotal: ttotalFor(q)}, sc)
	if err != nil {
		t.Fatal(err)
	}
	// ceil(400/37.5) = 11, ceil(100/37.5) = 3.
	if p.Fleet.MaxFromStreams != 11 || p.Fleet.MaxInstances != 11 || p.Fleet.MinInstances != 3 {
		t.Errorf("fleet %+v, want max 11 from streams, min 3", p.Fleet)
	}
}

func TestPolicyDocuments(t *testing.T) {
	t.Parallel()
	q := parallelQmax(1)
	q.Steps[4].CWRatio = 1.2 // rung 40, nearest C_scale_max 37.5
	sc := parallelScenario()
	sc.VariantName = "v1"
	p, err := Make(Inputs{Qmax: q, TTotal: ttotalFor(q)}, sc)
	if err != nil {
		t.Fatal(err)
	}
	// The arithmetic's documents: target tracking at C_scale_max, kept beside the proposal.
	d := p.ReferenceDocuments
	if d.ScalableTarget.MinCapacity != 3 || d.ScalableTarget.MaxCapacity != 14 || d.ScalableTarget.ResourceID != "endpoint/ep/variant/v1" {
		t.Errorf("scalable target %+v", d.ScalableTarget)
	}
	tt := d.TargetTracking.TargetTrackingScalingPolicyConfiguration
	if d.TargetTracking.PolicyType != "TargetTrackingScaling" || tt.TargetValue != 45 || !tt.DisableScaleIn ||
		tt.PredefinedMetricSpecification.PredefinedMetricType != "SageMakerVariantConcurrentRequestsPerModelHighResolution" ||
		tt.ScaleOutCooldown != 30 || tt.ScaleInCooldown != 780 {
		t.Errorf("target tracking %+v", tt)
	}
	st := d.StepScaleIn.StepScalingPolicyConfiguration
	if d.StepScaleIn.PolicyType != "StepScaling" || st.AdjustmentType != "ChangeInCapacity" || len(st.StepAdjustments) != 1 ||
		st.StepAdjustments[0].ScalingAdjustment != -1 || st.StepAdjustments[0].MetricIntervalUpperBound == nil ||
		*st.StepAdjustments[0].MetricIntervalUpperBound != 0 || st.StepAdjustments[0].MetricIntervalLowerBound != nil || st.Cooldown != 780 {
		t.Errorf("step scale-in %+v", st)
	}
	a := d.ScaleInAlarm
	if a.Threshold != 30 || a.ComparisonOperator != "LessThanOrEqualToThreshold" || a.Period != 10 || a.Statistic != "Maximum" ||
		a.MetricName != "ConcurrentRequestsPerModel" || a.Namespace != "AWS/SageMaker" || a.Period*a.EvaluationPeriods > 86400 ||
		a.Dimensions[0] != (Dimension{Name: "EndpointName", Value: "ep"}) || a.Dimensions[1] != (Dimension{Name: "VariantName", Value: "v1"}) {
		t.Errorf("alarm %+v", a)
	}
	if d.ContainerEnv["MAX_QUEUE_DEPTH"] != "50" {
		t.Errorf("container env %v", d.ContainerEnv)
	}
	files, err := p.Files(Page{})
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(files[FileTargetTracking], &raw); err != nil {
		t.Fatal(err)
	}
	cfg, _ := raw["TargetTrackingScalingPolicyConfiguration"].(map[string]any)
	if cfg["DisableScaleIn"] != true || raw["ServiceNamespace"] != "sagemaker" || raw["ScalableDimension"] != "sagemaker:variant:DesiredInstanceCount" {
		t.Errorf("target tracking JSON %s", files[FileTargetTracking])
	}
	if len(files) != 8 {
		t.Errorf("Files wrote %v", FileNames(files))
	}
}

func TestPlanIsReproducible(t *testing.T) {
	t.Parallel()
	in := refInputs(t)
	a, err := Make(in, refScenario())
	if err != nil {
		t.Fatal(err)
	}
	b, err := Make(in, refScenario())
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Error("two plans from the same inputs and seed differ")
	}
}

func TestSurgeSimulation(t *testing.T) {
	t.Parallel()
	flat := curve{{1, 16}, {5, 17.9}, {60, 17.9}}
	linear := curve{{1, 1}, {1000, 1000}} // X(n) = n/S with S = 1 s: parallel service

	// A serialized server at its plateau: any surge grows the queue, about 4.5 req/s.
	s := simulateSurge(flat, 37.5, 50, 1.25, 320, 200, 1)
	if s.Probability < 0.99 || s.Start != 38 || math.Abs(s.ArrivalRPS-1.25*17.9) > 1e-9 || s.MedianHitS <= 0 || s.MedianHitS > 20 {
		t.Errorf("plateau: %+v", s)
	}
	// No surge and a far limit on a parallel server: ~Poisson(300) never reaches 400.
	s = simulateSurge(linear, 300, 400, 1.0, 10, 100, 1)
	if s.Probability > 0.02 {
		t.Errorf("parallel, no surge: P = %v", s.Probability)
	}
	// Same seed, same answer; the paths are coupled, so a longer horizon never lowers P.
	a := simulateSurge(linear, 37.5, 50, 1.25, 20, 300, 42)
	b := simulateSurge(linear, 37.5, 50, 1.25, 20, 300, 42)
	if a != b {
		t.Errorf("not reproducible: %+v vs %+v", a, b)
	}
	prev := -1.0
	for _, horizon := range []float64{1, 5, 20, 80} {
		p := simulateSurge(linear, 37.5, 50, 1.25, horizon, 300, 42).Probability
		if p < prev {
			t.Errorf("P fell from %v to %v when the horizon grew to %v", prev, p, horizon)
		}
		prev = p
	}
	// Starting at the limit has nothing to simulate.
	if s := simulateSurge(flat, 50, 50, 1.25, 10, 10, 1); s.Probability != 1 {
		t.Errorf("start at Q_max: P = %v", s.Probability)
	}
}

func TestSurgeBudget(t *testing.T) {
	t.Parallel()
	fast := curve{{1, 1e4}, {10, 1e5}}
	// X(7.5) = 75000: (93750 + 1e5) events/s × 4 s = 7.75e5 per trial, so 129 of the 1000
	// trials fit the budget.
	s := simulateSurge(fast, 7.5, 10, 1.25, 4, 1000, 1)
	if s.Trials != 129 || s.Skipped != "" {
		t.Errorf("reduced run: trials %d skipped %q", s.Trials, s.Skipped)
	}
	s = simulateSurge(fast, 7.5, 10, 1.25, 10, 1000, 1) // 1.94e6 per trial: not even 100 fit
	if s.Trials != 0 || s.Skipped == "" {
		t.Errorf("over budget: trials %d skipped %q", s.Trials, s.Skipped)
	}
	if s := simulateSurge(fast, 7.5, maxSurgeLimit+1, 1.25, 1, 10, 1); s.Trials != 0 || s.Skipped == "" {
		t.Errorf("huge Q_max: trials %d skipped %q", s.Trials, s.Skipped)
	}
}

// With MAX_QUEUE_DEPTH = Q_max an overloaded rung shows as rejections, not as a slow p95: a
// saturated rung above Q_max brackets it, as the bench reports; a client-bound one does not.
func TestRederivedQmaxIsBracketedBySaturation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		mark      func(*artifact.Rung)
		bracketed bool
	}{
		{"saturated", func(r *artifact.Rung) { r.Saturated, r.Usable, r.OK = true, false, 0 }, true},
		{"client-bound", func(r *artifact.Rung) { r.ClientBound, r.Usable = true, false }, false},
	} {
		in := refInputs(t)
		q := *in.Qmax
		q.Steps = nil
		for _, r := range in.Qmax.Steps {
			if r.Concurrency > 50 {
				c.mark(&r)
			}
			q.Steps = append(q.Steps, r)
		}
		in.Qmax = &q
		sc := refScenario()
		sc.SLOms = 3001 // forces the re-derivation
		p, err := Make(in, sc)
		if err != nil {
			t.Fatal(err)
		}
		if p.Thresholds.QMax != 50 || p.Thresholds.QMaxBracketed != c.bracketed {
			t.Errorf("%s rung 60: Q_max %d bracketed %v, want 50 %v", c.name, p.Thresholds.QMax, p.Thresholds.QMaxBracketed, c.bracketed)
		}
	}
}
