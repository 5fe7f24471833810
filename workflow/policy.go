package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/scaleout"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/sagemaker"
)

// Policy is `kokoro policy`: a plan's autoscaling policy (Plan: plan.json or the directory
// `kokoro plan --out` wrote) and the endpoint it is for (default: the plan's), applied,
// audited for drift or validated live.
type Policy struct {
	AWS      AWS
	Plan     string
	Endpoint string
}

// load reads the plan's documents for the endpoint and connects to AWS.
func (p Policy) load(ctx context.Context) (*planner.Plan, planner.Documents, string, *sagemaker.Control, error) {
	if p.Plan == "" {
		return nil, planner.Documents{}, "", nil, errors.New("pass --plan (plan.json or the directory `kokoro plan --out` wrote)")
	}
	path := p.Plan
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, planner.FilePlan)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, planner.Documents{}, "", nil, fmt.Errorf("plan: %w", err)
	}
	var plan planner.Plan
	if err := json.Unmarshal(b, &plan); err != nil || plan.Kind != "plan" {
		return nil, planner.Documents{}, "", nil, fmt.Errorf("plan %s: not a kokoro plan.json (%v)", path, err)
	}
	docs, endpoint, err := sagemaker.ForEndpoint(plan.Documents, p.Endpoint)
	if err != nil {
		return nil, planner.Documents{}, "", nil, fmt.Errorf("plan %s: %w", path, err)
	}
	c, err := p.AWS.Control(ctx)
	if err != nil {
		return nil, planner.Documents{}, "", nil, err
	}
	return &plan, docs, endpoint, c, nil
}

func variantOf(d planner.Documents) string {
	_, v, _ := strings.Cut(d.ScalableTarget.ResourceID, "/variant/")
	return v
}

func writeChanges(w io.Writer, ch []sagemaker.Change) {
	for _, c := range ch {
		fmt.Fprintf(w, "  %-48s %-24s deployed %-28s plan %s\n", c.Resource, c.Field, c.Live, c.Plan)
	}
}

// Apply makes the endpoint's autoscaling what the plan says, printing every difference first;
// with dryRun it prints the calls and changes nothing.
func (f Policy) Apply(ctx context.Context, out io.Writer, dryRun bool) error {
	_, docs, endpoint, c, err := f.load(ctx)
	if err != nil {
		return err
	}
	changes, steps, err := c.Apply(ctx, docs, sagemaker.ApplyOptions{DryRun: dryRun})
	if len(changes) == 0 && err == nil {
		fmt.Fprintf(out, "%s already matches the plan: nothing to change\n", endpoint)
		return nil
	}
	fmt.Fprintf(out, "%d difference(s) from the plan on %s:\n", len(changes), endpoint)
	writeChanges(out, changes)
	for _, s := range steps {
		if dryRun {
			fmt.Fprintf(out, "would call %s\n", s.Call)
		} else {
			fmt.Fprintf(out, "%s: %s\n", s.Name, s.Call.Op)
		}
	}
	if err == nil && !dryRun {
		fmt.Fprintf(out, "applied; `kokoro policy drift --plan %s` now reports none\n", f.Plan)
	}
	return err
}

// Drift audits the deployed autoscaling against the plan, field by field; drift is an
// ExitError of status 1.
func (f Policy) Drift(ctx context.Context, out io.Writer) error {
	_, docs, endpoint, c, err := f.load(ctx)
	if err != nil {
		return err
	}
	live, err := c.ReadScaling(ctx, docs)
	if err != nil {
		return err
	}
	ch := sagemaker.Diff(docs, live)
	if len(ch) == 0 {
		fmt.Fprintf(out, "no drift: %s's scalable target, policies and alarm match the plan\n", endpoint)
		return nil
	}
	fmt.Fprintf(out, "DRIFT: %d difference(s) between %s and the plan:\n", len(ch), endpoint)
	writeChanges(out, ch)
	return &ExitError{Code: 1, Err: fmt.Errorf("drift: %d difference(s); `kokoro policy apply --plan %s` repairs them", len(ch), f.Plan)}
}

