package scaleout

import (
	"fmt"

	"github.com/kokoro-sm/kokoro/artifact"
)

// TriggerForceDesired is the trigger of a timed scale-out that raises DesiredInstanceCount
// itself under a scaling freeze: the policy's detection lag is not in it.
const TriggerForceDesired = "force-desired"

// Meta is what the artifact records beside the run's observations.
type Meta struct {
	Target     artifact.Target
	Provenance artifact.Provenance
	Trigger    string
	Pairs      *artifact.QmaxRef
	// PolicyLagBoundS bounds the detection lag the trigger skipped (alarm periods ×
	// evaluation periods + cooldown).
	PolicyLagBoundS      float64
	ProbeConcurrency     int
	P95ExpectedBeforeMs  float64
	P95RecoveredTargetMs float64
}

// Artifact turns the run into the ttotal artifact the planner reads. It fails when the run
// never saw the new instance in service: there is no T_total to record then.
func (r Result) Artifact(m Meta) (*artifact.TTotal, error) {
	if r.Obs.InService.IsZero() {
		return nil, fmt.Errorf("no scale-out was observed: nothing to record")
	}
	t := &artifact.TTotal{
		Header: artifact.Header{
			SchemaVersion: artifact.SchemaVersion, Kind: artifact.KindTTotal,
			Provenance: m.Provenance, Target: m.Target,
		},
		Trigger:              m.Trigger,
		Pairs:                m.Pairs,
		Stages:               Stages(r.Obs),
		PolicyLagBoundS:      m.PolicyLagBoundS,
		InstanceID:           r.Obs.Instance,
		FromInstances:        r.From,
		ToInstances:          r.To,
		ProbeConcurrency:     m.ProbeConcurrency,
		P95ExpectedBeforeMs:  m.P95ExpectedBeforeMs,
		P95RecoveredTargetMs: m.P95RecoveredTargetMs,
		P95BeforeMs:          r.P95BeforeMs,
		P95AfterMs:           r.P95AfterMs,
		RequestsBefore:       r.RequestsBefore,
		RequestsAfter:        r.RequestsAfter,
		Notes:                append([]string(nil), r.Notes...),
	}
	if err := t.Derive(); err != nil {
		return nil, err
	}
	clock, _ := t.Stage(artifact.StageDesiredSet)
	start, ok := t.Stage(artifact.StageContainerStarted)
	if !ok {
		start, ok = t.Stage(artifact.StageInstanceLogging)
	}
	if ok && start.At.After(clock.At) {
		t.AWSShareS = start.At.Sub(clock.At).Seconds()
		if ready, ok := t.Stage(artifact.StageReady); ok && ready.At.After(start.At) {
			t.ContainerShareS = ready.At.Sub(start.At).Seconds()
		}
	}
	if m.Trigger == TriggerForceDesired {
		t.Notes = append(t.Notes, fmt.Sprintf("the trigger raised DesiredInstanceCount under a scaling freeze, so the policy's own detection lag is not measured here; it is bounded at %.0f s and added in t_total_with_policy_bound_s, the figure the planner uses", m.PolicyLagBoundS))
	}
	if t.PreClockS > 0 {
		t.Notes = append(t.Notes, fmt.Sprintf("load_applied → desired_set (%.3f s) is the probe's lead before the trigger: listed, but not part of T_total", t.PreClockS))
	}
	return t, nil
}
