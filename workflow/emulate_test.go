package workflow

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/emulate/emulatetest"
	"github.com/kokoro-sm/kokoro/server/servertest"
	"github.com/kokoro-sm/kokoro/tts"
)

// awsTestEnv gives the SDK's credential chain static test credentials and nothing else to
// find: the emulator checks a signature's form, never its secret.
func awsTestEnv(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDLOCAL")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_ENDPOINT_URL", "")
}

// emulatorAWS reaches the emulator at url. The preflight speaks with the real model on a
// machine that may be busy: the jobs here wait up to 2 minutes, and the deadline tests set
// their own.
func emulatorAWS(url string) AWS {
	return AWS{Region: "us-east-1", EndpointURL: url, Timeout: 2 * time.Minute}
}

// emulatorQmax measures the emulated endpoint kokoro-local at url without its control plane.
func emulatorQmax(q Qmax, url string) Qmax {
	q.SageMaker = SageMaker{Endpoint: "kokoro-local", Variant: "AllTraffic", AWS: emulatorAWS(url),
		InstanceType: "local-emulator", ImageDigest: "sha256:0123456789abcdef"}
	return q
}

// runQmax runs a qmax job.
func runQmax(q Qmax) (string, error) {
	return runJob(func(out, errw io.Writer) error { return q.Run(context.Background(), out, errw) })
}

