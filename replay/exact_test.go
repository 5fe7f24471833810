package replay

import (
	"math"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/scaling"
)

func meanTTFAB(t *testing.T, r *Result) (mean float64, waited float64) {
	t.Helper()
	var sum float64
	n, w := 0, 0
	for _, q := range r.Requests {
		if q.Outcome != OutcomeOK {
			t.Fatalf("request %+v refused with no admission bound", q)
		}
		sum += q.TTFAB.Seconds()
		n++
		if q.TTFAB > 0 {
			w++
		}
	}
	return sum / float64(n), float64(w) / float64(n)
}

func poisson(rps float64, length time.Duration, seed uint64) []Arrival {
	return Rate{Points: []RatePoint{{0, rps}}}.Poisson(length, seed)
}

// A fixed fleet of one instance with one server and a fixed service time is an M/D/1 queue:
// the mean wait is ρS/(2(1−ρ)) (Pollaczek–Khinchine) and a request waits with probability ρ.
// With the first audio at the start of service, the time to first audio is the wait.
func TestFixedFleetIsMD1(t *testing.T) {
	t.Parallel()
	const lambda, service = 5.0, 100 * time.Millisecond
	rho := lambda * service.Seconds()
	res, err := Run(Config{Service: Service{Servers: 1, Mean: service}, Start: 1, Seed: 7, KeepRequests: true},
		poisson(lambda, 40000*time.Second, 3))
	if err != nil {
		t.Fatal(err)
	}
	mean, waited := meanTTFAB(t, res)
	want := rho * service.Seconds() / (2 * (1 - rho))
	if math.Abs(mean-want)/want > 0.03 || math.Abs(waited-rho) > 0.01 {
		t.Errorf("M/D/1 at ρ %.2f: mean wait %.4f s (want %.4f), waited %.3f (want %.3f) over %d requests",
			rho, mean, want, waited, rho, len(res.Requests))
	}
}

// erlangC is the probability that a request waits in an M/M/c queue with offered load a = λ/μ.
func erlangC(c int, a float64) float64 {
	term, sum := 1.0, 1.0 // a^k/k! for k = 0
	for k := 1; k < c; k++ {
		term *= a / float64(k)
		sum += term
	}
	last := term * a / float64(c) * float64(c) / (float64(c) - a)
	return last / (sum + last)
}

// Three servers with exponential service are an M/M/3 queue: a request waits with Erlang C's
// probability, for C/(cμ − λ) on average.
func TestFixedFleetIsMMc(t *testing.T) {
	t.Parallel()
	const c, lambda, mu = 3, 24.0, 10.0
	res, err := Run(Config{Service: Service{Servers: c, Mean: time.Second / mu, CV: 1}, Start: 1, Seed: 11, KeepRequests: true},
		poisson(lambda, 20000*time.Second, 5))
	if err != nil {
		t.Fatal(err)
	}
	mean, waited := meanTTFAB(t, res)
	pc := erlangC(c, lambda/mu)
	want := pc / (c*mu - lambda)
	if math.Abs(mean-want)/want > 0.04 || math.Abs(waited-pc) > 0.01 {
		t.Errorf("M/M/%d at λ %g, μ %g: mean wait %.4f s (want %.4f), waited %.3f (want %.3f)", c, lambda, mu, mean, want, waited, pc)
	}
}

// Two instances under least-outstanding routing with one server each share their queue like
// M/M/2 only roughly; under random routing each is an M/M/1 at half the load: mean wait
// ρ/(μ−λ/2).
func TestRandomRoutingSplitsTheLoad(t *testing.T) {
	t.Parallel()
	const lambda, mu = 12.0, 10.0
	res, err := Run(Config{Service: Service{Servers: 1, Mean: time.Second / mu, CV: 1}, Start: 2, Seed: 13, KeepRequests: true},
		poisson(lambda, 20000*time.Second, 9))
	if err != nil {
		t.Fatal(err)
	}
	mean, _ := meanTTFAB(t, res)
	rho := lambda / 2 / mu
	want := rho / (mu - lambda/2)
	if math.Abs(mean-want)/want > 0.04 {
		t.Errorf("two M/M/1 at ρ %.2f: mean wait %.4f s, want %.4f", rho, mean, want)
	}
}

func every(from, to, gap time.Duration) []Arrival {
	var out []Arrival
	for at := from; at < to; at += gap {
		out = append(out, Arrival{At: at})
	}
	return out
}

