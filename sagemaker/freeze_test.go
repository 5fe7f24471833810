package sagemaker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"

	"github.com/kokoro-sm/kokoro/planner"
)

// scaledEndpoint deploys an endpoint of n instances with autoscaling registered (min 2, max 4)
// and one target-tracking policy, as a user's production endpoint would be.
func scaledEndpoint(t *testing.T, c *Control, name string, n int) {
	t.Helper()
	ctx := ctxT(t)
	spec := testSpec(name)
	spec.InstanceCount = n
	if _, err := c.Deploy(ctx, spec, DeployOptions{}); err != nil {
		t.Fatal(err)
	}
	rid := ResourceID(name, DefaultVariant)
	if _, err := c.Scaling.RegisterScalableTarget(ctx, registerInput(Target{ResourceID: rid, MinCapacity: 2, MaxCapacity: 4})); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Scaling.PutScalingPolicy(ctx, &aas.PutScalingPolicyInput{
		PolicyName: aws.String(name + "-tt"), ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ScalableDimension: aastypes.ScalableDimension(planner.ScalableDimension), ResourceId: aws.String(rid),
		PolicyType: aastypes.PolicyTypeTargetTrackingScaling,
		TargetTrackingScalingPolicyConfiguration: &aastypes.TargetTrackingScalingPolicyConfiguration{
			TargetValue:                   aws.Float64(37.5),
			PredefinedMetricSpecification: &aastypes.PredefinedMetricSpecification{PredefinedMetricType: aastypes.MetricType(planner.PredefinedMetricType)},
		},
	}); err != nil {
		t.Fatal(err)
	}
}

func desired(t *testing.T, c *Control, name string) int {
	t.Helper()
	info, err := c.endpointStatus(ctxT(t), name)
	if err != nil {
		t.Fatal(err)
	}
	return info.Variants[0].Desired
}

func target(t *testing.T, c *Control, name string) Target {
	t.Helper()
	tg, err := c.ScalableTarget(ctxT(t), name, DefaultVariant)
	if err != nil || tg == nil {
		t.Fatalf("scalable target of %s: %v %v", name, tg, err)
	}
	return *tg
}

