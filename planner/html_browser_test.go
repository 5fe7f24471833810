package planner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// openFile loads a file in the browser and waits until it has loaded.
func openFile(t *testing.T, b *testenv.Browser, path string) {
	t.Helper()
	b.Call(t, "Page.navigate", map[string]any{"url": "file://" + path})
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var state, url string
		b.Eval(t, "document.readyState", &state)
		b.Eval(t, "location.href", &url)
		if state == "complete" && url == "file://"+path {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not load (%s, %s)", path, url, state)
		}
	}
}

// chartBox is what the browser laid out of one chart.
type chartBox struct {
	ID string  `json:"id"`
	W  float64 `json:"w"`
	H  float64 `json:"h"`
	// Outside counts marks and lines drawn beyond the chart's own box.
	Outside int `json:"outside"`
	// BadLines counts lines whose point count the browser parsed differs from the page's.
	BadLines int `json:"badLines"`
}

// The page as written by WriteHTML, in headless Chromium: it loads with no error and nothing
// besides itself, each chart is laid out with a size and holds its marks inside it, and the
// proposal lies left of the limit on the share refused (the reference right of it).
func TestHTMLInChromium(t *testing.T) {
	t.Parallel()
	p, pg := refPlanPage(t)
	dir := t.TempDir()
	path := filepath.Join(dir, FileHTML)
	if err := os.WriteFile(path, []byte(writeHTML(t, p, pg)), 0o644); err != nil {
		t.Fatal(err)
	}
	b := testenv.Chromium(t)
	for _, domain := range []string{"Page", "Runtime", "Log"} {
		b.Call(t, domain+".enable", nil)
	}
	openFile(t, b, path)
	if errs := b.Errors(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(errs, "\n"))
	}
	var resources int
	b.Eval(t, `performance.getEntriesByType("resource").length`, &resources)
	if resources != 0 {
		t.Errorf("the page loaded %d resources", resources)
	}

	var boxes []chartBox
	b.Eval(t, `Array.from(document.querySelectorAll("svg.chart")).map(svg => {
		const r = svg.getBoundingClientRect();
		let outside = 0, badLines = 0;
		for (const el of svg.querySelectorAll("circle, polyline")) {
			const e = el.getBoundingClientRect();
			if (e.left < r.left - 1 || e.right > r.right + 1 || e.top < r.top - 1 || e.bottom > r.bottom + 1) outside++;
		}
		for (const l of svg.querySelectorAll("polyline")) {
			if (l.points.numberOfItems !== Number(l.dataset.points) || l.getTotalLength() <= 0) badLines++;
		}
		return {id: svg.id, w: r.width, h: r.height, outside, badLines};
	})`, &boxes)
	want := []string{"ladder", "candidates", "day", "timeline-offered", "timeline-in-service", "timeline-p95", "timeline-shed"}
	if len(boxes) != len(want) {
		t.Fatalf("charts %+v, want %v", boxes, want)
	}
	for i, bx := range boxes {
		if bx.ID != want[i] || !(bx.W > 100 && bx.H > 50) || bx.Outside != 0 || bx.BadLines != 0 {
			t.Errorf("chart %d: %+v, want %s laid out with every mark inside and every line whole", i, bx, want[i])
		}
	}

	bounded := 0
	for _, c := range p.Policy.Candidates {
		if !c.Unbounded {
			bounded++
		}
	}
	counts := map[string]int{
		"#ladder circle.p95":                           len(pg.Ladder.Steps),
		"#ladder circle.p50":                           len(pg.Ladder.Steps),
		"#ladder line.slo":                             1,
		"#ladder line.qmax":                            1,
		"#candidates circle.candidate":                 bounded,
		"#candidates circle.proposal":                  1,
		"#candidates circle.reference":                 1,
		"#timeline-offered polyline":                   1,
		"#timeline-in-service polyline":                len(pg.Replays),
		"#timeline-p95 polyline":                       len(pg.Replays),
		"#timeline-shed polyline":                      len(pg.Replays),
		"table.candidates tr.proposal":                 1,
		"table.replays tr":                             1 + len(pg.Replays),
		"#timeline-p95 line.slo[data-value=\"3000\"]":  1,
		"#ladder line.qmax[data-value=\"50\"]":         1,
		"#candidates line.limit[data-value=\"0.001\"]": 1,
	}
	for sel, n := range counts {
		var got int
		b.Eval(t, `document.querySelectorAll(`+jsString(sel)+`).length`, &got)
		if got != n {
			t.Errorf("%s: %d elements, want %d", sel, got, n)
		}
	}
	var side struct{ Proposal, Reference, Limit float64 }
	b.Eval(t, `({proposal: document.querySelector("#candidates circle.proposal").getBoundingClientRect().x,
		reference: document.querySelector("#candidates circle.reference").getBoundingClientRect().x,
		limit: document.querySelector("#candidates line.limit").getBoundingClientRect().x})`, &side)
	if !(side.Proposal < side.Limit && side.Reference > side.Limit) {
		t.Errorf("the proposal (x %.0f) should lie left of the limit (x %.0f), the reference (x %.0f) right of it", side.Proposal, side.Limit, side.Reference)
	}

	// The check of errors is itself checked: a page that refers to a missing file is caught.
	broken := filepath.Join(dir, "broken.html")
	if err := os.WriteFile(broken, []byte(`<!DOCTYPE html><title>x</title><img src="missing.png">`), 0o644); err != nil {
		t.Fatal(err)
	}
	openFile(t, b, broken)
	for deadline := time.Now().Add(30 * time.Second); len(b.Errors()) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a page with a missing image reported no error: the check above cannot fail")
		}
		b.Eval(t, "1", nil) // reads the events that came meanwhile
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
