package main

import (
	"strings"
	"testing"
)

func TestPercentileInterpolates(t *testing.T) {
	t.Parallel()
	xs := []float64{40, 10, 30, 20}
	for _, c := range []struct{ p, want float64 }{{0, 10}, {50, 25}, {100, 40}, {95, 38.5}} {
		if got := percentile(xs, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
}

func TestSummaryRow(t *testing.T) {
	t.Parallel()
	recs := []record{
		{Word: "a", Kokoro: 0.100, Aligner: 0.080, Onset: 0.050, Gap: 0.1},
		{Word: "b", Kokoro: 0.500, Aligner: 0.540, Gap: 0.2},
		{Word: "c", Kokoro: 0.900, Aligner: 0.890, Gap: 0.01},
	}
	row := summary("af_x", 1, recs)
	// |diffs| 20, 40, 10 ms: median 20, p95 38, mean 23; signed mean -3; first word 50 and 30 ms
	// after the onset; c in running speech, a and b after pauses.
	for _, want := range []string{"| af_x | 1 | 3 | 20 ms | 38 ms | 23 ms | -3 ms | +50 ms, +30 ms | 1, 10 ms, 10 ms | 2, 30 ms, 39 ms |"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q, want %q", row, want)
		}
	}
}
