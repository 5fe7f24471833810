package workflow

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/sagemaker"
)

// wouldCalls returns the "would call" lines of a dry run, failing the test on a line twice
// or on a line that dumps a Go struct or JSON (nulls, braces) instead of readable fields.
func wouldCalls(t *testing.T, out string) []string {
	t.Helper()
	var calls []string
	seen := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "would call ") {
			continue
		}
		if seen[l] {
			t.Errorf("planned twice: %s", l)
		}
		seen[l] = true
		if strings.Contains(l, "null") || strings.Contains(l, "{") || strings.Contains(l, "<nil>") || strings.Contains(l, "0x") {
			t.Errorf("not a readable line: %s", l)
		}
		calls = append(calls, strings.TrimPrefix(l, "would call "))
	}
	return calls
}

func hasCall(calls []string, prefix string, fields ...string) bool {
	for _, c := range calls {
		if !strings.HasPrefix(c, prefix) {
			continue
		}
		ok := true
		for _, f := range fields {
			ok = ok && strings.Contains(c, f)
		}
		if ok {
			return true
		}
	}
	return false
}

// TestDryRunsPrintReadableCallsOnce: every command that changes the endpoint prints, under
// --dry-run, one readable line per planned call (operation, resource, the fields it sets or
// changes), never the same call twice, and changes nothing; thaw has a dry run too; a delete
// with nothing there says so.
func TestDryRunsPrintReadableCallsOnce(t *testing.T) {
	url := motoEnv(t)
	before := productionEndpoint(t, url, "tts-dry", 3)
	c := testControl(t, url)
	ctx := context.Background()

	// deploy: the same spec changes nothing; another one lists its calls with their fields.
	same := deployJob(url, "tts-dry", 3)
	same.DryRun = true
	out, err := deploy(same)
	if err != nil || !strings.Contains(out, "already runs") || strings.Contains(out, "would none") {
		t.Errorf("no-change deploy dry run: %v\n%s", err, out)
	}
	other := same
	other.Slots = 2
	out, err = deploy(other)
	calls := wouldCalls(t, out)
	if err != nil || !hasCall(calls, "sagemaker:CreateModel tts-dry-", "PrimaryContainer.Image="+testImage, "PrimaryContainer.Environment.SLOTS=2", "ExecutionRoleArn=arn:aws:iam::123456789012:role/kokoro") ||
		!hasCall(calls, "sagemaker:CreateEndpointConfig tts-dry-", "InstanceType=ml.g4dn.xlarge", "InitialInstanceCount=3") ||
		!hasCall(calls, "sagemaker:UpdateEndpoint tts-dry", "EndpointConfigName=tts-dry-") {
		t.Errorf("deploy dry run: %v\n%s", err, out)
	}

	// thaw: a frozen endpoint's dry run lists the count and the target's changes, and keeps
	// the state file and the freeze.
	file := sagemaker.StatePath(os.Getenv("KOKORO_STATE_DIR"), cloudRegion, "tts-dry", sagemaker.DefaultVariant)
	if _, err := c.Freeze(ctx, sagemaker.FreezeSpec{Endpoint: "tts-dry", Pin: 1, StateFile: file, Purpose: "test"}); err != nil {
		t.Fatal(err)
	}
	thaw := NewThaw()
	thaw.AWS, thaw.Endpoint = cloudAWS(url), "tts-dry"
	dryThaw := thaw
	dryThaw.DryRun = true
	out, err = runJob(func(out, _ io.Writer) error { return dryThaw.Run(ctx, out) })
	calls = wouldCalls(t, out)
	if err != nil || len(calls) != 2 ||
		!hasCall(calls, "sagemaker:UpdateEndpointWeightsAndCapacities tts-dry", "DesiredInstanceCount 1 → 3") ||
		!hasCall(calls, "application-autoscaling:RegisterScalableTarget endpoint/tts-dry/variant/AllTraffic", "suspended scale-in,scale-out,scheduled → none") {
		t.Errorf("thaw dry run: %v\n%s", err, out)
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("the dry run removed the state file: %v", err)
	}
	if tg, n := liveState(t, c, "tts-dry"); !tg.Suspended.Any() || n != 1 {
		t.Errorf("the dry run thawed: %+v, %d instance(s)", tg, n)
	}
	if out, err := runJob(func(out, _ io.Writer) error { return thaw.Run(ctx, out) }); err != nil {
		t.Fatalf("thaw: %v\n%s", err, out)
	}
	if tg, n := liveState(t, c, "tts-dry"); tg != before || n != 3 {
		t.Errorf("after the thaw: %+v, %d instance(s), want %+v, 3", tg, n, before)
	}

	// delete: each model and config once, readable; then nothing left to delete.
	out, err = deleteEndpoint(url, "tts-dry", true)
	calls = wouldCalls(t, out)
	models := 0
	for _, c := range calls {
		if strings.HasPrefix(c, "sagemaker:DeleteModel ") {
			models++
		}
	}
	if err != nil || models != 1 || !hasCall(calls, "sagemaker:DeleteEndpoint tts-dry") ||
		!hasCall(calls, "application-autoscaling:DeregisterScalableTarget endpoint/tts-dry/variant/AllTraffic") ||
		!hasCall(calls, "sagemaker:DeleteEndpointConfig tts-dry-") {
		t.Errorf("delete dry run (%d DeleteModel): %v\n%s", models, err, out)
	}
	if _, err := c.Status(ctx, "tts-dry"); err != nil {
		t.Errorf("the dry run deleted the endpoint: %v", err)
	}
	if out, err := deleteEndpoint(url, "tts-dry", false); err != nil || !strings.Contains(out, "endpoint tts-dry deleted") {
		t.Fatalf("delete: %v\n%s", err, out)
	}
	for _, dry := range []bool{false, true} {
		out, err := deleteEndpoint(url, "tts-dry", dry)
		if err != nil || !strings.Contains(out, "nothing to delete") || strings.Contains(out, "deleted\n") || len(wouldCalls(t, out)) != 0 {
			t.Errorf("delete with nothing there (dry run %v): %v\n%s", dry, err, out)
		}
	}
}

// TestBenchQmaxDryRunNamesTheFreeze: against SageMaker with --freeze, the ladder's dry run
// lists the calls that would change the endpoint around it, and calls nothing.
func TestBenchQmaxDryRunNamesTheFreeze(t *testing.T) {
	awsTestEnv(t)
	q := NewQmax()
	q.Transport, q.Ladder, q.DryRun = "sagemaker-stream", []int{1}, true
	q.SageMaker.Endpoint, q.SageMaker.AWS = "ep", AWS{Region: "us-east-1", EndpointURL: closedPort(t)}
	out, err := runJob(func(out, errw io.Writer) error { return q.Run(context.Background(), out, errw) })
	calls := wouldCalls(t, out)
	if err != nil || !hasCall(calls, "application-autoscaling:RegisterScalableTarget endpoint/ep/variant/AllTraffic", "SuspendedState") ||
		!hasCall(calls, "sagemaker:UpdateEndpointWeightsAndCapacities ep", "DesiredInstanceCount → 1") {
		t.Errorf("%v\n%s", err, out)
	}
	q.SageMaker.AWS.EndpointURL, q.SageMaker.Freeze = "", false
	out, err = runJob(func(out, errw io.Writer) error { return q.Run(context.Background(), out, errw) })
	if err != nil || len(wouldCalls(t, out)) != 0 {
		t.Errorf("--freeze=false: %v\n%s", err, out)
	}
}
