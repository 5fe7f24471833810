package scaleout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
)

func testQmax(qmax int, rungs ...int) *artifact.Qmax {
	q := &artifact.Qmax{QMax: qmax}
	for i, c := range rungs {
		q.Steps = append(q.Steps, artifact.Rung{StepIndex: i, Concurrency: c, OK: 10, TTFABP95Ms: 100 * float64(c)})
	}
	return q
}

func TestSize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                 string
		q                    *artifact.Qmax
		current, concurrency int
		recovered            float64
		want                 Sizing
		wantErr              string
	}{
		{name: "Q_max per instance", q: testQmax(4, 1, 2, 4, 8), current: 2,
			want: Sizing{Concurrency: 8, ExpectedBeforeMs: 400, RecoveredMs: 1.25 * 100 * 8 / 3}},
		{name: "no instance counts as one", q: testQmax(4, 1, 2, 4, 8), current: 0,
			want: Sizing{Concurrency: 4, ExpectedBeforeMs: 400, RecoveredMs: 1.25 * 200}},
		{name: "given concurrency and target", q: testQmax(4, 1, 2, 4, 8), current: 1, concurrency: 6, recovered: 900,
			want: Sizing{Concurrency: 6, ExpectedBeforeMs: 600, RecoveredMs: 900}},
		{name: "Q_max 0", q: testQmax(0, 1, 2), current: 1, wantErr: "--probe-concurrency"},
		{name: "no completed rung", q: testQmax(2), current: 1, wantErr: "--recovered-ms"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Size(tc.q, tc.current, tc.concurrency, tc.recovered)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil || got.Concurrency != tc.want.Concurrency || !near(got.ExpectedBeforeMs, tc.want.ExpectedBeforeMs) || !near(got.RecoveredMs, tc.want.RecoveredMs) {
				t.Fatalf("Size = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// jobProbe opens an http probe against a stand-in that answers at once.
func jobProbe(t *testing.T, opened *atomic.Int32, closed *atomic.Int32) func(context.Context, int) (bench.Transport, func(), error) {
	var delay atomic.Int64
	url := standIn(t, &delay)
	return func(_ context.Context, n int) (bench.Transport, func(), error) {
		tr, err := transport.New("http", transport.Options{BaseURL: url, MaxConns: n})
		if err != nil {
			return nil, nil, err
		}
		opened.Add(1)
		return tr, func() { tr.Close(); closed.Add(1) }, nil
	}
}

// TestTTotalJobRestoresOnEveryExit: whatever ends the run, a successful freeze is thawed
// exactly once, the probe is closed, and only a whole run writes an artifact.
func TestTTotalJobRestoresOnEveryExit(t *testing.T) {
	t.Parallel()
	target := artifact.Target{Kind: artifact.TargetSageMaker, Endpoint: "tts", Transport: "http", InstanceType: "ml.g5.xlarge", Model: "kokoro-82m"}
	cases := []struct {
		name                 string
		mismatch, freezeFail bool
		setFail, cancel      bool
		wantErr              string
		wantFreeze, wantThaw int
		wantArtifact         bool
	}{
		{name: "whole run", wantFreeze: 1, wantThaw: 1, wantArtifact: true},
		{name: "another configuration", mismatch: true, wantErr: "another configuration"},
		{name: "freeze fails", freezeFail: true, wantErr: "freeze refused", wantFreeze: 1},
		{name: "scale-out fails", setFail: true, wantErr: "capacity refused", wantFreeze: 1, wantThaw: 1},
		{name: "interrupted", cancel: true, wantErr: "interrupted; no artifact written", wantFreeze: 1, wantThaw: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clk := &fakeClock{now: t0}
			cloud := &fakeCloud{clk: clk, current: 1, upAfter: 30 * time.Second, logAfter: 20 * time.Second}
			if tc.setFail {
				cloud.failSetDesired = errors.New("capacity refused")
			}
			q := testQmax(2, 1, 2, 4)
			q.Fingerprint = target.Fingerprint()
			if tc.mismatch {
				q.Fingerprint = "another"
			}
			var opened, closed, froze, thawed atomic.Int32
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				cancel()
			}
			var out, log strings.Builder
			dir := t.TempDir()
			job := &TTotalJob{
				Cloud: cloud,
				Freeze: func(context.Context) (func(context.Context) error, error) {
					froze.Add(1)
					if tc.freezeFail {
						return nil, errors.New("freeze refused")
					}
					return func(ctx context.Context) error {
						if ctx.Err() != nil {
							t.Error("thawed with an ended context")
						}
						thawed.Add(1)
						return nil
					}, nil
				},
				OpenProbe: jobProbe(t, &opened, &closed),
				Qmax:      q, QmaxFile: "q.json", Target: target, Current: 1,
				Endpoint: "tts", Variant: "AllTraffic", Transport: "http",
				Config:     Config{Lead: time.Second, Poll: 10 * time.Second, Hold: time.Minute, LogWait: time.Minute, Now: clk.Now, Sleep: clk.Sleep},
				Provenance: func() artifact.Provenance { return artifact.Provenance{Tool: "kokoro"} },
				OutDir:     dir, Out: &out, Log: &log,
			}
			path, err := job.Run(ctx)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("err %v, want %q\n%s", err, tc.wantErr, log.String())
			}
			var ie *InterruptedError
			if errors.As(err, &ie) != tc.cancel {
				t.Fatalf("err %v: interrupted %v, want %v", err, !tc.cancel, tc.cancel)
			}
			if int(froze.Load()) != tc.wantFreeze || int(thawed.Load()) != tc.wantThaw || opened.Load() != closed.Load() {
				t.Fatalf("froze %d, thawed %d, probe opened %d closed %d; want froze %d thawed %d", froze.Load(), thawed.Load(), opened.Load(), closed.Load(), tc.wantFreeze, tc.wantThaw)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			if tc.wantArtifact != (len(files) == 1) {
				t.Fatalf("files %v, artifact wanted: %v", files, tc.wantArtifact)
			}
			if !tc.wantArtifact {
				return
			}
			if path != files[0] || !strings.Contains(out.String(), "T_total") {
				t.Fatalf("path %s, files %v, output:\n%s", path, files, out.String())
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a, err := artifact.ParseTTotal(b)
			if err != nil {
				t.Fatal(err)
			}
			if a.ProbeConcurrency != 2 || a.Pairs == nil || a.Trigger != TriggerForceDesired || a.FromInstances != 1 || a.ToInstances != 2 {
				t.Fatalf("artifact %+v", a)
			}
		})
	}
}

// TestTTotalPlanCallsNothing: the dry run is the job's own steps in the order Run takes them,
// naming the stages they clock, with no cloud, freeze or probe to call.
func TestTTotalPlanCallsNothing(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	(&TTotalJob{Qmax: testQmax(3, 1, 2, 4), Endpoint: "tts", Variant: "AllTraffic", Transport: "http", OutDir: "out"}).Plan(&out)
	plan := out.String()
	last := -1
	for _, s := range []string{"check that the qmax artifact", "open the probe over http: Q_max (3)", "suspend tts/AllTraffic's autoscaling",
		artifact.StageLoadApplied, artifact.StageDesiredSet, artifact.StageInService, artifact.StageTrafficRecovered,
		artifact.StageInstanceLogging, "restore the instance count", "artifact and its table into out"} {
		at := strings.Index(plan, s)
		if at <= last {
			t.Fatalf("%q missing or out of order in the plan:\n%s", s, plan)
		}
		last = at
	}
	if n := strings.Count(plan, "\n"); !strings.HasPrefix(plan, "1. ") || !strings.Contains(plan, fmt.Sprintf("\n%d. ", n)) {
		t.Errorf("the plan's %d lines are not numbered 1 to %d:\n%s", n, n, plan)
	}
}
