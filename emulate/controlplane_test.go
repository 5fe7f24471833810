package emulate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/smithy-go"

	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

const (
	cpRole  = "arn:aws:iam::123456789012:role/kokoro-sagemaker"
	cpImage = "123456789012.dkr.ecr.us-east-1.amazonaws.com/kokoro:latest"
)

// controlFront is a control plane over a moto server of its own, served on loopback.
type controlFront struct {
	url, moto string
	cp        *ControlPlane
	cfg       aws.Config
	sm        *sagemaker.Client
	scaling   *aas.Client
	cw        *cloudwatch.Client // talks to moto directly
}

func newControlFront(t *testing.T, settle time.Duration) *controlFront {
	t.Helper()
	moto := testenv.Moto(t)
	cp, err := NewControlPlane(moto, ControlPlaneOptions{Settle: settle})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(cp)
	t.Cleanup(srv.Close)
	conf := func(url string) aws.Config {
		return aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("testing", "testing", ""),
			BaseEndpoint: aws.String(url), RetryMaxAttempts: 1}
	}
	cfg := conf(srv.URL)
	return &controlFront{url: srv.URL, moto: moto, cp: cp, cfg: cfg,
		sm: sagemaker.NewFromConfig(cfg), scaling: aas.NewFromConfig(cfg), cw: cloudwatch.NewFromConfig(conf(moto), func(o *cloudwatch.Options) { o.Protocol = awsconf.CloudWatchProtocol() })}
}

func cpCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// must fails the test on err, naming the step.
func must[T any](v T, err error) func(t *testing.T, step string) T {
	return func(t *testing.T, step string) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return v
	}
}

// apiCode is the error code of an SDK error, "" for none.
func apiCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// hostingSetup creates, through the front, a model in moto, a model-less endpoint config and an
// endpoint on it.
func (f *controlFront) hostingSetup(t *testing.T, ctx context.Context, model, config, endpoint string) {
	t.Helper()
	must(f.sm.CreateModel(ctx, &sagemaker.CreateModelInput{ModelName: aws.String(model), ExecutionRoleArn: aws.String(cpRole),
		PrimaryContainer: &smtypes.ContainerDefinition{Image: aws.String(cpImage)}}))(t, "CreateModel")
	must(f.sm.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{
		EndpointConfigName: aws.String(config), ExecutionRoleArn: aws.String(cpRole),
		ProductionVariants: []smtypes.ProductionVariant{{
			VariantName: aws.String("AllTraffic"), InstanceType: smtypes.ProductionVariantInstanceType("ml.g5.xlarge"),
			InitialInstanceCount: aws.Int32(1),
			ManagedInstanceScaling: &smtypes.ProductionVariantManagedInstanceScaling{Status: smtypes.ManagedInstanceScalingStatusEnabled,
				MinInstanceCount: aws.Int32(2), MaxInstanceCount: aws.Int32(4)},
			RoutingConfig: &smtypes.ProductionVariantRoutingConfig{RoutingStrategy: smtypes.RoutingStrategyLeastOutstandingRequests},
		}},
	}))(t, "CreateEndpointConfig")
	must(f.sm.CreateEndpoint(ctx, &sagemaker.CreateEndpointInput{EndpointName: aws.String(endpoint), EndpointConfigName: aws.String(config)}))(t, "CreateEndpoint")
}

func (f *controlFront) createComponent(t *testing.T, ctx context.Context, name, endpoint, model string, copies int32) {
	t.Helper()
	must(f.sm.CreateInferenceComponent(ctx, &sagemaker.CreateInferenceComponentInput{
		InferenceComponentName: aws.String(name), EndpointName: aws.String(endpoint), VariantName: aws.String("AllTraffic"),
		Specification: &smtypes.InferenceComponentSpecification{ModelName: aws.String(model),
			ComputeResourceRequirements: &smtypes.InferenceComponentComputeResourceRequirements{MinMemoryRequiredInMb: aws.Int32(2048),
				NumberOfCpuCoresRequired: aws.Float32(1), NumberOfAcceleratorDevicesRequired: aws.Float32(1)},
			StartupParameters: &smtypes.InferenceComponentStartupParameters{ContainerStartupHealthCheckTimeoutInSeconds: aws.Int32(600)}},
		RuntimeConfig: &smtypes.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(copies)},
	}))(t, "CreateInferenceComponent")
}

func (f *controlFront) alarms(t *testing.T, ctx context.Context, prefix string) []string {
	t.Helper()
	out := must(f.cw.DescribeAlarms(ctx, &cloudwatch.DescribeAlarmsInput{AlarmNamePrefix: aws.String(prefix)}))(t, "DescribeAlarms")
	var names []string
	for _, a := range out.MetricAlarms {
		names = append(names, aws.ToString(a.AlarmName))
	}
	return names
}

