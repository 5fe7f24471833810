package planner

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/replay"
)

// ladderChart draws each run of the ladder: p95 (and p50) time to first audio against
// concurrency, one mark per rung that has it; the SLO as a horizontal rule; Q_max and
// C_scale_max as vertical ones. When some rung meets the SLO, a rung beyond four times it is
// drawn at the top edge (its tooltip has its value), so that the SLO stays readable.
func (p *Plan) ladderChart(q *artifact.Qmax) *chart {
	slo, qmax := p.Scenario.SLOms, p.Thresholds.QMax
	c := newChart("ladder", "Time to first audio against concurrency", "requests in flight (client concurrency)", "time to first audio (ms)")
	var maxC, maxMs float64
	minMs := math.Inf(1)
	for _, r := range q.Steps {
		maxC = math.Max(maxC, float64(r.Concurrency))
		maxMs = math.Max(maxMs, math.Max(r.TTFABP95Ms, r.TTFABP50Ms))
		if r.TTFABP95Ms > 0 {
			minMs = math.Min(minMs, r.TTFABP95Ms)
		}
	}
	maxC = math.Max(maxC, float64(qmax))
	top := math.Max(maxMs, slo)
	if minMs < slo {
		top = math.Min(top, 4*slo) // the SLO among the rungs: keep it readable
	}
	x := c.xAxis(0, niceMax(maxC, 8), false)
	y := c.yAxis(0, niceMax(top*1.05, 6), false)
	c.frame(x, y, 8, 6, short, short)
	c.Rules = append(c.Rules, segment{Class: "rule slo", X1: c.Left, Y1: y.at(slo), X2: c.Right, Y2: y.at(slo), Value: short(slo)})
	c.Labels = append(c.Labels, label{Class: "note slo", X: c.Left + 6, Y: y.at(slo) - 6, Anchor: "start", Text: fmt.Sprintf("SLO %s ms (p95)", short(slo))})
	if qmax > 0 {
		px := x.at(float64(qmax))
		c.Rules = append(c.Rules, segment{Class: "rule qmax", X1: px, Y1: c.Top, X2: px, Y2: c.Bottom, Value: fmt.Sprint(qmax)})
		c.Labels = append(c.Labels, label{Class: "note qmax", X: px - 4, Y: c.Top + 12, Anchor: "end", Text: fmt.Sprintf("Q_max %d", qmax)})
	}
	if cs := p.Thresholds.CScaleMax; cs > 0 {
		px := x.at(cs)
		c.Rules = append(c.Rules, segment{Class: "rule cscale", X1: px, Y1: c.Top, X2: px, Y2: c.Bottom, Value: short(cs)})
		c.Labels = append(c.Labels, label{Class: "note", X: px - 4, Y: c.Top + 26, Anchor: "end", Text: fmt.Sprintf("C_scale_max %s", short(cs))})
	}
	for i, run := range q.Runs() {
		rungs := q.Run(run)
		sort.SliceStable(rungs, func(a, b int) bool { return rungs[a].Concurrency < rungs[b].Concurrency })
		series := fmt.Sprintf("s%d", i%4)
		for _, pc := range []struct {
			name string
			ms   func(artifact.Rung) float64
		}{
			{"p95", func(r artifact.Rung) float64 { return r.TTFABP95Ms }},
			{"p50", func(r artifact.Rung) float64 { return r.TTFABP50Ms }},
		} {
			var xs, ys []float64
			for _, r := range rungs {
				v := pc.ms(r)
				if !(v > 0) {
					continue
				}
				xs, ys = append(xs, float64(r.Concurrency)), append(ys, v)
				class := "mark " + pc.name + " " + series
				if !r.Usable {
					class += " unusable"
				}
				c.Marks = append(c.Marks, mark{Class: class, X: x.at(float64(r.Concurrency)), Y: y.at(v), R: map[string]float64{"p95": 4, "p50": 2.5}[pc.name],
					Title: fmt.Sprintf("run %d, %d in flight: %s %.0f ms, %.3g rps", run, r.Concurrency, pc.name, v, r.AchievedRPS)})
			}
			if len(xs) > 0 {
				c.line("series "+pc.name+" "+series, fmt.Sprintf("run %d %s", run, pc.name), x, y, xs, ys)
			}
		}
		c.Legend = append(c.Legend, legendItem{Class: series, Text: fmt.Sprintf("run %d: p95 (solid), p50 (dashed)", run)})
	}
	return c
}

