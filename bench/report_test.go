package bench

import (
	"strings"
	"testing"
	"time"
)

func TestRenderProgress(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	p := Progress{Run: 1, Runs: 2, N: 8, Rung: 4, Rungs: 6, Elapsed: 30 * time.Second, Hold: 60 * time.Second, Measuring: true, TTFABP95Ms: 812, StallP95Ms: 14, RPS: 17.9, OK: 500}
	if err := RenderProgress(&b, p, 10); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"\r", "N=8", "█████░░░░░", "50%", "meas", "p95     812ms", "17.90 rps", "rung 4/6"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress %q lacks %q", got, want)
		}
	}
}
