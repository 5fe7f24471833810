package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// fakePlot stands in for bench/plot.PNG, which this package cannot import.
func fakePlot(r *Report) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "plot of Q_max %d", r.Summary.QMax)
		return err
	}
}

func localTarget() artifact.Target {
	return artifact.Target{Kind: artifact.TargetLocal, Model: "kokoro-82m", Host: "test-host", Build: "test", BaseURL: "http://stand-in"}
}

// TestQmaxJobArtifactsRecompute runs a short ladder through the job and checks the files it
// leaves: the artifact reads back with the same Q_max, the raw JSONL recomputes every rung to
// the same numbers, and the plot is a PNG.
func TestQmaxJobArtifactsRecompute(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testQmaxJobArtifactsRecompute)
}

func testQmaxJobArtifactsRecompute(t *testing.T) {
	var table strings.Builder
	job := &QmaxJob{
		Ladder: &Ladder{
			// One slot of 20 ms, then 10 ms of audio and the rest 30 ms later (a 20 ms stall). The
			// slot is free during the second piece, so TTFAB is 20 ms up to rung 2 and 50 ms at rung 4.
			Transport: newSimServer(20*time.Millisecond, piece{0, 10 * time.Millisecond}, piece{30 * time.Millisecond, 200 * time.Millisecond}),
			Config: Config{Ladder: []int{1, 2, 4}, Hold: 30 * time.Second, MeasureWindow: 10 * time.Second,
				Settle: time.Second, SLO: 45 * time.Millisecond, Seed: 7},
		},
		Target:     localTarget(),
		Provenance: artifact.NewProvenance(time.Now(), "test", []string{"kokoro", "bench", "qmax"}),
		OutDir:     t.TempDir(),
		Out:        &table,
		Plot:       fakePlot,
	}
	rep, out, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := job.Paths(); out != want {
		t.Errorf("outputs %+v; want %+v", out, want)
	}
	if !strings.HasPrefix(out.Artifact[len(job.OutDir)+1:], "qmax-kokoro-82m-sim-local-") {
		t.Errorf("artifact name %s", out.Artifact)
	}
	q, err := artifact.ReadQmax(out.Artifact)
	if err != nil {
		t.Fatal(err)
	}
	if q.QMax != rep.Summary.QMax || q.QMax != 2 || !q.QMaxBracketed || q.Partial || len(q.Steps) != 3 {
		t.Errorf("artifact q_max %d bracketed %v partial %v steps %d; report %+v", q.QMax, q.QMaxBracketed, q.Partial, len(q.Steps), rep.Summary)
	}
	if q.Fingerprint == "" || q.Slug == "" || q.Provenance.CreatedAt.IsZero() || q.SchemaVersion != artifact.SchemaVersion {
		t.Errorf("artifact lacks provenance or fingerprint: %+v", q)
	}

	f, err := os.Open(out.Raw)
	if err != nil {
		t.Fatal(err)
	}
	results, err := ReadResults(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Recompute(q, results)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].QMax != q.QMax || runs[0].SMeanMs/1000 != q.SMeanS || runs[0].SP95Ms/1000 != q.SP95S {
		t.Errorf("recomputed %+v; artifact q_max %d s_mean %v s_p95 %v", runs, q.QMax, q.SMeanS, q.SP95S)
	}
	for i, s := range runs[0].Rungs {
		got := rungArtifact(rep.Epoch, i, s, job.Ladder.Config.SLO)
		got.StartedAt = q.Steps[i].StartedAt
		if !reflect.DeepEqual(got, q.Steps[i]) {
			t.Errorf("rung %d recomputed\n%+v\nartifact\n%+v", s.N, got, q.Steps[i])
		}
	}

	if b, err := os.ReadFile(out.Plot); err != nil || string(b) != "plot of Q_max 2" {
		t.Errorf("plot file %q, %v", b, err)
	}
	if !strings.Contains(table.String(), "Q_max 2 ") || !strings.Contains(table.String(), "bracketed by rung 4") {
		t.Errorf("table:\n%s", table.String())
	}
}

// TestQmaxJobInterruptWritesPartial: Ctrl-C mid-ladder still leaves an artifact, marked partial.
func TestQmaxJobInterruptWritesPartial(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testQmaxJobInterruptWritesPartial)
}

func testQmaxJobInterruptWritesPartial(t *testing.T) {
	job := &QmaxJob{
		Ladder: &Ladder{
			Transport: newSimServer(10 * time.Millisecond),
			Config:    Config{Ladder: []int{1, 2}, Hold: 400 * time.Millisecond, MeasureWindow: 200 * time.Millisecond, Settle: 10 * time.Second, SLO: time.Second},
		},
		Target:     localTarget(),
		Provenance: artifact.NewProvenance(time.Now(), "test", nil),
		OutDir:     t.TempDir(),
		Plot:       fakePlot,
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(900*time.Millisecond, cancel) // during the settle after rung 1
	_, out, err := job.Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v; want context.Canceled", err)
	}
	q, err := artifact.ReadQmax(out.Artifact)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Partial || len(q.Steps) != 1 || !q.Steps[0].Usable || q.QMax != 1 {
		t.Errorf("partial artifact: partial %v steps %+v q_max %d", q.Partial, q.Steps, q.QMax)
	}
	if _, err := os.Stat(out.Plot); err != nil {
		t.Errorf("no plot after interrupt: %v", err)
	}
}
