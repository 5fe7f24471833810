package scaling

import "strings"

// Names shared by the documents.
const (
	ServiceNamespace  = "sagemaker"
	ScalableDimension = "sagemaker:variant:DesiredInstanceCount"
	// ComponentDimension is the scalable dimension of an inference component: its copies.
	ComponentDimension = "sagemaker:inference-component:DesiredCopyCount"
	// ComponentResourcePrefix starts an inference component's resource id:
	// inference-component/NAME.
	ComponentResourcePrefix = "inference-component/"
	MetricNamespace         = "AWS/SageMaker"
	// MetricConcurrency is ConcurrentRequestsPerModel: requests in a model container, queued
	// ones included, published every 10 s.
	MetricConcurrency = "ConcurrentRequestsPerModel"
	// MetricInvocations is InvocationsPerInstance: invocations over the period, each counted
	// as 1/instances, published every minute.
	MetricInvocations = "InvocationsPerInstance"
	// PredefinedConcurrency and PredefinedInvocations are the predefined metric types of
	// target tracking on those metrics.
	PredefinedConcurrency = "SageMakerVariantConcurrentRequestsPerModelHighResolution"
	PredefinedInvocations = "SageMakerVariantInvocationsPerInstance"
	// PolicyTypeTargetTracking and PolicyTypeStep are PutScalingPolicy's policy types.
	PolicyTypeTargetTracking = "TargetTrackingScaling"
	PolicyTypeStep           = "StepScaling"
	// StepPolicyARNPlaceholder stands for the ARN PutScalingPolicy returns for the step
	// scale-in policy; the alarm can only name it once the policy exists.
	StepPolicyARNPlaceholder = "${STEP_SCALE_IN_POLICY_ARN}"
	// StepScaleOutARNPlaceholder is the same for the step scale-out policy.
	StepScaleOutARNPlaceholder = "${STEP_SCALE_OUT_POLICY_ARN}"
	// Adjustment types of a step policy.
	ChangeInCapacity        = "ChangeInCapacity"
	PercentChangeInCapacity = "PercentChangeInCapacity"
	ExactCapacity           = "ExactCapacity"
)

// Documents are the deployable policy documents, in the request shapes of the AWS APIs that
// take them, plus the container environment. The scalable target is always there; a policy
// that scales is target tracking, or a step scale-out policy with its alarm, and scales in
// with a step policy and its alarm. A fixed fleet (MinCapacity = MaxCapacity) has no policy.
type Documents struct {
	ScalableTarget *ScalableTarget `json:"scalable_target,omitempty"`
	TargetTracking *ScalingPolicy  `json:"target_tracking,omitempty"`
	StepScaleOut   *ScalingPolicy  `json:"step_scale_out,omitempty"`
	ScaleOutAlarm  *MetricAlarm    `json:"scale_out_alarm,omitempty"`
	StepScaleIn    *ScalingPolicy  `json:"step_scale_in,omitempty"`
	ScaleInAlarm   *MetricAlarm    `json:"scale_in_alarm,omitempty"`
	// ContainerEnv is the container's environment (MAX_QUEUE_DEPTH).
	ContainerEnv map[string]string `json:"container_env,omitempty"`
}

