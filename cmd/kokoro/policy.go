package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

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
	p.aws.add(fl)
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
		fired, err := validateProbe(ctx, out, c, plan, docs, live, endpoint, variant, p)
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

// validateProbe holds load above the scale-out target and reports when the alarm fired and
// capacity moved; it reports false when nothing scaled out.
func validateProbe(ctx context.Context, out io.Writer, c *sagemaker.Control, plan *planner.Plan, docs planner.Documents,
	live *sagemaker.LiveScaling, endpoint, variant string, p probeFlags) (bool, error) {
	if p.transport == "" {
		p.transport = plan.Source.Transport
	}
	info, err := c.Status(ctx, endpoint)
	if err != nil {
		return false, err
	}
	v, _ := info.Variant(variant)
	if p.concurrency == 0 {
		p.concurrency = int(math.Ceil(1.5 * plan.Thresholds.CScaleMax * float64(max(1, v.Current))))
	}
	alarms, err := c.ScaleOutAlarmNames(ctx, live, docs)
	if err != nil {
		return false, err
	}
	if len(alarms) == 0 {
		return false, errors.New("probe: the target-tracking policy has no alarm to watch: `kokoro policy apply` first")
	}
	tr, closeClients, err := openProbeTransport(ctx, p.transport, p.target, p.concurrency)
	if err != nil {
		return false, err
	}
	defer closeClients()
	defer tr.Close()
	fmt.Fprintf(out, "probe: %d in flight over %s for %v against a scale-out target of %.4g per instance (%d instance(s)); watching %s\n",
		p.concurrency, p.transport, p.duration, plan.Thresholds.CScaleMax, v.Current, strings.Join(alarms, ", "))

	pctx, cancel := context.WithTimeout(ctx, p.duration)
	defer cancel()
	probe := &scaleout.Probe{Transport: tr, Concurrency: p.concurrency, Voice: p.voice}
	start := time.Now().UTC()
	stopProbe := probe.Start(pctx)
	var (
		mu                        sync.Mutex
		alarmAt, desiredAt, curAt time.Time
		alarmName                 string
		peakDesired, peakCurrent  = v.Desired, v.Current
	)
	werr := c.WatchScaling(pctx, endpoint, variant, alarms, p.every, func(o sagemaker.ScalingObs) {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range o.Alarms {
			if a.State == "ALARM" && alarmAt.IsZero() {
				alarmAt, alarmName = o.At, a.Name
				fmt.Fprintf(out, "+%5.0f s  alarm %s: ALARM\n", o.At.Sub(start).Seconds(), a.Name)
			}
		}
		if o.Desired > peakDesired {
			peakDesired = o.Desired
			if desiredAt.IsZero() {
				desiredAt = o.At
				fmt.Fprintf(out, "+%5.0f s  desired count %d → %d\n", o.At.Sub(start).Seconds(), v.Desired, o.Desired)
			}
		}
		if o.Current > peakCurrent {
			peakCurrent = o.Current
			if curAt.IsZero() {
				curAt = o.At
				fmt.Fprintf(out, "+%5.0f s  in service: %d instance(s)\n", o.At.Sub(start).Seconds(), o.Current)
				cancel() // the policy acted: nothing more to learn
			}
		}
	})
	stopProbe()
	if werr != nil && pctx.Err() == nil {
		return false, werr
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	s := probe.Samples()
	var v95 []float64
	for _, x := range s {
		v95 = append(v95, float64(x.TTFAB)/float64(time.Millisecond))
	}
	if len(v95) > 0 {
		fmt.Fprintf(out, "probe: %d requests, p95 TTFAB %.0f ms\n", len(v95), scaleout.P95(v95))
	}
	mu.Lock()
	defer mu.Unlock()
	switch {
	case alarmAt.IsZero():
		fmt.Fprintf(out, "FAIL  scale-out               no alarm fired within %v of load above the target\n", p.duration)
		return false, nil
	case curAt.IsZero():
		fmt.Fprintf(out, "FAIL  scale-out               %s fired after %.0f s, but capacity did not come into service within %v\n", alarmName, alarmAt.Sub(start).Seconds(), p.duration)
		return false, nil
	}
	fmt.Fprintf(out, "OK    scale-out               alarm after %.0f s, desired count after %.0f s, new capacity in service after %.0f s\n",
		alarmAt.Sub(start).Seconds(), desiredAt.Sub(start).Seconds(), curAt.Sub(start).Seconds())
	return true, nil
}
