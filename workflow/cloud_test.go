package workflow

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/sagemaker"
)

// The cloud commands' tests run against moto with its test credentials in the environment,
// the way a user's shell provides them.
const cloudRegion = "us-east-1"

func motoEnv(t *testing.T) string {
	t.Helper()
	url := testenv.Moto(t) // started first: moto's own SDK must not see the settings below
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_SESSION_TOKEN": "",
		"AWS_PROFILE": "", "AWS_CONFIG_FILE": dir + "/config", "AWS_SHARED_CREDENTIALS_FILE": dir + "/credentials",
		"AWS_EC2_METADATA_DISABLED": "true", "KOKORO_STATE_DIR": dir + "/state",
	} {
		t.Setenv(k, v)
	}
	return url
}

// cloudAWS points a job at moto. moto's first call to a service loads it, which a busy
// machine can take past the default 10 s deadline: the jobs here wait up to 2 minutes, and the
// deadline tests set their own.
func cloudAWS(url string) AWS {
	return AWS{Region: cloudRegion, EndpointURL: url, Timeout: 2 * time.Minute}
}

// runTo runs a job with both of its writers going to out, which the test may read while the
// job runs, and returns what it wrote.
func runTo(out *testenv.Buffer, run func(out, errw io.Writer) error) (string, error) {
	err := run(out, out)
	return out.String(), err
}

// runJob is runTo into a buffer of its own.
func runJob(run func(out, errw io.Writer) error) (string, error) {
	var out testenv.Buffer
	return runTo(&out, run)
}

// testControl is the test's own view of moto, outside the commands.
func testControl(t *testing.T, url string) *sagemaker.Control {
	t.Helper()
	c, err := cloudAWS(url).Control(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c.Poll = time.Millisecond
	return c
}

const testImage = "123456789012.dkr.ecr.us-east-1.amazonaws.com/kokoro@sha256:8b1b96bc4dc0b30ddd84d8fe37af7c490937333c44a9f8f7d77b918c3d7eaced"

// deployJob deploys name with n instances of a type moto knows (its list predates g5).
func deployJob(url, name string, n int) Deploy {
	d := NewDeploy()
	d.AWS = cloudAWS(url)
	d.Spec.Endpoint, d.Spec.Image, d.Spec.Role = name, testImage, "arn:aws:iam::123456789012:role/kokoro"
	d.Spec.InstanceType, d.Spec.InstanceCount, d.Poll = "ml.g4dn.xlarge", n, time.Millisecond
	return d
}

// deploy runs d.
func deploy(d Deploy) (string, error) {
	return runJob(func(out, errw io.Writer) error { return d.Run(context.Background(), out, errw) })
}

// describe runs endpoint describe on name.
func describe(url, name string, asJSON bool) (string, error) {
	return runJob(func(out, _ io.Writer) error {
		return Describe{AWS: cloudAWS(url), Name: name, JSON: asJSON}.Run(context.Background(), out)
	})
}

// deleteEndpoint runs endpoint delete on name.
func deleteEndpoint(url, name string, dryRun bool) (string, error) {
	d := NewDelete()
	d.AWS, d.Name, d.DryRun = cloudAWS(url), name, dryRun
	return runJob(func(out, errw io.Writer) error { return d.Run(context.Background(), out, errw) })
}

// standIn is a stand-in for the endpoint's containers over the http transport: a streamed WAV
// whose first audio comes after *delay; inflight counts requests being served.
func standIn(t *testing.T, delay, inflight *atomic.Int64) string {
	t.Helper()
	srv := httptest.NewServer(standInHandler(delay, inflight))
	t.Cleanup(srv.Close)
	return srv.URL
}

// standInHandler answers /invocations after delay (none when nil) with a streamed WAV of
// 0.1 s, counting requests in flight into inflight when it is not nil.
func standInHandler(delay, inflight *atomic.Int64) http.Handler {
	hdr := audio.StreamingWAVHeader(audio.Mono24k)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if inflight != nil {
			inflight.Add(1)
			defer inflight.Add(-1)
		}
		var d time.Duration
		if delay != nil {
			d = time.Duration(delay.Load())
		}
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "audio/wav")
		_, _ = w.Write(hdr)
		_, _ = w.Write(make([]byte, 4800))
	})
}
