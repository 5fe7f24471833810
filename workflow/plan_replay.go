package workflow

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/replay"
	"github.com/kokoro-sm/kokoro/replay/plot"
	"github.com/kokoro-sm/kokoro/scaling"
)

// Trace says what traffic a replay sends: a trace file (Trace) or a built-in Shape (step, ramp,
// day or bursts) from From to To requests per second, with Poisson arrivals drawn from Seed.
type Trace struct {
	Trace    string
	Shape    string
	From, To float64
	At       time.Duration
	Length   time.Duration
	Over     time.Duration
	Every    time.Duration
	Burst    time.Duration
	Seed     uint64
}

// NewTrace returns the default traffic: a step after 10 minutes in a trace of 40, ramps over
// 10 minutes, bursts of 3 minutes every 15, seed 1; the rates are the caller's.
func NewTrace() Trace {
	return Trace{Shape: "step", At: 10 * time.Minute, Length: 40 * time.Minute, Over: 10 * time.Minute,
		Every: 15 * time.Minute, Burst: 3 * time.Minute, Seed: 1}
}

// PlanReplay is `kokoro plan replay`: the plan made as Plan makes it, then its policies
// simulated against the traffic, side by side.
type PlanReplay struct {
	Plan      Plan
	Traffic   Trace
	Routing   string
	Policies  []string
	Requests  bool
	Out       string
	TimeScale float64
}

// NewPlanReplay returns a PlanReplay with the command's defaults: the reference and the
// proposal replayed with random routing at AWS's own pace.
func NewPlanReplay() PlanReplay {
	return PlanReplay{Plan: NewPlan(), Traffic: NewTrace(), Routing: replay.RoutingRandom,
		Policies: []string{"reference", "proposal"}, TimeScale: 1}
}

// PlanReplayResult is replay.json: the trace, the service fit the simulation used and each
// policy's replay.
type PlanReplayResult struct {
	Trace    string         `json:"trace"`
	Requests int            `json:"requests"`
	Service  replay.Fit     `json:"service"`
	Replays  []replayResult `json:"replays"`
}

// Files plan replay writes.
const (
	FileReplaySummary  = "replay.json"
	FileReplayTimeline = "replay.png"
)

// arrivals builds the arrivals the flags ask for; from and to default to defFrom and defTo.
func (f Trace) arrivals(defFrom, defTo float64) ([]replay.Arrival, string, error) {
	if f.Trace != "" {
		fh, err := os.Open(f.Trace)
		if err != nil {
			return nil, "", fmt.Errorf("replay: %w", err)
		}
		defer fh.Close()
		arr, rate, err := replay.ReadCSV(bufio.NewReader(fh))
		if err != nil {
			return nil, "", fmt.Errorf("replay: %s: %w", f.Trace, err)
		}
		if arr == nil {
			last := rate.Points[len(rate.Points)-1].At
			if last <= 0 {
				last = f.Length
			}
			arr = rate.Poisson(last, f.Seed)
		}
		return arr, "trace " + filepath.Base(f.Trace), nil
	}
	from, to := f.From, f.To
	if from == 0 {
		from = defFrom
	}
	if to == 0 {
		to = defTo
		if f.From != 0 && defFrom > 0 {
			to = f.From * defTo / defFrom
		}
	}
	if !(from > 0) || !(to > 0) {
		return nil, "", errors.New("replay: give --trace, or --from and --to for a built-in shape")
	}
	var rate replay.Rate
	var desc string
	switch f.Shape {
	case "step":
		rate, desc = replay.Step(from, to/from, f.At), fmt.Sprintf("a step from %g to %g rps at %v", from, to, f.At)
	case "ramp":
		rate, desc = replay.Ramp(from, to, f.At, f.Over), fmt.Sprintf("a ramp from %g to %g rps from %v over %v", from, to, f.At, f.Over)
	case "day":
		rate, desc = replay.Day(from, to, f.Length), fmt.Sprintf("a day from %g to %g rps and back over %v", from, to, f.Length)
	case "bursts":
		rate, desc = replay.Bursts(from, to, f.Every, f.Burst, f.Length), fmt.Sprintf("%g rps with bursts to %g rps for %v every %v", from, to, f.Burst, f.Every)
	default:
		return nil, "", fmt.Errorf("replay: unknown shape %q (step, ramp, day or bursts)", f.Shape)
	}
	return rate.Poisson(f.Length, f.Seed), desc, nil
}

