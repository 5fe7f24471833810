package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// WriteReport writes the plan for a person: inputs, the arithmetic of docs/planner.md with its
// operands, the fleet, the surge simulation and the findings, worst first.
func (p *Plan) WriteReport(w io.Writer) error {
	var b strings.Builder
	s, sc, th, cw, fl := p.Source, p.Scenario, p.Thresholds, p.CloudWatch, p.Fleet
	pf := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }

	p.writeSummary(pf)
	pf("kokoro plan — %s on %s (%s, %s)\n", s.Model, s.Slug, s.Transport, orDash(s.InstanceType))
	pf("  qmax:   %s [%s]\n", orDash(s.QmaxFile), s.QmaxFormat)
	if s.TTotalAssumed {
		pf("  ttotal: assumed %.1f s\n", th.TTotalS)
	} else {
		pf("  ttotal: %s [%s, trigger %s]\n", orDash(s.TTotalFile), s.TTotalFormat, s.TTotalTrigger)
	}
	if s.ConfigMismatch != "" {
		pf("  CONFIG MISMATCH (allowed): %s\n", s.ConfigMismatch)
	}
	pf("  SLO %g ms p95 TTFAB, surge %.2f, peak %s, trough %s, floor %d, ceiling %g s\n\n",
		sc.SLOms, sc.Surge, load(sc.PeakRPS, sc.PeakStreams), load(sc.TroughRPS, sc.TroughStreams), sc.MinFloor, sc.CeilingS)

	pf("Thresholds (client concurrency)\n")
	qnote := ""
	if th.QMaxBracketed {
		qnote = ", bracketed"
	}
	if th.QMaxRederived {
		qnote += ", re-derived for this SLO"
	}
	pf("  Q_max            %d%s\n", th.QMax, qnote)
	pf("  h = surge − 1    %.4g\n", th.Headroom)
	pf("  C_scale_max      (1 − h)·Q_max  = %.4g   scale-out target\n", th.CScaleMax)
	pf("  C_scale_min      (1 − 2h)·Q_max = %.4g   scale-in threshold\n", th.CScaleMin)
	pf("  min_safe         %s\n", minSafeText(th.MinSafe))
	pf("  S_mean / S_p95   %.4f s / %.4f s\n", th.SMeanS, th.SP95S)
	pf("  W_max            SLO − S_p95 = %.3f s\n", th.WMaxS)
	pf("  T (cooldowns)    T_total %.1f s + policy lag %.0f s = %.1f s\n", th.TTotalS, th.PolicyLagS, th.TS)
	pf("  cooldowns        out clamp(T/2,10,30) = %d s, in max(300,3T) = %d s\n", th.CooldownOutS, th.CooldownInS)
	pf("  MAX_QUEUE_DEPTH  %d\n\n", th.QueueMaxDepth)

	pf("CloudWatch units (ConcurrentRequestsPerModel, Maximum, %d s)\n", CloudWatchPeriodS)
	pf("  ratio %.4g (%s, rung %d) → target %.4g, scale-in at %.4g\n\n", cw.Ratio, cw.RatioSource, cw.RatioRung, cw.TargetValue, cw.ScaleInThreshold)

	pf("Fleet at the arithmetic's C_scale_max (for comparison; the proposal's is in the first lines)\n")
	pf("  throughput at C_scale_max  %.4g rps per instance (plateau %.4g rps)\n", fl.ThroughputRPS, fl.PlateauRPS)
	pf("  instances                  min %d / max %d", fl.MinInstances, fl.MaxInstances)
	var from []string
	if fl.MaxFromRPS > 0 {
		from = append(from, fmt.Sprintf("%d from rps", fl.MaxFromRPS))
	}
	if fl.MaxFromStreams > 0 {
		from = append(from, fmt.Sprintf("%d from streams", fl.MaxFromStreams))
	}
	if len(from) > 0 {
		pf(" (%s)", strings.Join(from, ", "))
	}
	pf("\n")
	if fl.NaiveMaxInstances > 0 {
		pf("  naive S_mean sizing        ceil(peak·S_mean/C_scale_max) = %d (not used)\n", fl.NaiveMaxInstances)
	}
	pf("  M/M/1 utilization at C_scale_max  %.3f\n\n", fl.UtilizationMM1)

	if c := p.Component; c != nil {
		pf("Inference component (%d copies of the model per instance)\n", c.CopiesPerInstance)
		if c.Skipped != "" {
			pf("  none: %s\n\n", c.Skipped)
		} else {
			tt := c.TargetTracking.TargetTrackingScalingPolicyConfiguration
			pf("  copies scale on %s at %.4g per copy, %d–%d copies; managed instance scaling %d–%d instances\n\n",
				tt.PredefinedMetricSpecification.PredefinedMetricType, tt.TargetValue, c.ScalableTarget.MinCapacity,
				c.ScalableTarget.MaxCapacity, c.ManagedInstanceScaling.MinInstanceCount, c.ManagedInstanceScaling.MaxInstanceCount)
		}
	}

	if p.Surge.Trials > 0 {
		pf("Surge simulation (seed %d, %d trials)\n  %s\n  P(reach Q_max within T) = %.3f ± %.3f\n\n",
			p.Surge.Seed, p.Surge.Trials, p.Surge.Model, p.Surge.Probability, p.Surge.StdErr)
	}

	p.writePolicy(pf)

	pf("Findings\n")
	for _, f := range p.Findings {
		pf("  %-10s %-20s %s\n", strings.ToUpper(string(f.Verdict)), f.Name, f.Summary)
	}
	pf("\nVerdict: %s", p.Verdict)
	switch p.Verdict {
	case VerdictStop:
		pf(" (%d)", p.Stops)
	case VerdictWarn:
		pf(" (%d)", p.Warnings)
	}
	var worst []string
	for _, f := range p.Findings {
		if f.Verdict == p.Verdict && (f.Verdict == VerdictStop || f.Verdict == VerdictWarn) {
			worst = append(worst, f.Name)
		}
	}
	if len(worst) > 0 {
		pf(": %s", strings.Join(worst, ", "))
	}
	pf("\n")
	if p.Stops > 0 {
		pf("No policy documents: a STOP finding makes this plan undeployable.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func load(rps, streams float64) string {
	var parts []string
	if rps > 0 {
		parts = append(parts, fmt.Sprintf("%g rps", rps))
	}
	if streams > 0 {
		parts = append(parts, fmt.Sprintf("%g streams", streams))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " + ")
}

func minSafeText(n int) string {
	if n == 0 {
		return "none (no fleet size scales in safely)"
	}
	return fmt.Sprintf("%d (smallest N ≥ 2 with N/(N−1) ≤ C_scale_max/C_scale_min)", n)
}

// File names written by Files.
const (
	FilePlan           = "plan.json"
	FileReport         = "report.txt"
	FileHTML           = "report.html"
	FileScalableTarget = "scalable-target.json"
	FileTargetTracking = "policy-target-tracking.json"
	FileStepScaleIn    = "policy-step-scale-in.json"
	FileScaleInAlarm   = "alarm-scale-in.json"
	FileStepScaleOut   = "policy-step-scale-out.json"
	FileScaleOutAlarm  = "alarm-scale-out.json"
	FileContainerEnv   = "container-env.json"
	FileComponent      = "inference-component.json"
)

// Files renders the plan into the files `kokoro plan --out` writes: the plan JSON, the
// report, the report as an HTML page drawing pg (WriteHTML), and — unless a finding is
// STOP — one file per policy document, each ready for the matching API call (`aws
// application-autoscaling put-scaling-policy --cli-input-json
// file://policy-target-tracking.json`).
func (p *Plan) Files(pg Page) (map[string][]byte, error) {
	out := map[string][]byte{}
	add := func(name string, v any) error {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Errorf("encode %s: %w", name, err)
		}
		out[name] = append(data, '\n')
		return nil
	}
	if err := add(FilePlan, p); err != nil {
		return nil, err
	}
	var rep bytes.Buffer
	if err := p.WriteReport(&rep); err != nil {
		return nil, err
	}
	out[FileReport] = rep.Bytes()
	var page bytes.Buffer
	if err := p.WriteHTML(&page, pg); err != nil {
		return nil, err
	}
	out[FileHTML] = page.Bytes()
	d := p.Documents
	docs := []struct {
		name string
		v    any
		ok   bool
	}{
		{FileScalableTarget, d.ScalableTarget, d.ScalableTarget != nil},
		{FileTargetTracking, d.TargetTracking, d.TargetTracking != nil},
		{FileStepScaleOut, d.StepScaleOut, d.StepScaleOut != nil},
		{FileScaleOutAlarm, d.ScaleOutAlarm, d.ScaleOutAlarm != nil},
		{FileStepScaleIn, d.StepScaleIn, d.StepScaleIn != nil},
		{FileScaleInAlarm, d.ScaleInAlarm, d.ScaleInAlarm != nil},
		{FileContainerEnv, d.ContainerEnv, d.ContainerEnv != nil},
		{FileComponent, p.Component, p.Component != nil},
	}
	for _, doc := range docs {
		if doc.ok {
			if err := add(doc.name, doc.v); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// FileNames returns the names of Files' output, sorted, for listing.
func FileNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// summaryRow is one of the report's first lines: a name and its value.
type summaryRow struct{ Name, Value string }

// summaryWidth is the column the values of the report's first lines start at, in runes.
const summaryWidth = 25

// writeSummary writes the report's first lines (summary): the headline, then each row with
// its value in one column.
func (p *Plan) writeSummary(pf func(string, ...any)) {
	head, rows := p.summary()
	pf("%s\n", head)
	for _, r := range rows {
		pad := max(2, summaryWidth-utf8.RuneCountInString(r.Name))
		pf("  %s%s%s\n", r.Name, strings.Repeat(" ", pad), r.Value)
	}
	pf("\n")
}

// summary returns the report's first lines: the policy as a headline, and under a proposal the
// shares of requests refused in the surge and over the day, the day replayed, the fleet and
// the quota to request, T with its parts and the chance of any refusal at the peak, each the
// number the documents and the plan JSON hold.
func (p *Plan) summary() (string, []summaryRow) {
	ps, sc := p.Policy, p.Scenario
	pr := ps.proposal()
	switch {
	case pr == nil && ps.Searched():
		head := fmt.Sprintf("No policy: none keeps the share refused in a %.2f× surge at most %s", sc.Surge, pct(ps.MaxRefused))
		if ps.MaxInstances > 0 {
			head += fmt.Sprintf(" with at most %d instances", ps.MaxInstances)
		}
		if ps.LargestSurge > 0 {
			head += fmt.Sprintf(" (the largest surge one survives is %.3g×)", ps.LargestSurge)
		}
		return head, nil
	case pr == nil:
		return fmt.Sprintf("Policy: the arithmetic's, unsearched (%s)", ps.Skipped), nil
	}
	rows := []summaryRow{
		{fmt.Sprintf("refused in a %.2f× surge", sc.Surge), fmt.Sprintf("%s of requests (at most %s); simulated %s", pct(pr.Refused), pct(ps.MaxRefused), simText(pr.Sim))},
		{"beyond the SLO in it", pct(pr.Late) + " of requests"},
		{"refused over the day", fmt.Sprintf("%s of requests (%s → %s and back)", pct(pr.RefusedDay), load(sc.TroughRPS, 0), load(sc.PeakRPS, 0))},
	}
	if d := ps.Day; d != nil && d.Skipped == "" {
		rows = append(rows, summaryRow{"the day, replayed", fmt.Sprintf("%.0f instance-hours (%.0f by the load alone): %d scale-outs, %d scale-ins, at most %d in service, %d when the load is back at the trough; %s refused",
			d.InstanceHours, pr.InstanceHoursPerDay, d.ScaleOuts, d.ScaleIns, d.MostInService, d.AtTroughAgain, pct(d.Refused))})
	} else if d != nil {
		rows = append(rows, summaryRow{"the day, replayed", "not replayed: " + d.Skipped})
	}
	if st := p.Documents.ScalableTarget; st != nil {
		it := "the instance quota"
		if t := p.Source.InstanceType; t != "" {
			it = "the " + t + " instance quota"
		}
		rows = append(rows, summaryRow{"fleet", fmt.Sprintf("%d–%d instances over the day; MaxCapacity %d: %s to request", st.MinCapacity, pr.PeakInstances, st.MaxCapacity, it)})
	}
	t := fmt.Sprintf("detection %.0f s + T_total %.1f s = %.1f s", pr.DetectS, pr.HorizonS-pr.DetectS, pr.HorizonS)
	if st := p.Thresholds.TTotalStages; len(st) > 0 {
		var parts []string
		for _, d := range st {
			parts = append(parts, fmt.Sprintf("%s→%s %.1f s", d.From, d.To, d.Seconds))
		}
		t += fmt.Sprintf(" (T_total: %s)", strings.Join(parts, ", "))
	}
	rows = append(rows, summaryRow{"T", t},
		summaryRow{"a surge at the peak", fmt.Sprintf("one instance refuses within T with probability %s; some instance of %d with probability %.3g",
			anyText(*pr), pr.PeakInstances, pr.FleetAnyRefusal)})
	return "Policy: " + pr.Description, rows
}

// writePolicy writes the policy search: the fitted service, each candidate with its shares
// refused and late in the surge, the per-instance and fleet chances of any refusal, its fleet
// and cost, and the proposal.
func (p *Plan) writePolicy(pf func(string, ...any)) {
	ps := p.Policy
	pf("Policy search (a %.2f× surge; at most %s of requests refused and %s beyond the SLO", p.Scenario.Surge, pct(ps.MaxRefused), pct(ps.MaxLate))
	if ps.MaxInstances > 0 {
		pf("; at most %d instances", ps.MaxInstances)
	}
	pf(")\n")
	if ps.Skipped != "" {
		pf("  not searched: %s\n\n", ps.Skipped)
		return
	}
	svc := ps.Service.Service
	pf("  one instance, fitted to the ladder: %d server(s), %.1f ms a request (%.4g rps busy), coefficient of variation %.3f, first audio after %.1f ms; rms error %.1f ms over %d rungs\n",
		svc.Servers, ms(svc.Mean), svc.Capacity(), svc.CV, ms(svc.FirstAudio), ps.Service.ErrorMs, len(ps.Service.Rungs))
	pf("  %s\n  %s\n", ps.Instance, ps.Model)
	for i, c := range ps.Candidates {
		mark := ""
		switch {
		case i == ps.Proposal:
			mark = "PROPOSED"
		case c.Kind == KindReference:
			mark = "REF"
		}
		pf("  %-8s %s\n", mark, c.Description)
		fleet, cost := fmt.Sprintf("%d–%d instances", c.MinInstances, c.PeakInstances), fmt.Sprintf("%.0f instance-hours a day", c.InstanceHoursPerDay)
		if c.Unbounded {
			fleet, cost = "no fleet holds the peak", "–"
		}
		pf("  %-8s surge: refused %s", "", pct(c.Refused))
		if c.RefusedAtPeak != c.Refused {
			pf(" (%s at the peak fleet)", pct(c.RefusedAtPeak))
		}
		pf(", beyond the SLO %s; exponential service: refused %s; simulated: %s\n", pct(c.Late), pct(c.RefusedExponential), simText(c.Sim))
		pf("  %-8s T = %.0f + %.0f = %.0f s, %.3g rps per instance, %s, %s, refused over the day %s\n", "",
			c.DetectS, c.HorizonS-c.DetectS, c.HorizonS, c.OperatingRPS, fleet, cost, pct(c.RefusedDay))
		pf("  %-8s P(an instance refuses within T) %s; P(some instance of the peak fleet does) %.3g\n", "", anyText(c), c.FleetAnyRefusal)
		if c.Why != "" {
			pf("  %-8s → %s\n", "", c.Why)
		}
	}
	if ps.proposal() != nil {
		pf("\n")
		return
	}
	if ps.LargestSurge > 0 {
		pf("  no candidate survives within the limits; the largest surge one survives is %.3g×\n\n", ps.LargestSurge)
		return
	}
	pf("  no candidate survives within the limits\n\n")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// simText writes a Monte Carlo check: the share refused, its interval and what it decides.
func simText(s SimCheck) string {
	if s.Trials == 0 {
		return "not run"
	}
	return fmt.Sprintf("%s (99.9 %% interval %s–%s over %d surges: %s)", pct(s.Share), pct(s.Low), pct(s.High), s.Trials, verdictText(s.Verdict))
}

// anyText writes the chance that one instance refuses within T: simulated where it was, with
// the exponential bound beside it.
func anyText(c Candidate) string {
	if c.Sim.Trials == 0 {
		return fmt.Sprintf("%.3g (exponential bound)", c.InstanceRefusal)
	}
	return fmt.Sprintf("%.3g (simulated, %.3g–%.3g; exponential bound %.3g)", c.Sim.Any, c.Sim.AnyLow, c.Sim.AnyHi, c.InstanceRefusal)
}

// verdictText says what a Monte Carlo verdict means for the claim.
func verdictText(v string) string {
	switch v {
	case "below", "above":
		return v + " the limit"
	}
	return "cannot tell against the limit; more surges would"
}
