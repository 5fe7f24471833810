package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// runBounded runs a job and fails the test if it has not returned within a bound far above
// the deadlines it sets: it catches a hang, not a slow machine.
func runBounded(t *testing.T, what string, run func(out, errw io.Writer) error) (string, error) {
	t.Helper()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := runJob(run)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(2 * time.Minute):
		t.Fatalf("%s did not return within 2 minutes", what)
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

// qmaxArtifactFor writes a qmax artifact the ttotal job accepts far enough to reach AWS.
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

// describeJob is endpoint describe of "ep".
func describeJob(a AWS) func(out, errw io.Writer) error {
	return func(out, _ io.Writer) error { return Describe{AWS: a, Name: "ep"}.Run(context.Background(), out) }
}

// shortQmax is a one-rung ladder against endpoint "ep" over a SageMaker transport.
func shortQmax(t *testing.T, tr string, freeze bool, a AWS) func(out, errw io.Writer) error {
	q := NewQmax()
	q.Transport, q.Ladder, q.Hold, q.Window, q.Out = tr, []int{1}, 2*time.Second, time.Second, t.TempDir()
	q.SageMaker.Endpoint, q.SageMaker.Freeze, q.SageMaker.AWS = "ep", freeze, a
	return func(out, errw io.Writer) error { return q.Run(context.Background(), out, errw) }
}

// ttotalJob is the scale-out timer on endpoint "ep" with the qmax artifact at qmax.
func ttotalJob(t *testing.T, qmax string, a AWS) func(out, errw io.Writer) error {
	j := NewTTotal()
	j.AWS, j.Endpoint, j.Qmax, j.StateDir = a, "ep", qmax, t.TempDir()
	return func(out, errw io.Writer) error { return j.Run(context.Background(), out, errw) }
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
		a := AWS{Region: "us-east-1", EndpointURL: tc.url, Timeout: 300 * time.Millisecond}
		_, err := runBounded(t, "endpoint describe", describeJob(a))
		wantLine(t, tc.name+": endpoint describe", err, awsconf.ErrUnreachable, append([]string{tc.url}, tc.want...)...)

		for _, tr := range []string{"sagemaker-stream", "sagemaker-bidi"} {
			_, err := runBounded(t, "bench qmax", shortQmax(t, tr, false, a))
			want := append([]string{tr + " preflight", tc.url, "--aws-endpoint-url"}, tc.want[1:]...)
			if tc.name == "silent" {
				// The preflight's 450 ms, or the session's answer deadline inside it,
				// whichever fires first: both are the same timeout.
				want = []string{tr + " preflight", "timeout", tc.url + " (--aws-endpoint-url)", "within 4"}
			}
			wantLine(t, tc.name+": "+tr+" preflight", err, nil, want...)
		}
		_, err = runBounded(t, "bench ttotal", ttotalJob(t, qmaxArtifactFor(t, "ep"), a))
		wantLine(t, tc.name+": bench ttotal", err, awsconf.ErrUnreachable, append([]string{tc.url}, tc.want...)...)
	}
	// The runtime's own flag is named when it set the address.
	silent := silentListener(t)
	q := NewQmax()
	q.Transport, q.Ladder, q.Hold, q.Window, q.Out = "sagemaker-stream", []int{1}, 2*time.Second, time.Second, t.TempDir()
	q.SageMaker.Endpoint, q.SageMaker.Freeze, q.SageMaker.Runtime.URL = "ep", false, silent
	q.SageMaker.AWS = AWS{Region: "us-east-1", Timeout: 300 * time.Millisecond}
	_, err := runBounded(t, "bench qmax", func(out, errw io.Writer) error { return q.Run(context.Background(), out, errw) })
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
	commands := func(region string) map[string]func(out, errw io.Writer) error {
		a := AWS{Region: region, EndpointURL: url, Timeout: awsconf.DefaultAnswerTimeout}
		del, thaw := NewDelete(), NewThaw()
		del.AWS, del.Name, del.DryRun = a, "ep", true
		thaw.AWS, thaw.Endpoint, thaw.DryRun = a, "ep", true
		m := map[string]func(out, errw io.Writer) error{
			"endpoint describe": describeJob(a),
			"endpoint delete":   func(out, errw io.Writer) error { return del.Run(context.Background(), out, errw) },
			"thaw":              func(out, _ io.Writer) error { return thaw.Run(context.Background(), out) },
			"bench ttotal":      ttotalJob(t, qmax, a),
		}
		for _, tr := range []string{"sagemaker-stream", "sagemaker-bidi"} {
			for _, freeze := range []bool{true, false} {
				m[fmt.Sprintf("bench qmax %s --freeze=%v", tr, freeze)] = shortQmax(t, tr, freeze, a)
			}
		}
		return m
	}
	check := func(what string, kind error, region string) {
		lines := map[string][]string{}
		for name, run := range commands(region) {
			_, err := runBounded(t, name, run)
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
	check("no credentials", awsconf.ErrNoCredentials, "us-east-1")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDLOCAL")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	check("no region", awsconf.ErrRegion, "")
}
