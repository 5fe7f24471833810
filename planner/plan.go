package planner

import (
	"fmt"
	"math"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/replay"
)

// PlanSchemaVersion is the version of the plan JSON.
const PlanSchemaVersion = 1

// Plan is the planner's output: the derived numbers, the findings and the documents.
type Plan struct {
	SchemaVersion int       `json:"schema_version"`
	Kind          string    `json:"kind"` // "plan"
	GeneratedAt   time.Time `json:"generated_at"`
	Source        Source    `json:"source"`
	Scenario      Scenario  `json:"scenario"`

	Thresholds Thresholds `json:"thresholds"`
	CloudWatch CloudWatch `json:"cloudwatch"`
	Fleet      Fleet      `json:"fleet"`
	Surge      Surge      `json:"surge"`

	// Policy is the search for the cheapest policy that survives the surge; the documents
	// are the proposal's.
	Policy PolicySearch `json:"policy"`

	Findings []Finding `json:"findings"` // worst first
	Verdict  Verdict   `json:"verdict"`  // the worst finding's verdict
	Warnings int       `json:"warnings"`
	Stops    int       `json:"stops"`

	Documents Documents `json:"documents"`
	// Component is Documents as an inference component's, for a ladder of several copies of
	// the model per instance; nil for one.
	Component *Component `json:"inference_component,omitempty"`
	// ReferenceDocuments are the documents of the reference arithmetic (target tracking at
	// C_scale_max), kept for comparison (`kokoro plan replay`); they are not written as files.
	ReferenceDocuments Documents `json:"reference_documents"`
}

// Source records which measurements the plan rests on.
type Source struct {
	QmaxFile          string  `json:"qmax_file,omitempty"`
	QmaxFormat        string  `json:"qmax_format"`
	Model             string  `json:"model"`
	Transport         string  `json:"transport"`
	InstanceType      string  `json:"instance_type,omitempty"`
	Fingerprint       string  `json:"fingerprint"`
	Slug              string  `json:"slug"`
	ArtifactSLOms     float64 `json:"artifact_slo_ms"`
	ArtifactQMax      int     `json:"artifact_q_max"`
	TTotalFile        string  `json:"ttotal_file,omitempty"`
	TTotalFormat      string  `json:"ttotal_format,omitempty"`
	TTotalTrigger     string  `json:"ttotal_trigger,omitempty"`
	TTotalFingerprint string  `json:"ttotal_fingerprint,omitempty"`
	TTotalAssumed     bool    `json:"ttotal_assumed"`
	ConfigMismatch    string  `json:"config_mismatch,omitempty"` // allowed mismatch, described
}

// Thresholds are the numbers of docs/planner.md, in client concurrency (requests in the system).
type Thresholds struct {
	QMax          int     `json:"q_max"`
	QMaxPerRun    []int   `json:"q_max_per_run"`
	QMaxRederived bool    `json:"q_max_rederived"` // recomputed from the rungs for another SLO
	QMaxBracketed bool    `json:"q_max_bracketed"`
	Headroom      float64 `json:"headroom"`    // h = surge − 1
	CScaleMax     float64 `json:"c_scale_max"` // (1 − h)·Q_max, the scale-out target
	CScaleMin     float64 `json:"c_scale_min"` // (1 − 2h)·Q_max, the scale-in threshold
	SMeanS        float64 `json:"s_mean_s"`    // service time at the lowest usable rung
	SP95S         float64 `json:"s_p95_s"`     //
	WMaxS         float64 `json:"w_max_s"`     // SLO − S_p95, the queue-wait budget
	MinSafe       int     `json:"min_safe"`    // smallest N ≥ 2 with N/(N−1) ≤ C_scale_max/C_scale_min; 0: none
	TTotalS       float64 `json:"t_total_s"`   // measured (or assumed) from desired_set
	// TTotalStages are T_total's parts as the ttotal artifact measured them, in order.
	TTotalStages  []artifact.Duration `json:"t_total_stages,omitempty"`
	PolicyLagS    float64             `json:"policy_lag_s"`   // detection lag bound added to it
	TS            float64             `json:"t_s"`            // T = T_total + policy lag
	CooldownOutS  int                 `json:"cooldown_out_s"` // clamp(T/2, 10, 30)
	CooldownInS   int                 `json:"cooldown_in_s"`  // max(300, 3T)
	QueueMaxDepth int                 `json:"queue_max_depth"`
}

