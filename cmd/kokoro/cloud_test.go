package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
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
		// moto's first call to a service loads it, which a busy machine can take past the
		// 10 s deadline: the deadline tests set theirs with --aws-timeout.
		"KOKORO_AWS_TIMEOUT": "2m",
	} {
		t.Setenv(k, v)
	}
	return url
}

// cloudArgs are the flags that point a command at moto.
func cloudArgs(url string) []string {
	return []string{"--region", cloudRegion, "--aws-endpoint-url", url}
}

// runRoot runs the kokoro command line in-process.
func runRoot(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out testenv.Buffer
	return runRootTo(t, &out, args...)
}

// runRootTo is runRoot writing the output into out, which the test may read while the
// command runs.
func runRootTo(t *testing.T, out *testenv.Buffer, args ...string) (string, error) {
	t.Helper()
	cmd := newRootCmd()
	cmd.SetOut(out)
	cmd.SetErr(out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

// testControl is the test's own view of moto, outside the commands.
func testControl(t *testing.T, url string) *sagemaker.Control {
	t.Helper()
	c, err := controlFor(context.Background(), awsconf.Options{Region: cloudRegion, EndpointURL: url, Deadlines: awsconf.Deadlines{Answer: 2 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	c.Poll = time.Millisecond
	return c
}

const testImage = "123456789012.dkr.ecr.us-east-1.amazonaws.com/kokoro@sha256:8b1b96bc4dc0b30ddd84d8fe37af7c490937333c44a9f8f7d77b918c3d7eaced"

// deployArgs deploys name with n instances of a type moto knows (its list predates g5).
func deployArgs(url, name string, n string, extra ...string) []string {
	a := append([]string{"endpoint", "deploy", name, "--image", testImage, "--role", "arn:aws:iam::123456789012:role/kokoro",
		"--instance-type", "ml.g4dn.xlarge", "--instance-count", n, "--poll", "1ms"}, cloudArgs(url)...)
	return append(a, extra...)
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