// TestTransportsFindTheSameQmax measures the same server law directly (http, ws) and
// through the SageMaker emulator (sagemaker-stream, sagemaker-bidi) with the same ladder and
// SLO: every transport must find exactly the Q_max the law gives. Each transport has a server
// of its own whose engine holds each request for one second on one slot (servertest), so in
// the closed loop a request's first audio comes no sooner than N seconds after it was sent:
// 1, 2 and 4 s on the ladder 1, 2, 4. Against an SLO of 3 s, Q_max is 2, bracketed by 4. A
// busy machine only adds to those times; it would have to add a second to a request, or delay
// a client by 50 ms between two requests (the bench's client-bound check), to move the answer.
func TestTransportsFindTheSameQmax(t *testing.T) {
	awsTestEnv(t)
	const service = time.Second
	texts := filepath.Join(t.TempDir(), "texts.txt")
	if err := os.WriteFile(texts, []byte("Hello there.\nThank you.\nGood morning.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	transports := []string{"http", "ws", "sagemaker-stream", "sagemaker-bidi"}
	type result struct {
		q   *artifact.Qmax
		log string
		err error
	}
	results := make([]result, len(transports))
	var wg sync.WaitGroup
	for i, tr := range transports {
		url := servertest.Start(t, &servertest.Engine{Service: service}, 0)
		out := t.TempDir()
		q := NewQmax()
		q.Transport, q.Ladder, q.Hold, q.Window, q.Settle = tr, []int{1, 2, 4}, 12*time.Second, 10*time.Second, time.Second
		q.SLOms, q.Out, q.Texts = 3000, out, texts
		if strings.HasPrefix(tr, "sagemaker-") {
			emuURL := emulatetest.Start(t, emulate.Config{EndpointName: "kokoro-local", Region: "us-east-1",
				Variants: []emulate.Variant{{Name: "AllTraffic", Instances: []string{url}}}})
			q = emulatorQmax(q, emuURL)
		} else {
			q.URL = url
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &results[i]
			if r.log, r.err = runQmax(q); r.err != nil {
				return
			}
			arts, _ := filepath.Glob(filepath.Join(out, "qmax-kokoro-82m-"+tr+"-*.json"))
			if len(arts) != 1 {
				r.err = fmt.Errorf("artifacts %v", arts)
				return
			}
			r.q, r.err = artifact.ReadQmax(arts[0])
		}()
	}
	wg.Wait()
	for i, tr := range transports {
		r := results[i]
		if r.err != nil {
			t.Errorf("%s: %v\n%s", tr, r.err, r.log)
			continue
		}
		var steps []string
		for _, s := range r.q.Steps {
			steps = append(steps, fmt.Sprintf("N=%d p95 %.0f ms ok %d %s", s.Concurrency, s.TTFABP95Ms, s.OK, s.UnusableReason))
			// The law's lower bound: a request waits for the ones ahead of it, less only the
			// moment its client took between two requests.
			if floor := 0.9 * float64(s.Concurrency) * float64(service/time.Millisecond); s.OK > 0 && s.TTFABP95Ms < floor {
				t.Errorf("%s N=%d: TTFAB p95 %.0f ms is under the %.0f ms queueing forces", tr, s.Concurrency, s.TTFABP95Ms, floor)
			}
		}
		t.Logf("%-16s Q_max %d bracketed %v: %s", tr, r.q.QMax, r.q.QMaxBracketed, strings.Join(steps, "; "))
		if r.q.QMax != 2 || !r.q.QMaxBracketed {
			t.Errorf("%s: Q_max %d bracketed %v; the law gives 2, bracketed by 4", tr, r.q.QMax, r.q.QMaxBracketed)
		}
		if strings.HasPrefix(tr, "sagemaker-") {
			checkSageMakerTarget(t, r.q)
		}
	}
}

func checkSageMakerTarget(t *testing.T, q *artifact.Qmax) {
	t.Helper()
	tg := q.Target
	if tg.Kind != artifact.TargetSageMaker || tg.Endpoint != "kokoro-local" || tg.Variant != "AllTraffic" || tg.Region != "us-east-1" ||
		tg.InstanceType != "local-emulator" || !strings.HasPrefix(tg.ImageDigest, "sha256:") {
		t.Errorf("target %+v", tg)
	}
	if q.Slug != "local-emulator-01234567" || q.Fingerprint != tg.Fingerprint() {
		t.Errorf("slug %q fingerprint %q", q.Slug, q.Fingerprint)
	}
}

func TestEmulateNeedsInstances(t *testing.T) {
	both := NewEmulate()
	both.Serve, both.Containers = 1, []string{"http://127.0.0.1:1"}
	for _, e := range []Emulate{NewEmulate(), both} {
		out, err := runJob(func(out, errw io.Writer) error { return e.Run(context.Background(), out, errw) })
		if err == nil || !strings.Contains(err.Error(), "--container URL") {
			t.Errorf("serve %d, containers %v: %v\n%s", e.Serve, e.Containers, err, out)
		}
	}
	self := NewQmax()
	self.Transport, self.Self, self.DryRun = "sagemaker-bidi", true, true
	if out, err := runQmax(self); err == nil || !strings.Contains(err.Error(), "kokoro emulate") {
		t.Errorf("--self with a SageMaker transport: %v\n%s", err, out)
	}
	noEndpoint := NewQmax()
	noEndpoint.Transport, noEndpoint.Ladder, noEndpoint.Hold, noEndpoint.Window = "sagemaker-stream", []int{1}, time.Second, time.Second
	if out, err := runQmax(noEndpoint); err == nil || !strings.Contains(err.Error(), "--endpoint-name") {
		t.Errorf("no endpoint: %v\n%s", err, out)
	}
}

// TestEmulateBannerIsRunnable: the command the banner prints names every flag the bench needs
// to reach the emulator, and says when the fingerprint lacks a digest.
func TestEmulateBannerIsRunnable(t *testing.T) {
	var b strings.Builder
	f := Emulate{Endpoint: "ep", Variant: "AllTraffic", Region: "eu-west-1"}
	emulateBanner(&b, f, "http://127.0.0.1:9", 2, "sha256:abc", "")
	for _, want := range []string{"--transport sagemaker-bidi", "--endpoint-name ep", "--variant AllTraffic", "--region eu-west-1",
		"--aws-endpoint-url http://127.0.0.1:9 --freeze=false", "--image-digest sha256:abc", "AWS_ACCESS_KEY_ID="} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("banner lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	emulateBanner(&b, f, "http://127.0.0.1:9", 1, "", "")
	if !strings.Contains(b.String(), "image digest unknown") || strings.Contains(b.String(), "--image-digest sha") {
		t.Errorf("banner without a digest:\n%s", b.String())
	}
}

// TestEmulateDigestFollowsTheEngine: servers of different shapes (--slots 1 --threads 2 and
// --slots 2 --threads 1) or admission bounds get different pseudo-digests, so their artifacts
// never share a file name; the same settings get the same one.
func TestEmulateDigestFollowsTheEngine(t *testing.T) {
	model := filepath.Join(t.TempDir(), "model.onnx")
	if err := os.WriteFile(model, []byte("not really a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	digest := func(e tts.LoadConfig, depth int) string {
		t.Helper()
		e.Provider = "cpu"
		d, err := emulatePseudoDigest(model, "dev", EngineEnv(e, depth))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := digest(tts.LoadConfig{Slots: 1, Threads: 2}, 0)
	b := digest(tts.LoadConfig{Slots: 2, Threads: 1}, 0)
	if a == b {
		t.Errorf("--slots 1 --threads 2 and --slots 2 --threads 1 share the digest %s", a)
	}
	if c := digest(tts.LoadConfig{Slots: 1, Threads: 2}, 8); c == a {
		t.Errorf("--max-queue-depth 8 and 0 share the digest %s", a)
	}
	if again := digest(tts.LoadConfig{Slots: 1, Threads: 2}, 0); again != a {
		t.Errorf("the same settings gave %s and %s", a, again)
	}
}

// --autoscale is checked before any server starts: it needs --serve, a plan.json, a policy the
// plan has and a positive time scale.
func TestEmulateAutoscaleRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plan := referencePlan(t)
	notPlan := filepath.Join(dir, "not-a-plan.json")
	if err := os.WriteFile(notPlan, []byte(`{"kind":"qmax"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit func(*Emulate)
		want string
	}{
		{func(e *Emulate) { e.Containers, e.Autoscale = []string{"http://127.0.0.1:1"}, plan }, "--serve N"},
		{func(e *Emulate) { e.Serve, e.Autoscale = 1, filepath.Join(dir, "missing.json") }, "--autoscale"},
		{func(e *Emulate) { e.Serve, e.Autoscale = 1, notPlan }, "not the plan.json"},
		{func(e *Emulate) { e.Serve, e.Autoscale, e.AutoscalePolicy = 1, plan, "bogus" }, "step-concurrency"},
		{func(e *Emulate) { e.Serve, e.Autoscale, e.TimeScale = 1, plan, 0 }, "--time-scale"},
	} {
		t.Run(c.want, func(t *testing.T) {
			e := NewEmulate()
			e.Engine.Assets.Model = filepath.Join(dir, "no-model.onnx")
			c.edit(&e)
			if out, err := runJob(func(out, errw io.Writer) error { return e.Run(context.Background(), out, errw) }); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%+v: %v, want %q\n%s", e, err, c.want, out)
			}
		})
	}
}

// TestEmulateAutoscaleQueueBound: the emulated instances admit what the deployed container
// would, the plan's MAX_QUEUE_DEPTH, unless --max-queue-depth says otherwise.
func TestEmulateAutoscaleQueueBound(t *testing.T) {
	t.Parallel()
	plan := referencePlan(t)
	for _, c := range []struct{ given, want int }{{0, 50}, {7, 7}} {
		f := Emulate{Autoscale: plan, AutoscalePolicy: "proposal", TimeScale: 1, MaxQueueDepth: c.given}
		var log strings.Builder
		if _, err := emulateAutoscale(&f, &log); err != nil {
			t.Fatal(err)
		}
		if f.MaxQueueDepth != c.want {
			t.Errorf("--max-queue-depth %d: servers admit %d, want %d (log: %q)", c.given, f.MaxQueueDepth, c.want, log.String())
		}
	}
}
