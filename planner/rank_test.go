package planner

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRankPricesTheSamePlanAtTwoRates: one ladder offered as two instance types, one at half
// the other's price, ranks the cheaper first at half the cost per million characters; the
// arithmetic behind that cost is the day's requests × characters per request.
func TestRankPricesTheSamePlanAtTwoRates(t *testing.T) {
	t.Parallel()
	in := refInputs(t)
	sc := refScenario()
	sc.SurgeTrials = 20
	p, err := Make(in, sc)
	if err != nil {
		t.Fatal(err)
	}
	if p.Policy.Proposal < 0 {
		t.Fatal("the reference plan has no proposal")
	}
	half := *p
	half.Source.InstanceType = "ml.half"
	prices := PriceTable{Date: "2026-12", Region: "test", Currency: "USD", PerHour: map[string]float64{p.Source.InstanceType: 1, "ml.half": 0.5}}
	r, err := Rank([]Typed{{Plan: p, Qmax: in.Qmax}, {Plan: &half, Qmax: in.Qmax}}, prices)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Choices) != 4 {
		t.Fatalf("%d choices, want the proposal and the reference of each type: %+v", len(r.Choices), r.Choices)
	}
	best := r.Choices[0]
	if best.InstanceType != "ml.half" || !best.Proposal || !best.Feasible {
		t.Fatalf("first choice %+v, want ml.half's proposal", best)
	}
	var full Choice
	for _, c := range r.Choices {
		if c.InstanceType == p.Source.InstanceType && c.Proposal {
			full = c
		}
	}
	if math.Abs(best.PerMillionChars*2-full.PerMillionChars) > 1e-9 || best.InstanceHours != p.Policy.Day.InstanceHours {
		t.Errorf("ml.half %v per million characters over %v instance-hours, the full price %v: want half, over the day replay's %v",
			best.PerMillionChars, best.InstanceHours, full.PerMillionChars, p.Policy.Day.InstanceHours)
	}
	// The day from 10 to 5000 rps along a raised cosine averages their mean.
	wantChars := (sc.TroughRPS + sc.PeakRPS) / 2 * 86400 * charsPerRequest(in.Qmax) / 1e6
	if got := full.CostPerDay / full.PerMillionChars; math.Abs(got-wantChars)/wantChars > 1e-3 {
		t.Errorf("%v million characters a day, want %v", got, wantChars)
	}
	var out strings.Builder
	r.Write(&out)
	if first, _, _ := strings.Cut(out.String(), "\n"); !strings.HasPrefix(first, "Cheapest: ml.half with "+best.Description) {
		t.Errorf("the ranking's first line %q does not name ml.half's proposal", first)
	}

	// The same type with two copies on each instance is another shape of it, named so.
	two := *in.Qmax
	two.Target.Copies = 2
	r, err = Rank([]Typed{{Plan: p, Qmax: in.Qmax}, {Plan: p, Qmax: &two}}, prices)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	r.Write(&out)
	if !strings.Contains(out.String(), p.Source.InstanceType+" ×2") || r.Choices[0].Copies+r.Choices[1].Copies != 2 {
		t.Errorf("copies not named in the ranking:\n%s", out.String())
	}

	delete(prices.PerHour, "ml.half")
	if _, err := Rank([]Typed{{Plan: &half, Qmax: in.Qmax}}, prices); err == nil || !strings.Contains(err.Error(), `"ml.half"`) {
		t.Errorf("a type with no price: %v, want an error naming it", err)
	}
}

func TestReadPricesRefusesWhatIsNotAPrice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"no date":  `{"on_demand_per_hour": {"ml.g5.xlarge": 1.2}}`,
		"negative": `{"date": "2026-12", "on_demand_per_hour": {"ml.g5.xlarge": -1}}`,
		"zero":     `{"date": "2026-12", "on_demand_per_hour": {"ml.g5.xlarge": 0}}`,
		"not json": `ml.g5.xlarge 1.2`,
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadPrices(path); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
	if d := DefaultPrices(); d.Date == "" || d.PerHour["ml.g5.xlarge"] <= 0 {
		t.Errorf("the shipped table %+v has no date or no price for the reference's ml.g5.xlarge", d)
	}
}
