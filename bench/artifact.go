package bench

import (
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Artifact maps the report onto the qmax artifact. target says what was measured (the
// fingerprint and slug are derived from it when written); unboundedQueue records whether the
// server's admission gate was off, which only the caller can know.
func (r *Report) Artifact(target artifact.Target, prov artifact.Provenance, unboundedQueue bool) *artifact.Qmax {
	cfg := r.Config
	target.Transport = r.Transport
	q := &artifact.Qmax{
		Header: artifact.Header{
			SchemaVersion: artifact.SchemaVersion,
			Kind:          artifact.KindQmax,
			Provenance:    prov,
			Target:        target,
		},
		SLOms: ms(cfg.SLO),
		Config: artifact.LadderConfig{
			HoldS: cfg.Hold.Seconds(), MeasureWindowS: cfg.MeasureWindow.Seconds(), SettleS: cfg.Settle.Seconds(),
			Runs: cfg.Runs, Seed: int64(cfg.Seed), Ladder: append([]int(nil), cfg.Ladder...),
		},
		QMax:           r.Summary.QMax,
		QMaxBracketed:  r.Summary.Bracketed,
		SMeanS:         r.Summary.SMeanMs / 1000,
		SP95S:          r.Summary.SP95Ms / 1000,
		Partial:        r.Partial,
		Frozen:         r.Frozen,
		UnboundedQueue: unboundedQueue,
	}
	seenCap := map[int]bool{}
	for _, run := range r.Runs {
		q.QMaxPerRun = append(q.QMaxPerRun, run.QMax)
		if run.StoppedSaturated && len(run.Rungs) > 0 && q.LadderTruncatedAt == nil {
			at := run.Rungs[len(run.Rungs)-1].N
			q.LadderTruncatedAt = &at
		}
		for i, s := range run.Rungs {
			q.Steps = append(q.Steps, rungArtifact(r.Epoch, i, s, cfg.SLO))
			for _, c := range []int{s.CapacityBefore, s.CapacityAfter} {
				if c > 0 && !seenCap[c] {
					seenCap[c] = true
					q.InstanceCountsObserved = append(q.InstanceCountsObserved, c)
				}
			}
		}
	}
	// The TTFAB figures at Q_max and at concurrency 1 come from the run that set Q_max.
	for _, run := range r.Runs {
		if run.QMax != r.Summary.QMax {
			continue
		}
		for _, s := range run.Rungs {
			if s.N == run.QMax && s.Usable {
				q.TTFABP95AtQMaxMs = s.TTFAB.P95
			}
			if s.N == 1 && s.OK > 0 {
				q.TTFABP95AtC1Ms = s.TTFAB.P95
			}
		}
		break
	}
	return q
}

func rungArtifact(epoch time.Time, step int, s RungStats, slo time.Duration) artifact.Rung {
	started := epoch.Add(s.Started).UTC()
	out := artifact.Rung{
		RunIndex:        s.Run,
		StepIndex:       step,
		Concurrency:     s.N,
		StartedAt:       &started,
		AchievedRPS:     s.RPS,
		Completed:       s.Requests,
		OK:              s.OK,
		Rejected:        s.Outcomes[artifact.OutcomeSaturated503] + s.Outcomes[artifact.OutcomeThrottled429],
		OutcomeCounts:   map[artifact.Outcome]int{},
		Chars:           s.Chars,
		TTFABP50Ms:      s.TTFAB.P50,
		TTFABP95Ms:      s.TTFAB.P95,
		TTFABP99Ms:      s.TTFAB.P99,
		LatencyP95Ms:    s.Latency.P95,
		SMeanS:          s.LatencyMean / 1000,
		SP95S:           s.Latency.P95 / 1000,
		ConcurrencyMean: s.InFlightMean,
		ConcurrencyPeak: s.InFlightPeak,
		TTFABDriftMs:    s.DriftMsOverWindow,
		StallP95Ms:      s.Stall.P95,
		MeetsSLO:        s.OK > 0 && s.TTFAB.P95 <= ms(slo),
		Saturated:       s.Saturated(),
		Settled:         !has(s.Unusable, ReasonNotSettled),
		ClientBound:     has(s.Unusable, ReasonClientBound),
		Usable:          s.Usable,
		UnusableReason:  strings.Join(s.Unusable, ","),
		CapacityChanged: has(s.Unusable, ReasonCapacityChanged),
		CWRatio:         s.ConcurrencyRatio,

		CloudWatchConcurrencyMean: s.CloudWatchMean,
		CloudWatchConcurrencyPeak: s.CloudWatchPeak,

		ServerConcurrencyMean: s.ServerInFlightMean,
		ServerConcurrencyPeak: s.ServerInFlightPeak,
	}
	for o, n := range s.Outcomes {
		out.OutcomeCounts[o] = n
	}
	if s.CapacityBefore > 0 || s.CapacityAfter > 0 {
		out.InstanceCounts = []int{s.CapacityBefore, s.CapacityAfter}
	}
	return out
}

func has(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
