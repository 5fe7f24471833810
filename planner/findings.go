package planner

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/artifact"
)

// Verdict grades a finding.
type Verdict string

// Verdicts, worst first.
const (
	VerdictStop       Verdict = "stop"       // the plan must not be deployed
	VerdictWarn       Verdict = "warn"       // deployable, but a number is fragile
	VerdictOK         Verdict = "ok"         //
	VerdictSuppressed Verdict = "suppressed" // not judged: the input it needs is absent
)

func (v Verdict) rank() int {
	switch v {
	case VerdictStop:
		return 0
	case VerdictWarn:
		return 1
	case VerdictOK:
		return 2
	}
	return 3
}

// Finding names, in the order docs/planner.md lists them.
const (
	FindingMeasurementTrust   = "measurement_trust"
	FindingCurveRepeatability = "curve_repeatability"
	FindingSLOBudget          = "slo_budget"
	FindingInvocationCeiling  = "invocation_ceiling"
	FindingQueueDepth         = "queue_depth"
	FindingThresholdUnits     = "threshold_units"
	FindingSurgeSurvival      = "surge_survival"
	FindingScaleInSafety      = "scale_in_safety"
	FindingCapacitySizing     = "capacity_sizing"
	FindingFleetCost          = "fleet_cost"
	FindingProvisionStage     = "provision_stage"
)

// Finding is one judged conclusion of the plan.
type Finding struct {
	Name    string  `json:"name"`
	Verdict Verdict `json:"verdict"`
	Summary string  `json:"summary"`
}

// findings judges the plan. Each check is a small function so that each branch can be
// tested on its own.
func findings(p *Plan, q *artifact.Qmax, tt *artifact.TTotal, curves map[int]curve) []Finding {
	out := []Finding{
		measurementTrust(p, q),
		curveRepeatability(q, curves),
		sloBudget(p),
		invocationCeiling(p, q),
		queueDepth(p, q),
		thresholdUnits(p),
		surgeSurvival(p),
		scaleInSafety(p),
		capacitySizing(p),
		fleetCost(p),
		provisionStage(p, tt),
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Verdict.rank() < out[j].Verdict.rank() })
	return out
}

func measurementTrust(p *Plan, q *artifact.Qmax) Finding {
	f := Finding{Name: FindingMeasurementTrust}
	th := p.Thresholds
	usable := 0
	for _, r := range q.Steps {
		if r.Usable {
			usable++
		}
	}
	switch {
	case usable == 0:
		f.Verdict, f.Summary = VerdictStop, "no usable rung: every rung was client-bound, saturated, unsettled, empty or saw capacity change"
		return f
	case th.QMax == 0:
		f.Verdict, f.Summary = VerdictStop, fmt.Sprintf("no usable rung met the %g ms SLO: Q_max is 0, nothing to plan from", p.Scenario.SLOms)
		return f
	case !(th.SP95S > 0):
		f.Verdict, f.Summary = VerdictStop, "the artifact has no service time (S_p95): W_max cannot be derived"
		return f
	}
	var warns []string
	if q.Partial {
		warns = append(warns, "the ladder was interrupted (partial)")
	}
	if q.LadderTruncatedAt != nil {
		warns = append(warns, fmt.Sprintf("the ladder stopped at %d after consecutive saturated rungs", *q.LadderTruncatedAt))
	}
	if !th.QMaxBracketed {
		warns = append(warns, fmt.Sprintf("no higher rung broke the SLO, so Q_max %d is only a lower bound", th.QMax))
	}
	if q.Target.Kind == artifact.TargetSageMaker && !q.Frozen {
		warns = append(warns, "autoscaling was not frozen during the ladder")
	}
	for _, r := range q.Steps {
		if r.CapacityChanged {
			warns = append(warns, fmt.Sprintf("capacity changed during rung %d", r.Concurrency))
			break
		}
	}
	if len(q.InstanceCountsObserved) > 1 || len(q.InstanceCountsObserved) == 1 && q.InstanceCountsObserved[0] != 1 {
		warns = append(warns, fmt.Sprintf("instance counts %v observed, not one instance", q.InstanceCountsObserved))
	}
	for _, r := range q.Steps {
		if r.Concurrency > th.QMax || r.Completed == 0 {
			continue
		}
		bad := r.Completed - r.OK - r.Rejected
		if float64(bad) > 0.01*float64(r.Completed) {
			warns = append(warns, fmt.Sprintf("rung %d failed %d of %d requests", r.Concurrency, bad, r.Completed))
			break
		}
	}
	if th.QMaxRederived {
		warns = append(warns, fmt.Sprintf("Q_max re-derived as %d from the rungs for the %g ms SLO (the bench used %g ms and found %d)",
			th.QMax, p.Scenario.SLOms, q.SLOms, q.QMax))
	}
	if p.Source.ConfigMismatch != "" {
		warns = append(warns, "configurations differ, allowed by flag: "+p.Source.ConfigMismatch)
	}
	if len(warns) > 0 {
		f.Verdict, f.Summary = VerdictWarn, strings.Join(warns, "; ")
		return f
	}
	f.Verdict = VerdictOK
	f.Summary = fmt.Sprintf("Q_max %d bracketed by a higher rung, %d usable rungs, one instance", th.QMax, usable)
	if q.Frozen {
		f.Summary += ", autoscaling frozen"
	}
	return f
}

