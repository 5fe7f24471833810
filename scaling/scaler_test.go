package scaling

import (
	"fmt"
	"testing"
	"time"
)

func f64(v float64) *float64 { return &v }

func target(min, max int) *ScalableTarget {
	return &ScalableTarget{ServiceNamespace: ServiceNamespace, ResourceID: "endpoint/e/variant/v", ScalableDimension: ScalableDimension,
		MinCapacity: min, MaxCapacity: max}
}

// stepDocs is a step scale-out on the 10 s Maximum of concurrency above 4 (1 of 1 datapoint),
// and a step scale-in at or under 1 (3 of 3), each with the given adjustment and cooldown.
func stepDocs(outType string, outAdj, inAdj, cooldown int) Documents {
	alarm := func(name, op string, th float64, n int, arn string) *MetricAlarm {
		return &MetricAlarm{AlarmName: name, Namespace: MetricNamespace, MetricName: MetricConcurrency, Statistic: "Maximum",
			Period: 10, EvaluationPeriods: n, DatapointsToAlarm: n, Threshold: th, ComparisonOperator: op,
			TreatMissingData: "notBreaching", ActionsEnabled: true, AlarmActions: []string{arn}}
	}
	zero := 0.0
	return Documents{
		ScalableTarget: target(1, 20),
		StepScaleOut: &ScalingPolicy{PolicyName: "out", PolicyType: PolicyTypeStep, StepScalingPolicyConfiguration: &StepScalingConfiguration{
			AdjustmentType: outType, StepAdjustments: []StepAdjustment{{MetricIntervalLowerBound: &zero, ScalingAdjustment: outAdj}},
			Cooldown: cooldown, MetricAggregationType: "Maximum"}},
		ScaleOutAlarm: alarm("out-alarm", "GreaterThanThreshold", 4, 1, StepScaleOutARNPlaceholder),
		StepScaleIn: &ScalingPolicy{PolicyName: "in", PolicyType: PolicyTypeStep, StepScalingPolicyConfiguration: &StepScalingConfiguration{
			AdjustmentType: ChangeInCapacity, StepAdjustments: []StepAdjustment{{MetricIntervalUpperBound: &zero, ScalingAdjustment: inAdj}},
			Cooldown: cooldown, MetricAggregationType: "Maximum"}},
		ScaleInAlarm: alarm("in-alarm", "LessThanOrEqualToThreshold", 1, 3, StepPolicyARNPlaceholder),
	}
}

type activityAt struct {
	at     time.Duration
	from   int
	to     int
	policy string
}

func run(t *testing.T, s *Scaler, until time.Duration, load func(time.Duration) float64) []activityAt {
	t.Helper()
	var out []activityAt
	for at := time.Duration(0); at <= until; at += time.Second {
		v := load(at)
		s.Concurrency(at, v, v)
		for _, a := range s.Advance(at) {
			out = append(out, activityAt{a.At, a.From, a.To, a.Policy})
			s.InService(at, a.To) // capacity arrives at once here
		}
	}
	return out
}

// A step scale-out with its alarm in ALARM acts at once, then again each minute while the
// alarm stays there (CloudWatch invokes an Auto Scaling action once a minute); the cooldown
// holds an equal step back, so with a 120 s cooldown the alarm's invocations at 70 s is
// refused and the one at 130 s acts. Once the load falls, the scale-in alarm needs three low
// datapoints, and then removes one instance a cooldown.
func TestStepPoliciesOverTime(t *testing.T) {
	t.Parallel()
	s, err := NewScaler(stepDocs(ChangeInCapacity, 2, -1, 120), DefaultModel(), 1)
	if err != nil {
		t.Fatal(err)
	}
	load := func(at time.Duration) float64 {
		if at < 200*time.Second {
			return 9
		}
		return 0
	}
	got := run(t, s, 600*time.Second, load)
	want := []activityAt{
		{10 * time.Second, 1, 3, "out"},
		{130 * time.Second, 3, 5, "out"},
		{230 * time.Second, 5, 4, "in"},
		{350 * time.Second, 4, 3, "in"},
		{470 * time.Second, 3, 2, "in"},
		{590 * time.Second, 2, 1, "in"},
	}
	if len(got) != len(want) {
		t.Fatalf("activities %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("activity %d: %v; want %v", i, got[i], want[i])
		}
	}
}

