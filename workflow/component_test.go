package workflow

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	aas "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"

	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/scaling"
)

// componentPlan writes a plan of the reference measurements as if its ladder had run two
// copies per instance, and returns its directory.
func componentPlan(t *testing.T) (string, *planner.Plan) {
	t.Helper()
	b, err := os.ReadFile(referencePlan(t))
	if err != nil {
		t.Fatal(err)
	}
	var plan planner.Plan
	if err := json.Unmarshal(b, &plan); err != nil {
		t.Fatal(err)
	}
	plan.Component = planner.ComponentOf(plan.Documents, 2)
	if plan.Component == nil || plan.Component.Skipped != "" {
		t.Fatalf("the reference proposal has no inference component: %+v", plan.Component)
	}
	dir := t.TempDir()
	b, err = json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, planner.FilePlan), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, &plan
}

// controlPlane serves the inference-component control plane in front of moto.
func controlPlane(t *testing.T, motoURL string) string {
	t.Helper()
	cp, err := emulate.NewControlPlane(motoURL, emulate.ControlPlaneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(cp)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestInferenceComponentDeployPolicy: a plan of two copies per instance deploys as an
// inference component on an endpoint with managed instance scaling, its policy scales the
// copies (apply, drift, a hand edit repaired, validate), and delete removes it all.
func TestInferenceComponentDeployPolicy(t *testing.T) {
	url := controlPlane(t, motoEnv(t))
	planDir, plan := componentPlan(t)
	endpoint := strings.Split(plan.Documents.ScalableTarget.ResourceID, "/")[1] // the plan's own
	comp := sagemaker.ComponentName(endpoint)

	d := deployJob(url, endpoint, 1)
	d.Spec.InstanceType, d.Plan = plan.Source.InstanceType, planDir
	dry := d
	dry.DryRun = true
	out, err := deploy(dry)
	if err != nil || !strings.Contains(out, "would call sagemaker:CreateEndpointConfig") || !strings.Contains(out, "would call sagemaker:CreateInferenceComponent") {
		t.Fatalf("deploy --plan --dry-run: %v\n%s", err, out)
	}
	out, err = deploy(d)
	if err != nil {
		t.Fatalf("deploy --plan: %v\n%s", err, out)
	}
	mis := plan.Component.ManagedInstanceScaling
	for _, want := range []string{"create endpoint config", "create inference component", "wait inference component InService",
		"inference component " + comp + ": 2 copies per instance"} {
		if !strings.Contains(out, want) {
			t.Fatalf("deploy output lacks %q:\n%s", want, out)
		}
	}
	c := testControl(t, url)
	ctx := context.Background()
	info, err := c.Describe(ctx, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := info.Variant(sagemaker.DefaultVariant)
	if v.Managed == nil || v.Managed.Min != mis.MinInstanceCount || v.Managed.Max != mis.MaxInstanceCount || len(info.Components) != 1 {
		t.Fatalf("described %+v, variant %+v, want managed %+v and one component", info, v, mis)
	}
	ci := info.Components[0]
	if ci.Name != comp || ci.Status != sagemaker.StatusInService || ci.Desired != 2*max(1, mis.MinInstanceCount) || ci.MemoryMB != sagemaker.DefaultCopyMemoryMB {
		t.Fatalf("component %+v", ci)
	}
	// The plan's container environment reached the component's model.
	if want := plan.Documents.ContainerEnv[LookupSetting("max-queue-depth").Env]; want == "" || v.Env[LookupSetting("max-queue-depth").Env] != want || v.Component != comp {
		t.Fatalf("variant %+v: want the component's model with MAX_QUEUE_DEPTH=%s", v, want)
	}
	if out, err = describe(url, endpoint, false); err != nil || !strings.Contains(out, "inference component "+comp+" on AllTraffic: InService") ||
		!strings.Contains(out, "managed instance scaling: ENABLED") {
		t.Fatalf("describe: %v\n%s", err, out)
	}
	if out, err = deploy(d); err != nil || !strings.Contains(out, "nothing to change") {
		t.Fatalf("repeat deploy: %v\n%s", err, out)
	}

	pf := Policy{AWS: cloudAWS(url), Plan: planDir}
	drift := func() (string, error) {
		return runJob(func(out, _ io.Writer) error { return pf.Drift(context.Background(), out) })
	}
	apply := func() (string, error) {
		return runJob(func(out, _ io.Writer) error { return pf.Apply(context.Background(), out, false) })
	}
	if out, err = drift(); exitCodeOf(err) != 1 || !strings.Contains(out, "inference-component/"+comp) {
		t.Fatalf("drift before apply: %v\n%s", err, out)
	}
	if out, err = apply(); err != nil || !strings.Contains(out, "register scalable target") || !strings.Contains(out, "put target-tracking policy") {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if out, err = drift(); err != nil || !strings.Contains(out, "no drift") {
		t.Fatalf("drift after apply: %v\n%s", err, out)
	}
	rid := scaling.ComponentResourcePrefix + comp
	tg, err := c.ComponentTarget(ctx, comp)
	if err != nil || tg == nil || tg.MinCapacity != plan.Component.ScalableTarget.MinCapacity || tg.MaxCapacity != plan.Component.ScalableTarget.MaxCapacity {
		t.Fatalf("the copies' scalable target %+v (%v), want %+v", tg, err, plan.Component.ScalableTarget)
	}

	// Someone changes the per-copy target by hand; drift sees it and apply repairs it.
	pol, err := c.Scaling.DescribeScalingPolicies(ctx, &aas.DescribeScalingPoliciesInput{ServiceNamespace: aastypes.ServiceNamespaceSagemaker,
		ResourceId: aws.String(rid), ScalableDimension: aastypes.ScalableDimension(scaling.ComponentDimension)})
	if err != nil || len(pol.ScalingPolicies) != 1 || pol.ScalingPolicies[0].TargetTrackingScalingPolicyConfiguration == nil {
		t.Fatalf("the copies' policies %+v (%v)", pol, err)
	}
	edited := pol.ScalingPolicies[0]
	edited.TargetTrackingScalingPolicyConfiguration.TargetValue = aws.Float64(99)
	if _, err := c.Scaling.PutScalingPolicy(ctx, &aas.PutScalingPolicyInput{
		PolicyName: edited.PolicyName, ServiceNamespace: edited.ServiceNamespace, ResourceId: edited.ResourceId,
		ScalableDimension: edited.ScalableDimension, PolicyType: edited.PolicyType,
		TargetTrackingScalingPolicyConfiguration: edited.TargetTrackingScalingPolicyConfiguration,
	}); err != nil {
		t.Fatal(err)
	}
	if out, err = drift(); exitCodeOf(err) != 1 || !strings.Contains(out, "TargetValue") || !strings.Contains(out, "deployed 99") {
		t.Fatalf("drift after a hand edit: %v\n%s", err, out)
	}
	if out, err = apply(); err != nil {
		t.Fatal(err, out)
	}
	if out, err = drift(); err != nil {
		t.Fatalf("drift after repair: %v\n%s", err, out)
	}

	out, err = runJob(func(out, errw io.Writer) error { return pf.Validate(context.Background(), out, errw, NewPolicyProbe()) })
	for _, want := range []string{"OK    drift", "OK    inference component", "OK    capacity", "copies within", "OK    container MAX_QUEUE_DEPTH", "OK    scale-out alarm", "OK    instance scaling"} {
		if err != nil || !strings.Contains(out, want) {
			t.Fatalf("validate lacks %q: %v\n%s", want, err, out)
		}
	}

	// A plan of one copy per instance is refused by deploy --plan; a component name is
	// refused by the policy commands for it.
	one := deployJob(url, "tts-one", 1)
	one.Spec.InstanceType, one.Plan = plan.Source.InstanceType, referencePlan(t)
	if out, err := deploy(one); err == nil || !strings.Contains(err.Error(), "scales a variant") {
		t.Fatalf("deploy --plan of one copy: %v\n%s", err, out)
	}
	noPlan := deployJob(url, "tts-one", 1)
	noPlan.Component.MemoryMB = 4096
	if out, err := deploy(noPlan); err == nil || !strings.Contains(err.Error(), "pass --plan") {
		t.Fatalf("--copy-memory-mb without --plan: %v\n%s", err, out)
	}
	wrongType := d
	wrongType.Spec.InstanceType = "ml.c7i.xlarge"
	if out, err := deploy(wrongType); err == nil || !strings.Contains(err.Error(), "pass --instance-type "+plan.Source.InstanceType) {
		t.Fatalf("deploy --plan on another type: %v\n%s", err, out)
	}

	if out, err = deleteEndpoint(url, endpoint, false); err != nil || !strings.Contains(out, "delete inference component "+comp) ||
		!strings.Contains(out, "deregister scalable target "+rid) || !strings.Contains(out, "endpoint "+endpoint+" deleted") {
		t.Fatalf("delete: %v\n%s", err, out)
	}
	if tg, err := c.ComponentTarget(ctx, comp); err != nil || tg != nil {
		t.Fatalf("after delete the copies' target is %+v (%v)", tg, err)
	}
	if _, err := c.DescribeComponent(ctx, comp); err == nil {
		t.Fatal("the inference component survived the delete")
	}
	if out, err = deleteEndpoint(url, endpoint, false); err != nil || !strings.Contains(out, "nothing to delete") {
		t.Fatalf("second delete: %v\n%s", err, out)
	}
}
