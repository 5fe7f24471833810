package planner

import (
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// parallelQmax is a synthetic ladder of a server that runs requests in parallel: service
// time 0.5 s at any concurrency, so throughput is 2·n rps, and p95 TTFAB grows 50 ms per
// request in flight (3100 ms at 60 breaks the 3000 ms SLO: Q_max 50, bracketed).
func parallelQmax(runs int) *artifact.Qmax {
	q := &artifact.Qmax{
		Header: artifact.Header{
			SchemaVersion: artifact.SchemaVersion,
			Kind:          artifact.KindQmax,
			Provenance:    artifact.Provenance{Tool: "kokoro", SourceFormat: artifact.FormatKokoro},
			Target: artifact.Target{Kind: artifact.TargetSageMaker, Transport: artifact.TransportSageMakerStream,
				Model: "kokoro-82m", Endpoint: "ep", InstanceType: "ml.g6.xlarge", ImageDigest: "sha256:0123456789abcdef"},
		},
		SLOms:  3000,
		Config: artifact.LadderConfig{HoldS: 240, MeasureWindowS: 60, SettleS: 30, Runs: runs, Ladder: []int{1, 10, 20, 30, 40, 50, 60}},
		QMax:   50, QMaxBracketed: true,
		SMeanS: 0.5, SP95S: 0.55,
		Frozen: true, UnboundedQueue: true, InstanceCountsObserved: []int{1},
	}
	for run := range runs {
		q.QMaxPerRun = append(q.QMaxPerRun, 50)
		for i, c := range q.Config.Ladder {
			p95 := 100 + 50*float64(c)
			q.Steps = append(q.Steps, artifact.Rung{
				RunIndex: run, StepIndex: i, Concurrency: c,
				AchievedRPS: 2 * float64(c), Completed: 120 * c, OK: 120 * c,
				OutcomeCounts: map[artifact.Outcome]int{artifact.OutcomeOK: 120 * c},
				TTFABP50Ms:    p95 - 20, TTFABP95Ms: p95, TTFABP99Ms: p95 + 20, LatencyP95Ms: 550,
				SMeanS: 0.5, SP95S: 0.55,
				ConcurrencyMean: float64(c), ConcurrencyPeak: c,
				MeetsSLO: p95 <= 3000, Settled: true, Usable: true,
				ServerConcurrencyMean: float64(c), ServerConcurrencyPeak: float64(c),
				InstanceCounts: []int{1},
			})
		}
	}
	q.Fingerprint, q.Slug = q.Target.Fingerprint(), q.Target.Slug()
	return q
}

// ttotalFor is a measured scale-out of the same configuration as q: 200 s + 60 s lag.
func ttotalFor(q *artifact.Qmax) *artifact.TTotal {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return &artifact.TTotal{
		Header: artifact.Header{
			SchemaVersion: artifact.SchemaVersion, Kind: artifact.KindTTotal,
			Provenance: artifact.Provenance{Tool: "kokoro", SourceFormat: artifact.FormatKokoro},
			Target:     q.Target, Fingerprint: q.Fingerprint, Slug: q.Slug,
		},
		Trigger: "force-desired",
		Stages: []artifact.Stage{
			{Name: artifact.StageDesiredSet, At: t0},
			{Name: artifact.StageInService, At: t0.Add(150 * time.Second)},
			{Name: artifact.StageTrafficRecovered, At: t0.Add(200 * time.Second)},
		},
		Durations: []artifact.Duration{
			{From: artifact.StageDesiredSet, To: artifact.StageInService, Seconds: 150},
			{From: artifact.StageInService, To: artifact.StageTrafficRecovered, Seconds: 50},
		},
		MeasuredS: 200, PolicyLagBoundS: 60, PlanningS: 260,
		FromInstances: 1, ToInstances: 2,
	}
}

func parallelScenario() Scenario {
	return Scenario{SLOms: 3000, Surge: 1.25, PeakRPS: 1000, TroughRPS: 100, MinFloor: 3, Seed: 7, SurgeTrials: 50}
}

func verdictOf(p *Plan, name string) (Finding, bool) {
	for _, f := range p.Findings {
		if f.Name == name {
			return f, true
		}
	}
	return Finding{}, false
}
