package main

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

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/scaleout"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/sagemaker"
)

func newPolicyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Apply a plan's autoscaling policy to an endpoint, audit it for drift, validate it live",
	}
	cmd.AddCommand(newPolicyApplyCmd(), newPolicyDriftCmd(), newPolicyValidateCmd())
	return cmd
}

// policyFlags locate the plan and the endpoint it is for.
type policyFlags struct {
	aws      awsFlags
	plan     string
	endpoint string
}

func (p *policyFlags) add(fl *pflag.FlagSet) {
	p.aws.add(fl, "")
	fl.StringVar(&p.plan, "plan", "", "plan.json, or the directory `kokoro plan --out` wrote")
	fl.StringVar(&p.endpoint, "endpoint", "", "endpoint the policy is for (default: the plan's)")
}

// load reads the plan's documents for the endpoint and connects to AWS.
func (p policyFlags) load(ctx context.Context) (*planner.Plan, planner.Documents, string, *sagemaker.Control, error) {
	if p.plan == "" {
		return nil, planner.Documents{}, "", nil, errors.New("pass --plan (plan.json or the directory `kokoro plan --out` wrote)")
	}
	path := p.plan
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
	docs, endpoint, err := sagemaker.ForEndpoint(plan.Documents, p.endpoint)
	if err != nil {
		return nil, planner.Documents{}, "", nil, fmt.Errorf("plan %s: %w", path, err)
	}
	c, err := p.aws.control(ctx)
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

func newPolicyApplyCmd() *cobra.Command {
	var f policyFlags
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "apply --plan DIR",
		Short: "Make the endpoint's autoscaling what the plan says (shows the differences first)",
		Long: `apply registers the scalable target, puts the target-tracking policy, the step scale-in policy
and its CloudWatch alarm (acting on that policy), and removes other policies on the variant. It
prints every difference first; with none it calls nothing. --dry-run prints the calls. A target
whose scaling is suspended (a bench run froze it) is refused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			_, docs, endpoint, c, err := f.load(ctx)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
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
				fmt.Fprintf(out, "applied; `kokoro policy drift --plan %s` now reports none\n", f.plan)
			}
			return err
		},
	}
	f.add(cmd.Flags())
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the differences and the calls; change nothing")
	return cmd
}

func newPolicyDriftCmd() *cobra.Command {
	var f policyFlags
	cmd := &cobra.Command{
		Use:   "drift --plan DIR",
		Short: "Audit the deployed autoscaling against the plan, field by field (read only; exit 1 on drift)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			_, docs, endpoint, c, err := f.load(ctx)
			if err != nil {
				return err
			}
			live, err := c.ReadScaling(ctx, docs)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			ch := sagemaker.Diff(docs, live)
			if len(ch) == 0 {
				fmt.Fprintf(out, "no drift: %s's scalable target, policies and alarm match the plan\n", endpoint)
				return nil
			}
			fmt.Fprintf(out, "DRIFT: %d difference(s) between %s and the plan:\n", len(ch), endpoint)
			writeChanges(out, ch)
			return &exitError{code: 1, err: fmt.Errorf("drift: %d difference(s); `kokoro policy apply --plan %s` repairs them", len(ch), f.plan)}
		},
	}
	f.add(cmd.Flags())
	return cmd
}

// probeFlags drive the validation probe.
type probeFlags struct {
	on              bool
	transport       string
	target          probeTarget
	concurrency     int
	duration, every time.Duration
	voice           string
}

func newPolicyValidateCmd() *cobra.Command {
	var f policyFlags
	var p probeFlags
	cmd := &cobra.Command{
		Use:   "validate --plan DIR [--probe --transport T --url U]",
		Short: "Check the deployed policy against the plan; with --probe, drive load past the scale-out target and watch it act",
		Long: `validate checks that the deployed policy matches the plan (no drift), that the endpoint is in
service inside the target's limits, that the container's MAX_QUEUE_DEPTH is the plan's, and that
the target-tracking policy's alarms exist. With --probe it holds a closed-loop load above the
scale-out target (C_scale_max per instance × 1.5 by default) for --probe-duration and reports
whether and when the scale-out alarm fired, the desired count rose and the new capacity came into
service. Exit status 1 when a check fails or the probe saw no scale-out.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPolicyValidate(cmd, f, p) },
	}
	fl := cmd.Flags()
	f.add(fl)
	fl.BoolVar(&p.on, "probe", false, "drive load across the scale-out threshold and watch the policy act")
	fl.StringVar(&p.transport, "transport", "", "probe transport (default: the plan's): "+transport.Help())
	addProbeTargetFlags(fl, &p.target)
	fl.IntVar(&p.concurrency, "probe-concurrency", 0, "requests kept in flight (default: 1.5 × C_scale_max × current instances)")
	fl.DurationVar(&p.duration, "probe-duration", 10*time.Minute, "how long the probe runs")
	fl.DurationVar(&p.every, "poll", 10*time.Second, "how often the alarms and the endpoint are read")
	fl.StringVar(&p.voice, "voice", "", "voice the probe requests")
	return cmd
}

func runPolicyValidate(cmd *cobra.Command, f policyFlags, p probeFlags) error {
	out, errw := lockedPair(cmd.OutOrStdout(), cmd.ErrOrStderr())
	ctx, stop := interruptContext(cmd.Context(), errw, func() string { return "" })
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
	if p.on {
		p.target.aws, p.target.endpoint, p.target.variant = f.aws, endpoint, variant
		tr := p.transport
		if tr == "" {
			tr = plan.Source.Transport
		}
		job := &scaleout.PolicyProbeJob{
			Scaling: policyWatch{c: c, live: live, docs: docs, endpoint: endpoint, variant: variant},
			OpenProbe: func(ctx context.Context, n int) (bench.Transport, func(), error) {
				return openProbe(ctx, tr, p.target, n)
			},
			Transport: tr, CScaleMax: plan.Thresholds.CScaleMax, Concurrency: p.concurrency,
			Duration: p.duration, Every: p.every, Voice: p.voice, Out: out,
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
		return &exitError{code: 1, err: fmt.Errorf("validate: %d check(s) failed", failed)}
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
