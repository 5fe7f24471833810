package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"
	cwtypes "github.com/aws/aws-sdk-go-v2/service/cloudwatch/types"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"

	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/sagemaker"
)

// productionEndpoint deploys name with n instances and autoscaling (min 2, max 4, one
// target-tracking policy), and returns its scalable target as registered.
func productionEndpoint(t *testing.T, url, name string, n int) sagemaker.Target {
	t.Helper()
	if out, err := deploy(deployJob(url, name, n)); err != nil {
		t.Fatalf("deploy: %v\n%s", err, out)
	}
	c := testControl(t, url)
	ctx := context.Background()
	rid := sagemaker.ResourceID(name, sagemaker.DefaultVariant)
	dim := aastypes.ScalableDimension(planner.ScalableDimension)
	if _, err := c.Scaling.RegisterScalableTarget(ctx, &aas.RegisterScalableTargetInput{
		ServiceNamespace: aastypes.ServiceNamespaceSagemaker, ScalableDimension: dim, ResourceId: aws.String(rid),
		MinCapacity: aws.Int32(2), MaxCapacity: aws.Int32(4),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Scaling.PutScalingPolicy(ctx, &aas.PutScalingPolicyInput{
		PolicyName: aws.String(name + "-tt"), ServiceNamespace: aastypes.ServiceNamespaceSagemaker, ScalableDimension: dim,
		ResourceId: aws.String(rid), PolicyType: aastypes.PolicyTypeTargetTrackingScaling,
		TargetTrackingScalingPolicyConfiguration: &aastypes.TargetTrackingScalingPolicyConfiguration{
			TargetValue:                   aws.Float64(37.5),
			PredefinedMetricSpecification: &aastypes.PredefinedMetricSpecification{PredefinedMetricType: aastypes.MetricType(planner.PredefinedMetricType)},
		},
	}); err != nil {
		t.Fatal(err)
	}
	tg, err := c.ScalableTarget(ctx, name, sagemaker.DefaultVariant)
	if err != nil || tg == nil {
		t.Fatal(tg, err)
	}
	return *tg
}

func liveState(t *testing.T, c *sagemaker.Control, name string) (sagemaker.Target, int) {
	t.Helper()
	ctx := context.Background()
	tg, err := c.ScalableTarget(ctx, name, sagemaker.DefaultVariant)
	if err != nil || tg == nil {
		t.Fatal(tg, err)
	}
	info, err := c.Status(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return *tg, info.Variants[0].Desired
}

// TestMain runs the tests, or, in the process TestThawAfterSIGKILL starts from this test
// binary (KOKORO_HELPER_LADDER set), the ladder it kills.
func TestMain(m *testing.M) {
	if os.Getenv("KOKORO_HELPER_LADDER") != "" {
		os.Exit(helperFrozenLadder())
	}
	code := m.Run()
	if sharedPlan.dir != "" {
		os.RemoveAll(sharedPlan.dir)
	}
	os.Exit(code)
}

// helperFrozenLadder runs a long ladder against the endpoint with the SageMaker hooks until it
// is killed; it returns only if the ladder ended first, which fails TestThawAfterSIGKILL.
func helperFrozenLadder() int {
	srv := httptest.NewServer(standInHandler(nil, nil))
	defer srv.Close()
	tr, err := transport.New("http", transport.Options{BaseURL: srv.URL, MaxConns: 2})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c, err := cloudAWS(os.Getenv("KOKORO_HELPER_MOTO")).Control(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hooks := endpointHooks(c, endpointHookOptions{Endpoint: os.Getenv("KOKORO_HELPER_ENDPOINT")})
	l := &bench.Ladder{Transport: tr, Hooks: hooks, Config: bench.Config{Ladder: []int{1, 2}, Hold: time.Hour, MeasureWindow: time.Minute, SLO: time.Second}}
	_, err = l.Run(context.Background())
	fmt.Fprintf(os.Stderr, "the ladder ended before it was killed: %v\n", err)
	return 1
}

// A ladder killed with SIGKILL while the endpoint is frozen leaves it frozen; `kokoro thaw`
// puts back exactly what the state file recorded.
func TestThawAfterSIGKILL(t *testing.T) {
	url := motoEnv(t)
	before := productionEndpoint(t, url, "tts-kill", 3)
	c := testControl(t, url)
	dir := os.Getenv("KOKORO_STATE_DIR")

	child := exec.Command(os.Args[0])
	child.Env = append(os.Environ(), "KOKORO_HELPER_LADDER=1", "KOKORO_HELPER_MOTO="+url, "KOKORO_HELPER_ENDPOINT=tts-kill")
	var log strings.Builder
	child.Stdout, child.Stderr = &log, &log
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	file := sagemaker.StatePath(dir, cloudRegion, "tts-kill", sagemaker.DefaultVariant)
	deadline := time.Now().Add(90 * time.Second)
	for {
		tg, n := liveState(t, c, "tts-kill")
		_, statErr := os.Stat(file)
		if statErr == nil && tg.Suspended.DynamicIn && tg.Suspended.DynamicOut && n == 1 {
			break
		}
		if time.Now().After(deadline) {
			_ = child.Process.Kill()
			_ = child.Wait()
			t.Fatalf("the ladder never froze the endpoint (target %+v, %d instances):\n%s", tg, n, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)           // let the first rung run
	if err := child.Process.Kill(); err != nil { // SIGKILL: no defer, no signal handler runs
		t.Fatal(err)
	}
	_ = child.Wait()
	if tg, n := liveState(t, c, "tts-kill"); !tg.Suspended.Any() || n != 1 {
		t.Fatalf("after the kill the endpoint is no longer frozen (%+v, %d): the test proves nothing", tg, n)
	}

	thaw := NewThaw()
	thaw.AWS = cloudAWS(url)
	out, err := runJob(func(out, _ io.Writer) error { return thaw.Run(context.Background(), out) })
	if err != nil {
		t.Fatalf("thaw: %v\n%s", err, out)
	}
	tg, n := liveState(t, c, "tts-kill")
	if tg != before || n != 3 {
		t.Fatalf("thawed to %+v with %d instances; recorded %+v with 3\n%s", tg, n, before, out)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("state file still there after thaw: %v", err)
	}
	if !strings.Contains(out, "thawed tts-kill/AllTraffic") {
		t.Fatalf("thaw output:\n%s", out)
	}
	thaw.Endpoint = "tts-kill"
	out, err = runJob(func(out, _ io.Writer) error { return thaw.Run(context.Background(), out) })
	if err != nil || !strings.Contains(out, "nothing to thaw") {
		t.Fatalf("second thaw: %v\n%s", err, out)
	}
}

// In-process, the hooks restore on a normal end, on an error and on a panic inside the
// ladder, and record CloudWatch's ratio per rung.
func TestEndpointHooksRestore(t *testing.T) {
	url := motoEnv(t)
	before := productionEndpoint(t, url, "tts-hooks", 2)
	c := testControl(t, url)
	tr, err := transport.New("http", transport.Options{BaseURL: standIn(t, nil, nil), MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	cfg := bench.Config{Ladder: []int{2}, Hold: 400 * time.Millisecond, MeasureWindow: 300 * time.Millisecond, SLO: time.Second}
	check := func(name string) {
		t.Helper()
		if tg, n := liveState(t, c, "tts-hooks"); tg != before || n != 2 {
			t.Fatalf("%s: left %+v with %d instances, want %+v with 2", name, tg, n, before)
		}
	}
	hooks := endpointHooks(c, endpointHookOptions{Endpoint: "tts-hooks", MetricWait: time.Millisecond, Log: &strings.Builder{}})
	afterRung := hooks.AfterRung

	// Normal end.
	rep, err := (&bench.Ladder{Transport: tr, Hooks: hooks, Config: cfg}).Run(context.Background())
	if err != nil || !rep.Frozen {
		t.Fatalf("ladder: %v", err)
	}
	check("normal end")

	// An error after a rung.
	hooks.AfterRung = func(context.Context, *bench.RungStats) error { return errors.New("injected") }
	if _, err := (&bench.Ladder{Transport: tr, Hooks: hooks, Config: cfg}).Run(context.Background()); err == nil {
		t.Fatal("the injected error was lost")
	}
	check("error")

	// A panic inside the ladder.
	hooks.AfterRung = func(context.Context, *bench.RungStats) error { panic("injected panic") }
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Fatal("no panic")
			}
		}()
		_, _ = (&bench.Ladder{Transport: tr, Hooks: hooks, Config: cfg}).Run(context.Background())
	}()
	check("panic")

	// CloudWatch's view of a rung's window: ConcurrentRequestsPerModel (Maximum) 3 against a
	// client mean in-flight of 2 is a ratio of 1.5, recorded for the planner.
	t0 := time.Now().Add(-5 * time.Minute).Truncate(time.Minute)
	publishConcurrency(t, url, "tts-hooks", t0, 3, 3, 3, 3, 3, 3)
	s := bench.RungStats{N: 2, InFlightMean: 2, HoldStartedAt: t0, Window: bench.Window{Start: 0, End: time.Minute}}
	if err := afterRung(context.Background(), &s); err != nil {
		t.Fatal(err)
	}
	if s.ConcurrencyRatio != 1.5 || s.CloudWatchMean != 3 || s.CloudWatchPeak != 3 {
		t.Fatalf("ratio %v (mean %v, peak %v), want 1.5", s.ConcurrencyRatio, s.CloudWatchMean, s.CloudWatchPeak)
	}
	if a := rungArtifactFor(s); a.CWRatio != 1.5 || a.CloudWatchConcurrencyMean != 3 {
		t.Fatalf("artifact rung %+v", a)
	}
}

// publishConcurrency puts ConcurrentRequestsPerModel datapoints, 10 s apart from at, as
// SageMaker publishes them.
func publishConcurrency(t *testing.T, url, endpoint string, at time.Time, values ...float64) {
	t.Helper()
	cw := cloudwatch.NewFromConfig(aws.Config{Region: cloudRegion, BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider("testing", "testing", "")},
		func(o *cloudwatch.Options) { o.Protocol = awsconf.CloudWatchProtocol() })
	var data []cwtypes.MetricDatum
	for i, v := range values {
		data = append(data, cwtypes.MetricDatum{
			MetricName: aws.String(planner.MetricName), Value: aws.Float64(v), StorageResolution: aws.Int32(1),
			Timestamp:  aws.Time(at.Add(time.Duration(i) * sagemaker.ConcurrencyPeriod)),
			Dimensions: []cwtypes.Dimension{{Name: aws.String("EndpointName"), Value: aws.String(endpoint)}, {Name: aws.String("VariantName"), Value: aws.String(sagemaker.DefaultVariant)}},
		})
	}
	if _, err := cw.PutMetricData(context.Background(), &cloudwatch.PutMetricDataInput{Namespace: aws.String(planner.MetricNamespace), MetricData: data}); err != nil {
		t.Fatal(err)
	}
}

// rungArtifactFor maps one rung into the qmax artifact the way the ladder's report does.
func rungArtifactFor(s bench.RungStats) artifact.Rung {
	rep := &bench.Report{Transport: "http", Config: bench.Config{Ladder: []int{s.N}, SLO: time.Second}, Runs: []bench.RunSummary{{Run: 1, Rungs: []bench.RungStats{s}}}}
	return rep.Artifact(artifact.Target{Kind: artifact.TargetSageMaker, Model: "m"}, artifact.Provenance{}, false).Steps[0]
}
