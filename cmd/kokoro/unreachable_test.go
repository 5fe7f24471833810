package main

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
)

// silentListener accepts connections and never answers on them, until the test ends.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// closedPort is an address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// runBounded runs the command line and fails the test if it has not returned within a bound
// far above the deadlines it sets: it catches a hang, not a slow machine.
func runBounded(t *testing.T, args ...string) (string, error) {
	t.Helper()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		var out strings.Builder
		cmd := newRootCmd()
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(args)
		err := cmd.Execute()
		done <- result{out.String(), err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("%v did not return within 2 minutes", args)
		return "", nil
	}
}

func wantLine(t *testing.T, what string, err error, kind error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	if kind != nil && !errors.Is(err, kind) {
		t.Errorf("%s: %v is not %v", what, err, kind)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || strings.Contains(msg, "exceeded maximum number of attempts") || strings.Contains(msg, "context canceled") {
		t.Errorf("%s: not one explained line: %s", what, msg)
	}
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("%s: %q lacks %q", what, msg, p)
		}
	}
}

// qmaxArtifactFor writes a qmax artifact the ttotal command accepts far enough to reach AWS.
func qmaxArtifactFor(t *testing.T, endpoint string) string {
	t.Helper()
	target := artifact.Target{Kind: artifact.TargetSageMaker, Transport: "http", Model: "kokoro-82m", Endpoint: endpoint,
		Variant: sagemaker.DefaultVariant, Region: "us-east-1", InstanceType: "ml.g5.xlarge", ImageDigest: "sha256:0123456789abcdef"}
	q := &artifact.Qmax{
		Header: artifact.Header{SchemaVersion: artifact.SchemaVersion, Kind: artifact.KindQmax,
			Provenance: artifact.Provenance{Tool: "kokoro", SourceFormat: artifact.FormatKokoro}, Target: target},
		SLOms: 3000, QMax: 4, Config: artifact.LadderConfig{Ladder: []int{1, 2, 4}},
	}
	for i, c := range []int{1, 2, 4} {
		q.Steps = append(q.Steps, artifact.Rung{StepIndex: i, Concurrency: c, OK: 100, Completed: 100, TTFABP95Ms: 20 * float64(c), Usable: true})
	}
	path, err := artifact.Write(t.TempDir(), q)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestUnreachableEndpointsFailAtTheirDeadline: a control-plane command, a bench preflight
// over either SageMaker transport and the scale-out timer, pointed at an address that takes
// the connection and never answers, fail at the deadline --aws-timeout sets (short here) with
// one line that says it was a timeout, names the URL and the flag, and what to check; an
// address where nothing listens fails at once, without the retries with backoff, the same way.
func TestUnreachableEndpointsFailAtTheirDeadline(t *testing.T) {
	awsTestEnv(t)
	for _, tc := range []struct {
		name, url string
		want      []string
	}{
		{"silent", silentListener(t), []string{"timeout", "no answer from", "within 300ms", "--aws-endpoint-url"}},
		{"closed", closedPort(t), []string{"connection refused", "--aws-endpoint-url", "check that --aws-endpoint-url names the server"}},
	} {
		aws := []string{"--region", "us-east-1", "--aws-endpoint-url", tc.url, "--aws-timeout", "300ms"}
		_, err := runBounded(t, append([]string{"endpoint", "describe", "ep"}, aws...)...)
		wantLine(t, tc.name+": endpoint describe", err, awsconf.ErrUnreachable, append([]string{tc.url}, tc.want...)...)

		for _, tr := range []string{"sagemaker-stream", "sagemaker-bidi"} {
			_, err := runBounded(t, append([]string{"bench", "qmax", "--transport", tr, "--endpoint-name", "ep", "--freeze=false",
				"--ladder", "1", "--hold", "2s", "--measure-window", "1s", "--out", t.TempDir()}, aws...)...)
			want := append([]string{tr + " preflight", tc.url, "--aws-endpoint-url"}, tc.want[1:]...)
			if tc.name == "silent" {
				// The preflight's 450 ms, or the session's answer deadline inside it,
				// whichever fires first: both are the same timeout.
				want = []string{tr + " preflight", "timeout", tc.url + " (--aws-endpoint-url)", "within 4"}
			}
			wantLine(t, tc.name+": "+tr+" preflight", err, nil, want...)
		}
		_, err = runBounded(t, append([]string{"bench", "ttotal", "--endpoint-name", "ep", "--qmax", qmaxArtifactFor(t, "ep"),
			"--state-dir", t.TempDir()}, aws...)...)
		wantLine(t, tc.name+": bench ttotal", err, awsconf.ErrUnreachable, append([]string{tc.url}, tc.want...)...)
	}
	// The runtime's own flag is named when it set the address.
	silent := silentListener(t)
	_, err := runBounded(t, "bench", "qmax", "--transport", "sagemaker-stream", "--endpoint-name", "ep", "--freeze=false", "--region", "us-east-1",
		"--runtime-endpoint-url", silent, "--aws-timeout", "300ms", "--ladder", "1", "--hold", "2s", "--measure-window", "1s", "--out", t.TempDir())
	wantLine(t, "--runtime-endpoint-url", err, nil, silent+" (--runtime-endpoint-url)", "timeout")
}

// TestCredentialAndRegionErrorsReadTheSame: with no credentials, and with no region, every
// cloud command and both SageMaker transports (with --freeze=false, which calls no control
// plane) fail before any call with the same one line.
func TestCredentialAndRegionErrorsReadTheSame(t *testing.T) {
	awsTestEnv(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	url := silentListener(t) // nothing may be called: a call would hang until its deadline
	qmax := qmaxArtifactFor(t, "ep")
	commands := func(region []string) map[string][]string {
		aws := append(append([]string{}, region...), "--aws-endpoint-url", url)
		m := map[string][]string{
			"endpoint describe": append([]string{"endpoint", "describe", "ep"}, aws...),
			"endpoint delete":   append([]string{"endpoint", "delete", "ep", "--dry-run"}, aws...),
			"thaw":              append([]string{"thaw", "--endpoint", "ep", "--dry-run"}, aws...),
			"bench ttotal":      append([]string{"bench", "ttotal", "--endpoint-name", "ep", "--qmax", qmax, "--state-dir", t.TempDir()}, aws...),
		}
		for _, tr := range []string{"sagemaker-stream", "sagemaker-bidi"} {
			for _, freeze := range []string{"true", "false"} {
				m[fmt.Sprintf("bench qmax %s --freeze=%s", tr, freeze)] = append([]string{"bench", "qmax", "--transport", tr, "--endpoint-name", "ep",
					"--freeze=" + freeze, "--ladder", "1", "--hold", "2s", "--measure-window", "1s", "--out", t.TempDir()}, aws...)
			}
		}
		return m
	}
	check := func(what string, kind error, region []string) {
		lines := map[string][]string{}
		for name, args := range commands(region) {
			_, err := runBounded(t, args...)
			if err == nil || !errors.Is(err, kind) {
				t.Errorf("%s: %s: %v, want %v", what, name, err, kind)
				continue
			}
			lines[err.Error()] = append(lines[err.Error()], name)
		}
		if len(lines) != 1 {
			t.Errorf("%s reads differently by command: %v", what, lines)
		}
	}
	check("no credentials", awsconf.ErrNoCredentials, []string{"--region", "us-east-1"})
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDLOCAL")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	check("no region", awsconf.ErrRegion, nil)
}
