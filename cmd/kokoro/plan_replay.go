package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/replay"
	"github.com/kokoro-sm/kokoro/replay/plot"
	"github.com/kokoro-sm/kokoro/scaling"
)

// traceFlags say what traffic a replay sends: a trace file or a built-in shape.
type traceFlags struct {
	trace    string
	shape    string
	from, to float64
	at       time.Duration
	length   time.Duration
	over     time.Duration
	every    time.Duration
	burst    time.Duration
	seed     uint64
}

// addTraceFlags declares them; from and to default to the caller's (0: the trough and surge ×
// it, for plan replay).
func addTraceFlags(fl *pflag.FlagSet, f *traceFlags) {
	fl.StringVar(&f.trace, "trace", "", "traffic trace CSV: at_s[,chars] (one request a row) or t_s,rps (a rate profile)")
	fl.StringVar(&f.shape, "shape", "step", "built-in traffic shape when there is no --trace: step, ramp, day or bursts")
	fl.Float64Var(&f.from, "from", 0, "base rate, requests per second")
	fl.Float64Var(&f.to, "to", 0, "surge or peak rate, requests per second")
	fl.DurationVar(&f.at, "at", 10*time.Minute, "when the step, ramp or first burst begins")
	fl.DurationVar(&f.length, "length", 40*time.Minute, "length of the trace (a day's period for --shape day)")
	fl.DurationVar(&f.over, "over", 10*time.Minute, "how long a ramp rises")
	fl.DurationVar(&f.every, "every", 15*time.Minute, "time between bursts")
	fl.DurationVar(&f.burst, "burst", 3*time.Minute, "how long a burst lasts")
	fl.Uint64Var(&f.seed, "replay-seed", 1, "seed of the traffic (Poisson arrivals) and of the simulation")
}

// replayFlags are the flags of `kokoro plan replay` beyond the plan's.
type replayFlags struct {
	plan      planFlags
	traffic   traceFlags
	routing   string
	policies  []string
	requests  bool
	out       string
	timeScale float64
}

// Replay output files.
const (
	fileReplaySummary  = "replay.json"
	fileReplayTimeline = "replay.png"
)

