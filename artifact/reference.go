package artifact

import (
	"strings"
	"time"
)

// The reference tool (tts-bench) writes flat JSON without a schema version. Its per-step
// fields have the same names and meanings as ours, so steps decode straight into Rung; the
// rest is mapped here. Its transport names differ from ours and are translated.

type refDeployedConfig struct {
	InstanceType string            `json:"instance_type"`
	ImageDigest  string            `json:"image_digest"`
	ContainerEnv map[string]string `json:"container_env"`
}

type refProvenance struct {
	Origin     string `json:"origin"`
	RunID      string `json:"run_id"`
	MeasuredAt string `json:"measured_at"`
	Endpoint   string `json:"endpoint"`
	Note       string `json:"note"`
}

// refRung shadows ConcurrencyPeak: the reference tool may write it as a float.
type refRung struct {
	Rung
	ConcurrencyPeak float64 `json:"concurrency_peak"`
}

type refQmax struct {
	ModelName              string            `json:"model_name"`
	Endpoint               string            `json:"endpoint"`
	InstanceType           string            `json:"instance_type"`
	RunID                  string            `json:"run_id"`
	SLOms                  float64           `json:"slo_ms"`
	QMax                   int               `json:"q_max"`
	QMaxPerRun             []int             `json:"q_max_per_run"`
	QMaxBracketed          bool              `json:"q_max_bracketed"`
	TTFABP95AtQMaxMs       float64           `json:"ttfab_p95_at_q_max_ms"`
	TTFABP95AtC1Ms         float64           `json:"ttfab_p95_at_c1_ms"`
	SMeanS                 float64           `json:"s_mean_s"`
	SP95S                  float64           `json:"s_p95_s"`
	Frozen                 bool              `json:"frozen"`
	UnboundedQueue         bool              `json:"unbounded_queue"`
	InstanceCountsObserved []int             `json:"instance_counts_observed"`
	LadderTruncatedAt      *int              `json:"ladder_truncated_at"`
	Transport              string            `json:"transport"`
	DeployedConfig         refDeployedConfig `json:"deployed_config"`
	Runs                   int               `json:"runs"`
	HoldS                  float64           `json:"hold_s"`
	MeasureWindowS         float64           `json:"measure_window_s"`
	SettleS                float64           `json:"settle_s"`
	Steps                  []refRung         `json:"steps"`
	Provenance             refProvenance     `json:"provenance"`
}

// NormalizeTransport maps the reference tool's transport names onto ours; other names are
// returned lower-cased and unchanged.
func NormalizeTransport(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "response-stream", "response_stream", "invoke-with-response-stream":
		return TransportSageMakerStream
	case "bidi", "bidi-stream", "bidirectional", "bidirectional-stream":
		return TransportSageMakerBidi
	case "websocket":
		return TransportWS
	}
	return n
}

func refTarget(model, endpoint, instanceType string, dc refDeployedConfig) Target {
	it := dc.InstanceType
	if it == "" {
		it = instanceType
	}
	env := dc.ContainerEnv
	if len(env) == 0 {
		env = nil // our schema omits an empty env; keep round trips exact
	}
	return Target{
		Kind:         TargetSageMaker,
		Model:        model,
		Endpoint:     endpoint,
		InstanceType: it,
		ImageDigest:  dc.ImageDigest,
		ContainerEnv: env,
	}
}

// parseRefTime accepts the reference tool's ISO 8601 timestamps ("…T14:42:58.733810+00:00").
func parseRefTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

func (r *refQmax) convert() *Qmax {
	t := refTarget(r.ModelName, r.Endpoint, r.InstanceType, r.DeployedConfig)
	t.Transport = NormalizeTransport(r.Transport)
	endpoint := r.Endpoint
	if endpoint == "" {
		endpoint = r.Provenance.Endpoint
		t.Endpoint = endpoint
	}
	runID := r.RunID
	if runID == "" {
		runID = r.Provenance.RunID
	}
	q := &Qmax{
		Header: Header{
			SchemaVersion: SchemaVersion,
			Kind:          KindQmax,
			Provenance: Provenance{
				CreatedAt:    parseRefTime(r.Provenance.MeasuredAt),
				Tool:         FormatTTSBench,
				SourceFormat: FormatTTSBench,
				Origin:       r.Provenance.Origin,
				RunID:        runID,
				Note:         r.Provenance.Note,
			},
			Target:      t,
			Fingerprint: t.Fingerprint(),
			Slug:        t.Slug(),
		},
		SLOms: r.SLOms,
		Config: LadderConfig{
			HoldS:          r.HoldS,
			MeasureWindowS: r.MeasureWindowS,
			SettleS:        r.SettleS,
			Runs:           r.Runs,
		},
		QMax:                   r.QMax,
		QMaxPerRun:             r.QMaxPerRun,
		QMaxBracketed:          r.QMaxBracketed,
		TTFABP95AtQMaxMs:       r.TTFABP95AtQMaxMs,
		TTFABP95AtC1Ms:         r.TTFABP95AtC1Ms,
		SMeanS:                 r.SMeanS,
		SP95S:                  r.SP95S,
		LadderTruncatedAt:      r.LadderTruncatedAt,
		Frozen:                 r.Frozen,
		UnboundedQueue:         r.UnboundedQueue,
		InstanceCountsObserved: r.InstanceCountsObserved,
	}
	firstRun := -1
	for i, s := range r.Steps {
		rung := s.Rung
		rung.ConcurrencyPeak = int(s.ConcurrencyPeak + 0.5)
		q.Steps = append(q.Steps, rung)
		if i == 0 {
			firstRun = rung.RunIndex
		}
		if rung.RunIndex == firstRun {
			q.Config.Ladder = append(q.Config.Ladder, rung.Concurrency)
		}
	}
	return q
}