// riskFloor is the smallest share refused the candidates chart shows; a smaller one is drawn
// at the left edge.
const riskFloor = 1e-9

// candidatesChart draws each candidate with a bounded fleet at its share of requests refused
// in the surge (a log axis) and its instance-hours a day, numbered as in the table beside it;
// the proposal and the reference are marked, and the limit on the share refused is a rule.
func (p *Plan) candidatesChart() *chart {
	ps := p.Policy
	c := newChart("candidates", "Candidates: cost against risk", "requests refused in the surge (share, log scale)", "instance-hours a day")
	lo, hi, maxCost := ps.MaxRefused, ps.MaxRefused, 0.0
	for _, k := range ps.Candidates {
		if k.Unbounded {
			continue
		}
		if k.Refused > 0 {
			lo, hi = math.Min(lo, k.Refused), math.Max(hi, k.Refused)
		}
		maxCost = math.Max(maxCost, k.InstanceHoursPerDay)
	}
	lo = math.Max(riskFloor, math.Pow(10, math.Floor(math.Log10(lo))))
	hi = math.Pow(10, math.Ceil(math.Log10(hi)+1e-9))
	x := c.xAxis(lo, hi, true)
	y := c.yAxis(0, niceMax(maxCost*1.1, 6), false)
	c.frame(x, y, 0, 6, func(v float64) string { return short(100*v) + " %" }, short)
	px := x.at(ps.MaxRefused)
	c.Rules = append(c.Rules, segment{Class: "rule limit", X1: px, Y1: c.Top, X2: px, Y2: c.Bottom, Value: fmt.Sprint(ps.MaxRefused)})
	c.Labels = append(c.Labels, label{Class: "note limit", X: px + 4, Y: c.Bottom - 6, Anchor: "start", Text: "limit " + pct(ps.MaxRefused)})
	type numbered struct {
		x, y float64
		n    []string
	}
	var numbers []numbered
	for i, k := range ps.Candidates {
		if k.Unbounded {
			continue
		}
		class := "mark candidate"
		switch {
		case i == ps.Proposal:
			class += " proposal"
		case k.Kind == KindReference:
			class += " reference"
		case !k.Feasible:
			class += " infeasible"
		}
		mx, my := x.at(k.Refused), y.at(k.InstanceHoursPerDay)
		c.Marks = append(c.Marks, mark{Class: class, X: mx, Y: my, R: 6,
			Title: fmt.Sprintf("%d. %s: %s refused, %.0f instance-hours a day", i+1, k.Description, pct(k.Refused), k.InstanceHoursPerDay)})
		// Candidates within a few pixels of one already labelled (the same fleet under two
		// policies) share its label.
		shared := false
		for j := range numbers {
			if math.Abs(numbers[j].x-mx) < 6 && math.Abs(numbers[j].y-my) < 6 {
				numbers[j].n = append(numbers[j].n, fmt.Sprint(i+1))
				shared = true
				break
			}
		}
		if !shared {
			numbers = append(numbers, numbered{mx, my, []string{fmt.Sprint(i + 1)}})
		}
	}
	for _, l := range numbers {
		c.Labels = append(c.Labels, label{Class: "note", X: l.x + 9, Y: l.y - 7, Anchor: "start", Text: strings.Join(l.n, ", ")})
	}
	c.Legend = []legendItem{{"proposal", "proposal"}, {"reference", "the arithmetic's policy"}, {"candidate", "feasible"}, {"infeasible", "beyond the limits"}}
	return c
}

