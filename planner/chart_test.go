package planner

import (
	"math"
	"slices"
	"testing"
)

// Axes put their ends on the plot area's edges, clamp what lies beyond, tick at 1, 2 or 5
// times a power of ten (decades on a log axis) and label ticks without rounding noise.
func TestChartAxes(t *testing.T) {
	t.Parallel()
	lin := axis{lo: 0, hi: 60, p0: 100, p1: 700}
	for _, c := range []struct{ v, px float64 }{{0, 100}, {60, 700}, {30, 400}, {-5, 100}, {90, 700}, {math.Inf(1), 700}} {
		if got := lin.at(c.v); got != c.px {
			t.Errorf("linear at(%v) = %v, want %v", c.v, got, c.px)
		}
	}
	if got := lin.ticks(6); !slices.Equal(got, []float64{0, 10, 20, 30, 40, 50, 60}) {
		t.Errorf("linear ticks %v", got)
	}
	lg := axis{lo: 1e-4, hi: 1, p0: 0, p1: 400, log: true}
	if got := lg.at(1e-2); math.Abs(got-200) > 1e-9 {
		t.Errorf("log at(1e-2) = %v, want 200", got)
	}
	if got := lg.at(0); got != 0 {
		t.Errorf("log at(0) = %v, want the left edge", got)
	}
	if got := lg.ticks(0); len(got) != 5 || got[0] != 1e-4 || got[4] != 1 {
		t.Errorf("log ticks %v", got)
	}
	for _, c := range []struct{ raw, want float64 }{{0.13, 0.2}, {3, 5}, {7, 10}, {1000, 1000}, {0, 0}} {
		if got := niceStep(c.raw); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("niceStep(%v) = %v, want %v", c.raw, got, c.want)
		}
	}
	if got := niceMax(3374.8*1.05, 6); got != 4000 {
		t.Errorf("niceMax = %v, want 4000", got)
	}
	// A range narrower than the values' precision still ends.
	if got := (axis{lo: 1e20, hi: 1e20 + 1}).ticks(8); len(got) > 101 {
		t.Errorf("%d ticks", len(got))
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{0.1 * 3, "0.3"}, {3000, "3000"}, {37.5, "37.5"}, {1e-5, "1e-05"}, {0, "0"}, {2e7, "2e+07"}} {
		if got := short(c.v); got != c.want {
			t.Errorf("short(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