// During a scale-out's cooldown a larger step adds only the difference: +2, then (the load
// doubled) a +50 % step of the capacity before the first one is not larger, and +4 is.
func TestStepCooldownAddsOnlyTheDifference(t *testing.T) {
	t.Parallel()
	docs := stepDocs(ChangeInCapacity, 2, -1, 300)
	five := 5.0
	docs.StepScaleOut.StepScalingPolicyConfiguration.StepAdjustments = []StepAdjustment{
		{MetricIntervalLowerBound: f64(0), MetricIntervalUpperBound: &five, ScalingAdjustment: 2},
		{MetricIntervalLowerBound: &five, ScalingAdjustment: 4},
	}
	s, err := NewScaler(docs, DefaultModel(), 4)
	if err != nil {
		t.Fatal(err)
	}
	load := func(at time.Duration) float64 {
		if at < 60*time.Second {
			return 6 // 2 over the threshold: +2
		}
		return 12 // 8 over: +4, from the capacity before the first step
	}
	got := run(t, s, 200*time.Second, load)
	want := []activityAt{{10 * time.Second, 4, 6, "out"}, {70 * time.Second, 6, 8, "out"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("activities %v; want %v", got, want)
	}
}

// A scale-in alarm that breaches at its threshold (LessThanOrEqualToThreshold) matches its
// step [−∞, 0] there: below the threshold the upper bound is inclusive.
func TestStepAtTheThreshold(t *testing.T) {
	t.Parallel()
	zero := 0.0
	steps := []StepAdjustment{{MetricIntervalUpperBound: &zero, ScalingAdjustment: -1}}
	if adj, ok := stepFor(steps, 0, true); !ok || adj != -1 {
		t.Errorf("at the threshold of a scale-in alarm: %d %v", adj, ok)
	}
	up := []StepAdjustment{{MetricIntervalLowerBound: &zero, ScalingAdjustment: 2}}
	if adj, ok := stepFor(up, 0, false); !ok || adj != 2 {
		t.Errorf("at the threshold of a scale-out alarm: %d %v", adj, ok)
	}
	if _, ok := stepFor(steps, 0, false); ok {
		t.Error("[−∞, 0) matched 0 for an alarm above its threshold")
	}
}

func TestPercentChangeRounding(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ capacity, percent, minMag, want int }{
		{10, 25, 0, 2},   // 2.5 → 2
		{2, 25, 0, 1},    // 0.5 → 1
		{4, 25, 2, 2},    // 1 → at least 2
		{10, -25, 0, -2}, // −2.5 → −2
		{2, -25, 0, -1},  // −0.5 → −1
		{3, 100, 0, 3},
	} {
		t.Run(fmt.Sprintf("%d_%d%%_min%d", c.capacity, c.percent, c.minMag), func(t *testing.T) {
			if got := percentChange(c.capacity, c.percent, c.minMag); got != c.want {
				t.Errorf("%d%% of %d (min %d) = %d; want %d", c.percent, c.capacity, c.minMag, got, c.want)
			}
		})
	}
}

// While the endpoint is updating, an invocation is refused and the alarm tries again a minute
// later.
func TestActivitiesWaitForTheUpdate(t *testing.T) {
	t.Parallel()
	s, err := NewScaler(stepDocs(ChangeInCapacity, 2, -1, 0), DefaultModel(), 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []activityAt
	for at := time.Duration(0); at <= 100*time.Second; at += time.Second {
		s.Concurrency(at, 9, 9)
		switch at {
		case 0:
			s.Updating(at, true)
		case 45 * time.Second:
			s.Updating(at, false)
		}
		for _, a := range s.Advance(at) {
			got = append(got, activityAt{a.At, a.From, a.To, a.Policy})
		}
	}
	if len(got) != 1 || got[0] != (activityAt{70 * time.Second, 1, 3, "out"}) || s.Deferred() != 1 {
		t.Errorf("activities %v, %d deferred; want one at 70 s after one refused at 10 s", got, s.Deferred())
	}
}

// Target tracking on invocations: InvocationsPerInstance sums 1/instances per request over a
// minute; three minutes over the target scale out in proportion.
// At 30 requests a second on 2 instances, InvocationsPerInstance reads 900 a minute, in AWS's
// time and in time compressed tenfold at the same rate.
func TestTargetTrackingOnInvocations(t *testing.T) {
	t.Parallel()
	docs := Documents{ScalableTarget: target(2, 10), TargetTracking: &ScalingPolicy{PolicyName: "tt", PolicyType: PolicyTypeTargetTracking,
		TargetTrackingScalingPolicyConfiguration: &TargetTrackingConfiguration{TargetValue: 600,
			PredefinedMetricSpecification: PredefinedMetric{PredefinedMetricType: PredefinedInvocations}, DisableScaleIn: true}}}
	for _, scale := range []float64{1, 0.1} {
		m := DefaultModel()
		m.TimeScale = scale
		s, err := NewScaler(docs, m, 2)
		if err != nil {
			t.Fatal(err)
		}
		var got []Activity
		run := time.Duration(float64(4*time.Minute) * scale)
		for at := time.Duration(0); at <= run; at += time.Second / 30 {
			s.Invocation(at)
			got = append(got, s.Advance(at)...)
		}
		if want := time.Duration(float64(3*time.Minute) * scale); len(got) != 1 || got[0].At != want || got[0].To != 3 {
			t.Errorf("time scale %g: activities %v; want one at %v to ⌈2 × 900/600⌉ = 3", scale, got, want)
		}
	}
}

// Time scale 0.1 plays the same policy ten times faster.
func TestTimeScale(t *testing.T) {
	t.Parallel()
	m := DefaultModel()
	m.TimeScale = 0.1
	s, err := NewScaler(stepDocs(ChangeInCapacity, 2, -1, 120), m, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []activityAt
	for at := time.Duration(0); at <= 20*time.Second; at += 100 * time.Millisecond {
		s.Concurrency(at, 9, 9)
		for _, a := range s.Advance(at) {
			got = append(got, activityAt{a.At, a.From, a.To, a.Policy})
			s.InService(at, a.To)
		}
	}
	if len(got) != 2 || got[0].at != time.Second || got[1].at != 13*time.Second {
		t.Errorf("activities %v; want at 1 s and 13 s", got)
	}
}

func TestNewScalerRefusesWhatItCannotModel(t *testing.T) {
	t.Parallel()
	bad := stepDocs(ChangeInCapacity, 2, -1, 0)
	bad.ScaleOutAlarm = nil
	for name, d := range map[string]Documents{
		"no target":        {},
		"policy, no alarm": bad,
		"bounds":           {ScalableTarget: target(3, 2)},
	} {
		if _, err := NewScaler(d, DefaultModel(), 1); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
