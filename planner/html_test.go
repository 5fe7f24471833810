package planner

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/replay"
	"github.com/kokoro-sm/kokoro/scaling"
)

// htmlRef is the reference plan (trough 100 rps) with its page: the ladder and a replay of
// the reference policy and the proposal on a 1.25× step from the trough, made once for the
// HTML tests.
var htmlRef struct {
	once sync.Once
	plan *Plan
	page Page
	err  error
}

func refPlanPage(t *testing.T) (*Plan, Page) {
	t.Helper()
	htmlRef.once.Do(func() {
		in := refInputs(t)
		sc := refScenario()
		sc.TroughRPS, sc.SurgeTrials = 100, 100
		p, err := Make(in, sc)
		if err != nil {
			htmlRef.err = err
			return
		}
		htmlRef.plan = p
		htmlRef.page, htmlRef.err = replayPage(p, in)
	})
	if htmlRef.err != nil {
		t.Fatal(htmlRef.err)
	}
	return htmlRef.plan, htmlRef.page
}

// replayPage replays the plan's reference and proposal on 12 minutes of a 1.25× step from the
// trough after 4, as `kokoro plan` does over a longer trace.
func replayPage(p *Plan, in Inputs) (Page, error) {
	sc := p.Scenario
	arr := replay.Step(sc.TroughRPS, sc.Surge, 4*time.Minute).Poisson(12*time.Minute, 1)
	ds, _ := in.TTotal.Stage(artifact.StageDesiredSet)
	is, _ := in.TTotal.Stage(artifact.StageInService)
	pg := Page{Ladder: in.Qmax, Trace: "a 1.25× step from the trough"}
	for _, pol := range []struct {
		name string
		docs Documents
	}{{"reference", p.ReferenceDocuments}, {"proposal", p.Documents}} {
		res, err := replay.Run(replay.Config{Service: p.Policy.Service.Service, MaxQueueDepth: p.Thresholds.QueueMaxDepth,
			SLO: time.Duration(sc.SLOms * float64(time.Millisecond)), Model: scaling.DefaultModel(),
			Provision: []time.Duration{is.At.Sub(ds.At)}, Routing: replay.RoutingRandom, Seed: 1, Documents: pol.docs}, arr)
		if err != nil {
			return pg, fmt.Errorf("replay %s: %w", pol.name, err)
		}
		pg.Replays = append(pg.Replays, Replay{Policy: pol.name, Summary: res.Summary, Minutes: res.Minutes})
	}
	return pg, nil
}

func writeHTML(t *testing.T, p *Plan, pg Page) string {
	t.Helper()
	var b bytes.Buffer
	if err := p.WriteHTML(&b, pg); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// external matches whatever would make a page load something: an attribute naming a
// resource, a CSS url() or import, a script, frame, object or stylesheet link.
var external = regexp.MustCompile(`(?i)\s(src|href|srcset|action|poster|data|xlink:href|background)\s*=|url\(|@import|<(script|link|iframe|frame|object|embed|img|base)\b`)

// The page is one file: nothing in it loads anything else.
func TestHTMLIsOneFile(t *testing.T) {
	t.Parallel()
	p, pg := refPlanPage(t)
	page := writeHTML(t, p, pg)
	if m := external.FindAllString(page, -1); len(m) > 0 {
		t.Errorf("the page refers to other files: %q", m)
	}
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, "<style>") || strings.Count(page, "<svg ") != 7 {
		t.Errorf("want one HTML document with inline CSS and seven SVG charts (ladder, candidates, day, four timeline panels); %d charts", strings.Count(page, "<svg "))
	}
	// The check itself: it catches each kind of reference.
	for _, bad := range []string{`<img src="a.png">`, `<a href="report.txt">`, `<div style="background: url(x.png)">`, `<script>`, `<link rel="stylesheet" href="x.css">`} {
		if !external.MatchString(bad) {
			t.Errorf("the check misses %s", bad)
		}
	}
}

// count returns how many elements of the given tag have every one of the classes, in the
// chart with the given id.
func count(t *testing.T, page, id, tag string, classes ...string) int {
	t.Helper()
	start := strings.Index(page, `<svg id="`+id+`"`)
	if start < 0 {
		t.Fatalf("no chart %s", id)
	}
	svg := page[start:]
	svg = svg[:strings.Index(svg, "</svg>")]
	n := 0
	for _, m := range regexp.MustCompile(`<`+tag+` class="([^"]*)"`).FindAllStringSubmatch(svg, -1) {
		have := strings.Fields(m[1])
		all := true
		for _, c := range classes {
			all = all && strings.Contains(" "+strings.Join(have, " ")+" ", " "+c+" ")
		}
		if all {
			n++
		}
	}
	return n
}