// CloudWatch holds the thresholds converted into ConcurrentRequestsPerModel units.
type CloudWatch struct {
	Ratio            float64 `json:"ratio"`        // CloudWatch ÷ client concurrency
	RatioSource      string  `json:"ratio_source"` // RatioCloudWatch, RatioServer or RatioAssumed
	RatioRung        int     `json:"ratio_rung"`   // the rung nearest C_scale_max it was read at
	TargetValue      float64 `json:"target_value"` // C_scale_max × ratio
	ScaleInThreshold float64 `json:"scale_in_threshold"`
}

// Fleet is the fleet size, from measured throughput, with the naive sizing beside it.
type Fleet struct {
	// ThroughputRPS is one instance's achieved rps at C_scale_max, interpolated between
	// rungs (the slowest run).
	ThroughputRPS   float64 `json:"throughput_rps_at_c_scale_max"`
	ThroughputFound bool    `json:"throughput_inside_ladder"` // false: C_scale_max beyond the top rung
	PlateauRPS      float64 `json:"plateau_rps"`              // highest rps any rung reached
	MinInstances    int     `json:"min_instances"`
	MaxInstances    int     `json:"max_instances"`
	MaxFromRPS      int     `json:"max_from_rps,omitempty"`     // ceil(peak_rps / throughput)
	MaxFromStreams  int     `json:"max_from_streams,omitempty"` // ceil(peak_streams / C_scale_max)
	// NaiveMaxInstances is ceil(peak_rps · S_mean / C_scale_max): Little's law with the
	// unloaded service time, which assumes an instance serves C_scale_max requests in
	// parallel as fast as one.
	NaiveMaxInstances int `json:"naive_max_instances,omitempty"`
	// UtilizationMM1 is L/(1+L) at L = C_scale_max: the utilization an M/M/1 server shows
	// at that mean occupancy, reported for comparison with the reference planner.
	UtilizationMM1 float64 `json:"utilization_mm1_at_c_scale_max"`
}

// Make builds the plan. It fails only on inputs that cannot be planned at all (no
// artifact, surge below 1, no peak load, mismatched configurations without
// AllowConfigMismatch); everything else that is wrong becomes a finding.
func Make(in Inputs, sc Scenario) (*Plan, error) {
	q := in.Qmax
	if q == nil {
		return nil, fmt.Errorf("%w: no qmax artifact", ErrScenario)
	}
	sc = sc.withDefaults(q)
	if err := checkScenario(sc, in.TTotal); err != nil {
		return nil, err
	}
	p := &Plan{
		SchemaVersion: PlanSchemaVersion,
		Kind:          "plan",
		GeneratedAt:   sc.Now.UTC(),
		Scenario:      sc,
		Source: Source{
			QmaxFile:      in.QmaxPath,
			QmaxFormat:    q.Provenance.SourceFormat,
			Model:         q.Target.Model,
			Transport:     q.Target.Transport,
			InstanceType:  q.Target.InstanceType,
			Fingerprint:   q.Fingerprint,
			Slug:          q.Slug,
			ArtifactSLOms: q.SLOms,
			ArtifactQMax:  q.QMax,
		},
	}
	if err := p.pair(in, sc); err != nil {
		return nil, err
	}
	p.thresholds(q, in.TTotal, sc)
	curves := runCurves(q)
	p.fleet(q, curves, sc)
	p.cloudWatch(q)
	if x, ok := curves[p.slowestRun(curves)]; ok && p.Thresholds.QMax > 0 && p.Thresholds.CScaleMax > 0 {
		p.Surge = simulateSurge(x, p.Thresholds.CScaleMax, p.Thresholds.QMax, sc.Surge, p.Thresholds.TS, sc.SurgeTrials, sc.Seed)
	}
	if fit, err := replay.FromQmax(q); err == nil {
		p.Policy = searchPolicies(p, fit, sc)
	} else {
		p.Policy = PolicySearch{Proposal: -1, Skipped: err.Error()}
	}
	var proposed Documents
	if c := p.Policy.proposal(); c != nil {
		proposed = proposalDocuments(p, c)
		in := newInstance(p.Policy.Service.Service, p.Policy.Limit, sc.SLOms)
		day := replayDay(proposed, in, sc.TroughRPS, sc.PeakRPS, p.Thresholds.TTotalS, invocationCalls)
		p.Policy.Day = &day
	}
	p.Findings = findings(p, q, in.TTotal, curves)
	p.summarize()
	p.ReferenceDocuments = buildDocuments(p)
	if p.Stops == 0 {
		if p.Policy.proposal() != nil {
			p.Documents = proposed
		} else if !p.Policy.Searched() {
			// Nothing to search from (no peak rps): the arithmetic's policy, as its findings judge it.
			p.Documents = p.ReferenceDocuments
		}
		p.Component = ComponentOf(p.Documents, q.Target.Copies)
	}
	return p, nil
}

