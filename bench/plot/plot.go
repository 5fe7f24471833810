package plot

import (
	"fmt"
	"image/color"
	"io"
	"strconv"
	"time"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/kokoro-sm/kokoro/bench"
)

// PNG returns a reporter that draws p95 TTFAB and p95 playback stall against concurrency as a
// PNG, with the SLO as a horizontal line and Q_max marked. Concurrency is on a log axis because
// ladders grow geometrically.
func PNG(r *bench.Report) func(io.Writer) error {
	return func(w io.Writer) error {
		p := gplot.New()
		p.Title.Text = fmt.Sprintf("Q_max ladder (%s): Q_max %d%s", r.Transport, r.Summary.QMax, bracketNote(r.Summary))
		if r.Partial {
			p.Title.Text += " — partial"
		}
		p.X.Label.Text = "concurrency (requests outstanding)"
		p.Y.Label.Text = "milliseconds"
		p.X.Scale = gplot.LogScale{}
		p.Legend.Top = true
		p.Legend.Left = true
		p.Legend.Padding = vg.Points(2)
		p.Legend.XOffs = vg.Points(6)

		var ticks gplot.ConstantTicks
		seen := map[int]bool{}
		sloMs := float64(r.Config.SLO) / float64(time.Millisecond)
		maxY := sloMs
		minX, maxX := 0.0, 0.0
		for i, run := range r.Runs {
			var ttfab, stall plotter.XYs
			for _, s := range run.Rungs {
				if s.OK == 0 {
					continue
				}
				x := float64(s.N)
				ttfab = append(ttfab, plotter.XY{X: x, Y: s.TTFAB.P95})
				stall = append(stall, plotter.XY{X: x, Y: s.Stall.P95})
				maxY = max(maxY, s.TTFAB.P95, s.Stall.P95)
				if minX == 0 || x < minX {
					minX = x
				}
				maxX = max(maxX, x)
				if !seen[s.N] {
					seen[s.N] = true
					ticks = append(ticks, gplot.Tick{Value: x, Label: strconv.Itoa(s.N)})
				}
			}
			if len(ttfab) == 0 {
				continue
			}
			suffix := ""
			if len(r.Runs) > 1 {
				suffix = fmt.Sprintf(" (run %d)", run.Run)
			}
			if err := addSeries(p, ttfab, "p95 TTFAB"+suffix, plotter.DefaultLineStyle.Color, i, false); err != nil {
				return err
			}
			if err := addSeries(p, stall, "p95 stall"+suffix, color.RGBA{R: 200, G: 100, A: 255}, i, true); err != nil {
				return err
			}
		}
		if maxX == 0 {
			// Nothing completed: still draw the SLO over the planned ladder so the file exists.
			for _, n := range r.Config.Ladder {
				ticks = append(ticks, gplot.Tick{Value: float64(n), Label: strconv.Itoa(n)})
			}
			if len(r.Config.Ladder) > 0 {
				minX, maxX = float64(r.Config.Ladder[0]), float64(r.Config.Ladder[len(r.Config.Ladder)-1])
			} else {
				minX, maxX = 1, 2
			}
		}
		if maxX == minX {
			maxX = minX * 2
		}
		p.X.Tick.Marker = ticks
		p.X.Min, p.X.Max = minX, maxX
		p.Y.Min, p.Y.Max = 0, maxY*1.1

		slo, err := plotter.NewLine(plotter.XYs{{X: minX, Y: sloMs}, {X: maxX, Y: sloMs}})
		if err != nil {
			return fmt.Errorf("plot slo line: %w", err)
		}
		slo.Color = color.RGBA{R: 220, A: 255}
		slo.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		p.Add(slo)
		p.Legend.Add(fmt.Sprintf("SLO %.0f ms", sloMs), slo)

		if q := r.Summary.QMax; q > 0 {
			mark, err := plotter.NewLine(plotter.XYs{{X: float64(q), Y: 0}, {X: float64(q), Y: maxY * 1.1}})
			if err != nil {
				return fmt.Errorf("plot q_max marker: %w", err)
			}
			mark.Color = color.RGBA{G: 140, A: 255}
			mark.Width = vg.Points(2)
			mark.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
			p.Add(mark)
			p.Legend.Add(fmt.Sprintf("Q_max %d", q), mark)
		}
		p.Add(plotter.NewGrid())

		wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, "png")
		if err != nil {
			return fmt.Errorf("render plot: %w", err)
		}
		if _, err := wt.WriteTo(w); err != nil {
			return fmt.Errorf("write plot: %w", err)
		}
		return nil
	}
}

func addSeries(p *gplot.Plot, xys plotter.XYs, label string, c color.Color, run int, dashed bool) error {
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("plot %s: %w", label, err)
	}
	line.Color, points.Color = c, c
	if dashed {
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	}
	if run > 0 {
		// Later runs are drawn thinner so the first stays readable.
		line.Width = vg.Points(0.5)
	}
	p.Add(line, points)
	p.Legend.Add(label, line, points)
	return nil
}

func bracketNote(s bench.Summary) string {
	if s.Bracketed {
		return fmt.Sprintf(" (bracketed by %d)", s.BracketRung)
	}
	if s.QMax > 0 {
		return " (not bracketed: the ladder never broke the SLO)"
	}
	return ""
}
