package planner

import "fmt"

// Names shared by the documents.
const (
	ServiceNamespace     = "sagemaker"
	ScalableDimension    = "sagemaker:variant:DesiredInstanceCount"
	PredefinedMetricType = "SageMakerVariantConcurrentRequestsPerModelHighResolution"
	MetricNamespace      = "AWS/SageMaker"
	MetricName           = "ConcurrentRequestsPerModel"
	// StepPolicyARNPlaceholder stands for the ARN PutScalingPolicy returns for the step
	// scale-in policy; the alarm can only name it once the policy exists.
	StepPolicyARNPlaceholder = "${STEP_SCALE_IN_POLICY_ARN}"
)

// Documents are the deployable policy documents, in the request shapes of the AWS APIs
// that take them (Application Auto Scaling RegisterScalableTarget and PutScalingPolicy,
// CloudWatch PutMetricAlarm), plus the container environment. They are empty when any
// finding is STOP: such a plan must not be deployable.
type Documents struct {
	ScalableTarget *ScalableTarget   `json:"scalable_target,omitempty"`
	TargetTracking *ScalingPolicy    `json:"target_tracking,omitempty"`
	StepScaleIn    *ScalingPolicy    `json:"step_scale_in,omitempty"`
	ScaleInAlarm   *MetricAlarm      `json:"scale_in_alarm,omitempty"`
	ContainerEnv   map[string]string `json:"container_env,omitempty"`
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
	AdjustmentType        string           `json:"AdjustmentType"`
	StepAdjustments       []StepAdjustment `json:"StepAdjustments"`
	Cooldown              int              `json:"Cooldown"`
	MetricAggregationType string           `json:"MetricAggregationType"`
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

func buildDocuments(p *Plan) Documents {
	sc, th, cw := p.Scenario, p.Thresholds, p.CloudWatch
	endpoint := sc.EndpointName
	if endpoint == "" {
		endpoint = "${ENDPOINT_NAME}"
	}
	resource := fmt.Sprintf("endpoint/%s/variant/%s", endpoint, sc.VariantName)
	name := fmt.Sprintf("kokoro-%s-%s", endpoint, sc.VariantName)
	zero := 0.0
	return Documents{
		ScalableTarget: &ScalableTarget{
			ServiceNamespace:  ServiceNamespace,
			ResourceID:        resource,
			ScalableDimension: ScalableDimension,
			MinCapacity:       p.Fleet.MinInstances,
			MaxCapacity:       p.Fleet.MaxInstances,
		},
		// Target tracking only scales out: its own scale-in would remove capacity as soon
		// as concurrency dipped under the target, with no hysteresis. Scale-in is the step
		// policy below, at C_scale_min.
		TargetTracking: &ScalingPolicy{
			PolicyName:        name + "-scale-out",
			ServiceNamespace:  ServiceNamespace,
			ResourceID:        resource,
			ScalableDimension: ScalableDimension,
			PolicyType:        "TargetTrackingScaling",
			TargetTrackingScalingPolicyConfiguration: &TargetTrackingConfiguration{
				TargetValue:                   cw.TargetValue,
				PredefinedMetricSpecification: PredefinedMetric{PredefinedMetricType: PredefinedMetricType},
				ScaleOutCooldown:              th.CooldownOutS,
				ScaleInCooldown:               th.CooldownInS,
				DisableScaleIn:                true,
			},
		},
		StepScaleIn: &ScalingPolicy{
			PolicyName:        name + "-scale-in",
			ServiceNamespace:  ServiceNamespace,
			ResourceID:        resource,
			ScalableDimension: ScalableDimension,
			PolicyType:        "StepScaling",
			StepScalingPolicyConfiguration: &StepScalingConfiguration{
				AdjustmentType: "ChangeInCapacity",
				// metric − threshold ≤ 0, i.e. concurrency at or under C_scale_min: remove one.
				StepAdjustments:       []StepAdjustment{{MetricIntervalUpperBound: &zero, ScalingAdjustment: -1}},
				Cooldown:              th.CooldownInS,
				MetricAggregationType: "Maximum",
			},
		},
		ScaleInAlarm: &MetricAlarm{
			AlarmName: name + "-scale-in",
			AlarmDescription: fmt.Sprintf("kokoro plan: per-model concurrency at or under C_scale_min %.4g (%.4g CloudWatch units) for %d s",
				th.CScaleMin, cw.ScaleInThreshold, ScaleInEvaluationPeriods*CloudWatchPeriodS),
			Namespace:  MetricNamespace,
			MetricName: MetricName,
			Dimensions: []Dimension{
				{Name: "EndpointName", Value: endpoint},
				{Name: "VariantName", Value: sc.VariantName},
			},
			Statistic:          "Maximum",
			Period:             CloudWatchPeriodS,
			EvaluationPeriods:  ScaleInEvaluationPeriods,
			DatapointsToAlarm:  ScaleInEvaluationPeriods,
			Threshold:          cw.ScaleInThreshold,
			ComparisonOperator: "LessThanOrEqualToThreshold",
			// Missing data is not evidence of low load (it is also what a metrics outage
			// looks like), so it must not remove capacity.
			TreatMissingData: "notBreaching",
			ActionsEnabled:   true,
			AlarmActions:     []string{StepPolicyARNPlaceholder},
		},
		ContainerEnv: map[string]string{"MAX_QUEUE_DEPTH": fmt.Sprint(th.QueueMaxDepth)},
	}
}
