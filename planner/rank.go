package planner

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/replay"
)

// PriceTable is what an instance-hour costs, per instance type, on a date in a region.
type PriceTable struct {
	Date     string             `json:"date"`
	Region   string             `json:"region"`
	Currency string             `json:"currency"`
	Source   string             `json:"source"`
	PerHour  map[string]float64 `json:"on_demand_per_hour"`
}

//go:embed prices.json
var defaultPrices []byte

// DefaultPrices is the dated table shipped with kokoro (planner/prices.json).
func DefaultPrices() PriceTable {
	var t PriceTable
	if err := json.Unmarshal(defaultPrices, &t); err != nil {
		panic("planner/prices.json: " + err.Error())
	}
	return t
}

// ReadPrices reads a price table in the shipped table's format.
func ReadPrices(path string) (PriceTable, error) {
	var t PriceTable
	b, err := os.ReadFile(path)
	if err != nil {
		return t, err
	}
	if err := json.Unmarshal(b, &t); err != nil {
		return t, fmt.Errorf("%s: %w", path, err)
	}
	for k, v := range t.PerHour {
		if !(v > 0) || math.IsInf(v, 0) {
			return t, fmt.Errorf("%s: %s costs %v an hour: a price is a positive number", path, k, v)
		}
	}
	if t.Date == "" {
		return t, fmt.Errorf("%s: no date: a price table says when its prices held", path)
	}
	return t, nil
}

// Choice is one instance type with one of its plan's policies, priced.
type Choice struct {
	InstanceType string `json:"instance_type"`
	// Copies is how many copies of the model the ladder's instance served (bench qmax --copies);
	// 0 is one. Choices of one type with different copies compare copies per instance.
	Copies      int     `json:"copies,omitempty"`
	Policy      string  `json:"policy"` // the candidate's kind
	Description string  `json:"description"`
	Proposal    bool    `json:"proposal"` // the plan's proposal for the type
	Feasible    bool    `json:"feasible"`
	PerHour     float64 `json:"price_per_hour"`
	// InstanceHours is the day's instance-hours: the day replay's where the policy was
	// replayed, else the sizing's.
	InstanceHours float64 `json:"instance_hours_per_day"`
	CostPerDay    float64 `json:"cost_per_day"`
	// PerMillionChars is the day's cost over the characters its requests carry (at the
	// artifact's mean characters per request), in millions.
	PerMillionChars float64 `json:"cost_per_million_chars"`
	Refused         float64 `json:"refused_share_surge"`
	RefusedDay      float64 `json:"refused_share_day"`
	MinInstances    int     `json:"min_instances"`
	PeakInstances   int     `json:"peak_instances"`
	TTotalS         float64 `json:"t_total_s"`
	TTotalAssumed   bool    `json:"t_total_assumed"`
}

// Ranking is the choices of several instance types, cheapest per million characters first
// among those that hold the scenario's bound on refusals.
type Ranking struct {
	Prices  PriceTable `json:"prices"`
	Choices []Choice   `json:"choices"`
}

// Typed is a plan for one instance type, with the artifact it was made from.
type Typed struct {
	Plan *Plan
	Qmax *artifact.Qmax
}

// Rank prices each plan's proposal and reference at the table's rate for its instance type and
// orders them: feasible before infeasible, then by cost per million characters. A plan whose
// type has no price, or whose artifact has no characters, is an error naming it.
func Rank(plans []Typed, prices PriceTable) (Ranking, error) {
	r := Ranking{Prices: prices}
	for _, t := range plans {
		p := t.Plan
		typ := p.Source.InstanceType
		rate, ok := prices.PerHour[typ]
		if !ok {
			return r, fmt.Errorf("%w: the price table (%s, %s) has no price for %q: pass --prices with one", ErrScenario, prices.Date, prices.Region, typ)
		}
		chars := charsPerRequest(t.Qmax)
		if chars == 0 {
			return r, fmt.Errorf("%w: the qmax artifact of %s records no characters: its cost per character is unknown", ErrScenario, typ)
		}
		perDay := requestsPerDay(p.Scenario) * chars / 1e6
		for i, cd := range p.Policy.Candidates {
			if i != 0 && i != p.Policy.Proposal { // the reference is first
				continue
			}
			hours := cd.InstanceHoursPerDay
			if i == p.Policy.Proposal && p.Policy.Day != nil && p.Policy.Day.Skipped == "" {
				hours = p.Policy.Day.InstanceHours
			}
			c := Choice{InstanceType: typ, Copies: t.Qmax.Target.Copies, Policy: cd.Kind, Description: cd.Description, Proposal: i == p.Policy.Proposal,
				Feasible: cd.Feasible, PerHour: rate, InstanceHours: hours, CostPerDay: hours * rate,
				Refused: cd.Refused, RefusedDay: cd.RefusedDay, MinInstances: cd.MinInstances, PeakInstances: cd.PeakInstances,
				TTotalS: p.Thresholds.TTotalS, TTotalAssumed: p.Source.TTotalAssumed}
			if perDay > 0 {
				c.PerMillionChars = c.CostPerDay / perDay
			}
			r.Choices = append(r.Choices, c)
		}
	}
	slices.SortStableFunc(r.Choices, func(a, b Choice) int {
		if a.Feasible != b.Feasible {
			if a.Feasible {
				return -1
			}
			return 1
		}
		switch {
		case a.PerMillionChars < b.PerMillionChars:
			return -1
		case a.PerMillionChars > b.PerMillionChars:
			return 1
		}
		return 0
	})
	return r, nil
}

