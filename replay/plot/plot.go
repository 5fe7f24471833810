// Package plot draws replays as a PNG timeline: offered load, instances in service, p95 time
// to first audio against the SLO, and requests shed, minute by minute, for one policy or
// several side by side on the same trace. It is kept apart from package replay so that the
// simulator does not carry the plotting library.
package plot

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"time"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/kokoro-sm/kokoro/replay"
)

// Run is one policy's replay, with the name its lines carry.
type Run struct {
	Name   string
	Result *replay.Result
}

// palette colours the runs in order: the first (the reference) red, the second blue.
var palette = []color.Color{
	color.RGBA{R: 200, G: 40, B: 40, A: 255},
	color.RGBA{R: 30, G: 90, B: 200, A: 255},
	color.RGBA{R: 40, G: 150, B: 60, A: 255},
	color.RGBA{R: 150, G: 60, B: 160, A: 255},
}

// Timeline returns a reporter that draws the runs as four panels stacked over one time axis.
// A minute whose p95 request got no audio (over 5 % of its requests shed) is drawn at the top
// of the p95 panel.
func Timeline(runs []Run, slo time.Duration, title string) func(io.Writer) error {
	return func(w io.Writer) error {
		type panel struct {
			label string
			y     func(m replay.Minute) float64
		}
		panels := []panel{
			{"offered (requests/min)", func(m replay.Minute) float64 { return float64(m.Offered) }},
			{"instances in service", func(m replay.Minute) float64 { return float64(m.InService) }},
			{"p95 time to first audio (s)", func(m replay.Minute) float64 {
				if m.P95Shed {
					return math.Inf(1)
				}
				return m.TTFABP95Ms / 1000
			}},
			{"shed (503 per minute)", func(m replay.Minute) float64 { return float64(m.Shed) }},
		}
		sloS := slo.Seconds()
		plots := make([][]*gplot.Plot, len(panels))
		for pi, pn := range panels {
			p := gplot.New()
			if pi == 0 {
				p.Title.Text = title
			}
			p.Y.Label.Text = pn.label
			if pi == len(panels)-1 {
				p.X.Label.Text = "minutes"
			}
			p.Add(plotter.NewGrid())
			top := 0.0
			for _, r := range runs {
				for _, m := range r.Result.Minutes {
					if v := pn.y(m); !math.IsInf(v, 0) {
						top = math.Max(top, v)
					}
				}
			}
			if pi == 2 {
				top = math.Max(top, sloS) * 1.2
				if top == 0 {
					top = 1
				}
				p.Y.Max = top
			}
			for ri, r := range runs {
				var xys plotter.XYs
				for _, m := range r.Result.Minutes {
					v := pn.y(m)
					if math.IsInf(v, 1) {
						v = top
					}
					xys = append(xys, plotter.XY{X: m.Start.Minutes(), Y: v})
				}
				if len(xys) == 0 {
					continue
				}
				line, err := plotter.NewLine(xys)
				if err != nil {
					return fmt.Errorf("plot %s: %w", r.Name, err)
				}
				line.Color = palette[ri%len(palette)]
				line.Width = vg.Points(1.5)
				if ri > 0 && pi == 0 {
					line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)} // the same trace: keep both visible
				}
				p.Add(line)
				if pi == 0 || pi == 1 {
					p.Legend.Add(r.Name, line)
				}
			}
			if pi == 2 && sloS > 0 {
				end := 1.0
				for _, r := range runs {
					if n := len(r.Result.Minutes); n > 0 {
						end = math.Max(end, r.Result.Minutes[n-1].Start.Minutes())
					}
				}
				l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: sloS}, {X: end, Y: sloS}})
				if err != nil {
					return fmt.Errorf("plot slo: %w", err)
				}
				l.Color = color.Gray{Y: 60}
				l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
				p.Add(l)
				p.Legend.Add(fmt.Sprintf("SLO %.3g s", sloS), l)
			}
			p.Legend.Top, p.Legend.Left = true, true
			plots[pi] = []*gplot.Plot{p}
		}
		const width, height = 9 * vg.Inch, 10 * vg.Inch
		img := vgimg.New(width, height)
		dc := draw.New(img)
		tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadX: vg.Millimeter, PadY: vg.Millimeter * 2,
			PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
		canvases := gplot.Align(plots, tiles, dc)
		for i := range plots {
			plots[i][0].Draw(canvases[i][0])
		}
		var out image.Image = img.Image()
		if err := png.Encode(w, out); err != nil {
			return fmt.Errorf("write timeline: %w", err)
		}
		return nil
	}
}