// PolicyProbe drives the validation probe: with On, a closed-loop load over Transport (default:
// the plan's) above the scale-out target for Duration, read every Every.
type PolicyProbe struct {
	On              bool
	Transport       string
	Target          ProbeTarget
	Concurrency     int
	Duration, Every time.Duration
	Voice           string
}

// NewPolicyProbe returns the probe's defaults, off: 10 minutes of load, read every 10 s.
func NewPolicyProbe() PolicyProbe {
	return PolicyProbe{Duration: 10 * time.Minute, Every: 10 * time.Second}
}

// Validate checks the deployed policy against the plan and, with the probe on, watches it act;
// a failed check or a probe that saw no scale-out is an ExitError of status 1.
func (f Policy) Validate(ctx context.Context, stdout, stderr io.Writer, p PolicyProbe) error {
	out, errw := lockedPair(stdout, stderr)
	ctx, stop := interruptContext(ctx, errw, func() string { return "" })
	defer stop()
	plan, docs, endpoint, c, err := f.load(ctx)
	if err != nil {
		return err
	}
	variant := variantOf(docs)
	checks, live, err := c.Validate(ctx, docs, endpoint, variant)
	failed := 0
	for _, ch := range checks {
		fmt.Fprintf(out, "%-5s %-24s %s\n", strings.ToUpper(ch.Verdict), ch.Name, ch.Detail)
		if ch.Verdict == sagemaker.CheckFail {
			failed++
		}
	}
	if err != nil {
		return err
	}
	if p.On {
		p.Target.AWS, p.Target.Endpoint, p.Target.Variant = f.AWS, endpoint, variant
		tr := p.Transport
		if tr == "" {
			tr = plan.Source.Transport
		}
		job := &scaleout.PolicyProbeJob{
			Scaling: policyWatch{c: c, live: live, docs: docs, endpoint: endpoint, variant: variant},
			OpenProbe: func(ctx context.Context, n int) (bench.Transport, func(), error) {
				return openProbe(ctx, tr, p.Target, n)
			},
			Transport: tr, CScaleMax: plan.Thresholds.CScaleMax, Concurrency: p.Concurrency,
			Duration: p.Duration, Every: p.Every, Voice: p.Voice, Out: out,
		}
		fired, err := job.Run(ctx)
		if err != nil {
			return err
		}
		if !fired {
			failed++
		}
	}
	if failed > 0 {
		return &ExitError{Code: 1, Err: fmt.Errorf("validate: %d check(s) failed", failed)}
	}
	return nil
}

// policyWatch is a policy probe's view of one endpoint variant and its scale-out alarms.
type policyWatch struct {
	c                 *sagemaker.Control
	live              *sagemaker.LiveScaling
	docs              planner.Documents
	endpoint, variant string
}

func (w policyWatch) Counts(ctx context.Context) (int, int, error) {
	info, err := w.c.Status(ctx, w.endpoint)
	if err != nil {
		return 0, 0, err
	}
	v, _ := info.Variant(w.variant)
	return v.Desired, v.Current, nil
}

func (w policyWatch) ScaleOutAlarms(ctx context.Context) ([]string, error) {
	return w.c.ScaleOutAlarmNames(ctx, w.live, w.docs)
}

func (w policyWatch) Watch(ctx context.Context, alarms []string, every time.Duration, on func(scaleout.Reading)) error {
	return w.c.WatchScaling(ctx, w.endpoint, w.variant, alarms, every, func(o sagemaker.ScalingObs) {
		r := scaleout.Reading{At: o.At, Desired: o.Desired, Current: o.Current}
		for _, a := range o.Alarms {
			r.Alarms = append(r.Alarms, scaleout.AlarmReading{Name: a.Name, State: a.State})
		}
		on(r)
	})
}