// TestControlPlaneWalk drives an inference component's life and its scaling with the Go SDK,
// as kokoro's deploy does, and checks each answer and the alarms left in moto.
func TestControlPlaneWalk(t *testing.T) {
	t.Parallel()
	f := newControlFront(t, 0)
	ctx := cpCtx(t)
	f.hostingSetup(t, ctx, "kokoro-model", "kokoro-ic-config", "kokoro-ic")

	cfg := must(f.sm.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String("kokoro-ic-config")}))(t, "DescribeEndpointConfig")
	if got := aws.ToString(cfg.EndpointConfigArn); got != "arn:aws:sagemaker:us-east-1:123456789012:endpoint-config/kokoro-ic-config" {
		t.Errorf("EndpointConfigArn %s", got)
	}
	if aws.ToString(cfg.ExecutionRoleArn) != cpRole || len(cfg.ProductionVariants) != 1 || cfg.ProductionVariants[0].ModelName != nil {
		t.Errorf("DescribeEndpointConfig %+v", cfg)
	}
	ep := must(f.sm.DescribeEndpoint(ctx, &sagemaker.DescribeEndpointInput{EndpointName: aws.String("kokoro-ic")}))(t, "DescribeEndpoint")
	if ep.EndpointStatus != smtypes.EndpointStatusInService || aws.ToString(ep.EndpointConfigName) != "kokoro-ic-config" || len(ep.ProductionVariants) != 1 {
		t.Fatalf("DescribeEndpoint %+v", ep)
	}
	v := ep.ProductionVariants[0]
	if aws.ToInt32(v.DesiredInstanceCount) != 2 || aws.ToInt32(v.CurrentInstanceCount) != 2 || v.ManagedInstanceScaling == nil ||
		aws.ToInt32(v.ManagedInstanceScaling.MaxInstanceCount) != 4 {
		t.Errorf("variant %+v: want 2 instances (the managed minimum over the initial 1), managed scaling echoed", v)
	}
	eps := must(f.sm.ListEndpoints(ctx, &sagemaker.ListEndpointsInput{NameContains: aws.String("kokoro-ic")}))(t, "ListEndpoints")
	if len(eps.Endpoints) != 1 || aws.ToString(eps.Endpoints[0].EndpointName) != "kokoro-ic" {
		t.Errorf("ListEndpoints %+v", eps.Endpoints)
	}

	f.createComponent(t, ctx, "kokoro-tts", "kokoro-ic", "kokoro-model", 4)
	ic := must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("kokoro-tts")}))(t, "DescribeInferenceComponent")
	if ic.InferenceComponentStatus != smtypes.InferenceComponentStatusInService || aws.ToInt32(ic.RuntimeConfig.DesiredCopyCount) != 4 ||
		aws.ToInt32(ic.RuntimeConfig.CurrentCopyCount) != 4 || aws.ToString(ic.VariantName) != "AllTraffic" ||
		aws.ToString(ic.Specification.ModelName) != "kokoro-model" || aws.ToInt32(ic.Specification.ComputeResourceRequirements.MinMemoryRequiredInMb) != 2048 ||
		aws.ToString(ic.InferenceComponentArn) != "arn:aws:sagemaker:us-east-1:123456789012:inference-component/kokoro-tts" ||
		aws.ToString(ic.EndpointArn) != aws.ToString(ep.EndpointArn) || ic.CreationTime == nil || time.Since(*ic.CreationTime) > time.Minute {
		t.Errorf("DescribeInferenceComponent %+v", ic)
	}
	list := must(f.sm.ListInferenceComponents(ctx, &sagemaker.ListInferenceComponentsInput{EndpointNameEquals: aws.String("kokoro-ic")}))(t, "ListInferenceComponents")
	if len(list.InferenceComponents) != 1 || aws.ToString(list.InferenceComponents[0].InferenceComponentName) != "kokoro-tts" {
		t.Errorf("ListInferenceComponents %+v", list.InferenceComponents)
	}

	const rid = "inference-component/kokoro-tts"
	dim := aastypes.ScalableDimensionSageMakerInferenceComponentDesiredCopyCount
	must(f.scaling.RegisterScalableTarget(ctx, &aas.RegisterScalableTargetInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ResourceId: aws.String(rid), ScalableDimension: dim, MinCapacity: aws.Int32(1), MaxCapacity: aws.Int32(8)}))(t, "RegisterScalableTarget")
	must(f.scaling.RegisterScalableTarget(ctx, &aas.RegisterScalableTargetInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ResourceId: aws.String(rid), ScalableDimension: dim, MaxCapacity: aws.Int32(6),
		SuspendedState: &aastypes.SuspendedState{DynamicScalingInSuspended: aws.Bool(true)}}))(t, "RegisterScalableTarget again")
	targets := must(f.scaling.DescribeScalableTargets(ctx, &aas.DescribeScalableTargetsInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker}))(t, "DescribeScalableTargets")
	if len(targets.ScalableTargets) != 1 || aws.ToInt32(targets.ScalableTargets[0].MinCapacity) != 1 || aws.ToInt32(targets.ScalableTargets[0].MaxCapacity) != 6 ||
		!aws.ToBool(targets.ScalableTargets[0].SuspendedState.DynamicScalingInSuspended) {
		t.Errorf("DescribeScalableTargets %+v: want min 1 kept, max 6, scale-in suspended", targets.ScalableTargets)
	}

	put := must(f.scaling.PutScalingPolicy(ctx, &aas.PutScalingPolicyInput{PolicyName: aws.String("kokoro-copies"),
		ServiceNamespace: aastypes.ServiceNamespaceSagemaker, ResourceId: aws.String(rid), ScalableDimension: dim, PolicyType: aastypes.PolicyTypeTargetTrackingScaling,
		TargetTrackingScalingPolicyConfiguration: &aastypes.TargetTrackingScalingPolicyConfiguration{TargetValue: aws.Float64(5),
			PredefinedMetricSpecification: &aastypes.PredefinedMetricSpecification{PredefinedMetricType: aastypes.MetricTypeSageMakerInferenceComponentConcurrentRequestsPerCopyHighResolution},
			ScaleInCooldown:               aws.Int32(300), ScaleOutCooldown: aws.Int32(60)}}))(t, "PutScalingPolicy")
	if len(put.Alarms) != 2 || !strings.HasPrefix(aws.ToString(put.PolicyARN), "arn:aws:autoscaling:us-east-1:123456789012:scalingPolicy:") {
		t.Fatalf("PutScalingPolicy %+v", put)
	}
	pols := must(f.scaling.DescribeScalingPolicies(ctx, &aas.DescribeScalingPoliciesInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ResourceId: aws.String(rid), ScalableDimension: dim}))(t, "DescribeScalingPolicies")
	if len(pols.ScalingPolicies) != 1 || len(pols.ScalingPolicies[0].Alarms) != 2 || aws.ToFloat64(pols.ScalingPolicies[0].TargetTrackingScalingPolicyConfiguration.TargetValue) != 5 {
		t.Fatalf("DescribeScalingPolicies %+v", pols.ScalingPolicies)
	}
	high := f.alarms(t, ctx, "TargetTracking-"+rid+"-AlarmHigh-")
	low := f.alarms(t, ctx, "TargetTracking-"+rid+"-AlarmLow-")
	if len(high) != 1 || len(low) != 1 {
		t.Fatalf("alarms in moto: high %v, low %v", high, low)
	}
	got := must(f.cw.DescribeAlarms(ctx, &cloudwatch.DescribeAlarmsInput{AlarmNames: []string{high[0]}}))(t, "DescribeAlarms")
	a := got.MetricAlarms[0]
	if aws.ToString(a.MetricName) != "ConcurrentRequestsPerCopy" || aws.ToString(a.Namespace) != "AWS/SageMaker" || aws.ToFloat64(a.Threshold) != 5 ||
		aws.ToInt32(a.Period) != 10 || aws.ToInt32(a.EvaluationPeriods) != 3 || len(a.Dimensions) != 1 ||
		aws.ToString(a.Dimensions[0].Name) != "InferenceComponentName" || aws.ToString(a.Dimensions[0].Value) != "kokoro-tts" ||
		len(a.AlarmActions) != 1 || a.AlarmActions[0] != aws.ToString(put.PolicyARN) {
		t.Errorf("AlarmHigh %+v", a)
	}

	must(f.sm.UpdateInferenceComponentRuntimeConfig(ctx, &sagemaker.UpdateInferenceComponentRuntimeConfigInput{
		InferenceComponentName: aws.String("kokoro-tts"), DesiredRuntimeConfig: &smtypes.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(6)}}))(t, "UpdateInferenceComponentRuntimeConfig")
	ic = must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("kokoro-tts")}))(t, "DescribeInferenceComponent")
	if aws.ToInt32(ic.RuntimeConfig.DesiredCopyCount) != 6 || aws.ToInt32(ic.RuntimeConfig.CurrentCopyCount) != 6 {
		t.Errorf("after the update: %+v", ic.RuntimeConfig)
	}

	must(f.scaling.DeleteScalingPolicy(ctx, &aas.DeleteScalingPolicyInput{PolicyName: aws.String("kokoro-copies"),
		ServiceNamespace: aastypes.ServiceNamespaceSagemaker, ResourceId: aws.String(rid), ScalableDimension: dim}))(t, "DeleteScalingPolicy")
	if left := f.alarms(t, ctx, "TargetTracking-"+rid); len(left) != 0 {
		t.Errorf("alarms left after DeleteScalingPolicy: %v", left)
	}
	must(f.scaling.DeregisterScalableTarget(ctx, &aas.DeregisterScalableTargetInput{
		ServiceNamespace: aastypes.ServiceNamespaceSagemaker, ResourceId: aws.String(rid), ScalableDimension: dim}))(t, "DeregisterScalableTarget")
	targets = must(f.scaling.DescribeScalableTargets(ctx, &aas.DescribeScalableTargetsInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ScalableDimension: dim}))(t, "DescribeScalableTargets")
	if len(targets.ScalableTargets) != 0 {
		t.Errorf("targets after deregistering: %+v", targets.ScalableTargets)
	}
	_, err := f.sm.DeleteEndpoint(ctx, &sagemaker.DeleteEndpointInput{EndpointName: aws.String("kokoro-ic")})
	if apiCode(err) != "ValidationException" {
		t.Errorf("DeleteEndpoint with a component on it: %v, want ValidationException", err)
	}
	must(f.sm.DeleteInferenceComponent(ctx, &sagemaker.DeleteInferenceComponentInput{InferenceComponentName: aws.String("kokoro-tts")}))(t, "DeleteInferenceComponent")
	must(f.sm.DeleteEndpoint(ctx, &sagemaker.DeleteEndpointInput{EndpointName: aws.String("kokoro-ic")}))(t, "DeleteEndpoint")
	must(f.sm.DeleteEndpointConfig(ctx, &sagemaker.DeleteEndpointConfigInput{EndpointConfigName: aws.String("kokoro-ic-config")}))(t, "DeleteEndpointConfig")
	if _, err := f.sm.DescribeEndpoint(ctx, &sagemaker.DescribeEndpointInput{EndpointName: aws.String("kokoro-ic")}); apiCode(err) != "ValidationException" {
		t.Errorf("DescribeEndpoint after deleting: %v, want ValidationException", err)
	}
	if _, err := f.sm.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: aws.String("kokoro-ic-config")}); apiCode(err) != "ValidationException" {
		t.Errorf("DescribeEndpointConfig after deleting: %v, want ValidationException", err)
	}
}