// charsPerRequest is the mean characters of the artifact's successful requests.
func charsPerRequest(q *artifact.Qmax) float64 {
	var chars, ok int
	for _, s := range q.Steps {
		chars += s.Chars
		ok += s.OK
	}
	if ok == 0 {
		return 0
	}
	return float64(chars) / float64(ok)
}

// requestsPerDay is the day's requests: the day-shaped load from trough to peak and back,
// summed a minute at a time.
func requestsPerDay(sc Scenario) float64 {
	day := replay.Day(sc.TroughRPS, sc.PeakRPS, 24*time.Hour)
	var n float64
	for m := range 24 * 60 {
		n += day.At(time.Duration(2*m+1)*30*time.Second) * 60
	}
	return n
}

// Write prints the ranking: the cheapest choice and why first, then every choice.
func (r Ranking) Write(w io.Writer) {
	if len(r.Choices) == 0 {
		return
	}
	best := r.Choices[0]
	if best.Feasible {
		fmt.Fprintf(w, "Cheapest: %s with %s: %s %.2f per million characters at the SLO, %.0f instance-hours a day (%s %.0f a day at %s %.3f an hour), %s of callers refused in the surge\n",
			best.shape(), best.Description, r.Prices.Currency, best.PerMillionChars, best.InstanceHours, r.Prices.Currency, best.CostPerDay,
			r.Prices.Currency, best.PerHour, pct(best.Refused))
		for _, c := range r.Choices[1:] {
			if c.Feasible && c.shape() != best.shape() {
				fmt.Fprintf(w, "  why: the next, %s with %s, costs %.2f× as much per million characters\n", c.shape(), c.Description, c.PerMillionChars/best.PerMillionChars)
				break
			}
		}
	} else {
		fmt.Fprintf(w, "No instance type has a policy that holds the bound on refusals; the least refused is listed first\n")
	}
	fmt.Fprintf(w, "Prices: %s, %s (%s)\n", r.Prices.Region, r.Prices.Date, r.Prices.Source)
	fmt.Fprintf(w, "  %-16s %-28s %8s %7s %10s %10s %10s %10s %8s\n", "instance type", "policy", "$/hour", "fleet", "inst-h/day", "$/day", "$/M chars", "refused", "T_total")
	for _, c := range r.Choices {
		t := fmt.Sprintf("%.0f s", c.TTotalS)
		if c.TTotalAssumed {
			t += "*"
		}
		ok := ""
		if !c.Feasible {
			ok = " (fails the bound)"
		}
		fmt.Fprintf(w, "  %-16s %-28s %8.3f %7s %10.0f %10.0f %10.2f %10s %8s%s\n", c.shape(), c.Policy, c.PerHour,
			fmt.Sprintf("%d–%d", c.MinInstances, c.PeakInstances), c.InstanceHours, c.CostPerDay, c.PerMillionChars, pct(c.Refused), t, ok)
	}
	fmt.Fprintf(w, "  (* T_total assumed, not measured on that type)\n\n")
}

// shape names the choice's instance: its type, and the copies of the model it serves when more
// than one.
func (c Choice) shape() string {
	if c.Copies > 1 {
		return fmt.Sprintf("%s ×%d", c.InstanceType, c.Copies)
	}
	return c.InstanceType
}
