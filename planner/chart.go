package planner

import (
	"math"
	"strconv"
	"strings"
)

// Chart geometry, in SVG user units (CSS pixels at the page's natural size).
const (
	chartW      = 720.0
	chartH      = 280.0
	chartLeft   = 72.0
	chartRight  = 24.0
	chartTop    = 28.0
	chartBottom = 48.0
)

// chart is one SVG panel with everything in it already placed: the HTML template draws its
// parts in order (grid, rules, lines, marks, labels) and escapes every text.
type chart struct {
	ID, Title    string
	XLabel       string
	YLabel       string
	W, H         float64
	Left, Bottom float64 // the plot area's left and bottom edges
	Right, Top   float64
	Grid         []segment
	Ticks        []label
	Rules        []segment
	Lines        []polyline
	Marks        []mark
	Labels       []label
	Legend       []legendItem
}

// segment is a straight line; Value is the data value it stands for (a rule's), kept in the
// page so that a reader (or a test) can check it against the plan.
type segment struct {
	Class          string
	X1, Y1, X2, Y2 float64
	Value          string
}

// label is a text at a point; Anchor is start, middle or end.
type label struct {
	Class  string
	X, Y   float64
	Anchor string
	Text   string
}

// polyline is a series drawn as a line through Points ("x,y x,y …"); N is its point count.
type polyline struct {
	Class  string
	Series string
	Points string
	N      int
}

// mark is a data point drawn as a circle; Title is its tooltip.
type mark struct {
	Class string
	X, Y  float64
	R     float64
	Title string
}

type legendItem struct {
	Class string
	Text  string
}

// axis maps data values onto pixels, linearly or by decades.
type axis struct {
	lo, hi float64 // data range; positive for a log axis
	p0, p1 float64 // pixels of lo and hi
	log    bool
}

// at returns the pixel of v, clamped to the axis's range.
func (a axis) at(v float64) float64 {
	lo, hi := a.lo, a.hi
	if a.log {
		v, lo, hi = math.Log10(math.Max(v, a.lo)), math.Log10(lo), math.Log10(hi)
	}
	if hi == lo {
		return (a.p0 + a.p1) / 2
	}
	f := (v - lo) / (hi - lo)
	f = math.Min(1, math.Max(0, f))
	return a.p0 + f*(a.p1-a.p0)
}

// ticks returns the tick values: 1, 2 or 5 times a power of ten on a linear axis (about n of
// them), each decade on a log axis.
func (a axis) ticks(n int) []float64 {
	var out []float64
	if a.log {
		for e := math.Ceil(math.Log10(a.lo) - 1e-9); e <= math.Log10(a.hi)+1e-9; e++ {
			out = append(out, math.Pow(10, e))
		}
		return out
	}
	step := niceStep((a.hi - a.lo) / float64(max(n, 1)))
	if !(step > 0) {
		return []float64{a.lo}
	}
	// Counting steps, not adding them: a step below the values' precision would never advance.
	first := math.Ceil(a.lo/step - 1e-9)
	for i := 0.0; i <= 100; i++ {
		v := (first + i) * step
		if v > a.hi+step*1e-9 {
			break
		}
		out = append(out, v)
	}
	return out
}

// niceStep rounds a raw tick step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// niceMax is the smallest 1, 2 or 5 times a power of ten's multiple at or above v, so an axis
// ends on a tick.
func niceMax(v float64, n int) float64 {
	if !(v > 0) {
		return 1
	}
	step := niceStep(v / float64(n))
	return math.Ceil(v/step-1e-9) * step
}

// newChart returns an empty chart with its plot area and axis titles.
func newChart(id, title, xLabel, yLabel string) *chart {
	return &chart{ID: id, Title: title, XLabel: xLabel, YLabel: yLabel, W: chartW, H: chartH,
		Left: chartLeft, Right: chartW - chartRight, Top: chartTop, Bottom: chartH - chartBottom}
}

// xAxis and yAxis return axes over the chart's plot area.
func (c *chart) xAxis(lo, hi float64, log bool) axis {
	return axis{lo: lo, hi: hi, p0: c.Left, p1: c.Right, log: log}
}

func (c *chart) yAxis(lo, hi float64, log bool) axis {
	return axis{lo: lo, hi: hi, p0: c.Bottom, p1: c.Top, log: log}
}

// frame draws the grid and tick labels of both axes, formatting values with fx and fy.
func (c *chart) frame(x, y axis, nx, ny int, fx, fy func(float64) string) {
	for _, v := range x.ticks(nx) {
		px := x.at(v)
		c.Grid = append(c.Grid, segment{Class: "grid", X1: px, Y1: c.Top, X2: px, Y2: c.Bottom})
		c.Ticks = append(c.Ticks, label{Class: "tick", X: px, Y: c.Bottom + 16, Anchor: "middle", Text: fx(v)})
	}
	for _, v := range y.ticks(ny) {
		py := y.at(v)
		c.Grid = append(c.Grid, segment{Class: "grid", X1: c.Left, Y1: py, X2: c.Right, Y2: py})
		c.Ticks = append(c.Ticks, label{Class: "tick", X: c.Left - 6, Y: py + 4, Anchor: "end", Text: fy(v)})
	}
}

// line adds a series through the points (xs[i], ys[i]), skipping NaNs.
func (c *chart) line(class, series string, x, y axis, xs, ys []float64) {
	var b strings.Builder
	n := 0
	for i := range xs {
		if math.IsNaN(ys[i]) || math.IsNaN(xs[i]) {
			continue
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(x.at(xs[i])) + "," + num(y.at(ys[i])))
		n++
	}
	c.Lines = append(c.Lines, polyline{Class: class, Series: series, Points: b.String(), N: n})
}

// num formats a pixel coordinate.
func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// short formats a tick value with at most four significant digits, without the rounding
// noise that stepping in floating point leaves.
func short(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 1 && a < 1e7:
		return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