// provisionFrom is how long a new instance takes to serve: from desired_set to in_service as
// the ttotal artifact measured it, else its T_total, else the assumed T_total.
func provisionFrom(tt *artifact.TTotal, sc planner.Scenario) []time.Duration {
	if tt == nil {
		return []time.Duration{time.Duration(sc.AssumeTTotalS * float64(time.Second))}
	}
	ds, ok1 := tt.Stage(artifact.StageDesiredSet)
	is, ok2 := tt.Stage(artifact.StageInService)
	if ok1 && ok2 && is.At.After(ds.At) {
		return []time.Duration{is.At.Sub(ds.At)}
	}
	return []time.Duration{time.Duration(tt.MeasuredS * float64(time.Second))}
}

// replayResult is one policy's replay as replay.json holds it.
type replayResult struct {
	Policy     string             `json:"policy"`
	Summary    replay.Summary     `json:"summary"`
	Minutes    []replay.Minute    `json:"minutes"`
	Activities []scaling.Activity `json:"activities"`
}

// Run makes the plan, replays its policies and prints the table; with Out it writes replay.json
// and replay.png there.
func (f PlanReplay) Run(w io.Writer) error {
	p, in, err := f.Plan.make()
	if err != nil {
		return err
	}
	arrivals, desc, err := f.Traffic.arrivals(p.Scenario.TroughRPS, p.Scenario.TroughRPS*p.Scenario.Surge)
	if err != nil {
		return err
	}
	if !p.Policy.Searched() {
		return fmt.Errorf("plan replay: the plan searched no policy (%s)", p.Policy.Skipped)
	}
	if !(f.TimeScale > 0) {
		return fmt.Errorf("plan replay: --time-scale %v must be positive", f.TimeScale)
	}
	base := replayConfig(p, in.TTotal, f.Routing, f.Traffic.Seed, f.TimeScale, f.Requests)
	fmt.Fprintf(w, "replay of %s (%d requests), %s, MAX_QUEUE_DEPTH %d, SLO %g ms, new instances serve after %v\n",
		desc, len(arrivals), f.Routing, base.MaxQueueDepth, p.Scenario.SLOms, base.Provision[0].Round(time.Second))
	done, err := replayPolicies(p, base, f.Policies, arrivals)
	if err != nil {
		return err
	}
	var runs []plot.Run
	var results []replayResult
	for _, r := range done {
		if r.res == nil {
			fmt.Fprintln(w, "no proposal to replay: the plan found none")
			continue
		}
		runs = append(runs, plot.Run{Name: r.label, Result: r.res})
		results = append(results, replayResult{Policy: r.label, Summary: r.res.Summary, Minutes: r.res.Minutes, Activities: r.res.Activities})
		if f.Requests && f.Out != "" {
			if err := writeRequests(filepath.Join(f.Out, "requests-"+r.name+".jsonl"), r.res.Requests); err != nil {
				return err
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "policy\trequests\twithin SLO\tshed\tp95 TTFAB\tminutes over SLO\tinstances (max)\tinstance-hours")
	for _, r := range results {
		s := r.Summary
		fmt.Fprintf(tw, "%s\t%d\t%.2f %%\t%.2f %%\t%.0f ms\t%d\t%d\t%.1f\n", r.Policy, s.Requests, 100*s.ShareWithinSLO, 100*s.ShedShare,
			s.TTFABP95Ms, s.MinutesOverSLO, s.MaxInService, s.InstanceHours)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if f.Out == "" {
		return nil
	}
	if err := os.MkdirAll(f.Out, 0o755); err != nil {
		return fmt.Errorf("plan replay: %w", err)
	}
	data, err := json.MarshalIndent(PlanReplayResult{desc, len(arrivals), p.Policy.Service, results}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(f.Out, FileReplaySummary), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("plan replay: %w", err)
	}
	png, err := os.Create(filepath.Join(f.Out, FileReplayTimeline))
	if err != nil {
		return fmt.Errorf("plan replay: %w", err)
	}
	if err := plot.Timeline(runs, base.SLO, "replay: "+desc)(png); err != nil {
		png.Close()
		return err
	}
	if err := png.Close(); err != nil {
		return err
	}
	fmt.Fprintln(w, "wrote", filepath.Join(f.Out, FileReplaySummary), "and", filepath.Join(f.Out, FileReplayTimeline))
	return nil
}

// replayConfig is the simulation of plan p's endpoint variant: its fitted service behind
// MAX_QUEUE_DEPTH, the SLO, AWS's pace times timeScale and new instances serving after the
// provision time the ttotal artifact measured (provisionFrom), scaled alike; the documents
// are the caller's.
func replayConfig(p *planner.Plan, tt *artifact.TTotal, routing string, seed uint64, timeScale float64, keepRequests bool) replay.Config {
	model := scaling.DefaultModel()
	model.TimeScale = timeScale
	provision := provisionFrom(tt, p.Scenario)
	for i := range provision {
		provision[i] = time.Duration(float64(provision[i]) * timeScale)
	}
	return replay.Config{
		Service:       p.Policy.Service.Service,
		MaxQueueDepth: p.Thresholds.QueueMaxDepth,
		SLO:           time.Duration(p.Scenario.SLOms * float64(time.Millisecond)),
		Model:         model,
		Provision:     provision,
		Routing:       routing,
		Seed:          seed,
		KeepRequests:  keepRequests,
	}
}

// policyReplay is one named policy's replay; res is nil for a proposal the plan does not have.
type policyReplay struct {
	name, label string
	res         *replay.Result
}

// replayPolicies replays plan p's named policies (planPolicy) on the same arrivals, in order.
func replayPolicies(p *planner.Plan, base replay.Config, names []string, arrivals []replay.Arrival) ([]policyReplay, error) {
	var out []policyReplay
	for _, name := range names {
		d, err := planPolicy(p, name)
		if errors.Is(err, errNoProposal) {
			out = append(out, policyReplay{name: name})
			continue
		} else if err != nil {
			return nil, fmt.Errorf("plan replay: %w", err)
		}
		cfg := base
		cfg.Documents = d
		res, err := replay.Run(cfg, arrivals)
		if err != nil {
			return nil, fmt.Errorf("plan replay %s: %w", name, err)
		}
		out = append(out, policyReplay{name: name, label: name + ": " + policyLabel(d), res: res})
	}
	return out, nil
}

var errNoProposal = errors.New("the plan proposes no policy")

// planPolicy returns the documents of a plan's policy by name: reference, proposal, or the
// kind of one of its candidates.
func planPolicy(p *planner.Plan, name string) (scaling.Documents, error) {
	switch name {
	case "reference":
		return p.ReferenceDocuments, nil
	case "proposal":
		if p.Documents.ScalableTarget == nil {
			return scaling.Documents{}, errNoProposal
		}
		return p.Documents, nil
	}
	d, ok := p.CandidateDocuments(name)
	if !ok {
		return d, fmt.Errorf("no policy %q in the plan (reference, proposal, or a candidate kind: %s)", name, candidateKinds(p))
	}
	return d, nil
}

// candidateKinds lists the kinds of the plan's candidates with a bounded fleet.
func candidateKinds(p *planner.Plan) string {
	var k []string
	for _, c := range p.Policy.Candidates {
		if !c.Unbounded && c.Kind != planner.KindReference {
			k = append(k, c.Kind)
		}
	}
	return strings.Join(k, ", ")
}

// policyLabel names a policy by its scale-out.
func policyLabel(d scaling.Documents) string {
	st := d.ScalableTarget
	switch {
	case d.TargetTracking != nil:
		c := d.TargetTracking.TargetTrackingScalingPolicyConfiguration
		metric := strings.TrimPrefix(strings.TrimSuffix(c.PredefinedMetricSpecification.PredefinedMetricType, "HighResolution"), "SageMakerVariant")
		return fmt.Sprintf("target tracking %s %.4g, %d–%d", metric, c.TargetValue, st.MinCapacity, st.MaxCapacity)
	case d.StepScaleOut != nil:
		return fmt.Sprintf("step %s > %.4g, %d–%d", d.ScaleOutAlarm.MetricName, d.ScaleOutAlarm.Threshold, st.MinCapacity, st.MaxCapacity)
	}
	return fmt.Sprintf("fixed %d", st.MinCapacity)
}

func writeRequests(path string, reqs []replay.Request) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("plan replay: %w", err)
	}
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plan replay: %w", err)
	}
	bw := bufio.NewWriter(fh)
	enc := json.NewEncoder(bw)
	for _, r := range reqs {
		if err := enc.Encode(r); err != nil {
			fh.Close()
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}
