package bench

import (
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// The self-benchmark kept in testdata/selfbench recomputes from its raw results to the rungs its
// artifact records, so the raw format and the statistics still read old measurements alike.
func TestRecomputeTheSelfBenchmark(t *testing.T) {
	t.Parallel()
	const stem = "../testdata/selfbench/qmax-kokoro-82m-http-local-e61fb50a"
	q, err := artifact.ReadQmax(stem + ".json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(stem + ".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	results, err := ReadResults(f)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Recompute(q, results)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || len(runs[0].Rungs) != len(q.Steps) || runs[0].QMax != q.QMax {
		t.Fatalf("recomputed %d runs, Q_max %d; the artifact has %d steps, Q_max %d", len(runs), runs[0].QMax, len(q.Steps), q.QMax)
	}
	slo := time.Duration(q.SLOms * float64(time.Millisecond))
	for i, s := range runs[0].Rungs {
		got := rungArtifact(time.Time{}, i, s, slo)
		got.StartedAt = q.Steps[i].StartedAt
		if !reflect.DeepEqual(got, q.Steps[i]) {
			t.Errorf("rung %d recomputed\n%+v\nartifact\n%+v", s.N, got, q.Steps[i])
		}
	}
}