// timelineCharts draws the replays minute by minute, one panel each for the offered load, the
// instances in service, the p95 time to first audio against the SLO and the requests shed;
// every panel but the first has one line per replay. A minute whose p95 request got no audio
// is drawn at the top of its panel.
func timelineCharts(runs []Replay, slo float64) []*chart {
	if len(runs) == 0 {
		return nil
	}
	var minutes int
	var maxOffered, maxIn, maxP95, maxShed float64
	for _, r := range runs {
		minutes = max(minutes, len(r.Minutes))
		for _, m := range r.Minutes {
			maxOffered = math.Max(maxOffered, float64(m.Offered))
			maxIn = math.Max(maxIn, float64(m.InService))
			maxShed = math.Max(maxShed, float64(m.Shed))
			if !m.P95Shed {
				maxP95 = math.Max(maxP95, m.TTFABP95Ms)
			}
		}
	}
	panels := []struct {
		id, title, y string
		top          float64
		per          func(replay.Minute) float64
	}{
		{"timeline-offered", "Offered load", "requests a minute", maxOffered, func(m replay.Minute) float64 { return float64(m.Offered) }},
		{"timeline-in-service", "Instances in service", "instances", maxIn, func(m replay.Minute) float64 { return float64(m.InService) }},
		{"timeline-p95", "p95 time to first audio", "ms", math.Max(maxP95, slo), func(m replay.Minute) float64 {
			if m.P95Shed {
				return math.Inf(1)
			}
			return m.TTFABP95Ms
		}},
		{"timeline-shed", "Requests shed", "503 a minute", maxShed, func(m replay.Minute) float64 { return float64(m.Shed) }},
	}
	var out []*chart
	for i, pn := range panels {
		c := newChart(pn.id, pn.title, "minutes", pn.y)
		c.H = 200
		c.Bottom = c.H - chartBottom
		x := c.xAxis(0, float64(max(minutes, 1)), false)
		y := c.yAxis(0, niceMax(math.Max(pn.top*1.1, 1), 4), false)
		c.frame(x, y, 10, 4, short, short)
		if pn.id == "timeline-p95" {
			c.Rules = append(c.Rules, segment{Class: "rule slo", X1: c.Left, Y1: y.at(slo), X2: c.Right, Y2: y.at(slo), Value: short(slo)})
			c.Labels = append(c.Labels, label{Class: "note slo", X: c.Right - 4, Y: y.at(slo) - 6, Anchor: "end", Text: fmt.Sprintf("SLO %s ms", short(slo))})
		}
		for j, r := range runs {
			if i == 0 && j > 0 {
				break // one trace: the offered load is the same for every replay
			}
			xs, ys := make([]float64, len(r.Minutes)), make([]float64, len(r.Minutes))
			for k, m := range r.Minutes {
				// A minute's figures are drawn at its end, where in_service is read.
				xs[k], ys[k] = (m.Start + time.Minute).Minutes(), pn.per(m)
			}
			class, name := fmt.Sprintf("s%d", j%4), r.Policy
			if i == 0 {
				class, name = "offered", "offered"
			}
			c.line("series "+class, name, x, y, xs, ys)
		}
		out = append(out, c)
	}
	return out
}

// dayChart draws the proposal's day replayed (DayReplay): the instances in service every
// DayTimelineStep, beside the fleet the load needs at the proposal's operating load (load ÷
// its rps per instance, unrounded), so that the gap between them is what the alarms' lag, the
// scale-in's hysteresis and its cooldowns add to the bill. Nil without a timeline.
func (p *Plan) dayChart() *chart {
	pr, d := p.Policy.proposal(), p.Policy.Day
	if pr == nil || d == nil || len(d.Timeline) == 0 || !(pr.OperatingRPS > 0) {
		return nil
	}
	c := newChart("day", "The day, replayed: the proposal's fleet", "hours", "instances")
	top := float64(d.MostInService)
	hours, inService, need := make([]float64, len(d.Timeline)), make([]float64, len(d.Timeline)), make([]float64, len(d.Timeline))
	for i, pt := range d.Timeline {
		hours[i], inService[i], need[i] = pt.AtS/3600, float64(pt.InService), pt.LoadRPS/pr.OperatingRPS
		top = math.Max(top, need[i])
	}
	x := c.xAxis(0, 24, false)
	y := c.yAxis(0, niceMax(top*1.05, 5), false)
	c.frame(x, y, 12, 5, short, short)
	c.line("series need", "needed by the load", x, y, hours, need)
	c.line("series s1", "in service", x, y, hours, inService)
	c.Legend = []legendItem{{"s1", "in service (replayed)"}, {"need", fmt.Sprintf("needed by the load at %.3g rps per instance", pr.OperatingRPS)}}
	return c
}
