package sagemaker

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"

	"github.com/kokoro-sm/kokoro/scaling"
)

// ResourceID is Application Auto Scaling's id of a variant: endpoint/NAME/variant/VARIANT.
func ResourceID(endpoint, variant string) string {
	return "endpoint/" + endpoint + "/variant/" + variant
}

// dimensionOf is the scalable dimension of resource id rid.
func dimensionOf(rid string) aastypes.ScalableDimension {
	return aastypes.ScalableDimension(scaling.DimensionOf(rid))
}

// Target is a registered scalable target as kokoro records and restores it.
type Target struct {
	ResourceID  string     `json:"resource_id"`
	MinCapacity int        `json:"min_capacity"`
	MaxCapacity int        `json:"max_capacity"`
	RoleARN     string     `json:"role_arn,omitempty"`
	Suspended   Suspension `json:"suspended"`
}

// Suspension is Application Auto Scaling's SuspendedState.
type Suspension struct {
	DynamicIn  bool `json:"dynamic_scaling_in"`
	DynamicOut bool `json:"dynamic_scaling_out"`
	Scheduled  bool `json:"scheduled_scaling"`
}

// Any reports whether any kind of scaling is suspended.
func (s Suspension) Any() bool { return s.DynamicIn || s.DynamicOut || s.Scheduled }

func (s Suspension) sdk() *aastypes.SuspendedState {
	return &aastypes.SuspendedState{
		DynamicScalingInSuspended:  aws.Bool(s.DynamicIn),
		DynamicScalingOutSuspended: aws.Bool(s.DynamicOut),
		ScheduledScalingSuspended:  aws.Bool(s.Scheduled),
	}
}

// scalableTarget reads the variant's scalable target; nil when none is registered.
func (c *Control) scalableTarget(ctx context.Context, rid string) (*Target, error) {
	out, err := c.Scaling.DescribeScalableTargets(ctx, &aas.DescribeScalableTargetsInput{
		ServiceNamespace:  aastypes.ServiceNamespaceSagemaker,
		ScalableDimension: dimensionOf(rid),
		ResourceIds:       []string{rid},
	})
	if err != nil {
		return nil, fmt.Errorf("describe scalable target %s: %w", rid, c.explain(err))
	}
	for _, t := range out.ScalableTargets {
		if aws.ToString(t.ResourceId) != rid {
			continue
		}
		tg := &Target{
			ResourceID:  rid,
			MinCapacity: int(aws.ToInt32(t.MinCapacity)),
			MaxCapacity: int(aws.ToInt32(t.MaxCapacity)),
			RoleARN:     aws.ToString(t.RoleARN),
		}
		if s := t.SuspendedState; s != nil {
			tg.Suspended = Suspension{aws.ToBool(s.DynamicScalingInSuspended), aws.ToBool(s.DynamicScalingOutSuspended), aws.ToBool(s.ScheduledScalingSuspended)}
		}
		return tg, nil
	}
	return nil, nil
}

// ScalableTarget reads the variant's scalable target; nil when autoscaling is not registered.
func (c *Control) ScalableTarget(ctx context.Context, endpoint, variant string) (*Target, error) {
	return c.scalableTarget(ctx, ResourceID(endpoint, variant))
}

// ComponentTarget reads the inference component's scalable target; nil when none is
// registered.
func (c *Control) ComponentTarget(ctx context.Context, component string) (*Target, error) {
	return c.scalableTarget(ctx, scaling.ComponentResourcePrefix+component)
}

func registerInput(t Target) *aas.RegisterScalableTargetInput {
	return &aas.RegisterScalableTargetInput{
		ServiceNamespace:  aastypes.ServiceNamespaceSagemaker,
		ScalableDimension: dimensionOf(t.ResourceID),
		ResourceId:        aws.String(t.ResourceID),
		MinCapacity:       aws.Int32(int32(t.MinCapacity)),
		MaxCapacity:       aws.Int32(int32(t.MaxCapacity)),
		SuspendedState:    t.Suspended.sdk(),
	}
}

func deregisterInput(rid string) *aas.DeregisterScalableTargetInput {
	return &aas.DeregisterScalableTargetInput{
		ServiceNamespace:  aastypes.ServiceNamespaceSagemaker,
		ScalableDimension: dimensionOf(rid),
		ResourceId:        aws.String(rid),
	}
}

// policies reads every scaling policy on the variant.
func (c *Control) policies(ctx context.Context, rid string) ([]aastypes.ScalingPolicy, error) {
	var all []aastypes.ScalingPolicy
	var token *string
	for {
		out, err := c.Scaling.DescribeScalingPolicies(ctx, &aas.DescribeScalingPoliciesInput{
			ServiceNamespace:  aastypes.ServiceNamespaceSagemaker,
			ScalableDimension: dimensionOf(rid),
			ResourceId:        aws.String(rid),
			NextToken:         token,
		})
		if err != nil {
			return nil, fmt.Errorf("describe scaling policies of %s: %w", rid, c.explain(err))
		}
		for _, p := range out.ScalingPolicies {
			if aws.ToString(p.ResourceId) == rid {
				all = append(all, p)
			}
		}
		if token = out.NextToken; aws.ToString(token) == "" {
			return all, nil
		}
	}
}

func putPolicyInput(p aastypes.ScalingPolicy) *aas.PutScalingPolicyInput {
	return &aas.PutScalingPolicyInput{
		PolicyName:                               p.PolicyName,
		ServiceNamespace:                         aastypes.ServiceNamespaceSagemaker,
		ScalableDimension:                        dimensionOf(aws.ToString(p.ResourceId)),
		ResourceId:                               p.ResourceId,
		PolicyType:                               p.PolicyType,
		StepScalingPolicyConfiguration:           p.StepScalingPolicyConfiguration,
		TargetTrackingScalingPolicyConfiguration: p.TargetTrackingScalingPolicyConfiguration,
		PredictiveScalingPolicyConfiguration:     p.PredictiveScalingPolicyConfiguration,
	}
}

// OwnAlarmName is the name `kokoro plan` gives the step scale-in alarm of a variant.
func OwnAlarmName(endpoint, variant string) string {
	return fmt.Sprintf("kokoro-%s-%s-scale-in", endpoint, variant)
}

// deleteOwnAlarms deletes kokoro's scale-in alarm of the variant, when it exists. The alarms
// target tracking creates belong to their policy and go with it.
func (c *Control) deleteOwnAlarms(ctx context.Context, endpoint, variant string, run runFunc) error {
	name := OwnAlarmName(endpoint, variant)
	out, err := c.CloudWatch.DescribeAlarms(ctx, &cloudwatch.DescribeAlarmsInput{AlarmNames: []string{name}})
	if err != nil {
		return fmt.Errorf("describe alarm %s: %w", name, c.explain(err))
	}
	if len(out.MetricAlarms) == 0 {
		return nil
	}
	in := &cloudwatch.DeleteAlarmsInput{AlarmNames: []string{name}}
	return run("delete scale-in alarm", Call{Op: "cloudwatch:DeleteAlarms", Input: in}, func() error {
		_, err := c.CloudWatch.DeleteAlarms(ctx, in)
		return err
	})
}
