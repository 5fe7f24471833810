package planner

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/replay"
	"github.com/kokoro-sm/kokoro/scaling"
)

// The chain's exact passage probability agrees with the independent uniformization of the
// surge tests (firstPassage, which shares only the rates), whichever way exceed computes it:
// step by step for short horizons, by squaring the step's matrix for long ones.
func TestChainExceedMatchesFirstPassage(t *testing.T) {
	t.Parallel()
	x := curve{{1, 10}, {4, 30}, {50, 30}} // a server that grows to 3 slots of 10 rps
	const limit = 12
	c := chain{mu: make([]float64, limit+1)}
	for n := range c.mu {
		c.mu[n], _ = x.at(float64(n))
	}
	for _, tc := range []struct {
		lambda, horizon float64
		start           int
	}{{25, 5, 3}, {28, 60, 0}, {20, 300, 2}, {31, 3600, 5}} {
		t.Run(fmt.Sprintf("λ%g_%gs_from%d", tc.lambda, tc.horizon, tc.start), func(t *testing.T) {
			start := make([]float64, limit+1)
			start[tc.start] = 1
			got := c.exceed(tc.lambda, start, limit-1, tc.horizon)
			want := firstPassage(x, tc.lambda, tc.start, limit, tc.horizon)
			if math.Abs(got-want) > 1e-6 {
				t.Errorf("λ %g over %g s from %d: exceed %.9f, first passage %.9f", tc.lambda, tc.horizon, tc.start, got, want)
			}
		})
	}
}

// The stationary distribution of one server with a large limit is M/M/1's: mean ρ/(1−ρ).
func TestChainStationaryIsMM1(t *testing.T) {
	t.Parallel()
	c := chainFor(replay.Service{Servers: 1, Mean: 100 * time.Millisecond}, 400)
	for _, rho := range []float64{0.3, 0.8, 0.95} {
		t.Run(fmt.Sprint(rho), func(t *testing.T) {
			if got, want := c.mean(rho*10), rho/(1-rho); math.Abs(got-want) > 1e-6*want {
				t.Errorf("ρ %.2f: mean %.6f, want %.6f", rho, got, want)
			}
		})
	}
}

// The Monte Carlo check, with exponential service times, agrees with the exact per-instance
// chance of a refusal within T; with nearly fixed ones, its share refused over a long surge
// comes up to the steady state that bounds it.
func TestSimulationMatchesTheExactValues(t *testing.T) {
	t.Parallel()
	const trials = 1000
	exp := newInstance(replay.Service{Servers: 1, Mean: 56 * time.Millisecond, CV: 1}, 50, 3000)
	for i, lambda := range []float64{11, 12.5, 13.5} {
		exact := exp.exp.shed(lambda, 1.25, 300)
		// NaN: no limit to decide against, so every trial runs.
		ck := exp.simulate(lambda, 1.25, 300, math.NaN(), trials, 1e9, uint64(i+1))
		// A 99.9 % band: the 95 % interval misses one time in twenty by design.
		pad := 3.3 / 1.96 * (ck.AnyHi - ck.AnyLow) / 2
		if ck.Trials != trials || exact < ck.AnyLow-pad || exact > ck.AnyHi+pad {
			t.Errorf("λ %g: exact %.4f outside the simulation's %.4f–%.4f over %d trials", lambda, exact, ck.AnyLow, ck.AnyHi, ck.Trials)
		}
	}
	fixed := newInstance(replay.Service{Servers: 1, Mean: 56 * time.Millisecond, CV: 0.05}, 20, 3000)
	lambda := 14.0
	steady := fixed.refused(1.25 * lambda)
	ck := fixed.simulate(lambda, 1.25, 900, math.NaN(), 150, 1e9, 7)
	// The interval is already a 99.9 % one.
	if steady < ck.Low || 0.95*steady > ck.High {
		t.Errorf("steady state %.4g against the simulated surge's %.4g (%.4g–%.4g)", steady, ck.Share, ck.Low, ck.High)
	}
}

