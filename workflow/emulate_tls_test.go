package workflow

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio/codec/codectest"
	"github.com/kokoro-sm/kokoro/internal/testenv"
	"github.com/kokoro-sm/kokoro/tts"
)

// startEmulateTLS runs the emulator with TLS and one server with the real model in-process until
// the test ends, and returns its https URL and the CA file it printed.
func startEmulateTLS(t *testing.T) (url, ca string) {
	t.Helper()
	a := testenv.RealModel(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out testenv.Buffer
	e := NewEmulate()
	e.TLS, e.TLSDir, e.Serve, e.Listen = true, filepath.Join(t.TempDir(), "tls"), 1, "127.0.0.1:0"
	e.Engine = tts.LoadConfig{Assets: a, Provider: "cpu", Slots: 1, Threads: 2}
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx, &out, &out) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("emulate: %v", err)
		}
	})
	urlRE, caRE := regexp.MustCompile(`emulator on (https://\S+):`), regexp.MustCompile(`CA: (\S+)`)
	deadline := time.Now().Add(5 * time.Minute) // loading the model on a busy machine
	for time.Now().Before(deadline) {
		s := out.String()
		if m, c := urlRE.FindStringSubmatch(s), caRE.FindStringSubmatch(s); m != nil && c != nil {
			return m[1], c[1]
		}
		select {
		case err := <-done:
			t.Fatalf("emulate ended: %v\n%s", err, s)
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("no banner:\n%s", out.String())
	return "", ""
}

// runClient runs one client script and returns its "ok:" lines.
func runClient(t *testing.T, python, script string, args ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	path := filepath.Join(testenv.RepoRoot(t), "scripts", "test", "clients", script)
	c := exec.CommandContext(ctx, python, append([]string{path}, args...)...)
	// An AWS setting set to "" means unset to the Go SDK, but boto3 reads AWS_PROFILE="" as a
	// profile named "": the empty ones are left out.
	for _, kv := range os.Environ() {
		if k, v, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "AWS_") || v != "" {
			c.Env = append(c.Env, kv)
		}
	}
	c.Env = append(c.Env, "NO_PROXY=127.0.0.1,localhost")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	var ok []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "ok: ") {
			ok = append(ok, l)
			t.Logf("%s: %s", script, l)
		}
	}
	return ok
}

// TestRealOfficialSDKsReachEmulateTLS: `kokoro emulate --tls` in front of the real model is
// reached by the official Python SDK of the bidirectional stream (HTTP/2 over TLS with ALPN,
// through the AWS CRT client: a session of two utterances around an in-session unknown_voice
// error), by boto3 (InvokeEndpointWithResponseStream and InvokeEndpoint over HTTP/1.1 on the
// same port, verifying the certificate with the printed CA), and by kokoro's own bench over
// both SageMaker transports with AWS_CA_BUNDLE. Every client's audio decodes.
func TestRealOfficialSDKsReachEmulateTLS(t *testing.T) {
	if testing.Short() {
		t.Skip("real model: skipped in -short")
	}
	awsTestEnv(t)
	sdk := filepath.Join(testenv.SDKVenvBin(t), "python")
	boto := filepath.Join(testenv.VenvBin(t, "python"), "python")
	url, ca := startEmulateTLS(t)
	if !strings.HasPrefix(url, "https://127.0.0.1:") {
		t.Fatalf("url %s", url)
	}
	out := t.TempDir()

	if ok := runClient(t, sdk, "sagemaker_http2_sdk.py", url, ca, "kokoro-local", "us-east-1", out); len(ok) != 4 {
		t.Errorf("HTTP/2 SDK: %d checks passed, want 4", len(ok))
	}
	for _, f := range []string{"first.pcm", "after.pcm"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(codectest.Decode(t, api.FormatPCM, b)); n < api.SampleRate/2 {
			t.Errorf("%s: %d samples", f, n)
		}
	}
	if ok := runClient(t, boto, "sagemaker_boto3.py", url, ca, "kokoro-local", "us-east-1", out); len(ok) != 3 {
		t.Errorf("boto3: %d checks passed, want 3", len(ok))
	}
	for _, f := range []string{"stream.wav", "invoke.wav"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(codectest.Decode(t, api.FormatWAV, b)); n < api.SampleRate/2 {
			t.Errorf("%s: %d samples", f, n)
		}
	}

	// kokoro's own clients trust the CA through AWS_CA_BUNDLE, as the banner says.
	t.Setenv("AWS_CA_BUNDLE", ca)
	for _, tr := range []string{"sagemaker-bidi", "sagemaker-stream"} {
		q := NewQmax()
		q.Transport, q.Ladder, q.Hold, q.Window, q.Settle, q.Out = tr, []int{1}, 3*time.Second, 2*time.Second, 0, t.TempDir()
		q = emulatorQmax(q, url)
		q.SageMaker.ImageDigest = ""
		log, err := runQmax(q)
		if err != nil {
			t.Errorf("bench over %s with AWS_CA_BUNDLE: %v\n%s", tr, err, log)
		}
	}
	// Without the CA, the certificate is refused: the TLS is real.
	t.Setenv("AWS_CA_BUNDLE", "")
	q := NewQmax()
	q.Transport, q.Ladder, q.Hold, q.Window, q.Out = "sagemaker-stream", []int{1}, 3*time.Second, 2*time.Second, t.TempDir()
	q.SageMaker.Endpoint, q.SageMaker.AWS = "kokoro-local", emulatorAWS(url)
	q.SageMaker.Freeze = false
	_, err := runQmax(q)
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("without the CA: %v", err)
	}
}
