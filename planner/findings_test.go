package planner

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Every branch of every finding, each reached through Make from a changed input.
func TestFindingBranches(t *testing.T) {
	t.Parallel()
	type mut struct {
		q  func(q *artifact.Qmax)
		tt func(tt *artifact.TTotal) *artifact.TTotal
		sc func(sc *Scenario)
	}
	cases := []struct {
		name    string
		finding string
		want    Verdict
		m       mut
		text    string // a fragment the summary must contain
	}{
		{"baseline trust", FindingMeasurementTrust, VerdictOK, mut{}, "bracketed"},
		{"no usable rung", FindingMeasurementTrust, VerdictStop, mut{q: func(q *artifact.Qmax) {
			for i := range q.Steps {
				q.Steps[i].Usable = false
			}
		}}, "no usable rung"},
		{"q_max zero", FindingMeasurementTrust, VerdictStop, mut{q: func(q *artifact.Qmax) { q.QMax = 0 }}, "Q_max is 0"},
		{"no service time", FindingMeasurementTrust, VerdictStop, mut{q: func(q *artifact.Qmax) { q.SP95S = 0 }}, "S_p95"},
		{"partial", FindingMeasurementTrust, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.Partial = true }}, "interrupted"},
		{"truncated", FindingMeasurementTrust, VerdictWarn, mut{q: func(q *artifact.Qmax) { v := 60; q.LadderTruncatedAt = &v }}, "stopped at 60"},
		{"not bracketed", FindingMeasurementTrust, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.QMaxBracketed = false }}, "lower bound"},
		{"not frozen", FindingMeasurementTrust, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.Frozen = false }}, "not frozen"},
		{"capacity changed", FindingMeasurementTrust, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.Steps[2].CapacityChanged = true }}, "capacity changed"},
		{"two instances", FindingMeasurementTrust, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.InstanceCountsObserved = []int{1, 2} }}, "instance counts"},
		{"errors below q_max", FindingMeasurementTrust, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.Steps[3].OK -= 100 }}, "failed 100"},
		{"other slo", FindingMeasurementTrust, VerdictWarn, mut{sc: func(sc *Scenario) { sc.SLOms = 2000 }}, "re-derived as 30"},
		{"allowed mismatch", FindingMeasurementTrust, VerdictWarn, mut{
			tt: func(tt *artifact.TTotal) *artifact.TTotal { tt.Fingerprint = "other"; return tt },
			sc: func(sc *Scenario) { sc.AllowConfigMismatch = true }}, "allowed by flag"},

		{"one run", FindingCurveRepeatability, VerdictSuppressed, mut{}, "one run"},

		{"budget ok", FindingSLOBudget, VerdictOK, mut{}, "2.450 s"},
		{"budget tight", FindingSLOBudget, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.SP95S = 2.8 }}, "under 10 %"},
		{"S_p95 at SLO", FindingSLOBudget, VerdictStop, mut{q: func(q *artifact.Qmax) { q.SP95S = 3.0 }}, "≥ SLO"},
		{"S_p95 over SLO", FindingSLOBudget, VerdictStop, mut{q: func(q *artifact.Qmax) { q.SP95S = 3.2 }}, "≥ SLO"},

		{"ceiling ok", FindingInvocationCeiling, VerdictOK, mut{}, "under the 60 s limit"},
		{"deadline over ceiling", FindingInvocationCeiling, VerdictStop, mut{sc: func(sc *Scenario) { sc.CeilingS = 2.5 }}, "exceeds"},
		{"latency at q_max over ceiling", FindingInvocationCeiling, VerdictStop, mut{q: func(q *artifact.Qmax) { q.Steps[5].LatencyP95Ms = 61000 }}, "full latency at Q_max is 61.0 s"},
		{"near ceiling", FindingInvocationCeiling, VerdictWarn, mut{sc: func(sc *Scenario) { sc.CeilingS = 3.5 }}, "within 20 %"},

		{"queue ok", FindingQueueDepth, VerdictOK, mut{}, "MAX_QUEUE_DEPTH=50"},
		{"gate during ladder", FindingQueueDepth, VerdictWarn, mut{q: func(q *artifact.Qmax) {
			q.Target.ContainerEnv = map[string]string{"MAX_QUEUE_DEPTH": "50"}
			q.Fingerprint = q.Target.Fingerprint()
		}, tt: func(tt *artifact.TTotal) *artifact.TTotal { return nil }, sc: func(sc *Scenario) { sc.AssumeTTotalS = 200 }}, "the gate"},
		{"rejections below q_max", FindingQueueDepth, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.Steps[3].Rejected = 5 }}, "rejections"},

		{"units from server", FindingThresholdUnits, VerdictOK, mut{}, "agree at rung 40"},
		{"units from cloudwatch", FindingThresholdUnits, VerdictOK, mut{q: func(q *artifact.Qmax) { q.Steps[4].CWRatio = 1.2 }}, "target 45"},
		{"server disagrees", FindingThresholdUnits, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.Steps[4].ServerConcurrencyMean = 60 }}, "ratio 1.500"},
		{"units unmeasured", FindingThresholdUnits, VerdictWarn, mut{q: func(q *artifact.Qmax) {
			for i := range q.Steps {
				q.Steps[i].ServerConcurrencyMean = 0
			}
		}}, "ratio 1"},

		{"surge not simulated", FindingSurgeSurvival, VerdictSuppressed, mut{q: func(q *artifact.Qmax) { q.QMax = 0 }}, "not simulated"},

		{"floor below min_safe", FindingScaleInSafety, VerdictWarn, mut{sc: func(sc *Scenario) { sc.MinFloor = 2; sc.TroughRPS = 0 }}, "min_safe 3"},
		{"floor at min_safe", FindingScaleInSafety, VerdictOK, mut{}, "≥ min_safe 3"},
		{"surge 1.5", FindingScaleInSafety, VerdictStop, mut{sc: func(sc *Scenario) { sc.Surge = 1.5 }}, "never scale in"},
		{"surge 1.7", FindingScaleInSafety, VerdictStop, mut{sc: func(sc *Scenario) { sc.Surge = 1.7 }}, "never scale in"},
		{"surge 1", FindingScaleInSafety, VerdictStop, mut{sc: func(sc *Scenario) { sc.Surge = 1 }}, "flaps"},

		{"sizing agrees", FindingCapacitySizing, VerdictOK, mut{}, "agree within 25 %"},
		{"sizing without rps", FindingCapacitySizing, VerdictSuppressed, mut{sc: func(sc *Scenario) { sc.PeakRPS, sc.TroughRPS, sc.PeakStreams = 0, 0, 400 }}, "no peak rps"},
		{"naive under-provisions", FindingCapacitySizing, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.SMeanS = 0.1 }}, "under-provisions"},
		{"naive over-provisions", FindingCapacitySizing, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.SMeanS = 2 }}, "over-provisions"},
		{"extrapolated", FindingCapacitySizing, VerdictWarn, mut{q: func(q *artifact.Qmax) { q.Steps = q.Steps[:4] }}, "extrapolated"},

		{"small fleet", FindingFleetCost, VerdictOK, mut{}, "3–12 instances"},
		{"large fleet", FindingFleetCost, VerdictWarn, mut{sc: func(sc *Scenario) { sc.PeakRPS = 20000 }}, "quota"},

		{"measured T", FindingProvisionStage, VerdictOK, mut{}, "longest stage desired_set→in_service"},
		{"assumed T", FindingProvisionStage, VerdictWarn, mut{
			tt: func(*artifact.TTotal) *artifact.TTotal { return nil }, sc: func(sc *Scenario) { sc.AssumeTTotalS = 200 }}, "assumed"},
		{"missing stages", FindingProvisionStage, VerdictWarn, mut{tt: func(tt *artifact.TTotal) *artifact.TTotal {
			tt.MissingStages = []string{artifact.StageTrafficRecovered}
			return tt
		}}, "missing"},
		{"forced without lag", FindingProvisionStage, VerdictWarn, mut{tt: func(tt *artifact.TTotal) *artifact.TTotal {
			tt.PolicyLagBoundS, tt.PlanningS = 0, tt.MeasuredS
			return tt
		}}, "detection lag"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.text == "" {
				t.Fatal("no expected fragment: an empty one is in every summary")
			}
			q := parallelQmax(1)
			tt := ttotalFor(q)
			sc := parallelScenario()
			if c.m.q != nil {
				c.m.q(q)
			}
			if c.m.tt != nil {
				tt = c.m.tt(tt)
			}
			if c.m.sc != nil {
				c.m.sc(&sc)
			}
			in := Inputs{Qmax: q}
			if tt != nil {
				in.TTotal = tt
			}
			p, err := Make(in, sc)
			if err != nil {
				t.Fatal(err)
			}
			f, ok := verdictOf(p, c.finding)
			if !ok {
				t.Fatalf("no %s finding", c.finding)
			}
			if f.Verdict != c.want || !strings.Contains(f.Summary, c.text) {
				t.Errorf("%s = %s %q, want %s containing %q", c.finding, f.Verdict, f.Summary, c.want, c.text)
			}
			// A STOP anywhere withholds the documents; otherwise they are all there.
			if (p.Stops > 0) != (p.Documents.TargetTracking == nil) {
				t.Errorf("stops %d but documents present = %v", p.Stops, p.Documents.TargetTracking != nil)
			}
			if p.Verdict.rank() > f.Verdict.rank() && f.Verdict != VerdictSuppressed {
				t.Errorf("plan verdict %s is milder than finding %s", p.Verdict, f.Verdict)
			}
		})
	}
}