// Policies returns the documents' scaling policies, scale-out first.
func (d Documents) Policies() []*ScalingPolicy {
	var out []*ScalingPolicy
	for _, p := range []*ScalingPolicy{d.TargetTracking, d.StepScaleOut, d.StepScaleIn} {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

// Alarms returns the documents' own alarms (target tracking's are made by AWS), scale-out
// first.
func (d Documents) Alarms() []*MetricAlarm {
	var out []*MetricAlarm
	for _, a := range []*MetricAlarm{d.ScaleOutAlarm, d.ScaleInAlarm} {
		if a != nil {
			out = append(out, a)
		}
	}
	return out
}

// ScalableTarget is a RegisterScalableTarget request.
type ScalableTarget struct {
	ServiceNamespace  string `json:"ServiceNamespace"`
	ResourceID        string `json:"ResourceId"`
	ScalableDimension string `json:"ScalableDimension"`
	MinCapacity       int    `json:"MinCapacity"`
	MaxCapacity       int    `json:"MaxCapacity"`
}

// ScalingPolicy is a PutScalingPolicy request.
type ScalingPolicy struct {
	PolicyName                               string                       `json:"PolicyName"`
	ServiceNamespace                         string                       `json:"ServiceNamespace"`
	ResourceID                               string                       `json:"ResourceId"`
	ScalableDimension                        string                       `json:"ScalableDimension"`
	PolicyType                               string                       `json:"PolicyType"`
	TargetTrackingScalingPolicyConfiguration *TargetTrackingConfiguration `json:"TargetTrackingScalingPolicyConfiguration,omitempty"`
	StepScalingPolicyConfiguration           *StepScalingConfiguration    `json:"StepScalingPolicyConfiguration,omitempty"`
}

// TargetTrackingConfiguration is TargetTrackingScalingPolicyConfiguration.
type TargetTrackingConfiguration struct {
	TargetValue                   float64          `json:"TargetValue"`
	PredefinedMetricSpecification PredefinedMetric `json:"PredefinedMetricSpecification"`
	ScaleOutCooldown              int              `json:"ScaleOutCooldown"`
	ScaleInCooldown               int              `json:"ScaleInCooldown"`
	DisableScaleIn                bool             `json:"DisableScaleIn"`
}

// PredefinedMetric is PredefinedMetricSpecification.
type PredefinedMetric struct {
	PredefinedMetricType string `json:"PredefinedMetricType"`
}

// StepScalingConfiguration is StepScalingPolicyConfiguration.
type StepScalingConfiguration struct {
	AdjustmentType         string           `json:"AdjustmentType"`
	StepAdjustments        []StepAdjustment `json:"StepAdjustments"`
	MinAdjustmentMagnitude int              `json:"MinAdjustmentMagnitude,omitempty"`
	Cooldown               int              `json:"Cooldown"`
	MetricAggregationType  string           `json:"MetricAggregationType"`
}

// StepAdjustment bounds are relative to the alarm threshold; a nil bound is infinite.
type StepAdjustment struct {
	MetricIntervalLowerBound *float64 `json:"MetricIntervalLowerBound,omitempty"`
	MetricIntervalUpperBound *float64 `json:"MetricIntervalUpperBound,omitempty"`
	ScalingAdjustment        int      `json:"ScalingAdjustment"`
}

// MetricAlarm is a PutMetricAlarm request.
type MetricAlarm struct {
	AlarmName          string      `json:"AlarmName"`
	AlarmDescription   string      `json:"AlarmDescription"`
	Namespace          string      `json:"Namespace"`
	MetricName         string      `json:"MetricName"`
	Dimensions         []Dimension `json:"Dimensions"`
	Statistic          string      `json:"Statistic"`
	Period             int         `json:"Period"`
	EvaluationPeriods  int         `json:"EvaluationPeriods"`
	DatapointsToAlarm  int         `json:"DatapointsToAlarm"`
	Threshold          float64     `json:"Threshold"`
	ComparisonOperator string      `json:"ComparisonOperator"`
	TreatMissingData   string      `json:"TreatMissingData"`
	ActionsEnabled     bool        `json:"ActionsEnabled"`
	AlarmActions       []string    `json:"AlarmActions"`
}

// Dimension is a CloudWatch metric dimension.
type Dimension struct {
	Name  string `json:"Name"`
	Value string `json:"Value"`
}

// DimensionOf is the scalable dimension of an Application Auto Scaling resource id: an
// inference component's copies, or a variant's instances.
func DimensionOf(resourceID string) string {
	if strings.HasPrefix(resourceID, ComponentResourcePrefix) {
		return ComponentDimension
	}
	return ScalableDimension
}
