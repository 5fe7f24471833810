package planner

import (
	"fmt"
	"math"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/scaling"
)

// The documents' names and types are package scaling's; they are repeated here so that a
// plan's users need not import it.
const (
	ServiceNamespace         = scaling.ServiceNamespace
	ScalableDimension        = scaling.ScalableDimension
	PredefinedMetricType     = scaling.PredefinedConcurrency
	MetricNamespace          = scaling.MetricNamespace
	MetricName               = scaling.MetricConcurrency
	StepPolicyARNPlaceholder = scaling.StepPolicyARNPlaceholder
)

type (
	Documents                   = scaling.Documents
	ScalableTarget              = scaling.ScalableTarget
	ScalingPolicy               = scaling.ScalingPolicy
	TargetTrackingConfiguration = scaling.TargetTrackingConfiguration
	PredefinedMetric            = scaling.PredefinedMetric
	StepScalingConfiguration    = scaling.StepScalingConfiguration
	StepAdjustment              = scaling.StepAdjustment
	MetricAlarm                 = scaling.MetricAlarm
	Dimension                   = scaling.Dimension
)

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
		ContainerEnv: map[string]string{api.EnvMaxQueueDepth: fmt.Sprint(th.QueueMaxDepth)},
	}
}

// proposalDocuments are the documents of candidate c: its scale-out (target tracking, or a step
// policy with its alarm), a step scale-in on the same metric, and the capacity bounds; a
// fixed fleet has only the bounds.
func proposalDocuments(p *Plan, c *Candidate) Documents {
	sc, th := p.Scenario, p.Thresholds
	endpoint := sc.EndpointName
	if endpoint == "" {
		endpoint = "${ENDPOINT_NAME}"
	}
	resource := fmt.Sprintf("endpoint/%s/variant/%s", endpoint, sc.VariantName)
	name := fmt.Sprintf("kokoro-%s-%s", endpoint, sc.VariantName)
	dims := []Dimension{{Name: "EndpointName", Value: endpoint}, {Name: "VariantName", Value: sc.VariantName}}
	maxCap := max(c.PeakInstances, int(math.Ceil(float64(c.PeakInstances)*sc.Surge-1e-9)))
	if sc.MaxInstances > 0 {
		maxCap = min(maxCap, max(sc.MaxInstances, c.MinInstances))
	}
	d := Documents{
		ScalableTarget: &ScalableTarget{ServiceNamespace: ServiceNamespace, ResourceID: resource, ScalableDimension: ScalableDimension,
			MinCapacity: c.MinInstances, MaxCapacity: maxCap},
		ContainerEnv: map[string]string{api.EnvMaxQueueDepth: fmt.Sprint(th.QueueMaxDepth)},
	}
	kind := strings.TrimPrefix(c.Kind, KindFloorPlus)
	if c.Kind == KindFloor {
		d.ScalableTarget.MaxCapacity = c.MinInstances
		return d
	}
	policy := func(suffix, typ string) *ScalingPolicy {
		return &ScalingPolicy{PolicyName: name + suffix, ServiceNamespace: ServiceNamespace, ResourceID: resource,
			ScalableDimension: ScalableDimension, PolicyType: typ}
	}
	// Scale in with the arithmetic's hysteresis: at (1 − 2h)/(1 − h) of the scale-out level,
	// for five minutes. Each scale-in removes half the share that would bring the survivors
	// back to the scale-out level (at least one instance): one instance at a time cannot follow
	// a daily cycle of hundreds of instances with cooldowns of 3T.
	h := sc.Surge - 1
	inFraction := (1 - 2*h) / (1 - h)
	zero := 0.0
	scaleIn := policy("-scale-in", scaling.PolicyTypeStep)
	scaleIn.StepScalingPolicyConfiguration = &StepScalingConfiguration{AdjustmentType: scaling.PercentChangeInCapacity,
		StepAdjustments:        []StepAdjustment{{MetricIntervalUpperBound: &zero, ScalingAdjustment: -scaleInPercent(inFraction)}},
		MinAdjustmentMagnitude: 1, Cooldown: th.CooldownInS, MetricAggregationType: "Maximum"}
	inAlarm := &MetricAlarm{AlarmName: name + "-scale-in", Namespace: MetricNamespace, Dimensions: dims,
		ComparisonOperator: "LessThanOrEqualToThreshold", TreatMissingData: "notBreaching", ActionsEnabled: true,
		AlarmActions: []string{StepPolicyARNPlaceholder}}
	switch kind {
	case KindTTInvocations:
		tt := policy("-scale-out", scaling.PolicyTypeTargetTracking)
		tt.TargetTrackingScalingPolicyConfiguration = &TargetTrackingConfiguration{TargetValue: c.Target,
			PredefinedMetricSpecification: PredefinedMetric{PredefinedMetricType: scaling.PredefinedInvocations},
			ScaleOutCooldown:              th.CooldownOutS, ScaleInCooldown: th.CooldownInS, DisableScaleIn: true}
		d.TargetTracking = tt
		inAlarm.MetricName, inAlarm.Statistic, inAlarm.Period = scaling.MetricInvocations, "Sum", 60
		inAlarm.EvaluationPeriods, inAlarm.DatapointsToAlarm = 5, 5
		inAlarm.Threshold = math.Floor(c.Target * inFraction)
		scaleIn.StepScalingPolicyConfiguration.MetricAggregationType = "Average"
	default: // concurrency: target tracking or a step alarm
		if kind == KindStepConcurrency {
			out := policy("-scale-out", scaling.PolicyTypeStep)
			out.StepScalingPolicyConfiguration = &StepScalingConfiguration{AdjustmentType: scaling.PercentChangeInCapacity,
				StepAdjustments:        []StepAdjustment{{MetricIntervalLowerBound: &zero, ScalingAdjustment: c.adjustPct}},
				MinAdjustmentMagnitude: c.adjustMin, Cooldown: th.CooldownOutS, MetricAggregationType: "Maximum"}
			d.StepScaleOut = out
			d.ScaleOutAlarm = &MetricAlarm{AlarmName: name + "-scale-out",
				AlarmDescription: fmt.Sprintf("kokoro plan: the busiest instance held more than %.4g requests in 10 s", c.Target),
				Namespace:        MetricNamespace, MetricName: scaling.MetricConcurrency, Dimensions: dims, Statistic: "Maximum",
				Period: 10, EvaluationPeriods: 1, DatapointsToAlarm: 1, Threshold: c.Target,
				ComparisonOperator: "GreaterThanThreshold", TreatMissingData: "notBreaching", ActionsEnabled: true,
				AlarmActions: []string{scaling.StepScaleOutARNPlaceholder}}
		} else {
			tt := policy("-scale-out", scaling.PolicyTypeTargetTracking)
			tt.TargetTrackingScalingPolicyConfiguration = &TargetTrackingConfiguration{TargetValue: c.Target,
				PredefinedMetricSpecification: PredefinedMetric{PredefinedMetricType: scaling.PredefinedConcurrency},
				ScaleOutCooldown:              th.CooldownOutS, ScaleInCooldown: th.CooldownInS, DisableScaleIn: true}
			d.TargetTracking = tt
		}
		inAlarm.MetricName, inAlarm.Statistic, inAlarm.Period = scaling.MetricConcurrency, "Maximum", CloudWatchPeriodS
		inAlarm.EvaluationPeriods, inAlarm.DatapointsToAlarm = ScaleInEvaluationPeriods, ScaleInEvaluationPeriods
		inAlarm.Threshold = math.Floor(c.Target * inFraction)
	}
	inAlarm.AlarmDescription = fmt.Sprintf("kokoro plan: %s at or under %.4g (%.2f of the scale-out level) for %d s",
		inAlarm.MetricName, inAlarm.Threshold, inFraction, inAlarm.Period*inAlarm.EvaluationPeriods)
	d.StepScaleIn, d.ScaleInAlarm = scaleIn, inAlarm
	return d
}

// scaleInPercent is the share of the fleet one scale-in removes, in whole percent: half of
// 1 − inFraction, the most that keeps the survivors at or under the scale-out level.
func scaleInPercent(inFraction float64) int {
	return max(1, int(math.Floor(50*(1-inFraction)+1e-9)))
}

// CandidateDocuments returns the documents of the searched candidate of the given kind, for
// replaying or deploying a candidate other than the proposal; false when the search has no
// such candidate or its fleet is unbounded.
func (p *Plan) CandidateDocuments(kind string) (Documents, bool) {
	for i := range p.Policy.Candidates {
		c := &p.Policy.Candidates[i]
		if c.Kind == kind && !c.Unbounded {
			return proposalDocuments(p, c), true
		}
	}
	return Documents{}, false
}