func curveRepeatability(q *artifact.Qmax, curves map[int]curve) Finding {
	f := Finding{Name: FindingCurveRepeatability}
	runs := q.Runs()
	if len(runs) < 2 {
		f.Verdict, f.Summary = VerdictSuppressed, "one run: repeatability not measured (bench with --runs 3 to judge it)"
		return f
	}
	var warns []string
	per := q.QMaxPerRun
	if len(per) >= 2 {
		lo, hi := per[0], per[0]
		for _, v := range per {
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi > 0 && float64(hi-lo) > 0.2*float64(hi) {
			warns = append(warns, fmt.Sprintf("Q_max per run %v spreads more than 20 %%", per))
		}
	}
	// Throughput at every concurrency the runs share.
	byC := map[int][]float64{}
	for _, r := range q.Steps {
		if r.Usable {
			byC[r.Concurrency] = append(byC[r.Concurrency], r.AchievedRPS)
		}
	}
	cs := make([]int, 0, len(byC))
	for c := range byC {
		cs = append(cs, c)
	}
	sort.Ints(cs)
	for _, c := range cs {
		v := byC[c]
		if len(v) < 2 {
			continue
		}
		lo, hi := v[0], v[0]
		for _, x := range v {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if hi > 0 && hi-lo > 0.1*hi {
			warns = append(warns, fmt.Sprintf("throughput at %d varies %.3g–%.3g rps across runs", c, lo, hi))
			break
		}
	}
	if len(warns) > 0 {
		f.Verdict, f.Summary = VerdictWarn, strings.Join(warns, "; ")
		return f
	}
	f.Verdict, f.Summary = VerdictOK, fmt.Sprintf("%d runs agree: Q_max per run %v, throughput within 10 %%", len(runs), per)
	return f
}

func sloBudget(p *Plan) Finding {
	f := Finding{Name: FindingSLOBudget}
	th, slo := p.Thresholds, p.Scenario.SLOms/1000
	switch {
	case th.SP95S >= slo:
		f.Verdict = VerdictStop
		f.Summary = fmt.Sprintf("S_p95 %.3f s ≥ SLO %.3f s: an unqueued request already misses the promise; no queue or fleet can fix that", th.SP95S, slo)
	case th.WMaxS < 0.1*slo:
		f.Verdict = VerdictWarn
		f.Summary = fmt.Sprintf("W_max %.3f s is under 10 %% of the SLO: almost any queueing breaks it", th.WMaxS)
	default:
		f.Verdict = VerdictOK
		f.Summary = fmt.Sprintf("W_max = SLO %.3f s − S_p95 %.4f s = %.3f s of queue-wait budget", slo, th.SP95S, th.WMaxS)
	}
	return f
}

func invocationCeiling(p *Plan, q *artifact.Qmax) Finding {
	f := Finding{Name: FindingInvocationCeiling}
	th, ceil := p.Thresholds, p.Scenario.CeilingS
	deadline := th.WMaxS + th.SP95S
	// The full latency at Q_max is what the runtime times out, not the TTFAB.
	var atQ float64
	for _, r := range q.Steps {
		if r.Concurrency == th.QMax {
			atQ = math.Max(atQ, r.LatencyP95Ms/1000)
		}
	}
	switch {
	case deadline > ceil:
		f.Verdict = VerdictStop
		f.Summary = fmt.Sprintf("W_max + S_p95 = %.1f s exceeds the %g s invocation limit: queued requests would be cut off", deadline, ceil)
	case atQ > ceil:
		f.Verdict = VerdictStop
		f.Summary = fmt.Sprintf("p95 full latency at Q_max is %.1f s, over the %g s invocation limit", atQ, ceil)
	case math.Max(deadline, atQ) > 0.8*ceil:
		f.Verdict = VerdictWarn
		f.Summary = fmt.Sprintf("worst request %.1f s is within 20 %% of the %g s invocation limit", math.Max(deadline, atQ), ceil)
	default:
		f.Verdict = VerdictOK
		f.Summary = fmt.Sprintf("W_max + S_p95 = %.3f s, p95 full latency at Q_max %.3f s, both under the %g s limit", deadline, atQ, ceil)
	}
	return f
}

func queueDepth(p *Plan, q *artifact.Qmax) Finding {
	f := Finding{Name: FindingQueueDepth}
	th := p.Thresholds
	if v, ok := q.Target.ContainerEnv[api.EnvMaxQueueDepth]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 && n <= th.QMax {
			f.Verdict = VerdictWarn
			f.Summary = fmt.Sprintf("the ladder ran with MAX_QUEUE_DEPTH=%d ≤ Q_max %d: the gate, not the instance, may have set Q_max", n, th.QMax)
			return f
		}
	}
	for _, r := range q.Steps {
		if r.Usable && r.Concurrency <= th.QMax && r.Rejected > 0 {
			f.Verdict = VerdictWarn
			f.Summary = fmt.Sprintf("rung %d had %d rejections below Q_max: an admission bound was active while measuring", r.Concurrency, r.Rejected)
			return f
		}
	}
	f.Verdict = VerdictOK
	f.Summary = fmt.Sprintf("MAX_QUEUE_DEPTH=%d: request %d would wait past the SLO, so it gets an immediate 503 instead", th.QueueMaxDepth, th.QueueMaxDepth+1)
	return f
}

func thresholdUnits(p *Plan) Finding {
	f := Finding{Name: FindingThresholdUnits}
	cw := p.CloudWatch
	switch cw.RatioSource {
	case RatioCloudWatch:
		f.Verdict = VerdictOK
		f.Summary = fmt.Sprintf("CloudWatch/client concurrency ratio %.3f measured at rung %d: target %.4g, scale-in %.4g CloudWatch units",
			cw.Ratio, cw.RatioRung, cw.TargetValue, cw.ScaleInThreshold)
	case RatioServer:
		if math.Abs(cw.Ratio-1) > 0.1 {
			f.Verdict = VerdictWarn
			f.Summary = fmt.Sprintf("server in-flight differs from client in-flight by ratio %.3f at rung %d and CloudWatch was not read: thresholds converted with the server's ratio", cw.Ratio, cw.RatioRung)
		} else {
			f.Verdict = VerdictOK
			f.Summary = fmt.Sprintf("server and client concurrency agree at rung %d (ratio %.3f); CloudWatch not read, thresholds converted with the server's ratio", cw.RatioRung, cw.Ratio)
		}
	default:
		f.Verdict = VerdictWarn
		f.Summary = "no server or CloudWatch concurrency recorded: thresholds assume ConcurrentRequestsPerModel equals client in-flight (ratio 1)"
	}
	return f
}

func surgeSurvival(p *Plan) Finding {
	f := Finding{Name: FindingSurgeSurvival}
	s := p.Surge
	ref := ""
	if s.Trials > 0 {
		ref = fmt.Sprintf("the arithmetic's C_scale_max %.4g: P(queue reaches Q_max %d within T %.1f s) = %.3f ± %.3f (%d trials; %.3g rps arriving against %.3g rps served",
			p.Thresholds.CScaleMax, s.Limit, s.HorizonS, s.Probability, s.StdErr, s.Trials, s.ArrivalRPS, s.ServiceRPS)
		if s.Failures > 0 {
			ref += fmt.Sprintf(", median %.1f s to reach it)", s.MedianHitS)
		} else {
			ref += ")"
		}
	}
	ps := p.Policy
	if ps.Searched() {
		if c := ps.proposal(); c != nil {
			f.Verdict = VerdictOK
			f.Summary = fmt.Sprintf("proposed %s: refuses %s of requests in a %.2f× surge (at most %s; simulated over %.0f s: %s), %s beyond the SLO",
				c.Description, pct(c.Refused), p.Scenario.Surge, pct(ps.MaxRefused), c.HorizonS, simText(c.Sim), pct(c.Late))
			if ref != "" {
				f.Summary += "; " + ref
			}
			return f
		}
		f.Verdict = VerdictStop
		f.Summary = fmt.Sprintf("no candidate policy keeps the share refused in a %.2f× surge at most %s", p.Scenario.Surge, pct(ps.MaxRefused))
		if ps.MaxInstances > 0 {
			f.Summary += fmt.Sprintf(" with at most %d instances", ps.MaxInstances)
		}
		if ps.LargestSurge > 0 {
			f.Summary += fmt.Sprintf("; the largest surge one survives is %.3g×", ps.LargestSurge)
		}
		return f
	}
	if s.Trials == 0 {
		why := s.Skipped
		if why == "" {
			why = "no Q_max to fill"
		}
		f.Verdict, f.Summary = VerdictSuppressed, "not simulated: "+why
		return f
	}
	if s.Probability > SurgeWarnProbability {
		f.Verdict = VerdictWarn
		f.Summary = ref + fmt.Sprintf(": a %.2f× surge at the scale-out point sheds load before help arrives", p.Scenario.Surge)
		if ps.Skipped != "" {
			f.Summary += "; no other policy was searched: " + ps.Skipped
		}
		return f
	}
	f.Verdict, f.Summary = VerdictOK, ref
	return f
}

func scaleInSafety(p *Plan) Finding {
	f := Finding{Name: FindingScaleInSafety}
	th, fl := p.Thresholds, p.Fleet
	switch {
	case p.Scenario.Surge >= 1.5:
		f.Verdict = VerdictStop
		f.Summary = fmt.Sprintf("surge %.2f ≥ 1.5 makes C_scale_min = %.3g ≤ 0: the policy would never scale in. Hold standing headroom or shorten T instead", p.Scenario.Surge, th.CScaleMin)
	case th.MinSafe == 0:
		f.Verdict = VerdictStop
		f.Summary = fmt.Sprintf("C_scale_max %.4g equals C_scale_min %.4g: every scale-in lands on the scale-out threshold and the fleet flaps", th.CScaleMax, th.CScaleMin)
	case fl.MinInstances < th.MinSafe:
		f.Verdict = VerdictWarn
		f.Summary = fmt.Sprintf("min instances %d < min_safe %d: scaling in from %d to %d raises per-instance load by %d/%d, past C_scale_max %.4g; raise --min-floor to %d",
			fl.MinInstances, th.MinSafe, th.MinSafe-1, th.MinSafe-2, th.MinSafe-1, max(th.MinSafe-2, 1), th.CScaleMax, th.MinSafe)
	default:
		f.Verdict = VerdictOK
		f.Summary = fmt.Sprintf("min instances %d ≥ min_safe %d: no scale-in pushes the survivors past C_scale_max", fl.MinInstances, th.MinSafe)
	}
	return f
}

func capacitySizing(p *Plan) Finding {
	f := Finding{Name: FindingCapacitySizing}
	fl := p.Fleet
	if p.Scenario.PeakRPS <= 0 || fl.MaxFromRPS == 0 {
		f.Verdict, f.Summary = VerdictSuppressed, "no peak rps: sizing from concurrency only, nothing to compare"
		return f
	}
	ratio := float64(fl.MaxFromRPS) / float64(max(fl.NaiveMaxInstances, 1))
	desc := fmt.Sprintf("measured %.4g rps per instance at C_scale_max → %d instances for %g rps; naive ceil(peak·S_mean/C_scale_max) = %d",
		fl.ThroughputRPS, fl.MaxFromRPS, p.Scenario.PeakRPS, fl.NaiveMaxInstances)
	switch {
	case !fl.ThroughputFound:
		f.Verdict = VerdictWarn
		f.Summary = desc + "; C_scale_max lies above the top rung, so throughput was extrapolated flat"
	case ratio > 1.25:
		f.Verdict = VerdictWarn
		f.Summary = desc + fmt.Sprintf(": the naive sizing under-provisions %.1f×, because the instance's throughput plateaus at %.4g rps and the extra concurrency is queue, not parallel work", ratio, fl.PlateauRPS)
	case ratio < 0.8:
		f.Verdict = VerdictWarn
		f.Summary = desc + fmt.Sprintf(": the naive sizing over-provisions %.1f×", 1/ratio)
	default:
		f.Verdict, f.Summary = VerdictOK, desc+": they agree within 25 %"
	}
	return f
}

func fleetCost(p *Plan) Finding {
	f := Finding{Name: FindingFleetCost}
	fl, th := p.Fleet, p.Thresholds
	if c := p.Policy.proposal(); c != nil {
		ref := p.Policy.Candidates[0]
		desc := fmt.Sprintf("the proposal: %d–%d instances, %.0f instance-hours a day over the day from trough to peak (the arithmetic's %.0f, which sheds)",
			c.MinInstances, c.PeakInstances, c.InstanceHoursPerDay, ref.InstanceHoursPerDay)
		if d := p.Policy.Day; d != nil && d.Skipped == "" {
			h := p.Scenario.Surge - 1
			desc += fmt.Sprintf("; its documents replayed over the day bill %.0f, their scale-in (%d %% of the fleet per %d s) leaving %d instances at the trough",
				d.InstanceHours, scaleInPercent((1-2*h)/(1-h)), p.Thresholds.CooldownInS, d.AtTroughAgain)
		}
		if c.PeakInstances > LargeFleet {
			f.Verdict = VerdictWarn
			f.Summary = desc + fmt.Sprintf("; over %d instances needs a raised instance quota, and per-instance throughput (%.4g rps busy) is what to improve",
				LargeFleet, p.Policy.Service.Service.Capacity())
			return f
		}
		f.Verdict, f.Summary = VerdictOK, desc
		return f
	}
	if th.CScaleMax <= 0 {
		f.Verdict, f.Summary = VerdictSuppressed, "no operating point"
		return f
	}
	head := th.QMax
	desc := fmt.Sprintf("%d–%d instances (%d–%d instance-hours/day); running at C_scale_max %.4g instead of Q_max %d costs %.0f %% more instances at peak",
		fl.MinInstances, fl.MaxInstances, fl.MinInstances*24, fl.MaxInstances*24, th.CScaleMax, head, (float64(head)/th.CScaleMax-1)*100)
	if fl.MaxInstances > LargeFleet {
		f.Verdict = VerdictWarn
		f.Summary = desc + fmt.Sprintf("; over %d instances needs a raised instance quota, and per-instance throughput (%.4g rps) is what to improve", LargeFleet, fl.ThroughputRPS)
		return f
	}
	f.Verdict, f.Summary = VerdictOK, desc
	return f
}

func provisionStage(p *Plan, tt *artifact.TTotal) Finding {
	f := Finding{Name: FindingProvisionStage}
	th := p.Thresholds
	if tt == nil {
		f.Verdict = VerdictWarn
		f.Summary = fmt.Sprintf("T_total %.1f s assumed, not measured (+ %.0f s policy lag = T %.1f s): run kokoro bench ttotal", th.TTotalS, th.PolicyLagS, th.TS)
		return f
	}
	var dom artifact.Duration
	for _, d := range tt.Durations {
		if !d.BeforeClock && d.Seconds > dom.Seconds {
			dom = d
		}
	}
	desc := fmt.Sprintf("T_total %.1f s from desired_set + %.0f s policy lag = T %.1f s", th.TTotalS, th.PolicyLagS, th.TS)
	if dom.Seconds > 0 && th.TTotalS > 0 {
		desc += fmt.Sprintf("; longest stage %s→%s %.1f s (%.0f %% of T_total)", dom.From, dom.To, dom.Seconds, 100*dom.Seconds/th.TTotalS)
	}
	var pre float64
	for _, d := range tt.Durations {
		if d.BeforeClock {
			pre += d.Seconds
		}
	}
	if pre > 0 {
		desc += fmt.Sprintf("; %.1f s before desired_set not counted", pre)
	}
	switch {
	case tt.PolicyLagBoundS == 0 && strings.Contains(tt.Trigger, "force"):
		f.Verdict = VerdictWarn
		f.Summary = desc + "; a forced trigger skips the policy's detection lag and no bound was added"
	case len(tt.MissingStages) > 0:
		f.Verdict = VerdictWarn
		f.Summary = desc + fmt.Sprintf("; stages missing: %s", strings.Join(tt.MissingStages, ", "))
	default:
		f.Verdict, f.Summary = VerdictOK, desc
	}
	return f
}
