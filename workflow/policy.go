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
	"github.com/kokoro-sm/kokoro/scaling"
)

// Policy is `kokoro policy`: a plan's autoscaling policy (Plan: plan.json or the directory
// `kokoro plan --out` wrote) and the endpoint it is for (default: the plan's), applied,
// audited for drift or validated live. A plan of several copies per instance scales the
// inference component (default: the one `kokoro endpoint deploy --plan` makes).
type Policy struct {
	AWS       AWS
	Plan      string
	Endpoint  string
	Component string
}

// readPlan reads plan.json, or the one in the directory `kokoro plan --out` wrote.
func readPlan(path string) (*planner.Plan, string, error) {
	if path == "" {
		return nil, "", errors.New("pass --plan (plan.json or the directory `kokoro plan --out` wrote)")
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, planner.FilePlan)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, path, fmt.Errorf("plan: %w", err)
	}
	var plan planner.Plan
	if err := json.Unmarshal(b, &plan); err != nil || plan.Kind != "plan" {
		return nil, path, fmt.Errorf("plan %s: not a kokoro plan.json (%v)", path, err)
	}
	return &plan, path, nil
}

// planComponent is the plan's inference component, or why it cannot be deployed.
func planComponent(plan *planner.Plan, path string) (*planner.Component, error) {
	c := plan.Component
	if c != nil && c.Skipped != "" {
		return nil, fmt.Errorf("plan %s: its ladder ran %d copies per instance, but it has no inference-component policy: %s", path, c.CopiesPerInstance, c.Skipped)
	}
	return c, nil
}

// componentDocuments are the plan's inference-component documents for the named component,
// with the plan's container environment.
func componentDocuments(plan *planner.Plan, name string) planner.Documents {
	c := plan.Component
	st, tt := *c.ScalableTarget, *c.TargetTracking
	st.ResourceID = strings.ReplaceAll(st.ResourceID, planner.ComponentNamePlaceholder, name)
	tt.ResourceID = strings.ReplaceAll(tt.ResourceID, planner.ComponentNamePlaceholder, name)
	tt.PolicyName = strings.ReplaceAll(tt.PolicyName, planner.ComponentNamePlaceholder, name)
	return planner.Documents{ScalableTarget: &st, TargetTracking: &tt, ContainerEnv: plan.Documents.ContainerEnv}
}

// load reads the plan's documents for the endpoint and connects to AWS.
func (p Policy) load(ctx context.Context) (*planner.Plan, planner.Documents, string, *sagemaker.Control, error) {
	plan, path, err := readPlan(p.Plan)
	if err != nil {
		return nil, planner.Documents{}, "", nil, err
	}
	docs, endpoint, err := sagemaker.ForEndpoint(plan.Documents, p.Endpoint)
	if err != nil {
		return nil, planner.Documents{}, "", nil, fmt.Errorf("plan %s: %w", path, err)
	}
	comp, err := planComponent(plan, path)
	if err != nil {
		return nil, planner.Documents{}, "", nil, err
	}
	if comp != nil {
		name := p.Component
		if name == "" {
			name = sagemaker.ComponentName(endpoint)
		}
		if err := sagemaker.ValidateName(name); err != nil {
			return nil, planner.Documents{}, "", nil, fmt.Errorf("--inference-component: %w", err)
		}
		docs = componentDocuments(plan, name)
	} else if p.Component != "" {
		return nil, planner.Documents{}, "", nil, fmt.Errorf("plan %s scales a variant (one copy per instance), not an inference component: drop --inference-component", path)
	}
	c, err := p.AWS.Control(ctx)
	if err != nil {
		return nil, planner.Documents{}, "", nil, err
	}
	return plan, docs, endpoint, c, nil
}

func variantOf(d planner.Documents) string {
	_, v, _ := strings.Cut(d.ScalableTarget.ResourceID, "/variant/")
	return v
}