type refStage struct {
	Stage   string  `json:"stage"`
	At      string  `json:"at"`
	Bounded bool    `json:"bounded"`
	Source  string  `json:"source"`
	Note    *string `json:"note"`
}

type refDuration struct {
	From    string  `json:"from"`
	To      string  `json:"to"`
	Seconds float64 `json:"seconds"`
	Bounded bool    `json:"bounded"`
	Share   float64 `json:"share"`
}

type refTTotal struct {
	ModelName              string            `json:"model_name"`
	Endpoint               string            `json:"endpoint"`
	RunID                  string            `json:"run_id"`
	Trigger                string            `json:"trigger"`
	DeployedConfig         refDeployedConfig `json:"deployed_config"`
	ConfigSlug             string            `json:"config_slug"`
	TTotalS                float64           `json:"t_total_s"`
	TTotalWithPolicyBoundS *float64          `json:"t_total_with_policy_bound_s"`
	PolicyLagBoundS        float64           `json:"policy_lag_bound_s"`
	TTotalBounded          bool              `json:"t_total_bounded"`
	AWSShareS              float64           `json:"aws_share_s"`
	ContainerShareS        float64           `json:"container_share_s"`
	InstanceID             string            `json:"instance_id"`
	FromInstances          int               `json:"from_instances"`
	ToInstances            int               `json:"to_instances"`
	ProbeConcurrency       int               `json:"probe_concurrency"`
	P95ExpectedBeforeMs    float64           `json:"p95_expected_before_ms"`
	P95RecoveredTargetMs   float64           `json:"p95_recovered_target_ms"`
	P95BeforeMs            float64           `json:"p95_before_ms"`
	P95AfterMs             float64           `json:"p95_after_ms"`
	RequestsBefore         int               `json:"requests_before"`
	RequestsAfter          int               `json:"requests_after"`
	Timeline               []refStage        `json:"timeline"`
	Durations              []refDuration     `json:"durations"`
	DominantStage          *refDuration      `json:"dominant_stage"`
	MissingStages          []string          `json:"missing_stages"`
	Notes                  []string          `json:"notes"`
	Transport              string            `json:"transport"`
}

func (r *refTTotal) convert() (*TTotal, error) {
	t := refTarget(r.ModelName, r.Endpoint, "", r.DeployedConfig)
	t.Transport = NormalizeTransport(r.Transport)
	out := &TTotal{
		Header: Header{
			SchemaVersion: SchemaVersion,
			Kind:          KindTTotal,
			Provenance: Provenance{
				Tool:         FormatTTSBench,
				SourceFormat: FormatTTSBench,
				Origin:       "measured",
				RunID:        r.RunID,
			},
			Target:      t,
			Fingerprint: t.Fingerprint(),
			Slug:        t.Slug(),
		},
		Trigger:         r.Trigger,
		MeasuredS:       r.TTotalS,
		PolicyLagBoundS: r.PolicyLagBoundS,
		PlanningS:       r.TTotalS + r.PolicyLagBoundS,
		Bounded:         r.TTotalBounded,
		AWSShareS:       r.AWSShareS,
		ContainerShareS: r.ContainerShareS,
		InstanceID:      r.InstanceID,
		FromInstances:   r.FromInstances,
		ToInstances:     r.ToInstances,

		ProbeConcurrency:     r.ProbeConcurrency,
		P95ExpectedBeforeMs:  r.P95ExpectedBeforeMs,
		P95RecoveredTargetMs: r.P95RecoveredTargetMs,
		P95BeforeMs:          r.P95BeforeMs,
		P95AfterMs:           r.P95AfterMs,
		RequestsBefore:       r.RequestsBefore,
		RequestsAfter:        r.RequestsAfter,
		MissingStages:        r.MissingStages,
		Notes:                r.Notes,
	}
	if len(out.MissingStages) == 0 {
		out.MissingStages = nil
	}
	if r.TTotalWithPolicyBoundS != nil {
		out.PlanningS = *r.TTotalWithPolicyBoundS
	}
	if r.ConfigSlug != "" && r.ConfigSlug != out.Slug {
		return nil, invalid("config_slug %q does not match deployed_config (slug %q)", r.ConfigSlug, out.Slug)
	}
	for _, s := range r.Timeline {
		st := Stage{Name: s.Stage, At: parseRefTime(s.At), Bounded: s.Bounded, Source: s.Source}
		if s.Note != nil {
			st.Note = *s.Note
		}
		out.Stages = append(out.Stages, st)
		if s.Stage == StageLoadApplied && out.Provenance.CreatedAt.IsZero() {
			out.Provenance.CreatedAt = st.At
		}
	}
	clock, hasClock := out.Stage(StageDesiredSet)
	for _, d := range r.Durations {
		out.Durations = append(out.Durations, Duration{
			From: d.From, To: d.To, Seconds: d.Seconds, Bounded: d.Bounded, Share: d.Share,
			BeforeClock: beforeClock(out, d.To, clock, hasClock),
		})
	}
	if r.DominantStage != nil {
		d := r.DominantStage
		out.DominantStage = &Duration{From: d.From, To: d.To, Seconds: d.Seconds, Bounded: d.Bounded, Share: d.Share,
			BeforeClock: beforeClock(out, d.To, clock, hasClock)}
	}
	return out, nil
}

// beforeClock reports whether an interval ending at stage `to` ends before T_total's clock
// starts at desired_set.
func beforeClock(t *TTotal, to string, clock Stage, hasClock bool) bool {
	if to == StageDesiredSet || to == StageLoadApplied {
		return true
	}
	if !hasClock {
		return false
	}
	s, ok := t.Stage(to)
	return ok && !s.At.IsZero() && !s.At.After(clock.At)
}