// TestControlPlaneSettles checks the Creating and Updating states a settle time gives.
func TestControlPlaneSettles(t *testing.T) {
	t.Parallel()
	f := newControlFront(t, time.Hour)
	now := time.Now()
	f.cp.now = func() time.Time { return now }
	ctx := cpCtx(t)
	f.hostingSetup(t, ctx, "m", "c", "e")
	ep := must(f.sm.DescribeEndpoint(ctx, &sagemaker.DescribeEndpointInput{EndpointName: aws.String("e")}))(t, "DescribeEndpoint")
	if ep.EndpointStatus != smtypes.EndpointStatusCreating {
		t.Errorf("endpoint %s, want Creating", ep.EndpointStatus)
	}
	f.cp.mu.Lock()
	now = now.Add(2 * time.Hour)
	f.cp.mu.Unlock()
	f.createComponent(t, ctx, "ic", "e", "m", 2)
	ic := must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("ic")}))(t, "Describe")
	if ic.InferenceComponentStatus != smtypes.InferenceComponentStatusCreating || aws.ToInt32(ic.RuntimeConfig.CurrentCopyCount) != 0 {
		t.Errorf("new component %s with %d copies, want Creating with 0", ic.InferenceComponentStatus, aws.ToInt32(ic.RuntimeConfig.CurrentCopyCount))
	}
	f.cp.mu.Lock()
	now = now.Add(2 * time.Hour)
	f.cp.mu.Unlock()
	must(f.sm.UpdateInferenceComponentRuntimeConfig(ctx, &sagemaker.UpdateInferenceComponentRuntimeConfigInput{
		InferenceComponentName: aws.String("ic"), DesiredRuntimeConfig: &smtypes.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(5)}}))(t, "Update")
	ic = must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("ic")}))(t, "Describe")
	if ic.InferenceComponentStatus != smtypes.InferenceComponentStatusUpdating || aws.ToInt32(ic.RuntimeConfig.CurrentCopyCount) != 2 ||
		aws.ToInt32(ic.RuntimeConfig.DesiredCopyCount) != 5 {
		t.Errorf("updating component %s %+v, want Updating, 2 → 5", ic.InferenceComponentStatus, ic.RuntimeConfig)
	}
	_, err := f.sm.UpdateInferenceComponentRuntimeConfig(ctx, &sagemaker.UpdateInferenceComponentRuntimeConfigInput{
		InferenceComponentName: aws.String("ic"), DesiredRuntimeConfig: &smtypes.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(1)}})
	if apiCode(err) != "ValidationException" {
		t.Errorf("update while Updating: %v, want ValidationException", err)
	}
	must(f.sm.DeleteInferenceComponent(ctx, &sagemaker.DeleteInferenceComponentInput{InferenceComponentName: aws.String("ic")}))(t, "Delete")
	ic = must(f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("ic")}))(t, "Describe")
	if ic.InferenceComponentStatus != smtypes.InferenceComponentStatusDeleting {
		t.Errorf("deleted component %s, want Deleting", ic.InferenceComponentStatus)
	}
	f.cp.mu.Lock()
	now = now.Add(2 * time.Hour)
	f.cp.mu.Unlock()
	if _, err := f.sm.DescribeInferenceComponent(ctx, &sagemaker.DescribeInferenceComponentInput{InferenceComponentName: aws.String("ic")}); apiCode(err) != "ValidationException" {
		t.Errorf("component after its deletion settled: %v, want ValidationException", err)
	}
}