func TestCurveRepeatabilityBranches(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		mut  func(q *artifact.Qmax)
		want Verdict
		text string
	}{
		{"runs agree", func(*artifact.Qmax) {}, VerdictOK, "2 runs agree"},
		{"q_max spread", func(q *artifact.Qmax) { q.QMaxPerRun = []int{50, 30}; q.QMax = 30 }, VerdictWarn, "spreads"},
		{"throughput spread", func(q *artifact.Qmax) {
			for i := range q.Steps {
				if q.Steps[i].RunIndex == 1 {
					q.Steps[i].AchievedRPS *= 0.8
				}
			}
		}, VerdictWarn, "varies"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.text == "" {
				t.Fatal("no expected fragment: an empty one is in every summary")
			}
			q := parallelQmax(2)
			c.mut(q)
			p, err := Make(Inputs{Qmax: q, TTotal: ttotalFor(q)}, parallelScenario())
			if err != nil {
				t.Fatal(err)
			}
			f, _ := verdictOf(p, FindingCurveRepeatability)
			if f.Verdict != c.want || !strings.Contains(f.Summary, c.text) {
				t.Errorf("curve_repeatability = %s %q, want %s containing %q", f.Verdict, f.Summary, c.want, c.text)
			}
		})
	}
}

// The surge_survival verdict follows the simulated probability across the 10 % line.
func TestSurgeSurvivalThreshold(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    float64
		want Verdict
	}{{0, VerdictOK}, {0.10, VerdictOK}, {0.11, VerdictWarn}, {1, VerdictWarn}} {
		t.Run(fmt.Sprint(c.p), func(t *testing.T) {
			p := &Plan{Scenario: Scenario{Surge: 1.25}, Surge: Surge{Trials: 100, Probability: c.p, Limit: 50, HorizonS: 300}}
			if got := surgeSurvival(p).Verdict; got != c.want {
				t.Errorf("P = %v → %s, want %s", c.p, got, c.want)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   func() (Inputs, Scenario)
		want error
	}{
		{"mismatched fingerprints", func() (Inputs, Scenario) {
			q := parallelQmax(1)
			tt := ttotalFor(q)
			tt.Fingerprint, tt.Slug = "deadbeef", "g5xlarge-deadbeef"
			return Inputs{Qmax: q, TTotal: tt}, parallelScenario()
		}, ErrConfigMismatch},
		{"paired with another transport", func() (Inputs, Scenario) {
			q := parallelQmax(1)
			tt := ttotalFor(q)
			tt.Pairs = &artifact.QmaxRef{Transport: artifact.TransportHTTP}
			return Inputs{Qmax: q, TTotal: tt}, parallelScenario()
		}, ErrConfigMismatch},
		{"another model", func() (Inputs, Scenario) {
			q := parallelQmax(1)
			tt := ttotalFor(q)
			tt.Target.Model = "other"
			return Inputs{Qmax: q, TTotal: tt}, parallelScenario()
		}, ErrConfigMismatch},
		{"no qmax", func() (Inputs, Scenario) { return Inputs{}, parallelScenario() }, ErrScenario},
		{"surge below 1", func() (Inputs, Scenario) {
			q := parallelQmax(1)
			sc := parallelScenario()
			sc.Surge = 0.9
			return Inputs{Qmax: q, TTotal: ttotalFor(q)}, sc
		}, ErrScenario},
		{"no peak", func() (Inputs, Scenario) {
			q := parallelQmax(1)
			sc := parallelScenario()
			sc.PeakRPS, sc.TroughRPS = 0, 0
			return Inputs{Qmax: q, TTotal: ttotalFor(q)}, sc
		}, ErrScenario},
		{"trough above peak", func() (Inputs, Scenario) {
			q := parallelQmax(1)
			sc := parallelScenario()
			sc.TroughRPS = 2000
			return Inputs{Qmax: q, TTotal: ttotalFor(q)}, sc
		}, ErrScenario},
		{"no T_total", func() (Inputs, Scenario) { return Inputs{Qmax: parallelQmax(1)}, parallelScenario() }, ErrScenario},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, sc := c.in()
			if _, err := Make(in, sc); !errors.Is(err, c.want) {
				t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
			}
		})
	}
}
