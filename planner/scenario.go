package planner

import (
	"errors"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Defaults of the scenario (docs/planner.md).
const (
	DefaultSurge           = 1.25
	DefaultCeilingS        = 60.0 // SageMaker's invocation limit
	DefaultPolicyLagBoundS = 60.0 // alarm periods × evaluation + cooldown, for an assumed T_total
	DefaultSurgeTrials     = 1000
	DefaultVariant         = "AllTraffic"
	// ScaleInEvaluationPeriods × 10 s is how long concurrency must stay at or under
	// C_scale_min before one instance is removed: 5 minutes, so that the lull between two
	// bursts does not cost capacity.
	ScaleInEvaluationPeriods = 30
	// CloudWatchPeriodS is the high-resolution period of ConcurrentRequestsPerModel.
	CloudWatchPeriodS = 10
	// LargeFleet is the instance count above which fleet_cost warns: at that size the
	// account's per-type SageMaker instance quota usually needs raising, and per-instance
	// throughput, not the policy, is what to improve.
	LargeFleet = 100
	// SurgeWarnProbability is the surge_survival threshold: warn above 10 %.
	SurgeWarnProbability = 0.10
)

// Errors returned by Plan. Each is wrapped with the specifics.
var (
	// ErrConfigMismatch: the qmax and ttotal artifacts measured different configurations.
	ErrConfigMismatch = errors.New("artifacts measured different configurations")
	// ErrScenario: the scenario is not plannable (surge below 1, no peak, …).
	ErrScenario = errors.New("invalid scenario")
)

// Scenario is what the operator chooses: the SLO, the surge to survive, the load, and the
// planning knobs. Zero values take the documented defaults.
type Scenario struct {
	SLOms float64 `json:"slo_ms"` // p95 TTFAB promise; 0 = the qmax artifact's SLO
	Surge float64 `json:"surge"`  // load ratio to survive within one T; 0 = 1.25

	PeakRPS       float64 `json:"peak_rps,omitempty"`
	TroughRPS     float64 `json:"trough_rps,omitempty"`
	PeakStreams   float64 `json:"peak_streams,omitempty"`   // concurrent requests at peak
	TroughStreams float64 `json:"trough_streams,omitempty"` // concurrent requests at trough
	MinFloor      int     `json:"min_floor"`                // smallest fleet allowed; 0 = 1

	CeilingS float64 `json:"ceiling_s"` // invocation time limit; 0 = 60
	// AssumeTTotalS stands in for a ttotal artifact: the scale-out time from desired_set,
	// to which PolicyLagBoundS is added as for a forced measurement.
	AssumeTTotalS   float64 `json:"assume_t_total_s,omitempty"`
	PolicyLagBoundS float64 `json:"policy_lag_bound_s,omitempty"` // for AssumeTTotalS; 0 = 60

	AllowConfigMismatch bool `json:"allow_config_mismatch,omitempty"`

	// MaxRefused is the largest share of requests a proposed policy may refuse while a surge
	// meets the old fleet; 0 = DefaultMaxRefused.
	MaxRefused float64 `json:"max_refused"`
	// MaxInstances bounds the fleet a proposal may need at the peak; 0 = no bound.
	MaxInstances int `json:"max_instances,omitempty"`

	// Endpoint and variant the policy documents name; default from the qmax artifact.
	EndpointName string `json:"endpoint_name,omitempty"`
	VariantName  string `json:"variant_name,omitempty"`

	Seed        uint64    `json:"seed"`         // surge simulation seed
	SurgeTrials int       `json:"surge_trials"` // 0 = 1000
	Now         time.Time `json:"-"`            // stamped into the plan; injected for reproducibility
}

// Inputs are the artifacts a plan is made from. Paths are recorded for the report only.
type Inputs struct {
	Qmax       *artifact.Qmax
	QmaxPath   string
	TTotal     *artifact.TTotal // nil: Scenario.AssumeTTotalS is used
	TTotalPath string
}

func (s Scenario) withDefaults(q *artifact.Qmax) Scenario {
	if s.SLOms == 0 && q != nil {
		s.SLOms = q.SLOms
	}
	if s.Surge == 0 {
		s.Surge = DefaultSurge
	}
	if s.MinFloor == 0 {
		s.MinFloor = 1
	}
	if s.CeilingS == 0 {
		s.CeilingS = DefaultCeilingS
	}
	if s.PolicyLagBoundS == 0 {
		s.PolicyLagBoundS = DefaultPolicyLagBoundS
	}
	if s.SurgeTrials == 0 {
		s.SurgeTrials = DefaultSurgeTrials
	}
	if s.MaxRefused == 0 {
		s.MaxRefused = DefaultMaxRefused
	}
	if s.EndpointName == "" && q != nil {
		s.EndpointName = q.Target.Endpoint
	}
	if s.VariantName == "" {
		if q != nil && q.Target.Variant != "" {
			s.VariantName = q.Target.Variant
		} else {
			s.VariantName = DefaultVariant
		}
	}
	return s
}