// TestControlPlaneForwards checks that what moto serves still works through the front: a
// model-ful endpoint and a variant's scaling, listed beside the front's own.
func TestControlPlaneForwards(t *testing.T) {
	t.Parallel()
	f := newControlFront(t, 0)
	ctx := cpCtx(t)
	f.hostingSetup(t, ctx, "m", "ic-config", "ic-endpoint")
	must(f.sm.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("model-config"),
		ProductionVariants: []smtypes.ProductionVariant{{VariantName: aws.String("AllTraffic"), ModelName: aws.String("m"),
			InstanceType: smtypes.ProductionVariantInstanceType("ml.g4dn.xlarge"), InitialInstanceCount: aws.Int32(1)}}}))(t, "CreateEndpointConfig (moto)")
	must(f.sm.CreateEndpoint(ctx, &sagemaker.CreateEndpointInput{EndpointName: aws.String("model-endpoint"), EndpointConfigName: aws.String("model-config")}))(t, "CreateEndpoint (moto)")
	ep := must(f.sm.DescribeEndpoint(ctx, &sagemaker.DescribeEndpointInput{EndpointName: aws.String("model-endpoint")}))(t, "DescribeEndpoint (moto)")
	if ep.EndpointStatus != smtypes.EndpointStatusInService || aws.ToString(ep.EndpointConfigName) != "model-config" {
		t.Errorf("moto's endpoint through the front: %+v", ep)
	}
	eps := must(f.sm.ListEndpoints(ctx, &sagemaker.ListEndpointsInput{SortBy: smtypes.EndpointSortKeyName, SortOrder: smtypes.OrderKeyAscending}))(t, "ListEndpoints")
	var names []string
	for _, e := range eps.Endpoints {
		names = append(names, aws.ToString(e.EndpointName))
	}
	if strings.Join(names, ",") != "ic-endpoint,model-endpoint" {
		t.Errorf("ListEndpoints by name: %v", names)
	}
	cfgs := must(f.sm.ListEndpointConfigs(ctx, &sagemaker.ListEndpointConfigsInput{NameContains: aws.String("config")}))(t, "ListEndpointConfigs")
	if len(cfgs.EndpointConfigs) != 2 {
		t.Errorf("ListEndpointConfigs: %+v, want moto's and ours", cfgs.EndpointConfigs)
	}
	_, err := f.sm.CreateInferenceComponent(ctx, &sagemaker.CreateInferenceComponentInput{InferenceComponentName: aws.String("x"), EndpointName: aws.String("model-endpoint"),
		Specification: &smtypes.InferenceComponentSpecification{ModelName: aws.String("m"),
			ComputeResourceRequirements: &smtypes.InferenceComponentComputeResourceRequirements{MinMemoryRequiredInMb: aws.Int32(1024)}},
		RuntimeConfig: &smtypes.InferenceComponentRuntimeConfig{CopyCount: aws.Int32(1)}})
	if apiCode(err) != "ValidationException" || !strings.Contains(err.Error(), "name a model") {
		t.Errorf("component on moto's model-ful endpoint: %v, want ValidationException", err)
	}

	const rid = "endpoint/model-endpoint/variant/AllTraffic"
	must(f.scaling.RegisterScalableTarget(ctx, &aas.RegisterScalableTargetInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ResourceId: aws.String(rid), ScalableDimension: aastypes.ScalableDimensionSageMakerVariantDesiredInstanceCount, MinCapacity: aws.Int32(1), MaxCapacity: aws.Int32(3)}))(t, "RegisterScalableTarget (variant)")
	f.createComponent(t, ctx, "ic", "ic-endpoint", "m", 1)
	must(f.scaling.RegisterScalableTarget(ctx, &aas.RegisterScalableTargetInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ResourceId: aws.String("inference-component/ic"), ScalableDimension: aastypes.ScalableDimensionSageMakerInferenceComponentDesiredCopyCount,
		MinCapacity: aws.Int32(1), MaxCapacity: aws.Int32(3)}))(t, "RegisterScalableTarget (component)")
	// moto holds the variant's target: asked directly, it has exactly that one.
	direct := aas.NewFromConfig(aws.Config{Region: "us-east-1", Credentials: f.cfg.Credentials, BaseEndpoint: aws.String(f.moto)})
	inMoto := must(direct.DescribeScalableTargets(ctx, &aas.DescribeScalableTargetsInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker}))(t, "DescribeScalableTargets (moto)")
	if len(inMoto.ScalableTargets) != 1 || aws.ToString(inMoto.ScalableTargets[0].ResourceId) != rid {
		t.Errorf("moto's targets: %+v, want the variant's only", inMoto.ScalableTargets)
	}
	both := must(f.scaling.DescribeScalableTargets(ctx, &aas.DescribeScalableTargetsInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker}))(t, "DescribeScalableTargets")
	if len(both.ScalableTargets) != 2 {
		t.Errorf("targets through the front: %+v, want the variant's and the component's", both.ScalableTargets)
	}
	variantOnly := must(f.scaling.DescribeScalableTargets(ctx, &aas.DescribeScalableTargetsInput{
		ServiceNamespace: aastypes.ServiceNamespaceSagemaker, ScalableDimension: aastypes.ScalableDimensionSageMakerVariantDesiredInstanceCount}))(t, "DescribeScalableTargets (variant dimension)")
	if len(variantOnly.ScalableTargets) != 1 {
		t.Errorf("variant-dimension targets: %+v", variantOnly.ScalableTargets)
	}
}

// rawCall posts an AWS JSON 1.1 request to the front, signed in form for region us-east-1.
func rawCall(t testing.TB, url, target, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	service := "sagemaker"
	if strings.HasPrefix(target, targetScaling) {
		service = "application-autoscaling"
	}
	date := time.Now().UTC().Format("20060102T150405Z")
	req.Header.Set("Content-Type", "application/x-amz-json-1.1")
	req.Header.Set("X-Amz-Target", target)
	req.Header.Set("X-Amz-Date", date)
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=testing/"+date[:8]+"/us-east-1/"+service+"/aws4_request, SignedHeaders=host;x-amz-date, Signature="+strings.Repeat("0", 64))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: answer is not JSON: %s", target, b)
		}
	}
	return resp.StatusCode, out
}