// The window maximum's distribution falls with the load and rises with m, and is near 1 at
// almost no load.
func TestWindowMaxIsMonotone(t *testing.T) {
	t.Parallel()
	c := chainFor(replay.Service{Servers: 2, Mean: 200 * time.Millisecond}, 30)
	if f := c.windowMax(0.01, 1, 10); f < 0.99 {
		t.Errorf("P(max ≤ 1) at 0.01 rps = %.4f", f)
	}
	prev := 1.0
	for _, l := range []float64{1, 3, 6, 9} {
		f := c.windowMax(l, 5, 10)
		if f > prev+1e-12 {
			t.Errorf("P(max ≤ 5) rose from %.4f to %.4f at %g rps", prev, f, l)
		}
		prev = f
		if g := c.windowMax(l, 8, 10); g < f-1e-12 {
			t.Errorf("at %g rps P(max ≤ 8) %.4f < P(max ≤ 5) %.4f", l, g, f)
		}
	}
}

func referencePlan(t *testing.T, mut func(*Scenario)) *Plan {
	t.Helper()
	q, err := artifact.ReadQmax(refQmax)
	if err != nil {
		t.Fatal(err)
	}
	tt, err := artifact.ReadTTotal(refTTotal)
	if err != nil {
		t.Fatal(err)
	}
	sc := Scenario{Surge: 1.25, PeakRPS: 5000, TroughRPS: 100, Seed: 1, SurgeTrials: 200}
	if mut != nil {
		mut(&sc)
	}
	p, err := Make(Inputs{Qmax: q, TTotal: tt}, sc)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// On the reference artifacts the arithmetic's target sheds for certain, every candidate is
// judged by its own numbers, and the proposal is the cheapest feasible one; its documents
// carry its numbers.
func TestSearchOnTheReference(t *testing.T) {
	t.Parallel()
	// Enough surges for the proposal's check to decide.
	p := referencePlan(t, func(sc *Scenario) { sc.SurgeTrials = 5000 })
	ps := p.Policy
	pr := ps.proposal()
	if pr == nil {
		t.Fatalf("no proposal: %+v", ps)
	}
	for i, c := range ps.Candidates {
		if c.Feasible != (c.Refused <= ps.MaxRefused && c.Late <= ps.MaxLate) {
			t.Errorf("%s: feasible %v refusing %.4g, late %.4g", c.Kind, c.Feasible, c.Refused, c.Late)
		}
		// The measured spread is far below exponential's: the exponential model is a bound.
		if c.Refused > c.RefusedExponential {
			t.Errorf("%s: refused %.4g above the exponential bound %.4g", c.Kind, c.Refused, c.RefusedExponential)
		}
		if c.Feasible && i != ps.Proposal && c.InstanceHoursPerDay < pr.InstanceHoursPerDay {
			t.Errorf("%s is feasible and cheaper (%.0f) than the proposal %s (%.0f)", c.Kind, c.InstanceHoursPerDay, pr.Kind, pr.InstanceHoursPerDay)
		}
		if c.MinInstances < 1 || c.PeakInstances < c.MinInstances || c.InstanceHoursPerDay < 24*float64(c.MinInstances)-1e-9 {
			t.Errorf("%s: fleet %d–%d, %.0f instance-hours", c.Kind, c.MinInstances, c.PeakInstances, c.InstanceHoursPerDay)
		}
	}
	if ref := ps.Candidates[0]; ref.Kind != KindReference || ref.Refused < 0.1 || ref.Target != 37.5 {
		t.Errorf("reference %+v", ref)
	}
	// The operating load survives, and a little more would not: the search went as far as
	// the limit allows (for a target-tracking policy on invocations, to a whole request a
	// minute).
	q := gqueue{mean: ps.Service.Service.Mean.Seconds(), cv: ps.Service.Service.CV, limit: ps.Limit}
	if got := q.refused(1.25 * pr.OperatingRPS); got > ps.MaxRefused || math.Abs(got-pr.Refused) > 1e-12 {
		t.Errorf("proposal refuses %.4g at its operating load (reported %.4g)", got, pr.Refused)
	}
	if more := q.refused(1.25 * pr.OperatingRPS * 1.01); more <= ps.MaxRefused {
		t.Errorf("1 %% more load still refuses only %.4g: the search stopped short", more)
	}
	// The Monte Carlo check decides the claim, and agrees with the steady state, which bounds
	// the surge's share from above.
	if pr.Sim.Verdict != "below" || pr.Sim.Low > pr.Refused {
		t.Errorf("proposal's simulation %+v against %.4g", pr.Sim, pr.Refused)
	}
	// Each instance refuses within T with the simulated chance, so a fleet of hundreds
	// almost surely has a refusal somewhere.
	if want := 1 - math.Pow(1-pr.Sim.Any, float64(pr.PeakInstances)); math.Abs(pr.FleetAnyRefusal-want) > 1e-12 || pr.FleetAnyRefusal < 0.99 {
		t.Errorf("fleet's chance of any refusal %.4g, want %.4g", pr.FleetAnyRefusal, want)
	}
	d := p.Documents
	if d.ScalableTarget.MinCapacity != pr.MinInstances || d.ScalableTarget.MaxCapacity < pr.PeakInstances {
		t.Errorf("scalable target %+v for fleet %d–%d", d.ScalableTarget, pr.MinInstances, pr.PeakInstances)
	}
	switch pr.Kind {
	case KindTTInvocations:
		tt := d.TargetTracking.TargetTrackingScalingPolicyConfiguration
		if tt.PredefinedMetricSpecification.PredefinedMetricType != scaling.PredefinedInvocations || tt.TargetValue != pr.Target ||
			math.Abs(pr.Target/60-pr.OperatingRPS) > 1e-9 || d.ScaleInAlarm.MetricName != scaling.MetricInvocations {
			t.Errorf("documents %+v for %+v", tt, pr)
		}
	case KindTTConcurrency, KindStepConcurrency:
		if d.ScaleInAlarm.MetricName != scaling.MetricConcurrency {
			t.Errorf("scale-in alarm on %s", d.ScaleInAlarm.MetricName)
		}
	}
	if _, err := scaling.NewScaler(d, scaling.DefaultModel(), pr.MinInstances); err != nil {
		t.Errorf("the proposal's documents do not model: %v", err)
	}
}

// With too few instances allowed no candidate is feasible: the plan stops and names the
// largest surge one survives, and at a slightly smaller surge a plan within the limit exists.
func TestSearchStopsWithinTheInstanceLimit(t *testing.T) {
	t.Parallel()
	limit := func(sc *Scenario) { sc.MaxInstances = 330 }
	p := referencePlan(t, limit)
	if p.Policy.proposal() != nil || p.Verdict != VerdictStop || p.Documents.ScalableTarget != nil {
		t.Fatalf("proposal %+v, verdict %s", p.Policy.proposal(), p.Verdict)
	}
	s := p.Policy.LargestSurge
	if s <= 1 || s >= 1.25 {
		t.Fatalf("largest survivable surge %.4g, want between 1 and 1.25", s)
	}
	q := referencePlan(t, func(sc *Scenario) { limit(sc); sc.Surge = s - 0.02 })
	if pr := q.Policy.proposal(); pr == nil || pr.PeakInstances > 330 {
		t.Errorf("at surge %.3g: proposal %+v", s-0.02, pr)
	}
}

// The report's first lines name the proposal with the numbers its documents hold: the policy,
// the shares refused in the surge and over the day, the fleet and the quota, and T once with
// its parts.
func TestReportLeadsWithTheProposal(t *testing.T) {
	t.Parallel()
	p := referencePlan(t, nil)
	pr := p.Policy.proposal()
	var b strings.Builder
	if err := p.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 9 {
		t.Fatalf("report:\n%s", b.String())
	}
	st := p.Documents.ScalableTarget
	want := []string{
		"Policy: " + pr.Description,
		fmt.Sprintf("refused in a 1.25× surge  %s of requests", pct(pr.Refused)),
		fmt.Sprintf("refused over the day     %s", pct(pr.RefusedDay)),
		fmt.Sprintf("the day, replayed        %.0f instance-hours (%.0f by the load alone)", p.Policy.Day.InstanceHours, pr.InstanceHoursPerDay),
		fmt.Sprintf("%d–%d instances over the day; MaxCapacity %d: the ml.g5.xlarge instance quota", st.MinCapacity, pr.PeakInstances, st.MaxCapacity),
		fmt.Sprintf("detection %.0f s + T_total %.1f s = %.1f s (T_total: desired_set→", pr.DetectS, p.Thresholds.TTotalS, pr.HorizonS),
	}
	head := strings.Join(lines[:9], "\n")
	for _, w := range want {
		if !strings.Contains(head, w) {
			t.Errorf("first lines lack %q:\n%s", w, head)
		}
	}
	if st.MinCapacity != pr.MinInstances || st.MaxCapacity != int(math.Ceil(1.25*float64(pr.PeakInstances))) {
		t.Errorf("scalable target %d–%d for fleet %d–%d", st.MinCapacity, st.MaxCapacity, pr.MinInstances, pr.PeakInstances)
	}
}

// Replaying the day bills what the documents do: a fixed fleet all day; target tracking on
// invocations scales out behind the load and in, a sixth of the fleet per scale-in cooldown,
// behind it again, so it bills more than sizing by the load says. Counting the invocations in
// units changes nothing the policy does.
func TestReplayDay(t *testing.T) {
	t.Parallel()
	p := referencePlan(t, nil)
	pr := p.Policy.proposal()
	d := p.Policy.Day
	if d == nil || d.Skipped != "" || pr.Kind != KindTTInvocations {
		t.Fatalf("day %+v for %s", d, pr.Kind)
	}
	st := p.Documents.ScalableTarget
	if d.ScaleOuts == 0 || d.MostInService < pr.PeakInstances-pr.PeakInstances/20 || d.MostInService > st.MaxCapacity {
		t.Errorf("day %+v: most in service against a peak fleet of %d", d, pr.PeakInstances)
	}
	if d.InstanceHours <= pr.InstanceHoursPerDay || d.AtTroughAgain <= st.MinCapacity || d.AtTroughAgain > 3*st.MinCapacity {
		t.Errorf("day %+v: %.0f instance-hours by the load alone, MinCapacity %d", d, pr.InstanceHoursPerDay, st.MinCapacity)
	}
	// A scale-in removes 16 % of the fleet: at the scale-in level (2/3 of the target at a 1.25×
	// surge) the survivors carry 0.79 of the target.
	in1 := p.Documents.StepScaleIn.StepScalingPolicyConfiguration
	if in1.AdjustmentType != scaling.PercentChangeInCapacity || in1.StepAdjustments[0].ScalingAdjustment != -16 || in1.MinAdjustmentMagnitude != 1 {
		t.Errorf("proposal's scale-in %+v", in1)
	}
	in := newInstance(p.Policy.Service.Service, p.Policy.Limit, p.Scenario.SLOms)
	fixed := p.Documents
	fixed.TargetTracking, fixed.StepScaleIn, fixed.ScaleInAlarm = nil, nil, nil
	fixed.ScalableTarget = &scaling.ScalableTarget{MinCapacity: 400, MaxCapacity: 400}
	if f := replayDay(fixed, in, 100, 5000, 260, invocationCalls); f.InstanceHours != 9600 || f.ScaleOuts+f.ScaleIns != 0 {
		t.Errorf("fixed fleet of 400: %+v", f)
	}
	// A small load counted request by request, and in units of a fifth of its peak.
	small := *p
	small.Scenario.TroughRPS, small.Scenario.PeakRPS = 5, 60
	docs := proposalDocuments(&small, &Candidate{Kind: KindTTInvocations, Target: pr.Target, MinInstances: 1, PeakInstances: 6})
	one := replayDay(docs, in, 5, 60, 260, 60)
	five := replayDay(docs, in, 5, 60, 260, 5)
	if one.ScaleOuts == 0 || math.Abs(one.InstanceHours-five.InstanceHours) > 0.02*one.InstanceHours || one.MostInService != five.MostInService {
		t.Errorf("counted one by one %+v, in fifths %+v", one, five)
	}
}
