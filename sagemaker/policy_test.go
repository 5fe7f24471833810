package sagemaker

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	aastypes "github.com/aws/aws-sdk-go-v2/service/applicationautoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatch"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/scaling"
)

// referencePlan plans from the reference tool's artifacts (Q_max 50, T_total 260.2 s) for
// endpoint ("" leaves the placeholder).
func referencePlan(t *testing.T, endpoint string) *planner.Plan {
	t.Helper()
	q, err := artifact.ReadQmax("../artifact/testdata/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json")
	if err != nil {
		t.Fatal(err)
	}
	tt, err := artifact.ReadTTotal("../artifact/testdata/ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json")
	if err != nil {
		t.Fatal(err)
	}
	if endpoint == "" {
		q.Target.Endpoint, tt.Target.Endpoint = "", "" // a plan that names no endpoint
	}
	p, err := planner.Make(planner.Inputs{Qmax: q, TTotal: tt}, planner.Scenario{
		PeakRPS: 50, TroughRPS: 10, MinFloor: 1, EndpointName: endpoint, VariantName: DefaultVariant, Now: time.Unix(0, 0), Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func fields(ch []Change) string {
	var s []string
	for _, c := range ch {
		s = append(s, c.Resource+" "+c.Field)
	}
	return strings.Join(s, "; ")
}

func TestApplyDriftRoundTrip(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	if _, err := c.Deploy(ctx, testSpec("tts-policy"), DeployOptions{}); err != nil {
		t.Fatal(err)
	}
	docs, ep, err := ForEndpoint(referencePlan(t, "").Documents, "tts-policy")
	if err != nil || ep != "tts-policy" {
		t.Fatal(ep, err)
	}
	tt := docs.TargetTracking.TargetTrackingScalingPolicyConfiguration

	// Nothing deployed: everything is drift; a dry run shows the calls and makes none.
	live, err := c.ReadScaling(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(Diff(docs, live)); got != 4 {
		t.Fatalf("before apply: %d changes (%s), want target, two policies and the alarm missing", got, fields(Diff(docs, live)))
	}
	changes, steps, err := c.Apply(ctx, docs, ApplyOptions{DryRun: true})
	if err != nil || len(changes) != 4 || len(steps) != 4 {
		t.Fatalf("dry run: %d changes, %d steps, %v", len(changes), len(steps), err)
	}
	if tg, _ := c.ScalableTarget(ctx, "tts-policy", DefaultVariant); tg != nil {
		t.Fatal("a dry run registered the target")
	}

	// Apply, then no drift; applying again calls nothing.
	if _, _, err := c.Apply(ctx, docs, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	live, _ = c.ReadScaling(ctx, docs)
	if ch := Diff(docs, live); len(ch) != 0 {
		t.Fatalf("drift right after apply: %s", fields(ch))
	}
	if !strings.HasPrefix(live.Alarms[docs.ScaleInAlarm.AlarmName].AlarmActions[0], "arn:aws:autoscaling:") || live.Alarms[docs.ScaleInAlarm.AlarmName].AlarmActions[0] != aws.ToString(mustPolicy(t, live, docs.StepScaleIn.PolicyName).PolicyARN) {
		t.Fatalf("alarm acts on %v, not the step policy", live.Alarms[docs.ScaleInAlarm.AlarmName].AlarmActions)
	}
	changes, steps, err = c.Apply(ctx, docs, ApplyOptions{})
	if err != nil || len(changes)+len(steps) != 0 {
		t.Fatalf("second apply: %v %v %v", changes, steps, err)
	}

	// Someone edits the target value, the alarm threshold and adds a policy: drift names each.
	edited := ttPolicyInput(docs.TargetTracking)
	edited.TargetTrackingScalingPolicyConfiguration.TargetValue = aws.Float64(99)
	if _, err := c.Scaling.PutScalingPolicy(ctx, edited); err != nil {
		t.Fatal(err)
	}
	extra := ttPolicyInput(docs.TargetTracking)
	extra.PolicyName = aws.String("hand-made")
	if _, err := c.Scaling.PutScalingPolicy(ctx, extra); err != nil {
		t.Fatal(err)
	}
	al := alarmInput(docs.ScaleInAlarm, scaling.StepPolicyARNPlaceholder, live.Alarms[docs.ScaleInAlarm.AlarmName].AlarmActions[0])
	al.Threshold = aws.Float64(1)
	if _, err := c.CloudWatch.PutMetricAlarm(ctx, al); err != nil {
		t.Fatal(err)
	}
	live, _ = c.ReadScaling(ctx, docs)
	ch := Diff(docs, live)
	want := []string{
		"policy " + docs.TargetTracking.PolicyName + " TargetValue",
		"policy hand-made existence",
		"alarm " + docs.ScaleInAlarm.AlarmName + " Threshold",
	}
	if got := fields(ch); len(ch) != 3 || !strings.Contains(got, want[0]) || !strings.Contains(got, want[1]) || !strings.Contains(got, want[2]) {
		t.Fatalf("drift %s, want %v", got, want)
	}
	for _, c := range ch {
		if c.Field == "TargetValue" && (c.Live != "99" || c.Plan != fmt.Sprint(tt.TargetValue)) {
			t.Fatalf("TargetValue change %+v", c)
		}
	}

	// Apply repairs all of it, the extra policy included.
	if _, _, err := c.Apply(ctx, docs, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	live, _ = c.ReadScaling(ctx, docs)
	if ch := Diff(docs, live); len(ch) != 0 {
		t.Fatalf("drift after repair: %s", fields(ch))
	}

	// A frozen target is drift, and apply refuses to thaw it behind a measurement's back.
	frozen := *live.Target
	frozen.Suspended = Suspension{DynamicIn: true, DynamicOut: true, Scheduled: true}
	if _, err := c.Scaling.RegisterScalableTarget(ctx, registerInput(frozen)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Apply(ctx, docs, ApplyOptions{}); err == nil || !strings.Contains(err.Error(), "kokoro thaw") {
		t.Fatalf("apply on a frozen target: %v", err)
	}
}

func mustPolicy(t *testing.T, l *LiveScaling, name string) aastypes.ScalingPolicy {
	t.Helper()
	p, ok := l.Policy(name)
	if !ok {
		t.Fatalf("no policy %s", name)
	}
	return p
}

func TestForEndpoint(t *testing.T) {
	t.Parallel()
	open := referencePlan(t, "").Documents
	if _, _, err := ForEndpoint(open, ""); err == nil || !strings.Contains(err.Error(), "--endpoint") {
		t.Fatalf("placeholder without --endpoint: %v", err)
	}
	d, ep, err := ForEndpoint(open, "tts-a")
	if err != nil || ep != "tts-a" || d.ScalableTarget.ResourceID != "endpoint/tts-a/variant/AllTraffic" ||
		d.ScaleInAlarm.Dimensions[0].Value != "tts-a" || strings.Contains(d.StepScaleIn.PolicyName, "$") {
		t.Fatalf("filled: %+v %s %v", d.ScalableTarget, ep, err)
	}
	named := referencePlan(t, "tts-b").Documents
	if _, _, err := ForEndpoint(named, "tts-c"); err == nil || !strings.Contains(err.Error(), "made for endpoint tts-b") {
		t.Fatalf("another endpoint: %v", err)
	}
	if _, ep, err := ForEndpoint(named, ""); err != nil || ep != "tts-b" {
		t.Fatalf("the plan's own endpoint: %s %v", ep, err)
	}
	if _, _, err := ForEndpoint(planner.Documents{}, "x"); err == nil || !strings.Contains(err.Error(), "STOP") {
		t.Fatalf("no documents: %v", err)
	}
}

// Each kind of policy the planner proposes deploys, shows no drift, and replaces the one
// before it: a step policy's alarm acts on it, and goes when the policy does.
func TestApplyEachPolicyKind(t *testing.T) {
	t.Parallel()
	c, _ := newMoto(t)
	ctx := ctxT(t)
	if _, err := c.Deploy(ctx, testSpec("tts-kinds"), DeployOptions{}); err != nil {
		t.Fatal(err)
	}
	p := referencePlan(t, "")
	kinds := []string{planner.KindStepConcurrency, planner.KindTTInvocations, planner.KindFloor, planner.KindStepConcurrency, planner.KindReference}
	var outAlarm string
	for i, kind := range kinds {
		d, ok := p.CandidateDocuments(kind)
		if !ok {
			t.Fatalf("the plan has no %s candidate", kind)
		}
		docs, _, err := ForEndpoint(d, "tts-kinds")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Apply(ctx, docs, ApplyOptions{}); err != nil {
			t.Fatalf("%d %s: %v", i, kind, err)
		}
		live, err := c.ReadScaling(ctx, docs)
		if err != nil {
			t.Fatal(err)
		}
		if ch := Diff(docs, live); len(ch) != 0 {
			t.Fatalf("%d %s: drift right after apply: %s", i, kind, fields(ch))
		}
		if len(live.Policies) != len(docs.Policies()) {
			t.Errorf("%d %s: %d live policies, the plan has %d", i, kind, len(live.Policies), len(docs.Policies()))
		}
		switch kind {
		case planner.KindStepConcurrency:
			outAlarm = docs.ScaleOutAlarm.AlarmName
			pol, _ := live.Policy(docs.StepScaleOut.PolicyName)
			if a := live.Alarms[outAlarm]; a == nil || len(a.AlarmActions) != 1 || a.AlarmActions[0] != aws.ToString(pol.PolicyARN) {
				t.Errorf("%d: the scale-out alarm %+v does not act on the step policy %s", i, a, aws.ToString(pol.PolicyARN))
			}
		case planner.KindFloor:
			if live.Target.MinCapacity != live.Target.MaxCapacity || len(live.Policies) != 0 {
				t.Errorf("a fixed fleet: %+v with %d policies", live.Target, len(live.Policies))
			}
		}
		if docs.ScaleOutAlarm == nil && outAlarm != "" {
			out, err := c.CloudWatch.DescribeAlarms(ctx, &cloudwatch.DescribeAlarmsInput{AlarmNames: []string{outAlarm}})
			if err != nil || len(out.MetricAlarms) != 0 {
				t.Errorf("%d %s: the step policy's alarm outlived it: %v %v", i, kind, out, err)
			}
		}
	}
}
