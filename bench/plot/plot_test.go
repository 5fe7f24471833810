package plot

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/bench"
)

func rung(n int, p95 float64) bench.RungStats {
	return bench.RungStats{Run: 1, N: n, OK: 10, TTFAB: bench.Quantiles{P95: p95}, Stall: bench.Quantiles{P95: p95 / 10},
		InFlightMean: float64(n), Usable: true}
}

// The PNG decodes at the size a report page shows, for a measured ladder and for one where
// nothing completed (the file must still exist so the outputs are complete).
func TestPNG(t *testing.T) {
	t.Parallel()
	slo := 100 * time.Millisecond
	measured := bench.SummarizeRun(1, []bench.RungStats{rung(1, 20), rung(2, 40), rung(4, 160)}, slo)
	empty := bench.RungStats{Run: 1, N: 1}
	for name, rep := range map[string]*bench.Report{
		"measured": {Transport: "http", Config: bench.Config{Ladder: []int{1, 2, 4}, SLO: slo},
			Runs: []bench.RunSummary{measured}, Summary: bench.Summarize([]bench.RunSummary{measured})},
		"nothing completed": {Transport: "ws", Config: bench.Config{Ladder: []int{1, 2}, SLO: slo}, Partial: true,
			Runs: []bench.RunSummary{bench.SummarizeRun(1, []bench.RungStats{empty}, slo)}},
	} {
		var buf bytes.Buffer
		if err := PNG(rep)(&buf); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 200 {
			t.Errorf("%s: plot is %v", name, b)
		}
	}
	if measured.QMax != 2 || !measured.Bracketed {
		t.Errorf("the measured ladder should conclude Q_max 2 bracketed: %+v", measured)
	}
}
