package planner

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/replay"
)

// Page is what the HTML report draws beside the plan: the ladder the plan was made from and
// replays of its policies on one trace. A part left out leaves its chart out, with a line
// saying why.
type Page struct {
	// Ladder is the qmax artifact the plan read; nil leaves out the ladder chart.
	Ladder *artifact.Qmax
	// Trace says, in words, what traffic the replays ran on.
	Trace string
	// Replays are the policies' replays on that trace, the reference first.
	Replays []Replay
	// NoReplay says why there are no replays.
	NoReplay string
}

// Replay is one policy's replay, as the report's timeline and its table show it.
type Replay struct {
	Policy  string
	Summary replay.Summary
	Minutes []replay.Minute
}

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"num": num,
	"sub": func(a, b float64) float64 { return a - b },
	"mid": func(a, b float64) float64 { return (a + b) / 2 },
}).Parse(htmlSource))

// htmlCandidate is one row of the candidates' table.
type htmlCandidate struct {
	N                                          int
	Class, Mark, Description                   string
	Refused, Late, Day, OperatingRPS, Fleet, T string
	Cost, Why                                  string
}

// htmlReplayRow is one row of the replays' table.
type htmlReplayRow struct {
	Class, Policy                 string
	Requests                      int
	WithinSLO, Shed, P95          string
	MinutesOverSLO, MostInService int
	InstanceHours                 string
	ScaleOuts, ScaleIns           int
}

// htmlData is what the template draws.
type htmlData struct {
	Title, Subtitle, Generated string
	Verdict                    string
	Summary                    []summaryRow
	Headline                   string
	Ladder                     *chart
	NoLadder                   string
	Candidates                 *chart
	Day                        *chart
	CandidateRows              []htmlCandidate
	Undrawn                    string // the candidates the chart leaves out, numbered
	NoCandidates               string
	Trace                      string
	Timeline                   []*chart
	ReplayRows                 []htmlReplayRow
	NoReplay                   string
	Findings                   []Finding
	Text                       string
}

// WriteHTML writes the plan as one self-contained HTML page: the report's first lines as a
// table, the ladder with the SLO and Q_max, the candidates' cost against their risk, the
// proposal's day replayed, the replays' timeline, the findings and the text report. Charts
// are inline SVG and styles inline CSS; the page loads nothing and runs no script. Every
// text is escaped.
func (p *Plan) WriteHTML(w io.Writer, pg Page) error {
	var text bytes.Buffer
	if err := p.WriteReport(&text); err != nil {
		return err
	}
	s := p.Source
	if s.InstanceType == "" {
		s.InstanceType = s.Slug
	}
	d := htmlData{
		Title:     fmt.Sprintf("kokoro plan — %s on %s", s.Model, s.InstanceType),
		Subtitle:  fmt.Sprintf("%s, %s; SLO %g ms p95 time to first audio, surge %.2f×, %s → %s", s.Slug, s.Transport, p.Scenario.SLOms, p.Scenario.Surge, load(p.Scenario.TroughRPS, p.Scenario.TroughStreams), load(p.Scenario.PeakRPS, p.Scenario.PeakStreams)),
		Generated: p.GeneratedAt.Format("2006-01-02 15:04 MST"),
		Verdict:   string(p.Verdict),
		Findings:  p.Findings,
		Text:      text.String(),
		Trace:     pg.Trace,
	}
	d.Headline, d.Summary = p.summary()
	if pg.Ladder != nil && len(pg.Ladder.Steps) > 0 {
		d.Ladder = p.ladderChart(pg.Ladder)
	} else {
		d.NoLadder = "the qmax artifact's ladder was not given"
	}
	if p.Policy.Searched() {
		d.Candidates = p.candidatesChart()
		d.CandidateRows = p.candidateRows()
		var undrawn []string
		for i, c := range p.Policy.Candidates {
			if c.Unbounded {
				undrawn = append(undrawn, fmt.Sprint(i+1))
			}
		}
		d.Undrawn = strings.Join(undrawn, ", ")
		d.Day = p.dayChart()
	} else {
		d.NoCandidates = "no policy search: " + p.Policy.Skipped
	}
	switch {
	case len(pg.Replays) > 0:
		d.Timeline = timelineCharts(pg.Replays, p.Scenario.SLOms)
		d.ReplayRows = replayRows(pg.Replays)
	case pg.NoReplay != "":
		d.NoReplay = pg.NoReplay
	default:
		d.NoReplay = "no replay was run"
	}
	var b bytes.Buffer
	if err := htmlTemplate.Execute(&b, d); err != nil {
		return fmt.Errorf("report.html: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// candidateRows lists the candidates as the chart numbers them.
func (p *Plan) candidateRows() []htmlCandidate {
	ps := p.Policy
	var out []htmlCandidate
	for i, c := range ps.Candidates {
		r := htmlCandidate{N: i + 1, Description: c.Description, Refused: pct(c.Refused), Late: pct(c.Late), Day: pct(c.RefusedDay),
			OperatingRPS: fmt.Sprintf("%.3g", c.OperatingRPS), T: fmt.Sprintf("%.0f + %.0f s", c.DetectS, c.HorizonS-c.DetectS),
			Fleet: fmt.Sprintf("%d–%d", c.MinInstances, c.PeakInstances), Cost: fmt.Sprintf("%.0f", c.InstanceHoursPerDay), Why: c.Why}
		if c.Unbounded {
			r.Fleet, r.Cost = "no fleet holds the peak", "–"
		}
		switch {
		case i == ps.Proposal:
			r.Class, r.Mark = "proposal", "proposed"
		case c.Kind == KindReference:
			r.Class, r.Mark = "reference", "arithmetic"
		case !c.Feasible:
			r.Class = "infeasible"
		}
		out = append(out, r)
	}
	return out
}

// replayRows summarizes the replays as `kokoro plan replay` prints them.
func replayRows(runs []Replay) []htmlReplayRow {
	var out []htmlReplayRow
	for i, r := range runs {
		s := r.Summary
		out = append(out, htmlReplayRow{Class: fmt.Sprintf("s%d", i%4), Policy: r.Policy, Requests: s.Requests,
			WithinSLO: fmt.Sprintf("%.2f %%", 100*s.ShareWithinSLO), Shed: fmt.Sprintf("%.2f %%", 100*s.ShedShare),
			P95: fmt.Sprintf("%.0f ms", s.TTFABP95Ms), MinutesOverSLO: s.MinutesOverSLO, MostInService: s.MaxInService,
			InstanceHours: fmt.Sprintf("%.1f", s.InstanceHours), ScaleOuts: s.ScaleOuts, ScaleIns: s.ScaleIns})
	}
	return out
}