// managedDrift compares the managed instance scaling of the endpoint's variant with the plan's,
// for a plan of an inference component; nothing for a plan of a variant.
func managedDrift(ctx context.Context, c *sagemaker.Control, plan *planner.Plan, endpoint string) ([]sagemaker.Change, error) {
	if plan.Component == nil || plan.Component.Skipped != "" {
		return nil, nil
	}
	variant := variantOf(plan.Documents)
	live, err := c.ManagedScalingOf(ctx, endpoint, variant)
	if err != nil {
		return nil, err
	}
	want := plan.Component.ManagedInstanceScaling
	res := "endpoint " + endpoint + " variant " + variant
	if live == nil {
		return []sagemaker.Change{{Resource: res, Field: "ManagedInstanceScaling", Live: "none", Plan: fmt.Sprintf("%s %d–%d", want.Status, want.MinInstanceCount, want.MaxInstanceCount)}}, nil
	}
	var ch []sagemaker.Change
	for _, d := range []struct {
		field      string
		live, plan any
	}{{"ManagedInstanceScaling.Status", live.Status, want.Status}, {"ManagedInstanceScaling.MinInstanceCount", live.Min, want.MinInstanceCount}, {"ManagedInstanceScaling.MaxInstanceCount", live.Max, want.MaxInstanceCount}} {
		if fmt.Sprint(d.live) != fmt.Sprint(d.plan) {
			ch = append(ch, sagemaker.Change{Resource: res, Field: d.field, Live: fmt.Sprint(d.live), Plan: fmt.Sprint(d.plan)})
		}
	}
	return ch, nil
}

func writeChanges(w io.Writer, ch []sagemaker.Change) {
	for _, c := range ch {
		fmt.Fprintf(w, "  %-48s %-24s deployed %-28s plan %s\n", c.Resource, c.Field, c.Live, c.Plan)
	}
}

// Apply makes the endpoint's autoscaling what the plan says, printing every difference first;
// with dryRun it prints the calls and changes nothing.
func (f Policy) Apply(ctx context.Context, out io.Writer, dryRun bool) error {
	plan, docs, endpoint, c, err := f.load(ctx)
	if err != nil {
		return err
	}
	managed, err := managedDrift(ctx, c, plan, endpoint)
	if err != nil {
		return err
	}
	if len(managed) > 0 {
		fmt.Fprintf(out, "the endpoint's instances are not scaled as the plan says (a policy cannot change that; `kokoro endpoint deploy --plan %s` does):\n", f.Plan)
		writeChanges(out, managed)
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
	plan, docs, endpoint, c, err := f.load(ctx)
	if err != nil {
		return err
	}
	live, err := c.ReadScaling(ctx, docs)
	if err != nil {
		return err
	}
	ch, err := managedDrift(ctx, c, plan, endpoint)
	if err != nil {
		return err
	}
	ch = append(ch, sagemaker.Diff(docs, live)...)
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
	variant := variantOf(plan.Documents)
	component, _ := strings.CutPrefix(docs.ScalableTarget.ResourceID, scaling.ComponentResourcePrefix)
	if component == docs.ScalableTarget.ResourceID {
		component = ""
	}
	checks, live, err := c.Validate(ctx, docs, endpoint, variant)
	if err == nil && component != "" {
		var managed []sagemaker.Change
		if managed, err = managedDrift(ctx, c, plan, endpoint); len(managed) > 0 {
			parts := make([]string, len(managed))
			for i, m := range managed {
				parts[i] = m.String()
			}
			checks = append(checks, sagemaker.Check{Name: "instance scaling", Verdict: sagemaker.CheckFail,
				Detail: strings.Join(parts, "; ") + " (`kokoro endpoint deploy --plan` repairs it)"})
		} else if err == nil {
			checks = append(checks, sagemaker.Check{Name: "instance scaling", Verdict: sagemaker.CheckOK, Detail: "managed instance scaling as planned"})
		}
	}
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
			Scaling: policyWatch{c: c, live: live, docs: docs, endpoint: endpoint, variant: variant, component: component},
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

// policyWatch is a policy probe's view of what the policy scales — one endpoint variant, or
// one inference component's copies — and its scale-out alarms.
type policyWatch struct {
	c                            *sagemaker.Control
	live                         *sagemaker.LiveScaling
	docs                         planner.Documents
	endpoint, variant, component string
}

func (w policyWatch) Counts(ctx context.Context) (int, int, error) {
	if w.component != "" {
		ci, err := w.c.DescribeComponent(ctx, w.component)
		if err != nil {
			return 0, 0, err
		}
		return ci.Desired, ci.Current, nil
	}
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
	return w.c.WatchScaling(ctx, w.endpoint, w.variant, w.component, alarms, every, func(o sagemaker.ScalingObs) {
		r := scaleout.Reading{At: o.At, Desired: o.Desired, Current: o.Current}
		for _, a := range o.Alarms {
			r.Alarms = append(r.Alarms, scaleout.AlarmReading{Name: a.Name, State: a.State})
		}
		on(r)
	})
}
