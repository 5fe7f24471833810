package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/planner"
)

// Plan is `kokoro plan`: a policy derived from a qmax artifact and a ttotal artifact (or an
// assumed T_total) for a scenario, reported and, with Out, written as policy documents.
type Plan struct {
	Qmax, TTotal, Out string
	Scenario          planner.Scenario
	// Compare are qmax artifacts of other instance types: each is planned for the same
	// scenario (with --assume-t-total, else the T_total of the main plan, marked assumed) and
	// the types are ranked by cost at Prices (a price table file; "" the shipped one).
	Compare []string
	Prices  string
}

// NewPlan returns a Plan with the planner's default scenario: its surge, policy lag,
// invocation ceiling, bound on the share refused and surge trials, a floor of one instance,
// seed 1.
func NewPlan() Plan {
	return Plan{Scenario: planner.Scenario{
		PolicyLagBoundS: planner.DefaultPolicyLagBoundS, Surge: planner.DefaultSurge, MinFloor: 1,
		CeilingS: planner.DefaultCeilingS, VariantName: planner.DefaultVariant, MaxRefused: planner.DefaultMaxRefused,
		Seed: 1, SurgeTrials: planner.DefaultSurgeTrials,
	}}
}

// make reads the artifacts the job names and makes the plan.
func (f Plan) make() (*planner.Plan, planner.Inputs, error) {
	in := planner.Inputs{QmaxPath: f.Qmax, TTotalPath: f.TTotal}
	var err error
	if in.Qmax, err = artifact.ReadQmax(f.Qmax); err != nil {
		return nil, in, err
	}
	if f.TTotal != "" {
		if in.TTotal, err = artifact.ReadTTotal(f.TTotal); err != nil {
			return nil, in, err
		}
	} else if f.Scenario.AssumeTTotalS <= 0 {
		return nil, in, errors.New("plan: give --ttotal FILE or --assume-t-total SECONDS")
	}
	sc := f.Scenario
	sc.Now = time.Now()
	p, err := planner.Make(in, sc)
	if err != nil {
		return nil, in, fmt.Errorf("plan: %w", err)
	}
	return p, in, nil
}

// Run makes the plan, prints its report and writes its files into Out, report.html with the
// replay page draws. A plan with a STOP finding is an ExitError of status 1.
func (f Plan) Run(w io.Writer) error {
	p, in, err := f.make()
	if err != nil {
		return err
	}
	var ranking *planner.Ranking
	if len(f.Compare) > 0 {
		r, err := f.rank(p, in.Qmax)
		if err != nil {
			return err
		}
		ranking = &r
		r.Write(w)
	}
	if err := p.WriteReport(w); err != nil {
		return err
	}
	if f.Out != "" {
		files, err := p.Files(page(p, in))
		if err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		if err := os.MkdirAll(f.Out, 0o755); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		if ranking != nil {
			b, err := json.MarshalIndent(ranking, "", "  ")
			if err != nil {
				return fmt.Errorf("plan: %w", err)
			}
			files[FileRanking] = append(b, '\n')
		}
		for _, name := range planner.FileNames(files) {
			path := filepath.Join(f.Out, name)
			if err := os.WriteFile(path, files[name], 0o644); err != nil {
				return fmt.Errorf("plan: %w", err)
			}
			fmt.Fprintln(w, "wrote", path)
		}
	}
	if p.Stops > 0 {
		return &ExitError{Code: 1, Err: fmt.Errorf("plan: %d STOP finding(s); the policy must not be deployed", p.Stops)}
	}
	return nil
}

// FileRanking is where plan --out writes the ranking of instance types (with --compare).
const FileRanking = "ranking.json"

// rank plans each compared artifact for the same scenario and ranks them with main.
func (f Plan) rank(main *planner.Plan, q *artifact.Qmax) (planner.Ranking, error) {
	prices := planner.DefaultPrices()
	if f.Prices != "" {
		var err error
		if prices, err = planner.ReadPrices(f.Prices); err != nil {
			return planner.Ranking{}, fmt.Errorf("plan: %w", err)
		}
	}
	plans := []planner.Typed{{Plan: main, Qmax: q}}
	for _, path := range f.Compare {
		cq, err := artifact.ReadQmax(path)
		if err != nil {
			return planner.Ranking{}, err
		}
		sc := f.Scenario
		sc.Now = main.GeneratedAt
		if sc.AssumeTTotalS <= 0 {
			sc.AssumeTTotalS = main.Thresholds.TTotalS
		}
		p, err := planner.Make(planner.Inputs{Qmax: cq, QmaxPath: path}, sc)
		if err != nil {
			return planner.Ranking{}, fmt.Errorf("plan %s: %w", path, err)
		}
		plans = append(plans, planner.Typed{Plan: p, Qmax: cq})
	}
	r, err := planner.Rank(plans, prices)
	if err != nil {
		return r, fmt.Errorf("plan: %w", err)
	}
	return r, nil
}

// page is what report.html draws beside the plan: the ladder it was made from and the replay
// `kokoro plan replay` runs by default (a step from the trough to surge × trough after 10 of
// 40 minutes, random routing, seed 1) of the reference and the proposal. A replay that cannot
// run leaves its reason on the page instead.
func page(p *planner.Plan, in planner.Inputs) planner.Page {
	pg := planner.Page{Ladder: in.Qmax}
	if !p.Policy.Searched() {
		pg.NoReplay = "the plan searched no policy (" + p.Policy.Skipped + ")"
		return pg
	}
	if !(p.Scenario.TroughRPS > 0) {
		pg.NoReplay = "no trough in requests a second (--trough-rps) to replay a step from"
		return pg
	}
	r := NewPlanReplay()
	arrivals, desc, err := r.Traffic.arrivals(p.Scenario.TroughRPS, p.Scenario.TroughRPS*p.Scenario.Surge)
	if err != nil {
		pg.NoReplay = err.Error()
		return pg
	}
	done, err := replayPolicies(p, replayConfig(p, in.TTotal, r.Routing, r.Traffic.Seed, r.TimeScale, false), r.Policies, arrivals)
	if err != nil {
		pg.NoReplay = err.Error()
		return pg
	}
	pg.Trace = fmt.Sprintf("The replay of %s (%d requests, %s routing, as `kokoro plan replay` runs by default)", desc, len(arrivals), r.Routing)
	for _, d := range done {
		if d.res != nil {
			pg.Replays = append(pg.Replays, planner.Replay{Policy: d.label, Summary: d.res.Summary, Minutes: d.res.Minutes})
		}
	}
	return pg
}
