package workflow

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/emulate/emulatetest"
	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

// TestBenchQmaxOnAnEndpoint runs the whole cloud path of a ladder: `bench qmax` reaches the
// endpoint's containers through the runtime emulator (--runtime-endpoint-url) and its control
// plane through moto (--aws-endpoint-url), as it would reach SageMaker. The endpoint is frozen
// for the ladder (autoscaling suspended, one instance pinned) and restored exactly afterwards;
// the artifact carries the endpoint's own fingerprint (instance type and image digest from
// DescribeEndpoint), and each rung CloudWatch's ConcurrentRequestsPerModel beside the client's
// in-flight count, as the emulator published it into moto's CloudWatch.
func TestBenchQmaxOnAnEndpoint(t *testing.T) {
	url := motoEnv(t)
	const name = "tts"
	before := productionEndpoint(t, url, name, 2)
	c := testControl(t, url)

	var delay atomic.Int64
	// A second a request, any number at once: TTFAB is a second at every rung, half the SLO,
	// and a busy machine would have to add another second to a request to move Q_max.
	delay.Store(int64(time.Second))
	container := standIn(t, &delay, nil)
	cfg, err := awsconf.LoadConfig(context.Background(), awsconf.Options{Region: cloudRegion, Deadlines: awsconf.Deadlines{Answer: 2 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	emu := emulatetest.Start(t, emulate.Config{
		EndpointName: name, Region: cloudRegion,
		Variants: []emulate.Variant{{Name: sagemaker.DefaultVariant, Instances: []string{container}}},
		Metrics:  smruntime.NewMetricPublisher(cfg, url),
	})

	out := t.TempDir()
	job := NewQmax()
	job.Transport, job.Ladder, job.Hold, job.Window, job.Settle = "sagemaker-stream", []int{1, 2}, 25*time.Second, 21*time.Second, time.Second
	job.SLOms, job.Out = 2000, out
	job.SageMaker.Endpoint, job.SageMaker.Runtime.URL, job.SageMaker.AWS = name, emu, cloudAWS(url)
	log, err := runQmax(job)
	if err != nil {
		t.Fatalf("bench qmax: %v\n%s", err, log)
	}
	for _, want := range []string{"freezing tts/AllTraffic", "thawing tts/AllTraffic"} {
		if !strings.Contains(log, want) {
			t.Errorf("output lacks %q:\n%s", want, log)
		}
	}

	arts, _ := filepath.Glob(filepath.Join(out, "qmax-kokoro-82m-sagemaker-stream-*.json"))
	if len(arts) != 1 {
		t.Fatalf("artifacts %v\n%s", arts, log)
	}
	q, err := artifact.ReadQmax(arts[0])
	if err != nil {
		t.Fatal(err)
	}
	if !q.Frozen {
		t.Error("artifact not marked frozen")
	}
	want, err := c.EndpointTarget(context.Background(), name, sagemaker.DefaultVariant, artifact.TransportSageMakerStream, "kokoro-82m")
	if err != nil {
		t.Fatal(err)
	}
	if q.Target.InstanceType != "ml.g4dn.xlarge" || q.Target.ImageDigest != want.ImageDigest || q.Fingerprint != want.Fingerprint() {
		t.Errorf("target %+v fingerprint %s; want instance ml.g4dn.xlarge, digest %s, fingerprint %s",
			q.Target, q.Fingerprint, want.ImageDigest, want.Fingerprint())
	}
	if !strings.HasPrefix(filepath.Base(arts[0]), "qmax-kokoro-82m-sagemaker-stream-g4dnxlarge-8b1b96bc") {
		t.Errorf("artifact name %s does not carry the endpoint's slug", arts[0])
	}
	if q.QMax != 2 {
		t.Errorf("Q_max %d; want 2 (a 1 s container against a 2 s SLO)", q.QMax)
	}
	for _, r := range q.Steps {
		// One instance serving a closed loop of N: CloudWatch's per-period maximum of in-flight
		// requests is N, the client's mean a little under it.
		if r.CWRatio < 0.8 || r.CWRatio > 1.6 || r.CloudWatchConcurrencyPeak != float64(r.Concurrency) {
			t.Errorf("N=%d: cw_ratio %.2f, CloudWatch peak %.1f; want a ratio near 1 and a peak of %d",
				r.Concurrency, r.CWRatio, r.CloudWatchConcurrencyPeak, r.Concurrency)
		}
		for _, n := range r.InstanceCounts {
			if n != 1 {
				t.Errorf("N=%d ran on %v instances; the freeze pins one", r.Concurrency, r.InstanceCounts)
				break
			}
		}
	}

	after, desired := liveState(t, c, name)
	if after.Suspended != before.Suspended || after.MinCapacity != before.MinCapacity || after.MaxCapacity != before.MaxCapacity || desired != 2 {
		t.Errorf("after the ladder: target %+v, desired %d; want %+v restored with 2 instances", after, desired, before)
	}
}
