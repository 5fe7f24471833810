package sagemaker

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	sm "github.com/aws/aws-sdk-go-v2/service/sagemaker"
	smtypes "github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// slowStart makes the endpoint report Creating (or Updating) for the first n reads after a
// create or an update, as SageMaker does while it provisions, which moto skips.
func slowStart(f *fakeSageMaker, n int32) {
	var pending atomic.Int32
	var status atomic.Value
	create := f.CreateEndpointFunc
	f.CreateEndpointFunc = func(ctx context.Context, in *sm.CreateEndpointInput, o ...func(*sm.Options)) (*sm.CreateEndpointOutput, error) {
		pending.Store(n)
		status.Store(StatusCreating)
		if create != nil {
			return create(ctx, in, o...)
		}
		return f.SageMakerAPI.CreateEndpoint(ctx, in, o...)
	}
	update := f.UpdateEndpointFunc
	f.UpdateEndpointFunc = func(ctx context.Context, in *sm.UpdateEndpointInput, o ...func(*sm.Options)) (*sm.UpdateEndpointOutput, error) {
		out, err := update(ctx, in, o...)
		pending.Store(n)
		status.Store(StatusUpdating)
		return out, err
	}
	f.DescribeEndpointFunc = func(ctx context.Context, in *sm.DescribeEndpointInput, o ...func(*sm.Options)) (*sm.DescribeEndpointOutput, error) {
		out, err := f.SageMakerAPI.DescribeEndpoint(ctx, in, o...)
		if err == nil && pending.Add(-1) >= 0 {
			out.EndpointStatus = smtypes.EndpointStatus(status.Load().(string))
		}
		return out, err
	}
}

