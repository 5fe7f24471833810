package workflow

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

func exitCodeOf(err error) int {
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	if err == nil {
		return 0
	}
	return 2
}

// apply → drift reports none → a changed policy → drift reports it → apply repairs →
// validate, then validate --probe while the test plays Application Auto Scaling.
func TestPolicyApplyDriftValidate(t *testing.T) {
	url := motoEnv(t)
	d := deployJob(url, "tts-pol", 1)
	d.MaxQueueDepth = 50
	if out, err := deploy(d); err != nil {
		t.Fatal(err, out)
	}
	planDir := t.TempDir()
	plan := refPlan(50, 10, 50)
	plan.Scenario.EndpointName, plan.Out = "tts-pol", planDir
	if out, err := runPlan(plan); err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	pf := Policy{AWS: cloudAWS(url), Plan: planDir}
	drift := func() (string, error) {
		return runJob(func(out, _ io.Writer) error { return pf.Drift(context.Background(), out) })
	}
	apply := func(dryRun bool) (string, error) {
		return runJob(func(out, _ io.Writer) error { return pf.Apply(context.Background(), out, dryRun) })
	}
	validate := func(p PolicyProbe) (string, error) {
		return runJob(func(out, errw io.Writer) error { return pf.Validate(context.Background(), out, errw, p) })
	}

	out, err := drift()
	if exitCodeOf(err) != 1 || !strings.Contains(out, "DRIFT: 4 difference(s)") {
		t.Fatalf("drift before apply: %v\n%s", err, out)
	}
	out, err = apply(true)
	if err != nil || !strings.Contains(out, "would call application-autoscaling:RegisterScalableTarget") || !strings.Contains(out, "would call cloudwatch:PutMetricAlarm") {
		t.Fatalf("apply --dry-run: %v\n%s", err, out)
	}
	if _, err := drift(); exitCodeOf(err) != 1 {
		t.Fatal("a dry run applied something")
	}
	if out, err = apply(false); err != nil || !strings.Contains(out, "4 difference(s)") {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if out, err = drift(); err != nil || !strings.Contains(out, "no drift") {
		t.Fatalf("drift after apply: %v\n%s", err, out)
	}
	if out, err = apply(false); err != nil || !strings.Contains(out, "nothing to change") {
		t.Fatalf("second apply: %v\n%s", err, out)
	}

	// Someone changes the scale-out cooldown by hand.
	c := testControl(t, url)
	ctx := context.Background()
	name := "kokoro-tts-pol-AllTraffic-scale-out"
	p, err := c.Scaling.DescribeScalingPolicies(ctx, &aas.DescribeScalingPoliciesInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ResourceId: aws.String(sagemaker.ResourceID("tts-pol", sagemaker.DefaultVariant)), ScalableDimension: aastypes.ScalableDimension(planner.ScalableDimension)})
	if err != nil {
		t.Fatal(err)
	}
	var edited aastypes.ScalingPolicy
	for _, x := range p.ScalingPolicies {
		if aws.ToString(x.PolicyName) == name {
			edited = x
		}
	}
	if edited.TargetTrackingScalingPolicyConfiguration == nil {
		t.Fatalf("no policy %s in %+v", name, p.ScalingPolicies)
	}
	edited.TargetTrackingScalingPolicyConfiguration.ScaleOutCooldown = aws.Int32(300)
	if _, err := c.Scaling.PutScalingPolicy(ctx, &aas.PutScalingPolicyInput{
		PolicyName: edited.PolicyName, ServiceNamespace: edited.ServiceNamespace, ResourceId: edited.ResourceId,
		ScalableDimension: edited.ScalableDimension, PolicyType: edited.PolicyType,
		TargetTrackingScalingPolicyConfiguration: edited.TargetTrackingScalingPolicyConfiguration,
	}); err != nil {
		t.Fatal(err)
	}
	out, err = drift()
	if exitCodeOf(err) != 1 || !strings.Contains(out, "ScaleOutCooldown") || !strings.Contains(out, "deployed 300") {
		t.Fatalf("drift after a hand edit: %v\n%s", err, out)
	}
	if out, err = apply(false); err != nil {
		t.Fatal(err, out)
	}
	if out, err = drift(); err != nil {
		t.Fatalf("drift after repair: %v\n%s", err, out)
	}

	// validate: the checks pass; moto creates no target-tracking alarm, so that is a warning.
	out, err = validate(NewPolicyProbe())
	if err != nil || !strings.Contains(out, "OK    drift") || !strings.Contains(out, "OK    container MAX_QUEUE_DEPTH") || !strings.Contains(out, "WARN  scale-out alarm") {
		t.Fatalf("validate: %v\n%s", err, out)
	}

	// --probe: the alarm Application Auto Scaling would have made, in OK, then the test plays
	// AWS: when the probe's load arrives, the alarm fires and the fleet grows.
	alarm := "TargetTracking-endpoint/tts-pol/variant/AllTraffic-AlarmHigh-5f3a"
	cw := cloudwatch.NewFromConfig(aws.Config{Region: cloudRegion, BaseEndpoint: aws.String(url), Credentials: credentials.NewStaticCredentialsProvider("testing", "testing", "")},
		func(o *cloudwatch.Options) { o.Protocol = awsconf.CloudWatchProtocol() })
	if _, err := cw.PutMetricAlarm(ctx, &cloudwatch.PutMetricAlarmInput{
		AlarmName: aws.String(alarm), Namespace: aws.String(planner.MetricNamespace), MetricName: aws.String(planner.MetricName),
		Statistic: cwtypes.StatisticMaximum, Period: aws.Int32(10), EvaluationPeriods: aws.Int32(3), Threshold: aws.Float64(37.5),
		ComparisonOperator: cwtypes.ComparisonOperatorGreaterThanThreshold,
	}); err != nil {
		t.Fatal(err)
	}
	var inflight, delay atomic.Int64
	delay.Store(int64(20 * time.Millisecond))
	standin := standIn(t, &delay, &inflight)
	probe := NewPolicyProbe()
	probe.On, probe.Transport, probe.Target.URL, probe.Concurrency, probe.Every = true, "http", standin, 8, 50*time.Millisecond

	// Nobody acts: the probe reports that nothing scaled out.
	probe.Duration = time.Second
	out, err = validate(probe)
	if exitCodeOf(err) != 1 || !strings.Contains(out, "FAIL  scale-out") || !strings.Contains(out, "no alarm fired") {
		t.Fatalf("validate --probe, no scale-out: %v\n%s", err, out)
	}

	// The stand-in may still be answering the last probe's requests: "AWS" acts on the next
	// probe's load only, after that probe has read the fleet it starts from.
	for end := time.Now().Add(time.Minute); inflight.Load() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the stand-in still holds %d requests a minute after the probe ended", inflight.Load())
		}
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for pctx.Err() == nil && inflight.Load() < 4 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
		if _, err := cw.SetAlarmState(pctx, &cloudwatch.SetAlarmStateInput{AlarmName: aws.String(alarm), StateValue: cwtypes.StateValueAlarm, StateReason: aws.String("threshold crossed")}); err != nil {
			t.Error(err)
		}
		time.Sleep(200 * time.Millisecond)
		if err := c.SetDesired(pctx, "tts-pol", sagemaker.DefaultVariant, 2); err != nil {
			t.Error(err)
		}
	}()
	probe.Duration = 30 * time.Second
	out, err = validate(probe)
	if err != nil || !strings.Contains(out, "alarm "+alarm+": ALARM") || !strings.Contains(out, "OK    scale-out") || !strings.Contains(out, "in service: 2 instance(s)") {
		t.Fatalf("validate --probe: %v\n%s", err, out)
	}
}