func newPlanReplayCmd() *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay --qmax FILE (--ttotal FILE | --assume-t-total S) --peak-rps N [--trace FILE | --shape SHAPE]",
		Short: "Replay the plan's policies against traffic in a simulation of the endpoint variant",
		Long: `Replay makes the plan as ` + "`kokoro plan`" + ` does, then simulates the endpoint variant, request by
request, under a traffic trace: each instance serves as the qmax artifact measured behind
MAX_QUEUE_DEPTH, CloudWatch and Application Auto Scaling act on the policy, and new
instances serve after the scale-out time the ttotal artifact measured (docs/replay.md).
The reference arithmetic's policy and the proposal run on the same trace, side by side.

Traffic: --trace FILE, a CSV of arrivals ("at_s[,chars]") or of rates ("t_s,rps"), or a
built-in --shape:
  step    --from rps until --at, then --to (default: surge × from)
  ramp    --from rps until --at, rising to --to over --over
  day     --from (trough) to --to (peak) and back over --length
  bursts  --from rps with bursts to --to lasting --burst every --every
By default: a step from the trough (--trough-rps) to surge × trough after 10 minutes.

Writes replay.json (the summary, per-minute figures and scaling activities of each policy)
and replay.png (the timeline) into --out, and with --requests every request (JSONL).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPlanReplay(cmd, f)
		},
	}
	addPlanFlags(cmd, &f.plan)
	fl := cmd.Flags()
	addTraceFlags(fl, &f.traffic)
	fl.StringVar(&f.routing, "routing", replay.RoutingRandom, "how requests reach instances: random (SageMaker's default) or least-outstanding")
	fl.StringSliceVar(&f.policies, "policies", []string{"reference", "proposal"}, "policies to replay: reference, proposal, or a candidate kind of the plan (target-tracking-invocations, step-concurrency, floor, ...)")
	fl.Float64Var(&f.timeScale, "time-scale", 1, "multiply AWS's periods and cooldowns and the scale-out time by this factor, as kokoro emulate --time-scale does (the trace is not scaled)")
	fl.BoolVar(&f.requests, "requests", false, "also write every request of each replay (JSONL)")
	fl.StringVar(&f.out, "out", "", "directory for replay.json and replay.png")
	return cmd
}

// arrivals builds the arrivals the flags ask for; from and to default to defFrom and defTo.
func (f traceFlags) arrivals(defFrom, defTo float64) ([]replay.Arrival, string, error) {
	if f.trace != "" {
		fh, err := os.Open(f.trace)
		if err != nil {
			return nil, "", fmt.Errorf("replay: %w", err)
		}
		defer fh.Close()
		arr, rate, err := replay.ReadCSV(bufio.NewReader(fh))
		if err != nil {
			return nil, "", fmt.Errorf("replay: %s: %w", f.trace, err)
		}
		if arr == nil {
			last := rate.Points[len(rate.Points)-1].At
			if last <= 0 {
				last = f.length
			}
			arr = rate.Poisson(last, f.seed)
		}
		return arr, "trace " + filepath.Base(f.trace), nil
	}
	from, to := f.from, f.to
	if from == 0 {
		from = defFrom
	}
	if to == 0 {
		to = defTo
		if f.from != 0 && defFrom > 0 {
			to = f.from * defTo / defFrom
		}
	}
	if !(from > 0) || !(to > 0) {
		return nil, "", errors.New("replay: give --trace, or --from and --to for a built-in shape")
	}
	var rate replay.Rate
	var desc string
	switch f.shape {
	case "step":
		rate, desc = replay.Step(from, to/from, f.at), fmt.Sprintf("a step from %g to %g rps at %v", from, to, f.at)
	case "ramp":
		rate, desc = replay.Ramp(from, to, f.at, f.over), fmt.Sprintf("a ramp from %g to %g rps from %v over %v", from, to, f.at, f.over)
	case "day":
		rate, desc = replay.Day(from, to, f.length), fmt.Sprintf("a day from %g to %g rps and back over %v", from, to, f.length)
	case "bursts":
		rate, desc = replay.Bursts(from, to, f.every, f.burst, f.length), fmt.Sprintf("%g rps with bursts to %g rps for %v every %v", from, to, f.burst, f.every)
	default:
		return nil, "", fmt.Errorf("replay: unknown shape %q (step, ramp, day or bursts)", f.shape)
	}
	return rate.Poisson(f.length, f.seed), desc, nil
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

func runPlanReplay(cmd *cobra.Command, f replayFlags) error {
	p, in, err := makePlan(f.plan)
	if err != nil {
		return err
	}
	arrivals, desc, err := f.traffic.arrivals(p.Scenario.TroughRPS, p.Scenario.TroughRPS*p.Scenario.Surge)
	if err != nil {
		return err
	}
	if !p.Policy.Searched() {
		return fmt.Errorf("plan replay: the plan searched no policy (%s)", p.Policy.Skipped)
	}
	if !(f.timeScale > 0) {
		return fmt.Errorf("plan replay: --time-scale %v must be positive", f.timeScale)
	}
	model := scaling.DefaultModel()
	model.TimeScale = f.timeScale
	provision := provisionFrom(in.TTotal, p.Scenario)
	for i := range provision {
		provision[i] = time.Duration(float64(provision[i]) * f.timeScale)
	}
	base := replay.Config{
		Service:       p.Policy.Service.Service,
		MaxQueueDepth: p.Thresholds.QueueMaxDepth,
		SLO:           time.Duration(p.Scenario.SLOms * float64(time.Millisecond)),
		Model:         model,
		Provision:     provision,
		Routing:       f.routing,
		Seed:          f.traffic.seed,
		KeepRequests:  f.requests,
	}
	var runs []plot.Run
	var results []replayResult
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "replay of %s (%d requests), %s, MAX_QUEUE_DEPTH %d, SLO %g ms, new instances serve after %v\n",
		desc, len(arrivals), f.routing, base.MaxQueueDepth, p.Scenario.SLOms, base.Provision[0].Round(time.Second))
	for _, name := range f.policies {
		cfg := base
		d, err := planPolicy(p, name)
		if errors.Is(err, errNoProposal) {
			fmt.Fprintln(w, "no proposal to replay: the plan found none")
			continue
		} else if err != nil {
			return fmt.Errorf("plan replay: %w", err)
		}
		cfg.Documents = d
		res, err := replay.Run(cfg, arrivals)
		if err != nil {
			return fmt.Errorf("plan replay %s: %w", name, err)
		}
		label := name + ": " + policyLabel(cfg.Documents)
		runs = append(runs, plot.Run{Name: label, Result: res})
		results = append(results, replayResult{Policy: label, Summary: res.Summary, Minutes: res.Minutes, Activities: res.Activities})
		if f.requests && f.out != "" {
			if err := writeRequests(filepath.Join(f.out, "requests-"+name+".jsonl"), res.Requests); err != nil {
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
	if f.out == "" {
		return nil
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return fmt.Errorf("plan replay: %w", err)
	}
	data, err := json.MarshalIndent(struct {
		Trace    string         `json:"trace"`
		Requests int            `json:"requests"`
		Service  replay.Fit     `json:"service"`
		Replays  []replayResult `json:"replays"`
	}{desc, len(arrivals), p.Policy.Service, results}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(f.out, fileReplaySummary), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("plan replay: %w", err)
	}
	png, err := os.Create(filepath.Join(f.out, fileReplayTimeline))
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
	fmt.Fprintln(w, "wrote", filepath.Join(f.out, fileReplaySummary), "and", filepath.Join(f.out, fileReplayTimeline))
	return nil
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