func target(min, max int) *scaling.ScalableTarget {
	return &scaling.ScalableTarget{ServiceNamespace: scaling.ServiceNamespace, ResourceID: "endpoint/e/variant/v",
		ScalableDimension: scaling.ScalableDimension, MinCapacity: min, MaxCapacity: max}
}

// The scale-out timeline of a step in load, worked by hand. One instance serves one request a
// second. Until 100 s a request comes every 2 s: at most one is in the instance, under the
// target of 2. From 100 s three come a second and the queue grows by two a second, so the
// 10 s Maximum of ConcurrentRequestsPerModel breaches the target in the periods ending at 110,
// 120 and 130 s: target tracking's scale-out alarm (3 datapoints) goes off at 130 s and asks
// for ⌈1 × 59/2⌉ instances, the most allowed being 4. They serve 100 s later, at 230 s; the
// requests stop at 250 s and the queue drains. No request is refused: there is no bound.
func TestScaleOutTimelineByHand(t *testing.T) {
	t.Parallel()
	arr := append(every(0, 100*time.Second, 2*time.Second), every(100*time.Second, 250*time.Second, time.Second/3)...)
	docs := scaling.Documents{
		ScalableTarget: target(1, 4),
		TargetTracking: &scaling.ScalingPolicy{PolicyName: "tt", PolicyType: scaling.PolicyTypeTargetTracking,
			TargetTrackingScalingPolicyConfiguration: &scaling.TargetTrackingConfiguration{TargetValue: 2,
				PredefinedMetricSpecification: scaling.PredefinedMetric{PredefinedMetricType: scaling.PredefinedConcurrency},
				ScaleOutCooldown:              30, ScaleInCooldown: 300, DisableScaleIn: true}},
	}
	res, err := Run(Config{Service: Service{Servers: 1, Mean: time.Second}, Documents: docs, Model: scaling.DefaultModel(),
		Provision: []time.Duration{100 * time.Second}, Seed: 1}, arr)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Activities) != 1 {
		t.Fatalf("activities %v; want one scale-out", res.Activities)
	}
	a := res.Activities[0]
	if a.At != 130*time.Second || a.From != 1 || a.To != 4 {
		t.Errorf("scale-out %v; want at 130 s from 1 to 4", a)
	}
	var served time.Duration
	for _, c := range res.Capacity {
		if c.InService == 4 && served == 0 {
			served = c.At
		}
	}
	if served != 230*time.Second {
		t.Errorf("4 instances in service at %v; want 230 s (capacity %v)", served, res.Capacity)
	}
	if s := res.Summary; s.Requests != len(arr) || s.OK != len(arr) || s.Shed != 0 {
		t.Errorf("summary %+v; want all %d requests served", s, len(arr))
	}
}

// The same step against a bound of 20 requests in the instance: requests are refused from the
// moment the queue reaches it (10 s after the step, in the second minute) until the new
// instances serve at 230 s (the fourth minute), and in those minutes alone.
func TestAdmissionBoundShedsUntilCapacityArrives(t *testing.T) {
	t.Parallel()
	arr := append(every(0, 100*time.Second, 2*time.Second), every(100*time.Second, 400*time.Second, time.Second/3)...)
	docs := scaling.Documents{
		ScalableTarget: target(1, 4),
		TargetTracking: &scaling.ScalingPolicy{PolicyName: "tt", PolicyType: scaling.PolicyTypeTargetTracking,
			TargetTrackingScalingPolicyConfiguration: &scaling.TargetTrackingConfiguration{TargetValue: 2,
				PredefinedMetricSpecification: scaling.PredefinedMetric{PredefinedMetricType: scaling.PredefinedConcurrency},
				DisableScaleIn:                true}},
	}
	res, err := Run(Config{Service: Service{Servers: 1, Mean: time.Second}, MaxQueueDepth: 20, SLO: 30 * time.Second,
		Documents: docs, Model: scaling.DefaultModel(), Provision: []time.Duration{100 * time.Second}, Seed: 1}, arr)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Minutes {
		start := m.Start / time.Minute
		switch {
		case start == 0 && m.Shed != 0:
			t.Errorf("minute %d: %d shed before the step", start, m.Shed)
		case start >= 1 && start <= 3 && m.Shed == 0:
			t.Errorf("minute %d: nothing shed while one instance faces three times its capacity", start)
		case start >= 4 && m.Shed != 0:
			t.Errorf("minute %d: %d shed with four instances serving three requests a second", start, m.Shed)
		}
	}
	if s := res.Summary; s.Shed == 0 || s.OK+s.Shed != s.Requests {
		t.Errorf("summary %+v", s)
	}
}