func TestDeployUpdateDelete(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	fake := &fakeSageMaker{SageMakerAPI: c.SageMaker}
	fake.UpdateEndpointFunc = motoUpdateEndpoint(c.SageMaker)
	slowStart(fake, 2)
	c.SageMaker = fake
	spec := testSpec("tts-deploy")

	// Create: model → config → endpoint, with progress while it is Creating.
	var progress []string
	res, err := c.Deploy(ctx, spec, DeployOptions{OnProgress: func(p Progress) { progress = append(progress, p.Status) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != "create" {
		t.Fatalf("action %q, want create", res.Action)
	}
	if got := stepNames(res.Steps); got != "create model,create endpoint config,create endpoint,wait InService" {
		t.Fatalf("steps %s", got)
	}
	if strings.Join(progress, ",") != "Creating,Creating,InService" {
		t.Fatalf("progress %v, want two Creating reads then InService", progress)
	}
	info, err := c.Describe(ctx, spec.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := info.Variant(DefaultVariant)
	if !ok || v.InstanceType != "ml.g4dn.xlarge" || v.Image != spec.Image || v.Env["MAX_QUEUE_DEPTH"] != "50" ||
		v.StartupTimeoutS != 600 || v.DownloadTimeoutS != 600 || v.Current != 1 || info.Status != StatusInService {
		t.Fatalf("described %+v %+v", info, v)
	}

	// The same spec again changes nothing.
	res, err = c.Deploy(ctx, spec, DeployOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != "none" || strings.Contains(stepNames(res.Steps), "create") {
		t.Fatalf("repeat deploy: action %q, steps %s", res.Action, stepNames(res.Steps))
	}

	// A new environment is an update to a new config; the dry run shows it and changes nothing.
	spec2 := spec
	spec2.Env = map[string]string{"SLOTS": "4", "MAX_QUEUE_DEPTH": "64"}
	dry, err := c.Deploy(ctx, spec2, DeployOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if dry.Action != "update" || !strings.Contains(callOps(dry.Steps), "sagemaker:UpdateEndpoint") {
		t.Fatalf("dry run: action %q, calls %s", dry.Action, callOps(dry.Steps))
	}
	if info, _ := c.Describe(ctx, spec.Endpoint); info.Config != spec.ResourceName() {
		t.Fatalf("dry run changed the endpoint to %s", info.Config)
	}
	res, err = c.Deploy(ctx, spec2, DeployOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != "update" || res.Previous != spec.ResourceName() {
		t.Fatalf("update: %+v", res)
	}
	info, _ = c.Describe(ctx, spec.Endpoint)
	if info.Config != spec2.ResourceName() || info.Variants[0].Env["SLOTS"] != "4" {
		t.Fatalf("after update the endpoint runs %s %v", info.Config, info.Variants[0].Env)
	}
	if _, err := c.SageMaker.DescribeEndpointConfig(ctx, &sm.DescribeEndpointConfigInput{EndpointConfigName: aws.String(spec.ResourceName())}); !isNotFound(err) {
		t.Fatalf("the replaced config is still there: %v", err)
	}

	// Delete cleans up all three, and a second delete finds nothing to do.
	steps, err := c.Delete(ctx, spec.Endpoint, "", DeleteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := stepNames(steps); got != "delete endpoint,wait deleted,delete endpoint config,delete model" {
		t.Fatalf("delete steps %s", got)
	}
	if _, err := c.Describe(ctx, spec.Endpoint); !errors.Is(err, awsconf.ErrNotFound) {
		t.Fatalf("endpoint after delete: %v", err)
	}
	configs, models, err := c.owned(ctx, spec.Endpoint)
	if err != nil || len(configs)+len(models) != 0 {
		t.Fatalf("left behind: configs %v models %v (%v)", configs, models, err)
	}
	if _, err := c.Delete(ctx, spec.Endpoint, "", DeleteOptions{}); err != nil {
		t.Fatalf("second delete: %v", err)
	}
}

func TestDeployRefuses(t *testing.T) {
	t.Parallel()
	bad := func(f func(*DeploySpec)) DeploySpec { s := testSpec("x"); f(&s); return s }
	for _, tc := range []struct {
		name string
		spec DeploySpec
		want string
	}{
		{"name", bad(func(s *DeploySpec) { s.Endpoint = "bad_name" }), "endpoint name"},
		{"long name", bad(func(s *DeploySpec) { s.Endpoint = strings.Repeat("a", 64) }), "endpoint name"},
		{"image", bad(func(s *DeploySpec) { s.Image = "" }), "--image"},
		{"role", bad(func(s *DeploySpec) { s.Role = "kokoro" }), "--role"},
		{"type", bad(func(s *DeploySpec) { s.InstanceType = "g5.xlarge" }), "ml."},
		{"count", bad(func(s *DeploySpec) { s.InstanceCount = -1 }), "instance count"},
		{"startup", bad(func(s *DeploySpec) { s.StartupTimeoutS = 5000 }), "startup"},
		{"download", bad(func(s *DeploySpec) { s.DownloadTimeoutS = 10 }), "download"},
		{"env", bad(func(s *DeploySpec) { s.Env = map[string]string{"A=B": "1"} }), "environment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.spec.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error naming %q", err, tc.want)
			}
		})
	}
}

func TestResourceNameStable(t *testing.T) {
	t.Parallel()
	a, b := testSpec("ep"), testSpec("ep")
	b.Env = map[string]string{"MAX_QUEUE_DEPTH": "50", "SLOTS": "2"} // same map, built in another order
	if a.ResourceName() != b.ResourceName() {
		t.Fatal("the same spec named twice differently")
	}
	b.Env["SLOTS"] = "3"
	if a.ResourceName() == b.ResourceName() {
		t.Fatal("a changed environment kept its name: the update would be a no-op")
	}
	long := testSpec(strings.Repeat("e", 63))
	if n := long.ResourceName(); len(n) > 63 || !ownedBy(n, long.Endpoint) {
		t.Fatalf("name %q (%d) for a 63-character endpoint", n, len(n))
	}
	if ownedBy("ep-model", "ep") || ownedBy("ep2-0123abcd", "ep") {
		t.Fatal("ownedBy claims a name kokoro did not make")
	}
}

func stepNames(steps []Step) string {
	var s []string
	for _, st := range steps {
		if st.Note != "" && strings.HasSuffix(st.Note, "exists") {
			continue
		}
		s = append(s, st.Name)
	}
	return strings.Join(s, ",")
}

func callOps(steps []Step) string {
	var s []string
	for _, st := range steps {
		if st.Call != nil {
			s = append(s, st.Call.Op)
		}
	}
	return strings.Join(s, ",")
}