func TestFreezeThaw(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	scaledEndpoint(t, c, "tts-freeze", 3)
	before := target(t, c, "tts-freeze")
	file := StatePath(t.TempDir(), c.Region, "tts-freeze", DefaultVariant)

	f, err := c.Freeze(ctx, FreezeSpec{Endpoint: "tts-freeze", Pin: 1, StateFile: file, Purpose: "test"})
	if err != nil {
		t.Fatal(err)
	}
	frozen := target(t, c, "tts-freeze")
	if !frozen.Suspended.DynamicIn || !frozen.Suspended.DynamicOut || !frozen.Suspended.Scheduled || frozen.MinCapacity != 1 {
		t.Fatalf("frozen target %+v: want every kind suspended and the minimum under the pin", frozen)
	}
	if n := desired(t, c, "tts-freeze"); n != 1 {
		t.Fatalf("pinned to %d instances, want 1", n)
	}
	st, err := ReadState(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.DesiredInstanceCount != 3 || st.Target == nil || *st.Target != before || len(st.Policies) != 1 {
		t.Fatalf("state file recorded %+v", st)
	}
	if _, err := c.Freeze(ctx, FreezeSpec{Endpoint: "tts-freeze", Pin: 1, StateFile: file}); !errors.Is(err, ErrFrozen) || !strings.Contains(err.Error(), "kokoro thaw") {
		t.Fatalf("second freeze: %v, want ErrFrozen naming kokoro thaw", err)
	}

	if err := f.Thaw(ctx); err != nil {
		t.Fatal(err)
	}
	if got := target(t, c, "tts-freeze"); got != before {
		t.Fatalf("thawed target %+v, want %+v", got, before)
	}
	if n := desired(t, c, "tts-freeze"); n != 3 {
		t.Fatalf("thawed to %d instances, want 3", n)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("state file left after thaw: %v", err)
	}
}

// A process killed while frozen leaves its state file; Restore from it puts everything back,
// a policy deleted meanwhile included.
func TestRestoreFromStateFile(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	scaledEndpoint(t, c, "tts-crash", 2)
	before := target(t, c, "tts-crash")
	file := filepath.Join(t.TempDir(), "state.json")
	if _, err := c.Freeze(ctx, FreezeSpec{Endpoint: "tts-crash", Pin: 1, StateFile: file}); err != nil {
		t.Fatal(err)
	}
	// The process dies here: no Thaw. Someone deletes the policy meanwhile.
	if _, err := c.Scaling.DeleteScalingPolicy(ctx, &aas.DeleteScalingPolicyInput{
		PolicyName: aws.String("tts-crash-tt"), ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ScalableDimension: aastypes.ScalableDimension(planner.ScalableDimension), ResourceId: aws.String(before.ResourceID),
	}); err != nil {
		t.Fatal(err)
	}
	st, err := ReadState(file)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	if err := c.Restore(ctx, st, func(s string) { notes = append(notes, s) }); err != nil {
		t.Fatal(err)
	}
	if got := target(t, c, "tts-crash"); got != before {
		t.Fatalf("restored target %+v, want %+v", got, before)
	}
	if n := desired(t, c, "tts-crash"); n != 2 {
		t.Fatalf("restored to %d instances, want 2", n)
	}
	pols, err := c.policies(ctx, before.ResourceID)
	if err != nil || len(pols) != 1 || aws.ToFloat64(pols[0].TargetTrackingScalingPolicyConfiguration.TargetValue) != 37.5 {
		t.Fatalf("policy after restore: %+v %v", pols, err)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "put back") {
		t.Fatalf("restore did not say it put the policy back: %v", notes)
	}
	// Restoring twice is harmless.
	if err := c.Restore(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
}

// A freeze that fails half-way undoes what it changed before it returns.
func TestFreezeFailureRestores(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	scaledEndpoint(t, c, "tts-half", 2)
	before := target(t, c, "tts-half")
	fake := &fakeSageMaker{SageMakerAPI: c.SageMaker}
	calls := 0
	fake.UpdateEndpointWeightsAndCapacitiesFunc = func(ctx context.Context, in *sm.UpdateEndpointWeightsAndCapacitiesInput, o ...func(*sm.Options)) (*sm.UpdateEndpointWeightsAndCapacitiesOutput, error) {
		calls++
		return nil, errors.New("injected: capacity change refused")
	}
	c.SageMaker = fake
	file := filepath.Join(t.TempDir(), "state.json")
	_, err := c.Freeze(ctx, FreezeSpec{Endpoint: "tts-half", Pin: 1, StateFile: file})
	if err == nil || !strings.Contains(err.Error(), "injected") {
		t.Fatalf("freeze: %v", err)
	}
	if got := target(t, c, "tts-half"); got != before {
		t.Fatalf("target after a failed freeze %+v, want %+v", got, before)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("state file left after a failed freeze that restored everything")
	}
}

// Without autoscaling a freeze only pins the count, and thaw only sets it back.
func TestFreezeWithoutScaling(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	spec := testSpec("tts-plain")
	spec.InstanceCount = 2
	if _, err := c.Deploy(ctx, spec, DeployOptions{}); err != nil {
		t.Fatal(err)
	}
	f, err := c.Freeze(ctx, FreezeSpec{Endpoint: "tts-plain", Pin: 1, StateFile: filepath.Join(t.TempDir(), "s.json")})
	if err != nil {
		t.Fatal(err)
	}
	if f.State.Target != nil || desired(t, c, "tts-plain") != 1 {
		t.Fatalf("frozen: target %+v, desired %d", f.State.Target, desired(t, c, "tts-plain"))
	}
	if err := f.Thaw(ctx); err != nil {
		t.Fatal(err)
	}
	if tg, _ := c.ScalableTarget(ctx, "tts-plain", DefaultVariant); tg != nil || desired(t, c, "tts-plain") != 2 {
		t.Fatalf("thawed: target %+v (want none registered), desired %d", tg, desired(t, c, "tts-plain"))
	}
}

func TestReadStateRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"garbage":   "{",
		"version":   `{"version":9,"endpoint":"e","variant":"v"}`,
		"no name":   `{"version":1}`,
		"other rid": `{"version":1,"endpoint":"e","variant":"v","scalable_target":{"resource_id":"endpoint/x/variant/v"}}`,
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadState(p); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}
