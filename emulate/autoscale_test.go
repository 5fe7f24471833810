package emulate_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
	"github.com/kokoro-sm/kokoro/scaling"
	"github.com/kokoro-sm/kokoro/server/servertest"
)

// stepPolicy scales out by one when the busiest instance holds more than 2 requests in a
// period, and in by one after three periods with none.
func stepPolicy() scaling.Documents {
	zero := 0.0
	alarm := func(name, op string, th float64, n int, arn string) *scaling.MetricAlarm {
		return &scaling.MetricAlarm{AlarmName: name, Namespace: scaling.MetricNamespace, MetricName: scaling.MetricConcurrency,
			Statistic: "Maximum", Period: 10, EvaluationPeriods: n, DatapointsToAlarm: n, Threshold: th, ComparisonOperator: op,
			TreatMissingData: "notBreaching", ActionsEnabled: true, AlarmActions: []string{arn}}
	}
	step := func(name string, adj int, lower, upper *float64) *scaling.ScalingPolicy {
		return &scaling.ScalingPolicy{PolicyName: name, PolicyType: scaling.PolicyTypeStep, StepScalingPolicyConfiguration: &scaling.StepScalingConfiguration{
			AdjustmentType: scaling.ChangeInCapacity, StepAdjustments: []scaling.StepAdjustment{{MetricIntervalLowerBound: lower, MetricIntervalUpperBound: upper, ScalingAdjustment: adj}},
			MetricAggregationType: "Maximum"}}
	}
	return scaling.Documents{
		ScalableTarget: &scaling.ScalableTarget{ServiceNamespace: scaling.ServiceNamespace, ResourceID: "endpoint/" + testEndpoint + "/variant/AllTraffic",
			ScalableDimension: scaling.ScalableDimension, MinCapacity: 1, MaxCapacity: 2},
		StepScaleOut:  step("out", 1, &zero, nil),
		ScaleOutAlarm: alarm("out", "GreaterThanThreshold", 2, 1, scaling.StepScaleOutARNPlaceholder),
		StepScaleIn:   step("in", -1, nil, &zero),
		ScaleInAlarm:  alarm("in", "LessThanOrEqualToThreshold", 0, 3, scaling.StepPolicyARNPlaceholder),
	}
}

// The emulator scales a variant with a policy, in compressed time (a 10 s period lasts 0.5 s):
// six requests held at once on one instance set the scale-out alarm off, a second container
// is started and serves after the provisioning time and takes requests; when the load stops
// the scale-in alarm drains it and the emulator stops it.
func TestAutoscaleAddsAndDrainsContainers(t *testing.T) {
	t.Parallel()
	first := servertest.Start(t, &servertest.Engine{Service: 500 * time.Millisecond}, 0)
	var spawned []*servertest.Engine
	var mu sync.Mutex
	var stopped atomic.Int64
	model := scaling.DefaultModel()
	model.TimeScale = 0.05
	em, err := emulate.New(emulate.Config{EndpointName: testEndpoint, Region: testRegion,
		Variants: []emulate.Variant{{Name: "AllTraffic", Instances: []string{first}}},
		Autoscale: &emulate.Autoscale{Documents: stepPolicy(), Model: model, Provision: time.Second,
			Spawn: func(ctx context.Context) (string, func() error, error) {
				eng := &servertest.Engine{Service: 500 * time.Millisecond}
				url, stop, err := servertest.StartLocal(ctx, eng, 0)
				if err != nil {
					return "", nil, err
				}
				mu.Lock()
				spawned = append(spawned, eng)
				mu.Unlock()
				return url, func() error { stopped.Add(1); return stop() }, nil
			}}})
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := em.StartLocal()
	if err != nil {
		t.Fatal(err)
	}
	cl := newClients(t, url, smruntime.Endpoint{})
	ctx, cancel := context.WithCancel(context.Background())
	var load sync.WaitGroup
	for range 6 {
		load.Go(func() {
			for ctx.Err() == nil {
				_, _ = cl.stream1(ctx)
			}
		})
	}
	inService := func(n int) bool {
		_, c := em.Scaling()
		return len(c) > 0 && c[len(c)-1].InService == n
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				acts, c := em.Scaling()
				t.Fatalf("%s: not after a minute (activities %v, capacity %v)", what, acts, c)
			}
		}
	}
	waitFor("two instances in service", func() bool { return inService(2) })
	waitFor("the new container serving", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(spawned) == 1 && spawned[0].Requests() > 0
	})
	cancel()
	load.Wait()
	waitFor("back to one instance, the spawned one stopped", func() bool { return inService(1) && stopped.Load() == 1 })
	if err := stop(); err != nil {
		t.Error(err)
	}
	acts, _ := em.Scaling()
	if len(acts) < 2 || acts[0].To != 2 || acts[len(acts)-1].To != 1 {
		t.Errorf("activities %v; want a scale-out to 2 and a scale-in to 1", acts)
	}
}
