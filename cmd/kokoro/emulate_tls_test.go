package main

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
)

// startEmulateTLS runs `kokoro emulate --tls --serve 1` with the real model in-process until
// the test ends, and returns its https URL and the CA file it printed.
func startEmulateTLS(t *testing.T) (url, ca string) {
	t.Helper()
	a := testenv.RealModel(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out testenv.Buffer
	cmd := newRootCmd()
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"emulate", "--tls", "--tls-dir", filepath.Join(t.TempDir(), "tls"), "--serve", "1", "--listen", "127.0.0.1:0",
		"--slots", "1", "--threads", "2", "--model", a.Model, "--voices-dir", a.Voices, "--lexicon-dir", a.Lexicon, "--ort-lib", a.ORTLib, "--provider", "cpu"})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
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
		log, err := runKokoro(t, "bench", "qmax", "--transport", tr, "--endpoint-name", "kokoro-local", "--variant", "AllTraffic",
			"--region", "us-east-1", "--aws-endpoint-url", url, "--freeze=false", "--instance-type", "local-emulator",
			"--ladder", "1", "--hold", "3s", "--measure-window", "2s", "--settle", "0s", "--out", t.TempDir())
		if err != nil {
			t.Errorf("bench over %s with AWS_CA_BUNDLE: %v\n%s", tr, err, log)
		}
	}
	// Without the CA, the certificate is refused: the TLS is real.
	t.Setenv("AWS_CA_BUNDLE", "")
	_, err := runKokoro(t, "bench", "qmax", "--transport", "sagemaker-stream", "--endpoint-name", "kokoro-local", "--region", "us-east-1",
		"--aws-endpoint-url", url, "--freeze=false", "--ladder", "1", "--hold", "3s", "--measure-window", "2s", "--out", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("without the CA: %v", err)
	}
}
