package artifact

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid is wrapped by every validation failure.
var ErrInvalid = errors.New("invalid artifact")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// Validate checks the fields that file names and planning depend on.
func (q *Qmax) Validate() error {
	switch {
	case q.SchemaVersion < 1 || q.SchemaVersion > SchemaVersion:
		return invalid("qmax schema_version %d not supported (this build reads 1…%d)", q.SchemaVersion, SchemaVersion)
	case q.Kind != KindQmax:
		return invalid("kind %q, want %q", q.Kind, KindQmax)
	case q.Target.Model == "":
		return invalid("qmax target has no model name")
	case q.Target.Transport == "":
		return invalid("qmax target has no transport")
	case q.Slug == "" || q.Fingerprint == "":
		return invalid("qmax has no fingerprint or slug")
	case !(q.SLOms > 0):
		return invalid("qmax slo_ms %v must be positive", q.SLOms)
	case q.QMax < 0:
		return invalid("q_max %d is negative", q.QMax)
	case len(q.Steps) == 0 && !q.Partial:
		return invalid("qmax has no steps")
	}
	for _, v := range []float64{q.SMeanS, q.SP95S, q.TTFABP95AtQMaxMs} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return invalid("qmax summary value %v out of range", v)
		}
	}
	for i, s := range q.Steps {
		if s.Concurrency <= 0 {
			return invalid("step %d has concurrency %d", i, s.Concurrency)
		}
		if s.AchievedRPS < 0 || s.OK < 0 || s.Completed < 0 || s.Rejected < 0 {
			return invalid("step %d (concurrency %d) has negative counts", i, s.Concurrency)
		}
	}
	return nil
}

// Validate checks the fields that file names and planning depend on.
func (t *TTotal) Validate() error {
	switch {
	case t.SchemaVersion < 1 || t.SchemaVersion > SchemaVersion:
		return invalid("ttotal schema_version %d not supported (this build reads 1…%d)", t.SchemaVersion, SchemaVersion)
	case t.Kind != KindTTotal:
		return invalid("kind %q, want %q", t.Kind, KindTTotal)
	case t.Target.Model == "":
		return invalid("ttotal target has no model name")
	case t.Trigger == "":
		return invalid("ttotal has no trigger")
	case t.Slug == "" || t.Fingerprint == "":
		return invalid("ttotal has no fingerprint or slug")
	case !(t.MeasuredS > 0) || math.IsInf(t.MeasuredS, 0):
		return invalid("t_total_s %v must be positive", t.MeasuredS)
	case t.PolicyLagBoundS < 0:
		return invalid("policy_lag_bound_s %v is negative", t.PolicyLagBoundS)
	case !(t.PlanningS >= t.MeasuredS):
		return invalid("t_total_with_policy_bound_s %v is below t_total_s %v", t.PlanningS, t.MeasuredS)
	}
	return nil
}
