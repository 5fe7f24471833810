package artifact

import (
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

// Scale-out stages in the order docs/bench.md names them. The clock of T_total starts at
// StageDesiredSet; StageLoadApplied happens before it. The four the container prints itself
// are the server's stage markers.
const (
	StageLoadApplied      = "load_applied"
	StageDesiredSet       = "desired_set"
	StageInstanceLogging  = "instance_logging"
	StageContainerStarted = "container_started"
	StageFrameworkInit    = api.StageFrameworkInit
	StageWeightsReady     = api.StageWeightsReady
	StageWarmupDone       = api.StageWarmupDone
	StageReady            = api.StageReady
	StageInService        = "in_service"
	StageTrafficRecovered = "traffic_recovered"
)

// TTotal is the result of `kokoro bench ttotal`: a timed forced scale-out.
type TTotal struct {
	Header // kind KindTTotal
	// Trigger is how the scale-out was caused, e.g. "force-desired" (DesiredInstanceCount+1
	// under a scaling freeze) or "load" (the policy reacting to load).
	Trigger string `json:"trigger"`
	// Pairs identifies the qmax artifact whose probe load this run used; the timer refuses
	// to pair with a qmax of another transport or configuration.
	Pairs *QmaxRef `json:"pairs,omitempty"`

	Stages    []Stage    `json:"stages"`
	Durations []Duration `json:"durations"`

	// MeasuredS is T_total measured from desired_set to the last stage reached.
	MeasuredS float64 `json:"t_total_s"`
	// PreClockS is the time before the clock started (load_applied → desired_set): listed
	// as its own stage, never part of T_total. 0 when no stage precedes desired_set.
	PreClockS float64 `json:"pre_clock_s,omitempty"`
	// PolicyLagBoundS bounds the detection lag the trigger skipped (alarm periods × evaluation
	// periods + cooldown); 0 when the trigger was the policy itself.
	PolicyLagBoundS float64 `json:"policy_lag_bound_s"`
	// PlanningS = MeasuredS + PolicyLagBoundS: the T the planner sizes headroom against.
	PlanningS float64 `json:"t_total_with_policy_bound_s"`
	// Bounded is true when T_total itself rests on an upper-bound stage timestamp.
	Bounded         bool    `json:"t_total_bounded"`
	AWSShareS       float64 `json:"aws_share_s,omitempty"`
	ContainerShareS float64 `json:"container_share_s,omitempty"`

	InstanceID    string `json:"instance_id,omitempty"`
	FromInstances int    `json:"from_instances"`
	ToInstances   int    `json:"to_instances"`

	ProbeConcurrency     int       `json:"probe_concurrency,omitempty"`
	P95ExpectedBeforeMs  float64   `json:"p95_expected_before_ms,omitempty"`
	P95RecoveredTargetMs float64   `json:"p95_recovered_target_ms,omitempty"`
	P95BeforeMs          float64   `json:"p95_before_ms,omitempty"`
	P95AfterMs           float64   `json:"p95_after_ms,omitempty"`
	RequestsBefore       int       `json:"requests_before,omitempty"`
	RequestsAfter        int       `json:"requests_after,omitempty"`
	DominantStage        *Duration `json:"dominant_stage,omitempty"`
	MissingStages        []string  `json:"missing_stages,omitempty"`
	Notes                []string  `json:"notes,omitempty"`
}

// QmaxRef names the qmax artifact a ttotal run paired with.
type QmaxRef struct {
	Transport   string       `json:"transport"`
	Fingerprint string       `json:"fingerprint"`
	Slug        string       `json:"slug"`
	QMax        int          `json:"q_max"`
	Config      LadderConfig `json:"config"`
	File        string       `json:"file,omitempty"`
}

// Stage is one timestamped event of the scale-out.
type Stage struct {
	Name string    `json:"stage"`
	At   time.Time `json:"at"`
	// Bounded is true when At is an upper bound (e.g. the first log event of the new
	// instance bounds provisioning plus image pull) rather than an exact time.
	Bounded bool   `json:"bounded"`
	Source  string `json:"source,omitempty"`
	Note    string `json:"note,omitempty"`
}

// Duration is the time between two stages.
type Duration struct {
	From    string  `json:"from"`
	To      string  `json:"to"`
	Seconds float64 `json:"seconds"`
	Bounded bool    `json:"bounded"`
	Share   float64 `json:"share,omitempty"` // fraction of the listed durations' sum
	// BeforeClock is true for intervals that end at or before desired_set (load_applied →
	// desired_set): they are listed for the story but are not part of T_total.
	BeforeClock bool `json:"before_clock"`
}

// FileName is ttotal-<model>-<trigger>-<slug>.json (docs/bench.md).
func (t *TTotal) FileName() string {
	return "ttotal-" + sanitize(t.Target.Model) + "-" + sanitize(t.Trigger) + "-" + sanitize(t.Slug) + ".json"
}

// ClockedSeconds sums the durations inside the T_total clock (not BeforeClock).
func (t *TTotal) ClockedSeconds() float64 {
	var s float64
	for _, d := range t.Durations {
		if !d.BeforeClock {
			s += d.Seconds
		}
	}
	return s
}

// Stage returns the named stage and whether it was recorded.
func (t *TTotal) Stage(name string) (Stage, bool) {
	for _, s := range t.Stages {
		if s.Name == name {
			return s, true
		}
	}
	return Stage{}, false
}