func checkScenario(sc Scenario, tt *artifact.TTotal) error {
	for _, v := range []float64{sc.SLOms, sc.Surge, sc.PeakRPS, sc.TroughRPS, sc.PeakStreams, sc.TroughStreams,
		sc.CeilingS, sc.AssumeTTotalS, sc.PolicyLagBoundS, sc.MaxRefused} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %v is not a finite number", ErrScenario, v)
		}
	}
	switch {
	case math.IsNaN(sc.Surge) || sc.Surge < 1:
		return fmt.Errorf("%w: surge %v is below 1 — a shrinking load is not a surge", ErrScenario, sc.Surge)
	case !(sc.SLOms > 0):
		return fmt.Errorf("%w: SLO %v ms must be positive", ErrScenario, sc.SLOms)
	case sc.PeakRPS <= 0 && sc.PeakStreams <= 0:
		return fmt.Errorf("%w: need a peak load (peak rps or peak streams) to size the fleet", ErrScenario)
	case sc.PeakRPS < 0 || sc.TroughRPS < 0 || sc.PeakStreams < 0 || sc.TroughStreams < 0:
		return fmt.Errorf("%w: load must not be negative", ErrScenario)
	case sc.PeakRPS > 0 && sc.TroughRPS > sc.PeakRPS, sc.PeakStreams > 0 && sc.TroughStreams > sc.PeakStreams:
		return fmt.Errorf("%w: trough above peak", ErrScenario)
	case sc.MinFloor < 1:
		return fmt.Errorf("%w: min floor %d must be at least 1", ErrScenario, sc.MinFloor)
	case !(sc.CeilingS > 0):
		return fmt.Errorf("%w: ceiling %v s must be positive", ErrScenario, sc.CeilingS)
	case sc.PolicyLagBoundS < 0:
		return fmt.Errorf("%w: policy lag %v s is negative", ErrScenario, sc.PolicyLagBoundS)
	case tt == nil && !(sc.AssumeTTotalS > 0):
		return fmt.Errorf("%w: need a ttotal artifact or an assumed T_total", ErrScenario)
	case sc.SurgeTrials < 0:
		return fmt.Errorf("%w: surge trials %d is negative", ErrScenario, sc.SurgeTrials)
	case !(sc.MaxRefused > 0 && sc.MaxRefused < 1):
		return fmt.Errorf("%w: max refused %v must be a share strictly between 0 and 1 (0.001 is one request in a thousand)", ErrScenario, sc.MaxRefused)
	case sc.MaxInstances < 0:
		return fmt.Errorf("%w: max instances %d is negative", ErrScenario, sc.MaxInstances)
	}
	return nil
}

// pair checks that the ttotal artifact measured the configuration the qmax did.
func (p *Plan) pair(in Inputs, sc Scenario) error {
	q, tt := in.Qmax, in.TTotal
	if tt == nil {
		p.Source.TTotalAssumed = true
		return nil
	}
	p.Source.TTotalFile = in.TTotalPath
	p.Source.TTotalFormat = tt.Provenance.SourceFormat
	p.Source.TTotalTrigger = tt.Trigger
	p.Source.TTotalFingerprint = tt.Fingerprint
	why := artifact.Mismatch(q, tt)
	if why == "" {
		return nil
	}
	if !sc.AllowConfigMismatch {
		return fmt.Errorf("%w: %s (pass --allow-config-mismatch to plan anyway)", ErrConfigMismatch, why)
	}
	p.Source.ConfigMismatch = why
	return nil
}