// The charts hold the plan's numbers: the SLO and Q_max on the ladder with one mark per rung,
// one mark per candidate with the proposal and the reference among them, one line per replay
// in each timeline panel through every minute.
func TestHTMLChartsHoldThePlan(t *testing.T) {
	t.Parallel()
	p, pg := refPlanPage(t)
	page := writeHTML(t, p, pg)
	rungs := len(pg.Ladder.Steps)
	for _, want := range []string{
		`<line class="rule slo" data-value="3000"`, `<line class="rule qmax" data-value="50"`,
		`<line class="rule cscale" data-value="37.5"`, ">Q_max 50<", ">SLO 3000 ms (p95)<",
		`<line class="rule limit" data-value="0.001"`,
		"Policy: " + p.Policy.Candidates[p.Policy.Proposal].Description,
		fmt.Sprintf("MaxCapacity %d", p.Documents.ScalableTarget.MaxCapacity),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := count(t, page, "ladder", "circle", "p95"); n != rungs {
		t.Errorf("ladder: %d p95 marks, want one per rung (%d)", n, rungs)
	}
	if n := count(t, page, "ladder", "circle", "p50"); n != rungs {
		t.Errorf("ladder: %d p50 marks, want %d", n, rungs)
	}
	bounded := 0
	for _, c := range p.Policy.Candidates {
		if !c.Unbounded {
			bounded++
		}
	}
	if bounded < 3 {
		t.Fatalf("the reference plan has %d candidates with a fleet", bounded)
	}
	if n := count(t, page, "candidates", "circle", "candidate"); n != bounded {
		t.Errorf("candidates: %d marks, want %d", n, bounded)
	}
	if count(t, page, "candidates", "circle", "proposal") != 1 || count(t, page, "candidates", "circle", "reference") != 1 {
		t.Error("candidates: want the proposal and the reference marked once each")
	}
	if n := strings.Count(page, `<tr class="proposal">`); n != 1 {
		t.Errorf("candidates' table marks %d rows proposed", n)
	}
	for _, id := range []string{"timeline-in-service", "timeline-p95", "timeline-shed"} {
		if n := count(t, page, id, "polyline", "series"); n != len(pg.Replays) {
			t.Errorf("%s: %d lines, want one per replay (%d)", id, n, len(pg.Replays))
		}
	}
	for _, r := range pg.Replays {
		if want := fmt.Sprintf(`data-series="%s" data-points="%d"`, r.Policy, len(r.Minutes)); strings.Count(page, want) != 3 {
			t.Errorf("want three lines (in service, p95, shed) of %d minutes for %s", len(r.Minutes), r.Policy)
		}
	}
	// The day: the fleet in service and the fleet the load needs, every five minutes.
	day := p.Policy.Day
	if len(day.Timeline) != 24*12 {
		t.Fatalf("the day replay has %d samples, want one every 5 minutes", len(day.Timeline))
	}
	if n := count(t, page, "day", "polyline", "series"); n != 2 || strings.Count(page, fmt.Sprintf(`data-points="%d"`, len(day.Timeline))) != 2 {
		t.Errorf("day: %d lines, want two of %d points", n, len(day.Timeline))
	}
	most := 0
	for _, pt := range day.Timeline {
		most = max(most, pt.InService)
	}
	if most != day.MostInService {
		t.Errorf("the day's samples reach %d in service, its replay %d", most, day.MostInService)
	}
	ref, pro := pg.Replays[0].Summary, pg.Replays[1].Summary
	if ref.Shed == 0 || pro.Shed != 0 {
		t.Errorf("the replay should show the reference shedding and the proposal not: %+v %+v", ref, pro)
	}
}

// What the page cannot draw it says, and a text from the inputs is escaped, never markup.
func TestHTMLMissingPartsAndEscaping(t *testing.T) {
	t.Parallel()
	p0, _ := refPlanPage(t)
	p := *p0
	p.Source.Model = `<script>alert("x")</script>`
	page := writeHTML(t, &p, Page{NoReplay: "no trough load to replay a step from"})
	if strings.Contains(page, "<script") || !strings.Contains(page, "&lt;script&gt;") {
		t.Error("a model name was written as markup")
	}
	for _, want := range []string{"No ladder chart: the qmax artifact", "No replay timeline: no trough load to replay a step from"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Count(page, "<svg ") != 2 {
		t.Errorf("want the candidates and day charts alone; %d charts", strings.Count(page, "<svg "))
	}

	// A candidate with no fleet that holds the peak has no cost to draw: the table has it, the
	// chart names it.
	p.Policy.Candidates = slices.Clone(p.Policy.Candidates)
	p.Policy.Candidates[3].Unbounded = true
	page = writeHTML(t, &p, Page{})
	if n := count(t, page, "candidates", "circle", "candidate"); n != len(p.Policy.Candidates)-1 {
		t.Errorf("%d candidates drawn, want all but the unbounded one", n)
	}
	if !strings.Contains(page, "Not drawn, for no fleet holds the peak: 4.") || !strings.Contains(page, "no fleet holds the peak</td>") {
		t.Error("the unbounded candidate is neither named under the chart nor in the table")
	}
}
