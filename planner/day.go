package planner

import (
	"math"
	"time"

	"github.com/kokoro-sm/kokoro/replay"
	"github.com/kokoro-sm/kokoro/scaling"
)

// DayReplay is a policy's documents played over the day from trough to peak and back: package
// scaling's model of CloudWatch and Application Auto Scaling acts on the invocations the load
// brings, new instances serve T_total after the desired count rises, and a scale-in removes
// its instances at once. The fleet it bills includes the scale-outs the alarms' lag adds and
// the scale-ins their hysteresis and cooldowns withhold, which the sizing by load alone
// leaves out.
type DayReplay struct {
	InstanceHours float64 `json:"instance_hours"`
	ScaleOuts     int     `json:"scale_outs"`
	ScaleIns      int     `json:"scale_ins"`
	MostInService int     `json:"most_in_service"`
	// AtTroughAgain is the fleet in service when the load is back at the trough.
	AtTroughAgain int `json:"in_service_at_the_end"`
	// Refused is the share of the day's requests refused, each instance in service in its
	// steady state at the load it carries that second (no surge).
	Refused float64 `json:"refused_share"`
	// Skipped says why the day was not replayed.
	Skipped string `json:"skipped,omitempty"`
	// Timeline samples the replay every DayTimelineStep: the load and the fleet in service.
	// A fixed fleet has none.
	Timeline []DayPoint `json:"timeline,omitempty"`
}

// DayPoint is one sample of the day replayed.
type DayPoint struct {
	AtS       float64 `json:"at_s"`
	LoadRPS   float64 `json:"load_rps"`
	InService int     `json:"in_service"`
}

// DayTimelineStep is how often DayReplay.Timeline samples the day.
const DayTimelineStep = 5 * time.Minute

// invocationCalls bounds the invocations handed to the scaling model each second: the load's
// invocations are counted in units of peak/invocationCalls, with every threshold on the
// invocations metric divided by the same unit (target tracking and step alarms are linear in
// the metric), so that a day at thousands of requests a second replays in well under a second.
// The day advances in steps of 5 s.
const invocationCalls = 20

// replayDay replays documents d, on the invocations metric, over the day, handing the scaling
// model at most calls invocations a second.
func replayDay(d scaling.Documents, in instance, trough, peak, provisionS float64, calls int) DayReplay {
	var r DayReplay
	switch {
	case d.ScalableTarget == nil:
		r.Skipped = "no scalable target"
		return r
	case d.TargetTracking == nil && d.StepScaleOut == nil:
		// A fixed fleet: nothing to replay.
		n := d.ScalableTarget.MinCapacity
		r.InstanceHours, r.MostInService, r.AtTroughAgain = 24*float64(n), n, n
		r.Refused = dayShare(in, trough, peak, func(float64) int { return n })
		return r
	}
	unit := math.Max(peak/float64(max(calls, 1)), 1e-9)
	scaled, ok := perUnit(d, unit)
	if !ok {
		r.Skipped = "the day replay models the invocations metric only; this policy scales on concurrency"
		return r
	}
	sc, err := scaling.NewScaler(scaled, scaling.DefaultModel(), d.ScalableTarget.MinCapacity)
	if err != nil {
		r.Skipped = err.Error()
		return r
	}
	day := replay.Day(trough, peak, 24*time.Hour)
	type batch struct {
		at time.Duration
		n  int
	}
	var pending []batch
	serving := sc.Desired()
	billed := serving
	sc.InService(0, serving)
	provision := time.Duration(provisionS * float64(time.Second))
	var carry, offered, refused float64
	r.MostInService = serving
	const step = 5 // seconds; the alarms' periods are whole multiples of it
	for s := 0; s < 24*3600; s += step {
		t := time.Duration(s) * time.Second
		for len(pending) > 0 && pending[0].at <= t {
			serving += pending[0].n
			pending = pending[1:]
			sc.InService(t, serving)
			sc.Updating(t, len(pending) > 0)
		}
		load := day.At(t)
		carry += load * step / unit
		for ; carry >= 1; carry-- {
			sc.Invocation(t)
		}
		for _, a := range sc.Advance(t) {
			switch {
			case a.To > a.From:
				r.ScaleOuts++
				pending = append(pending, batch{t + provision, a.To - a.From})
				billed += a.To - a.From
				sc.Updating(t, true)
			case a.To < a.From:
				r.ScaleIns++
				gone := min(a.From-a.To, serving-1)
				serving -= gone
				billed -= gone
				sc.InService(t, serving)
			}
		}
		r.InstanceHours += float64(billed) * step / 3600
		r.MostInService = max(r.MostInService, serving)
		if t%DayTimelineStep == 0 {
			r.Timeline = append(r.Timeline, DayPoint{AtS: float64(s), LoadRPS: load, InService: serving})
		}
		if s%60 == 0 { // the load moves slowly: a sample a minute
			offered += load
			refused += load * in.refused(load/float64(serving))
		}
	}
	r.AtTroughAgain = serving
	if offered > 0 {
		r.Refused = refused / offered
	}
	return r
}

// perUnit copies documents whose scaling metrics are all InvocationsPerInstance, with every
// threshold divided by unit; false when any is on another metric.
func perUnit(d scaling.Documents, unit float64) (scaling.Documents, bool) {
	out := d
	if tt := d.TargetTracking; tt != nil {
		c := *tt.TargetTrackingScalingPolicyConfiguration
		if c.PredefinedMetricSpecification.PredefinedMetricType != scaling.PredefinedInvocations {
			return out, false
		}
		c.TargetValue /= unit
		p := *tt
		p.TargetTrackingScalingPolicyConfiguration = &c
		out.TargetTracking = &p
	}
	for _, a := range []**scaling.MetricAlarm{&out.ScaleOutAlarm, &out.ScaleInAlarm} {
		if *a == nil {
			continue
		}
		if (*a).MetricName != scaling.MetricInvocations {
			return out, false
		}
		c := **a
		c.Threshold /= unit
		*a = &c
	}
	return out, true
}

// dayShare is the share refused over the day with fleet(load) instances sharing each load.
func dayShare(in instance, trough, peak float64, fleet func(load float64) int) float64 {
	day := replay.Day(trough, peak, 24*time.Hour)
	var offered, refused float64
	for i := range dayPoints {
		load := day.At(24 * time.Hour * time.Duration(2*i+1) / (2 * dayPoints))
		offered += load
		refused += load * in.refused(load/float64(max(fleet(load), 1)))
	}
	if offered == 0 {
		return 0
	}
	return refused / offered
}