// TestControlPlaneErrors checks every 4xx the front decides.
func TestControlPlaneErrors(t *testing.T) {
	t.Parallel()
	f := newControlFront(t, 0)
	ctx := cpCtx(t)
	f.hostingSetup(t, ctx, "m", "cfg", "ep")
	f.createComponent(t, ctx, "ic", "ep", "m", 2)
	must(f.sm.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("moto-cfg"),
		ProductionVariants: []smtypes.ProductionVariant{{VariantName: aws.String("AllTraffic"), ModelName: aws.String("m"),
			InstanceType: smtypes.ProductionVariantInstanceType("ml.g4dn.xlarge"), InitialInstanceCount: aws.Int32(1)}}}))(t, "CreateEndpointConfig (moto)")
	must(f.sm.CreateEndpoint(ctx, &sagemaker.CreateEndpointInput{EndpointName: aws.String("moto-ep"), EndpointConfigName: aws.String("moto-cfg")}))(t, "CreateEndpoint (moto)")
	must(f.sm.CreateEndpointConfig(ctx, &sagemaker.CreateEndpointConfigInput{EndpointConfigName: aws.String("cfg2"), ExecutionRoleArn: aws.String(cpRole),
		ProductionVariants: []smtypes.ProductionVariant{{VariantName: aws.String("Other"), InstanceType: smtypes.ProductionVariantInstanceType("ml.g5.xlarge"), InitialInstanceCount: aws.Int32(1)}}}))(t, "CreateEndpointConfig (second)")
	const rid = `"ServiceNamespace":"sagemaker","ResourceId":"inference-component/ic","ScalableDimension":"sagemaker:inference-component:DesiredCopyCount"`
	if st, out := rawCall(t, f.url, targetScaling+"RegisterScalableTarget", `{`+rid+`,"MinCapacity":1,"MaxCapacity":4}`); st != 200 {
		t.Fatalf("RegisterScalableTarget: %d %v", st, out)
	}

	const variant = `{"VariantName":"V","InstanceType":"ml.g5.xlarge","InitialInstanceCount":1%s}`
	config := func(variantExtra, extra string) string {
		return `{"EndpointConfigName":"new-cfg","ExecutionRoleArn":"` + cpRole + `","ProductionVariants":[` + strings.Replace(variant, "%s", variantExtra, 1) + `]` + extra + `}`
	}
	spec := `"Specification":{"ModelName":"m","ComputeResourceRequirements":{"MinMemoryRequiredInMb":1024%s}}`
	component := func(specExtra, extra string) string {
		return `{"InferenceComponentName":"ic2","EndpointName":"ep",` + strings.Replace(spec, "%s", specExtra, 1) + `,"RuntimeConfig":{"CopyCount":1}` + extra + `}`
	}
	tt := func(metric string, extra string) string {
		return `{"PolicyName":"p",` + rid + `,"PolicyType":"TargetTrackingScaling","TargetTrackingScalingPolicyConfiguration":{"TargetValue":5,"PredefinedMetricSpecification":{"PredefinedMetricType":"` + metric + `"}` + extra + `}}`
	}
	cases := []struct {
		name, op, body, code, msg string
	}{
		{"not JSON", "CreateEndpointConfig", `{"EndpointConfigName":`, "SerializationException", "JSON object"},
		{"wrong type", "CreateEndpointConfig", `{"EndpointConfigName":5,"ProductionVariants":[]}`, "SerializationException", "cannot read"},
		{"required member", "CreateEndpointConfig", `{"EndpointConfigName":"x"}`, "ValidationException", "productionVariants"},
		{"config name pattern", "CreateEndpointConfig", strings.Replace(config("", ""), "new-cfg", "bad_name", 1), "ValidationException", "endpointConfigName"},
		{"no variants", "CreateEndpointConfig", `{"EndpointConfigName":"x","ProductionVariants":[]}`, "ValidationException", "length greater"},
		{"mixed variants", "CreateEndpointConfig", `{"EndpointConfigName":"x","ExecutionRoleArn":"` + cpRole + `","ProductionVariants":[{"VariantName":"A","ModelName":"m","InstanceType":"ml.g5.xlarge","InitialInstanceCount":1},{"VariantName":"B","InstanceType":"ml.g5.xlarge","InitialInstanceCount":1}]}`, "ValidationException", "or none does"},
		{"variant name pattern", "CreateEndpointConfig", strings.Replace(config("", ""), `"V"`, `"-V"`, 1), "ValidationException", "variantName"},
		{"repeated variant", "CreateEndpointConfig", strings.Replace(config("", ""), "]", ","+strings.Replace(variant, "%s", "", 1)+"]", 1), "ValidationException", "more than one"},
		{"no instance type", "CreateEndpointConfig", strings.Replace(config("", ""), `"InstanceType":"ml.g5.xlarge",`, "", 1), "ValidationException", "InstanceType"},
		{"no initial count", "CreateEndpointConfig", strings.Replace(config("", ""), `,"InitialInstanceCount":1`, "", 1), "ValidationException", "InitialInstanceCount"},
		{"initial count 0", "CreateEndpointConfig", strings.Replace(config("", ""), `"InitialInstanceCount":1`, `"InitialInstanceCount":0`, 1), "ValidationException", "initialInstanceCount"},
		{"volume size", "CreateEndpointConfig", config(`,"VolumeSizeInGB":0`, ""), "ValidationException", "volumeSizeInGB"},
		{"negative weight", "CreateEndpointConfig", config(`,"InitialVariantWeight":-1`, ""), "ValidationException", "initialVariantWeight"},
		{"routing strategy missing", "CreateEndpointConfig", config(`,"RoutingConfig":{}`, ""), "ValidationException", "routingStrategy"},
		{"routing strategy enum", "CreateEndpointConfig", config(`,"RoutingConfig":{"RoutingStrategy":"FASTEST"}`, ""), "ValidationException", "enum"},
		{"managed status enum", "CreateEndpointConfig", config(`,"ManagedInstanceScaling":{"Status":"ON"}`, ""), "ValidationException", "status"},
		{"managed min negative", "CreateEndpointConfig", config(`,"ManagedInstanceScaling":{"MinInstanceCount":-1}`, ""), "ValidationException", "minInstanceCount"},
		{"managed max 0", "CreateEndpointConfig", config(`,"ManagedInstanceScaling":{"MaxInstanceCount":0}`, ""), "ValidationException", "maxInstanceCount"},
		{"managed min over max", "CreateEndpointConfig", config(`,"ManagedInstanceScaling":{"MinInstanceCount":3,"MaxInstanceCount":2}`, ""), "ValidationException", "greater than MaxInstanceCount"},
		{"scale-in strategy missing", "CreateEndpointConfig", config(`,"ManagedInstanceScaling":{"ScaleInPolicy":{}}`, ""), "ValidationException", "strategy"},
		{"scale-in strategy enum", "CreateEndpointConfig", config(`,"ManagedInstanceScaling":{"ScaleInPolicy":{"Strategy":"X"}}`, ""), "ValidationException", "enum"},
		{"scale-in step size", "CreateEndpointConfig", config(`,"ManagedInstanceScaling":{"ScaleInPolicy":{"Strategy":"IDLE_RELEASE","MaximumStepSize":0}}`, ""), "ValidationException", "maximumStepSize"},
		{"scale-in cooldown", "CreateEndpointConfig", config(`,"ManagedInstanceScaling":{"ScaleInPolicy":{"Strategy":"IDLE_RELEASE","CooldownInMinutes":1}}`, ""), "ValidationException", "cooldownInMinutes"},
		{"no role", "CreateEndpointConfig", strings.Replace(config("", ""), `"ExecutionRoleArn":"`+cpRole+`",`, "", 1), "ValidationException", "ExecutionRoleArn"},
		{"role pattern", "CreateEndpointConfig", strings.Replace(config("", ""), cpRole, "arn:aws:iam::1:user/x-is-not-a-role", 1), "ValidationException", "executionRoleArn"},
		{"config exists here", "CreateEndpointConfig", strings.Replace(config("", ""), "new-cfg", "cfg", 1), "ValidationException", "already existing"},
		{"config exists in moto", "CreateEndpointConfig", strings.Replace(config("", ""), "new-cfg", "moto-cfg", 1), "ValidationException", "already existing"},
		{"model-ful config named like ours", "CreateEndpointConfig", `{"EndpointConfigName":"cfg","ProductionVariants":[{"VariantName":"A","ModelName":"m","InstanceType":"ml.g5.xlarge","InitialInstanceCount":1}]}`, "ValidationException", "already existing"},
		{"describe config pattern", "DescribeEndpointConfig", `{"EndpointConfigName":"a_b"}`, "ValidationException", "endpointConfigName"},
		{"describe config type", "DescribeEndpointConfig", `{"EndpointConfigName":1}`, "SerializationException", "string"},
		{"delete config pattern", "DeleteEndpointConfig", `{"EndpointConfigName":"a_b"}`, "ValidationException", "endpointConfigName"},
		{"list configs sort", "ListEndpointConfigs", `{"SortBy":"Status"}`, "ValidationException", "sortBy"},
		{"list configs order", "ListEndpointConfigs", `{"SortOrder":"Up"}`, "ValidationException", "sortOrder"},
		{"list configs max", "ListEndpointConfigs", `{"MaxResults":0}`, "ValidationException", "maxResults"},
		{"list configs contains", "ListEndpointConfigs", `{"NameContains":"a b"}`, "ValidationException", "nameContains"},
		{"endpoint name pattern", "CreateEndpoint", `{"EndpointName":"a_b","EndpointConfigName":"cfg"}`, "ValidationException", "endpointName"},
		{"endpoint config pattern", "CreateEndpoint", `{"EndpointName":"ab","EndpointConfigName":"c_d"}`, "ValidationException", "endpointConfigName"},
		{"endpoint exists here", "CreateEndpoint", `{"EndpointName":"ep","EndpointConfigName":"moto-cfg"}`, "ValidationException", "already existing"},
		{"endpoint exists in moto", "CreateEndpoint", `{"EndpointName":"moto-ep","EndpointConfigName":"cfg"}`, "ValidationException", "already existing"},
		{"describe endpoint pattern", "DescribeEndpoint", `{"EndpointName":"a_b"}`, "ValidationException", "endpointName"},
		{"update endpoint pattern", "UpdateEndpoint", `{"EndpointName":"a_b","EndpointConfigName":"cfg"}`, "ValidationException", "endpointName"},
		{"update config pattern", "UpdateEndpoint", `{"EndpointName":"ep","EndpointConfigName":"c_d"}`, "ValidationException", "endpointConfigName"},
		{"moto endpoint to our config", "UpdateEndpoint", `{"EndpointName":"moto-ep","EndpointConfigName":"cfg"}`, "ValidationException", "cannot move"},
		{"our endpoint to moto config", "UpdateEndpoint", `{"EndpointName":"ep","EndpointConfigName":"moto-cfg"}`, "ValidationException", "must name no model"},
		{"update drops the component's variant", "UpdateEndpoint", `{"EndpointName":"ep","EndpointConfigName":"cfg2"}`, "ValidationException", "does not have"},
		{"delete endpoint pattern", "DeleteEndpoint", `{"EndpointName":"a_b"}`, "ValidationException", "endpointName"},
		{"delete endpoint with component", "DeleteEndpoint", `{"EndpointName":"ep"}`, "ValidationException", "delete them first"},
		{"list endpoints status", "ListEndpoints", `{"StatusEquals":"Up"}`, "ValidationException", "statusEquals"},
		{"component name pattern", "CreateInferenceComponent", strings.Replace(component("", ""), `"ic2"`, `"ic_2"`, 1), "ValidationException", "inferenceComponentName"},
		{"component endpoint pattern", "CreateInferenceComponent", strings.Replace(component("", ""), `"ep"`, `"e_p"`, 1), "ValidationException", "endpointName"},
		{"component variant pattern", "CreateInferenceComponent", component("", `,"VariantName":"a_b"`), "ValidationException", "variantName"},
		{"component specifications", "CreateInferenceComponent", component("", `,"Specifications":[{}]`), "ValidationException", "Specifications"},
		{"component no specification", "CreateInferenceComponent", `{"InferenceComponentName":"ic2","EndpointName":"ep","RuntimeConfig":{"CopyCount":1}}`, "ValidationException", "specification"},
		{"component empty specification", "CreateInferenceComponent", `{"InferenceComponentName":"ic2","EndpointName":"ep","Specification":{},"RuntimeConfig":{"CopyCount":1}}`, "ValidationException", "ModelName, a Container"},
		{"component model pattern", "CreateInferenceComponent", strings.Replace(component("", ""), `"ModelName":"m"`, `"ModelName":"m_"`, 1), "ValidationException", "modelName"},
		{"component image", "CreateInferenceComponent", `{"InferenceComponentName":"ic2","EndpointName":"ep","Specification":{"Container":{"Image":"a b"},"ComputeResourceRequirements":{"MinMemoryRequiredInMb":1024}},"RuntimeConfig":{"CopyCount":1}}`, "ValidationException", "image"},
		{"component startup timeout", "CreateInferenceComponent", strings.Replace(component("", ""), `"ModelName":"m"`, `"ModelName":"m","StartupParameters":{"ModelDataDownloadTimeoutInSeconds":10}`, 1), "ValidationException", "modelDataDownloadTimeoutInSeconds"},
		{"component no compute", "CreateInferenceComponent", `{"InferenceComponentName":"ic2","EndpointName":"ep","Specification":{"ModelName":"m"},"RuntimeConfig":{"CopyCount":1}}`, "ValidationException", "ComputeResourceRequirements"},
		{"component no memory", "CreateInferenceComponent", `{"InferenceComponentName":"ic2","EndpointName":"ep","Specification":{"ModelName":"m","ComputeResourceRequirements":{}},"RuntimeConfig":{"CopyCount":1}}`, "ValidationException", "minMemoryRequiredInMb"},
		{"component memory 127", "CreateInferenceComponent", strings.Replace(component("", ""), "1024", "127", 1), "ValidationException", "minMemoryRequiredInMb"},
		{"component max memory under min", "CreateInferenceComponent", component(`,"MaxMemoryRequiredInMb":512`, ""), "ValidationException", "less than MinMemoryRequiredInMb"},
		{"component max memory 127", "CreateInferenceComponent", component(`,"MaxMemoryRequiredInMb":127`, ""), "ValidationException", "maxMemoryRequiredInMb"},
		{"component cpu", "CreateInferenceComponent", component(`,"NumberOfCpuCoresRequired":0.1`, ""), "ValidationException", "numberOfCpuCoresRequired"},
		{"component accelerators", "CreateInferenceComponent", component(`,"NumberOfAcceleratorDevicesRequired":0.5`, ""), "ValidationException", "numberOfAcceleratorDevicesRequired"},
		{"component no runtime config", "CreateInferenceComponent", strings.Replace(component("", ""), `,"RuntimeConfig":{"CopyCount":1}`, "", 1), "ValidationException", "runtimeConfig"},
		{"component no copy count", "CreateInferenceComponent", strings.Replace(component("", ""), `{"CopyCount":1}`, `{}`, 1), "ValidationException", "copyCount"},
		{"component negative copies", "CreateInferenceComponent", strings.Replace(component("", ""), `"CopyCount":1`, `"CopyCount":-1`, 1), "ValidationException", "copyCount"},
		{"component unknown model", "CreateInferenceComponent", strings.Replace(component("", ""), `"ModelName":"m"`, `"ModelName":"nope"`, 1), "ValidationException", "Could not find model"},
		{"component unknown endpoint", "CreateInferenceComponent", strings.Replace(component("", ""), `"ep"`, `"nope"`, 1), "ValidationException", "Could not find endpoint"},
		{"component on model-ful endpoint", "CreateInferenceComponent", strings.Replace(component("", ""), `"ep"`, `"moto-ep"`, 1), "ValidationException", "name a model"},
		{"component exists", "CreateInferenceComponent", strings.Replace(component("", ""), `"ic2"`, `"ic"`, 1), "ValidationException", "already existing"},
		{"component unknown variant", "CreateInferenceComponent", component("", `,"VariantName":"Nope"`), "ValidationException", "Could not find variant"},
		{"adapter without base", "CreateInferenceComponent", `{"InferenceComponentName":"ad","EndpointName":"ep","Specification":{"BaseInferenceComponentName":"nope"}}`, "ValidationException", "base inference component"},
		{"describe component pattern", "DescribeInferenceComponent", `{"InferenceComponentName":"a_b"}`, "ValidationException", "inferenceComponentName"},
		{"describe unknown component", "DescribeInferenceComponent", `{"InferenceComponentName":"nope"}`, "ValidationException", "Could not find inference component"},
		{"update nothing", "UpdateInferenceComponent", `{"InferenceComponentName":"ic"}`, "ValidationException", "Specification or a RuntimeConfig"},
		{"update specifications", "UpdateInferenceComponent", `{"InferenceComponentName":"ic","Specifications":[{}]}`, "ValidationException", "Specifications"},
		{"update bad spec", "UpdateInferenceComponent", `{"InferenceComponentName":"ic","Specification":{"ModelName":"m"}}`, "ValidationException", "ComputeResourceRequirements"},
		{"update unknown model", "UpdateInferenceComponent", `{"InferenceComponentName":"ic","Specification":{"ModelName":"nope","ComputeResourceRequirements":{"MinMemoryRequiredInMb":1024}}}`, "ValidationException", "Could not find model"},
		{"update copies", "UpdateInferenceComponent", `{"InferenceComponentName":"ic","RuntimeConfig":{"CopyCount":-2}}`, "ValidationException", "copyCount"},
		{"update unknown component", "UpdateInferenceComponent", `{"InferenceComponentName":"nope","RuntimeConfig":{"CopyCount":2}}`, "ValidationException", "Could not find inference component"},
		{"update unknown base", "UpdateInferenceComponent", `{"InferenceComponentName":"ic","Specification":{"BaseInferenceComponentName":"nope"}}`, "ValidationException", "base inference component"},
		{"update component pattern", "UpdateInferenceComponent", `{"InferenceComponentName":"a_b","RuntimeConfig":{"CopyCount":2}}`, "ValidationException", "inferenceComponentName"},
		{"runtime config no copies", "UpdateInferenceComponentRuntimeConfig", `{"InferenceComponentName":"ic","DesiredRuntimeConfig":{}}`, "ValidationException", "copyCount"},
		{"runtime config negative", "UpdateInferenceComponentRuntimeConfig", `{"InferenceComponentName":"ic","DesiredRuntimeConfig":{"CopyCount":-1}}`, "ValidationException", "copyCount"},
		{"runtime config unknown", "UpdateInferenceComponentRuntimeConfig", `{"InferenceComponentName":"nope","DesiredRuntimeConfig":{"CopyCount":1}}`, "ValidationException", "Could not find inference component"},
		{"runtime config pattern", "UpdateInferenceComponentRuntimeConfig", `{"InferenceComponentName":"a_b","DesiredRuntimeConfig":{"CopyCount":1}}`, "ValidationException", "inferenceComponentName"},
		{"delete unknown component", "DeleteInferenceComponent", `{"InferenceComponentName":"nope"}`, "ValidationException", "Could not find inference component"},
		{"delete component pattern", "DeleteInferenceComponent", `{"InferenceComponentName":"a_b"}`, "ValidationException", "inferenceComponentName"},
		{"list components status", "ListInferenceComponents", `{"StatusEquals":"Up"}`, "ValidationException", "statusEquals"},
		{"list components endpoint", "ListInferenceComponents", `{"EndpointNameEquals":"a_b"}`, "ValidationException", "endpointNameEquals"},
		{"list components variant", "ListInferenceComponents", `{"VariantNameEquals":"a_b"}`, "ValidationException", "variantNameEquals"},
		{"list components token", "ListInferenceComponents", `{"NextToken":"garbage"}`, "ValidationException", "pagination token"},
		{"list components max", "ListInferenceComponents", `{"MaxResults":101}`, "ValidationException", "maxResults"},

		{"target namespace", "RegisterScalableTarget", `{"ServiceNamespace":"ecs","ResourceId":"inference-component/ic","ScalableDimension":"sagemaker:inference-component:DesiredCopyCount","MinCapacity":1,"MaxCapacity":2}`, "ValidationException", "namespace"},
		{"target resource id", "RegisterScalableTarget", `{"ServiceNamespace":"sagemaker","ResourceId":"endpoint/ep","ScalableDimension":"sagemaker:inference-component:DesiredCopyCount","MinCapacity":1,"MaxCapacity":2}`, "ValidationException", "resource ID"},
		{"target unknown component", "RegisterScalableTarget", strings.Replace(`{`+rid+`,"MinCapacity":1,"MaxCapacity":2}`, "component/ic", "component/nope", 1), "ValidationException", "does not exist"},
		{"target negative", "RegisterScalableTarget", `{` + rid + `,"MinCapacity":-1}`, "ValidationException", "minCapacity"},
		{"target min over max", "RegisterScalableTarget", `{` + rid + `,"MinCapacity":5}`, "ValidationException", "greater than maximum"},
		{"describe targets max", "DescribeScalableTargets", `{"ServiceNamespace":"sagemaker","ScalableDimension":"sagemaker:inference-component:DesiredCopyCount","MaxResults":51}`, "ValidationException", "maxResults"},
		{"describe targets token", "DescribeScalableTargets", `{"ServiceNamespace":"sagemaker","ScalableDimension":"sagemaker:inference-component:DesiredCopyCount","NextToken":"x"}`, "ValidationException", "pagination token"},
		{"deregister unknown", "DeregisterScalableTarget", strings.Replace(`{`+rid+`}`, "component/ic", "component/nope", 1), "ObjectNotFoundException", "No scalable target"},
		{"policy name", "PutScalingPolicy", strings.Replace(tt("SageMakerInferenceComponentInvocationsPerCopy", ""), `"PolicyName":"p"`, `"PolicyName":"a\u0001b"`, 1), "ValidationException", "policyName"},
		{"policy no type", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `}`, "ValidationException", "PolicyType"},
		{"policy type enum", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"Magic"}`, "ValidationException", "policyType"},
		{"policy predictive", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"PredictiveScaling"}`, "ValidationException", "PredictiveScaling"},
		{"step without config", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"StepScaling"}`, "ValidationException", "StepScalingPolicyConfiguration"},
		{"step adjustment type", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"StepScaling","StepScalingPolicyConfiguration":{"AdjustmentType":"More"}}`, "ValidationException", "adjustmentType"},
		{"step aggregation", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"StepScaling","StepScalingPolicyConfiguration":{"MetricAggregationType":"Median"}}`, "ValidationException", "metricAggregationType"},
		{"step adjustment", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"StepScaling","StepScalingPolicyConfiguration":{"StepAdjustments":[{}]}}`, "ValidationException", "scalingAdjustment"},
		{"tt without config", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"TargetTrackingScaling"}`, "ValidationException", "TargetTrackingScalingPolicyConfiguration"},
		{"tt no target", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"TargetTrackingScaling","TargetTrackingScalingPolicyConfiguration":{}}`, "ValidationException", "targetValue"},
		{"tt target 0", "PutScalingPolicy", strings.Replace(tt("SageMakerInferenceComponentInvocationsPerCopy", ""), `"TargetValue":5`, `"TargetValue":0`, 1), "ValidationException", "greater than 0"},
		{"tt cooldown", "PutScalingPolicy", tt("SageMakerInferenceComponentInvocationsPerCopy", `,"ScaleInCooldown":-1`), "ValidationException", "scaleInCooldown"},
		{"tt two metrics", "PutScalingPolicy", tt("SageMakerInferenceComponentInvocationsPerCopy", `,"CustomizedMetricSpecification":{"MetricName":"x","Namespace":"y"}`), "ValidationException", "exactly one"},
		{"tt no metric type", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"TargetTrackingScaling","TargetTrackingScalingPolicyConfiguration":{"TargetValue":5,"PredefinedMetricSpecification":{}}}`, "ValidationException", "predefinedMetricType"},
		{"tt variant metric", "PutScalingPolicy", tt("SageMakerVariantConcurrentRequestsPerModelHighResolution", ""), "ValidationException", "Unsupported metric type"},
		{"tt metric math", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"TargetTrackingScaling","TargetTrackingScalingPolicyConfiguration":{"TargetValue":5,"CustomizedMetricSpecification":{"Metrics":[{"Id":"a"}]}}}`, "ValidationException", "metric math"},
		{"tt custom no name", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"TargetTrackingScaling","TargetTrackingScalingPolicyConfiguration":{"TargetValue":5,"CustomizedMetricSpecification":{"Namespace":"y"}}}`, "ValidationException", "MetricName and Namespace"},
		{"tt custom statistic", "PutScalingPolicy", `{"PolicyName":"p",` + rid + `,"PolicyType":"TargetTrackingScaling","TargetTrackingScalingPolicyConfiguration":{"TargetValue":5,"CustomizedMetricSpecification":{"MetricName":"x","Namespace":"y","Statistic":"p99"}}}`, "ValidationException", "statistic"},
		{"policy unregistered", "PutScalingPolicy", strings.Replace(tt("SageMakerInferenceComponentInvocationsPerCopy", ""), "component/ic", "component/nope", 1), "ObjectNotFoundException", "No scalable target"},
		{"describe policies max", "DescribeScalingPolicies", `{"ServiceNamespace":"sagemaker","ScalableDimension":"sagemaker:inference-component:DesiredCopyCount","MaxResults":11}`, "ValidationException", "maxResults"},
		{"delete unknown policy", "DeleteScalingPolicy", `{"PolicyName":"nope",` + rid + `}`, "ObjectNotFoundException", "No scaling policy"},
	}
	for _, tc := range cases {
		target := targetSageMaker + tc.op
		if _, ok := scalingOps[tc.op]; ok {
			target = targetScaling + tc.op
		}
		st, out := rawCall(t, f.url, target, tc.body)
		msg, _ := out["message"].(string)
		if st != http.StatusBadRequest || out["__type"] != tc.code || !strings.Contains(msg, tc.msg) {
			t.Errorf("%s: %d %v, want 400 %s containing %q", tc.name, st, out, tc.code, tc.msg)
		}
	}
	// A new target needs both capacities.
	st, out := rawCall(t, f.url, targetScaling+"DeregisterScalableTarget", `{`+rid+`}`)
	if st != 200 {
		t.Fatalf("deregister: %d %v", st, out)
	}
	st, out = rawCall(t, f.url, targetScaling+"RegisterScalableTarget", `{`+rid+`,"MaxCapacity":3}`)
	if msg, _ := out["message"].(string); st != 400 || !strings.Contains(msg, "MinCapacity and MaxCapacity") {
		t.Errorf("new target without MinCapacity: %d %v", st, out)
	}
}

// TestControlPlaneSharesTheRuntimePort checks the emulator's routing with Config.Control:
// X-Amz-Target and non-runtime paths reach the control plane, /endpoints/ the runtime.
func TestControlPlaneSharesTheRuntimePort(t *testing.T) {
	t.Parallel()
	control := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	em, err := New(Config{EndpointName: "e", Region: "us-east-1", Variants: []Variant{{Name: "V", Instances: []string{"http://127.0.0.1:1"}}}, Control: control})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = em.Close() })
	h := em.Handler()
	for _, tc := range []struct {
		path, target string
		want         int
	}{
		{"/", "SageMaker.ListEndpoints", http.StatusTeapot},
		{"/", "", http.StatusTeapot}, // CloudWatch's query protocol carries no target
		{"/endpoints/e/invocations", "", http.StatusForbidden},
		{"/endpoints/e/invocations", "SageMaker.DescribeEndpoint", http.StatusTeapot},
	} {
		req := httptest.NewRequest(http.MethodPost, tc.path, strings.NewReader("{}"))
		if tc.target != "" {
			req.Header.Set("X-Amz-Target", tc.target)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("POST %s (target %q): %d, want %d", tc.path, tc.target, rec.Code, tc.want)
		}
	}
}
