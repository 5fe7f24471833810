package artifact

import "time"

// SchemaVersion is the version of the JSON schema this package writes. Readers accept every
// version up to and including it.
const SchemaVersion = 1

// Artifact kinds, the "kind" field of the JSON.
const (
	KindQmax   = "qmax"
	KindTTotal = "ttotal"
)

// Source formats recorded in Provenance.SourceFormat.
const (
	FormatKokoro   = "kokoro"
	FormatTTSBench = "tts-bench"
)

// LadderConfig is how the ladder was run.
type LadderConfig struct {
	HoldS          float64 `json:"hold_s"`
	MeasureWindowS float64 `json:"measure_window_s"`
	SettleS        float64 `json:"settle_s"`
	Runs           int     `json:"runs"`
	Seed           int64   `json:"seed"`
	Ladder         []int   `json:"ladder"` // concurrency of each rung, in order
}

// Qmax is the result of `kokoro bench qmax`: the closed-loop concurrency ladder and the Q_max
// derived from it.
type Qmax struct {
	Header              // kind KindQmax
	SLOms  float64      `json:"slo_ms"`
	Config LadderConfig `json:"config"`

	// QMax is the highest usable rung with p95 TTFAB ≤ SLO, the minimum over runs; 0 when no
	// rung met the SLO.
	QMax          int   `json:"q_max"`
	QMaxPerRun    []int `json:"q_max_per_run"`
	QMaxBracketed bool  `json:"q_max_bracketed"` // a higher rung broke the SLO
	// TTFABP95AtQMaxMs is the p95 TTFAB of the Q_max rung.
	TTFABP95AtQMaxMs float64 `json:"ttfab_p95_at_q_max_ms"`
	TTFABP95AtC1Ms   float64 `json:"ttfab_p95_at_c1_ms,omitempty"`
	// SMeanS and SP95S are the full latency (service time) at the lowest usable rung.
	SMeanS float64 `json:"s_mean_s"`
	SP95S  float64 `json:"s_p95_s"`
	// Partial is true when the ladder was interrupted (Ctrl-C) before its schedule ended.
	Partial bool `json:"partial"`
	// LadderTruncatedAt is the concurrency at which the ladder stopped early (two consecutive
	// saturated rungs), nil when it ran to the end.
	LadderTruncatedAt *int `json:"ladder_truncated_at"`
	// Frozen is true when autoscaling was suspended and one instance pinned for the run.
	Frozen bool `json:"frozen"`
	// UnboundedQueue is true when the server's admission gate was off (MAX_QUEUE_DEPTH=0).
	UnboundedQueue         bool  `json:"unbounded_queue"`
	InstanceCountsObserved []int `json:"instance_counts_observed,omitempty"`

	Steps []Rung `json:"steps"`
}

// Rung is one measured rung of the ladder (one concurrency in one run). Latencies are over
// the trailing measure window only.
type Rung struct {
	RunIndex    int `json:"run_index"`
	StepIndex   int `json:"step_index"`
	Concurrency int `json:"concurrency"`
	// StartedAt is when the rung's hold began; zero for imported artifacts.
	StartedAt *time.Time `json:"started_at,omitempty"`

	AchievedRPS   float64         `json:"achieved_rps"` // completions per second in the window
	Completed     int             `json:"completed"`
	OK            int             `json:"ok"`
	Rejected      int             `json:"rejected"` // 503 queue_saturated + 429
	OutcomeCounts map[Outcome]int `json:"outcome_counts"`
	Chars         int             `json:"chars"` // characters synthesized by ok requests

	TTFABP50Ms   float64 `json:"ttfab_p50_ms"`
	TTFABP95Ms   float64 `json:"ttfab_p95_ms"`
	TTFABP99Ms   float64 `json:"ttfab_p99_ms"`
	LatencyP95Ms float64 `json:"latency_p95_ms"`
	SMeanS       float64 `json:"s_mean_s"` // mean full latency
	SP95S        float64 `json:"s_p95_s"`  // p95 full latency

	ConcurrencyMean float64 `json:"concurrency_mean"` // client in-flight, time-weighted mean
	ConcurrencyPeak int     `json:"concurrency_peak"`
	TTFABDriftMs    float64 `json:"ttfab_drift_ms"` // change of TTFAB across the window: least-squares slope × window length, in ms
	// StallP95Ms is the p95 playback stall: how long a listener playing the stream in real
	// time would wait for the next audio bytes.
	StallP95Ms float64 `json:"stall_p95_ms"`

	MeetsSLO        bool   `json:"meets_slo"`
	Saturated       bool   `json:"saturated"`
	Settled         bool   `json:"settled"`
	ClientBound     bool   `json:"client_bound"`
	Usable          bool   `json:"usable"`
	UnusableReason  string `json:"unusable_reason,omitempty"`
	CapacityChanged bool   `json:"capacity_changed"`

	// Server-side in-flight as the server's own metrics report it.
	ServerConcurrencyMean float64 `json:"server_concurrency_mean,omitempty"`
	ServerConcurrencyPeak float64 `json:"server_concurrency_peak,omitempty"`
	// CloudWatch ConcurrentRequestsPerModel (Maximum, 10 s) over the window.
	CloudWatchConcurrencyMean float64 `json:"cloudwatch_concurrency_mean,omitempty"`
	CloudWatchConcurrencyPeak float64 `json:"cloudwatch_concurrency_peak,omitempty"`
	// CWRatio is CloudWatch concurrency mean ÷ client mean in-flight; 0 when not measured.
	CWRatio        float64 `json:"cw_ratio,omitempty"`
	InstanceCounts []int   `json:"instance_counts,omitempty"`

	// Optional server-side observations (recorded by the reference tool, kept on import).
	ServerModelLatencyP95Ms float64 `json:"server_model_latency_p95_ms,omitempty"`
	Server5xxTotal          float64 `json:"server_5xx_total,omitempty"`
	GPUUtilizationMean      float64 `json:"gpu_utilization_mean,omitempty"`
	CPUUtilizationMean      float64 `json:"cpu_utilization_mean,omitempty"`
	ConcurrencyAgreement    string  `json:"concurrency_agreement,omitempty"`
}

// FileName is qmax-<model>-<transport>-<slug>.json (docs/bench.md).
func (q *Qmax) FileName() string {
	return "qmax-" + sanitize(q.Target.Model) + "-" + sanitize(q.Target.Transport) + "-" + sanitize(q.Slug) + ".json"
}

// Runs returns the distinct run indexes present in Steps, ascending.
func (q *Qmax) Runs() []int {
	seen := map[int]bool{}
	var out []int
	for _, s := range q.Steps {
		if !seen[s.RunIndex] {
			seen[s.RunIndex] = true
			out = append(out, s.RunIndex)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Run returns the rungs of one run, in step order as recorded.
func (q *Qmax) Run(runIndex int) []Rung {
	var out []Rung
	for _, s := range q.Steps {
		if s.RunIndex == runIndex {
			out = append(out, s)
		}
	}
	return out
}
