package sagemaker

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"

	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// SageMakerAPI is the part of the SageMaker control plane kokoro calls.
type SageMakerAPI interface {
	CreateModel(context.Context, *sm.CreateModelInput, ...func(*sm.Options)) (*sm.CreateModelOutput, error)
	DescribeModel(context.Context, *sm.DescribeModelInput, ...func(*sm.Options)) (*sm.DescribeModelOutput, error)
	DeleteModel(context.Context, *sm.DeleteModelInput, ...func(*sm.Options)) (*sm.DeleteModelOutput, error)
	CreateEndpointConfig(context.Context, *sm.CreateEndpointConfigInput, ...func(*sm.Options)) (*sm.CreateEndpointConfigOutput, error)
	DescribeEndpointConfig(context.Context, *sm.DescribeEndpointConfigInput, ...func(*sm.Options)) (*sm.DescribeEndpointConfigOutput, error)
	DeleteEndpointConfig(context.Context, *sm.DeleteEndpointConfigInput, ...func(*sm.Options)) (*sm.DeleteEndpointConfigOutput, error)
	CreateEndpoint(context.Context, *sm.CreateEndpointInput, ...func(*sm.Options)) (*sm.CreateEndpointOutput, error)
	UpdateEndpoint(context.Context, *sm.UpdateEndpointInput, ...func(*sm.Options)) (*sm.UpdateEndpointOutput, error)
	DescribeEndpoint(context.Context, *sm.DescribeEndpointInput, ...func(*sm.Options)) (*sm.DescribeEndpointOutput, error)
	DeleteEndpoint(context.Context, *sm.DeleteEndpointInput, ...func(*sm.Options)) (*sm.DeleteEndpointOutput, error)
	UpdateEndpointWeightsAndCapacities(context.Context, *sm.UpdateEndpointWeightsAndCapacitiesInput, ...func(*sm.Options)) (*sm.UpdateEndpointWeightsAndCapacitiesOutput, error)
	ListModels(context.Context, *sm.ListModelsInput, ...func(*sm.Options)) (*sm.ListModelsOutput, error)
	ListEndpointConfigs(context.Context, *sm.ListEndpointConfigsInput, ...func(*sm.Options)) (*sm.ListEndpointConfigsOutput, error)
	CreateInferenceComponent(context.Context, *sm.CreateInferenceComponentInput, ...func(*sm.Options)) (*sm.CreateInferenceComponentOutput, error)
	DescribeInferenceComponent(context.Context, *sm.DescribeInferenceComponentInput, ...func(*sm.Options)) (*sm.DescribeInferenceComponentOutput, error)
	UpdateInferenceComponent(context.Context, *sm.UpdateInferenceComponentInput, ...func(*sm.Options)) (*sm.UpdateInferenceComponentOutput, error)
	DeleteInferenceComponent(context.Context, *sm.DeleteInferenceComponentInput, ...func(*sm.Options)) (*sm.DeleteInferenceComponentOutput, error)
	ListInferenceComponents(context.Context, *sm.ListInferenceComponentsInput, ...func(*sm.Options)) (*sm.ListInferenceComponentsOutput, error)
}

// ScalingAPI is the part of Application Auto Scaling kokoro calls.
type ScalingAPI interface {
	DescribeScalableTargets(context.Context, *aas.DescribeScalableTargetsInput, ...func(*aas.Options)) (*aas.DescribeScalableTargetsOutput, error)
	RegisterScalableTarget(context.Context, *aas.RegisterScalableTargetInput, ...func(*aas.Options)) (*aas.RegisterScalableTargetOutput, error)
	DeregisterScalableTarget(context.Context, *aas.DeregisterScalableTargetInput, ...func(*aas.Options)) (*aas.DeregisterScalableTargetOutput, error)
	DescribeScalingPolicies(context.Context, *aas.DescribeScalingPoliciesInput, ...func(*aas.Options)) (*aas.DescribeScalingPoliciesOutput, error)
	PutScalingPolicy(context.Context, *aas.PutScalingPolicyInput, ...func(*aas.Options)) (*aas.PutScalingPolicyOutput, error)
	DeleteScalingPolicy(context.Context, *aas.DeleteScalingPolicyInput, ...func(*aas.Options)) (*aas.DeleteScalingPolicyOutput, error)
}

// CloudWatchAPI is the part of CloudWatch kokoro calls.
type CloudWatchAPI interface {
	GetMetricData(context.Context, *cloudwatch.GetMetricDataInput, ...func(*cloudwatch.Options)) (*cloudwatch.GetMetricDataOutput, error)
	DescribeAlarms(context.Context, *cloudwatch.DescribeAlarmsInput, ...func(*cloudwatch.Options)) (*cloudwatch.DescribeAlarmsOutput, error)
	PutMetricAlarm(context.Context, *cloudwatch.PutMetricAlarmInput, ...func(*cloudwatch.Options)) (*cloudwatch.PutMetricAlarmOutput, error)
	DeleteAlarms(context.Context, *cloudwatch.DeleteAlarmsInput, ...func(*cloudwatch.Options)) (*cloudwatch.DeleteAlarmsOutput, error)
}

// LogsAPI is the part of CloudWatch Logs kokoro calls.
type LogsAPI interface {
	DescribeLogStreams(context.Context, *cloudwatchlogs.DescribeLogStreamsInput, ...func(*cloudwatchlogs.Options)) (*cloudwatchlogs.DescribeLogStreamsOutput, error)
	GetLogEvents(context.Context, *cloudwatchlogs.GetLogEventsInput, ...func(*cloudwatchlogs.Options)) (*cloudwatchlogs.GetLogEventsOutput, error)
}

// Control is the control plane around one region: the four clients kokoro's cloud commands
// use. Its fields are interfaces so that a test can put a fault-injecting fake in front of a
// real server for the one call it breaks.
type Control struct {
	SageMaker  SageMakerAPI
	Scaling    ScalingAPI
	CloudWatch CloudWatchAPI
	Logs       LogsAPI
	Region     string
	// Where and Deadlines name the address the clients call and their deadlines in the
	// messages of a call that could not reach it (LoadConfig set the deadlines themselves).
	Where     awsconf.Where
	Deadlines awsconf.Deadlines
	// Poll is how often waits re-read the endpoint; 0 means DefaultPoll.
	Poll time.Duration
}

// DefaultPoll is how often a wait re-reads the endpoint: SageMaker changes state on a scale
// of minutes, and DescribeEndpoint is throttled per account.
const DefaultPoll = 10 * time.Second

// NewControl builds the clients from cfg. Every control-plane call retries throttling and
// transient faults with bounded, jittered backoff (awsconf.Retry).
func NewControl(cfg aws.Config, r awsconf.Retry) *Control {
	cfg = cfg.Copy()
	cfg.Retryer = r.Retryer
	return &Control{
		SageMaker:  sm.NewFromConfig(cfg),
		Scaling:    aas.NewFromConfig(cfg),
		CloudWatch: cloudwatch.NewFromConfig(cfg, func(o *cloudwatch.Options) { o.Protocol = awsconf.CloudWatchProtocol() }),
		Logs:       cloudwatchlogs.NewFromConfig(cfg),
		Region:     cfg.Region,
	}
}

func (c *Control) poll() time.Duration {
	if c.Poll > 0 {
		return c.Poll
	}
	return DefaultPoll
}