func (p *Plan) thresholds(q *artifact.Qmax, tt *artifact.TTotal, sc Scenario) {
	th := &p.Thresholds
	th.QMax, th.QMaxPerRun, th.QMaxBracketed = q.QMax, q.QMaxPerRun, q.QMaxBracketed
	if sc.SLOms != q.SLOms {
		th.QMax, th.QMaxPerRun, th.QMaxBracketed = deriveQmax(q, sc.SLOms)
		th.QMaxRederived = true
	}
	h := sc.Surge - 1
	th.Headroom = h
	th.CScaleMax = (1 - h) * float64(th.QMax)
	th.CScaleMin = (1 - 2*h) * float64(th.QMax)
	th.SMeanS, th.SP95S = q.SMeanS, q.SP95S
	th.WMaxS = sc.SLOms/1000 - q.SP95S
	th.MinSafe = minSafe(th.CScaleMax, th.CScaleMin)
	if tt != nil {
		th.TTotalS, th.PolicyLagS, th.TS = tt.MeasuredS, tt.PolicyLagBoundS, tt.PlanningS
		for _, d := range tt.Durations {
			if !d.BeforeClock {
				th.TTotalStages = append(th.TTotalStages, d)
			}
		}
	} else {
		th.TTotalS, th.PolicyLagS = sc.AssumeTTotalS, sc.PolicyLagBoundS
		th.TS = th.TTotalS + th.PolicyLagS
	}
	// Application Auto Scaling takes whole seconds; truncation keeps the worked example's
	// 3 × 320.2 s = 960 s.
	th.CooldownOutS = int(math.Min(30, math.Max(10, th.TS/2)))
	th.CooldownInS = int(math.Max(300, 3*th.TS))
	th.QueueMaxDepth = th.QMax
}

// minSafe is the smallest N ≥ 2 whose scale-in (load × N/(N−1) on the survivors) lands at
// or under C_scale_max: N ≥ r/(r−1) with r = C_scale_max/C_scale_min. The bound is
// inclusive, and a relative tolerance keeps an N that sits exactly on it from being pushed
// up by rounding (1 − 2h is inexact for most h). 0 when no N is safe (r ≤ 1 or C_min ≤ 0).
func minSafe(cMax, cMin float64) int {
	if cMin <= 0 || cMax <= cMin {
		return 0
	}
	r := cMax / cMin
	return max(2, int(math.Ceil(r/(r-1)-1e-9)))
}

func (p *Plan) fleet(q *artifact.Qmax, curves map[int]curve, sc Scenario) {
	f := &p.Fleet
	th := p.Thresholds
	f.ThroughputRPS, _, f.ThroughputFound = throughputAt(curves, th.CScaleMax)
	for _, k := range curves {
		f.PlateauRPS = math.Max(f.PlateauRPS, k.peak())
	}
	f.UtilizationMM1 = th.CScaleMax / (1 + th.CScaleMax)
	minN := sc.MinFloor
	if th.CScaleMax > 0 {
		if f.ThroughputRPS > 0 && sc.TroughRPS > 0 {
			minN = max(minN, ceilDiv(sc.TroughRPS, f.ThroughputRPS))
		}
		if sc.TroughStreams > 0 {
			minN = max(minN, ceilDiv(sc.TroughStreams, th.CScaleMax))
		}
		if sc.PeakRPS > 0 {
			if f.ThroughputRPS > 0 {
				f.MaxFromRPS = ceilDiv(sc.PeakRPS, f.ThroughputRPS)
			}
			f.NaiveMaxInstances = ceilDiv(sc.PeakRPS*th.SMeanS, th.CScaleMax)
		}
		if sc.PeakStreams > 0 {
			f.MaxFromStreams = ceilDiv(sc.PeakStreams, th.CScaleMax)
		}
	}
	f.MinInstances = minN
	f.MaxInstances = max(minN, f.MaxFromRPS, f.MaxFromStreams)
}

// ceilDiv is ceil(a/b) with a tolerance for quotients that are whole numbers up to
// rounding, clamped so that absurd loads cannot overflow an int.
func ceilDiv(a, b float64) int {
	return int(math.Min(math.Ceil(a/b-1e-9), math.MaxInt32))
}

func (p *Plan) cloudWatch(q *artifact.Qmax) {
	cw := &p.CloudWatch
	cw.Ratio, cw.RatioRung, cw.RatioSource = unitRatio(q, p.Thresholds.CScaleMax)
	cw.TargetValue = p.Thresholds.CScaleMax * cw.Ratio
	cw.ScaleInThreshold = p.Thresholds.CScaleMin * cw.Ratio
}

func (p *Plan) slowestRun(curves map[int]curve) int {
	_, run, _ := throughputAt(curves, p.Thresholds.CScaleMax)
	return run
}

func (p *Plan) summarize() {
	p.Verdict = VerdictOK
	for _, f := range p.Findings {
		switch f.Verdict {
		case VerdictStop:
			p.Stops++
		case VerdictWarn:
			p.Warnings++
		}
		if f.Verdict.rank() < p.Verdict.rank() {
			p.Verdict = f.Verdict
		}
	}
}
