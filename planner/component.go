package planner

import (
	"fmt"

	"github.com/kokoro-sm/kokoro/scaling"
)

// Names of Application Auto Scaling for an inference component (its API model's values).
const (
	ComponentDimension           = scaling.ComponentDimension
	ComponentConcurrencyMetric   = "SageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution"
	ComponentInvocationsMetric   = "SageMakerInferenceComponentInvocationsPerCopy"
	ComponentNamePlaceholder     = "${INFERENCE_COMPONENT_NAME}"
	ManagedInstanceScalingEnable = "ENABLED"
)

// Component is the proposal as the scaling of an inference component, for a ladder measured
// with several copies of the model on one instance (bench qmax --self --copies): the copies
// scale by target tracking on their own metric at the proposal's target shared among an
// instance's copies, and the endpoint's instances follow the copies (managed instance scaling
// between the proposal's bounds). The search judged the proposal per instance; with the
// copies of an instance sharing its load evenly, a copy at the per-copy target is an instance
// at the proposal's. Scale-in is target tracking's own here: the step scale-in alarm of the
// variant's documents watches the variant's metric, which an inference component does not
// scale on. Skipped says why there is none.
type Component struct {
	CopiesPerInstance      int                    `json:"copies_per_instance"`
	ManagedInstanceScaling ManagedInstanceScaling `json:"managed_instance_scaling"`
	ScalableTarget         *ScalableTarget        `json:"scalable_target,omitempty"`
	TargetTracking         *ScalingPolicy         `json:"target_tracking,omitempty"`
	Skipped                string                 `json:"skipped,omitempty"`
}

// ManagedInstanceScaling is a production variant's ManagedInstanceScaling, as CreateEndpointConfig
// takes it.
type ManagedInstanceScaling struct {
	Status           string `json:"Status"`
	MinInstanceCount int    `json:"MinInstanceCount"`
	MaxInstanceCount int    `json:"MaxInstanceCount"`
}

// ComponentOf translates documents d, sized per instance, to an inference component with
// copies copies on each instance; nil for one copy.
func ComponentOf(d Documents, copies int) *Component {
	if copies <= 1 || d.ScalableTarget == nil {
		return nil
	}
	c := &Component{CopiesPerInstance: copies, ManagedInstanceScaling: ManagedInstanceScaling{
		Status: ManagedInstanceScalingEnable, MinInstanceCount: d.ScalableTarget.MinCapacity, MaxInstanceCount: d.ScalableTarget.MaxCapacity}}
	tt := d.TargetTracking
	if tt == nil || tt.TargetTrackingScalingPolicyConfiguration == nil {
		c.Skipped = "the proposal is not target tracking: only a target-tracking policy is translated to copies"
		return c
	}
	cfg := *tt.TargetTrackingScalingPolicyConfiguration
	switch cfg.PredefinedMetricSpecification.PredefinedMetricType {
	case scaling.PredefinedConcurrency:
		cfg.PredefinedMetricSpecification.PredefinedMetricType = ComponentConcurrencyMetric
	case scaling.PredefinedInvocations:
		cfg.PredefinedMetricSpecification.PredefinedMetricType = ComponentInvocationsMetric
	default:
		c.Skipped = fmt.Sprintf("no inference-component metric for %s", cfg.PredefinedMetricSpecification.PredefinedMetricType)
		return c
	}
	cfg.TargetValue /= float64(copies)
	cfg.DisableScaleIn = false
	resource := scaling.ComponentResourcePrefix + ComponentNamePlaceholder
	c.ScalableTarget = &ScalableTarget{ServiceNamespace: ServiceNamespace, ResourceID: resource, ScalableDimension: ComponentDimension,
		MinCapacity: d.ScalableTarget.MinCapacity * copies, MaxCapacity: d.ScalableTarget.MaxCapacity * copies}
	c.TargetTracking = &ScalingPolicy{PolicyName: "kokoro-" + ComponentNamePlaceholder + "-copies", ServiceNamespace: ServiceNamespace,
		ResourceID: resource, ScalableDimension: ComponentDimension, PolicyType: scaling.PolicyTypeTargetTracking,
		TargetTrackingScalingPolicyConfiguration: &cfg}
	return c
}
