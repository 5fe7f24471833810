package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/scaleout"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/sagemaker"
)

// ttotalFlags are the flags of `kokoro bench ttotal`.
type ttotalFlags struct {
	aws                         awsFlags
	endpoint, variant           string
	qmax, transport, voice      string
	probe                       probeTarget
	out, modelName, stateDir    string
	concurrency                 int
	recoveredMs, policyLag      float64
	lead, poll, maxWait, hold   time.Duration
	recoverWindow, logWait      time.Duration
	dryRun, allowConfigMismatch bool
}

func newBenchTTotalCmd() *cobra.Command {
	var f ttotalFlags
	cmd := &cobra.Command{
		Use:   "ttotal --endpoint-name NAME --qmax FILE",
		Short: "Time a forced scale-out of a SageMaker endpoint, stage by stage: T_total",
		Long: `ttotal holds a probe load on the endpoint (the qmax artifact's transport, at its Q_max per
instance by default), freezes autoscaling, raises DesiredInstanceCount by one, and times the
stages: load_applied, desired_set (the clock starts), instance_logging (the new instance's first
log event), container_started and the container's stage markers, in_service (CurrentInstanceCount
rose), traffic_recovered (the probe's p95 TTFAB back under target for a whole window). The table
lays the stages end to end: every second from load_applied to traffic_recovered is in exactly one
interval, and the interval before desired_set is shown apart from T_total. The instance count and
the scaling are restored on every exit (a state file lets ` + "`kokoro thaw`" + ` finish after a kill).
Writes the ttotal artifact kokoro plan reads. It refuses a qmax artifact of another transport or
configuration unless --allow-config-mismatch.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBenchTTotal(cmd, f) },
	}
	fl := cmd.Flags()
	f.aws.add(fl, "")
	fl.StringVar(&f.endpoint, "endpoint-name", "", "SageMaker endpoint to scale out")
	fl.StringVar(&f.variant, "variant", sagemaker.DefaultVariant, "production variant")
	fl.StringVar(&f.qmax, "qmax", "", "qmax artifact of this endpoint's configuration: sizes the probe and its recovery target")
	fl.StringVar(&f.transport, "transport", "", "probe transport (default: the qmax artifact's): "+transport.Help())
	addProbeTargetFlags(fl, &f.probe)
	fl.StringVar(&f.voice, "voice", "", "voice the probe requests (default: the server's)")
	fl.IntVar(&f.concurrency, "probe-concurrency", 0, "probe requests kept in flight (default: Q_max × current instances)")
	fl.Float64Var(&f.recoveredMs, "recovered-ms", 0, "probe p95 TTFAB that counts as recovered (default: 1.25 × the qmax p95 at the per-instance load after the scale-out)")
	fl.Float64Var(&f.policyLag, "policy-lag", 60, "detection lag bound a real policy adds (alarm periods × evaluation + cooldown), seconds")
	fl.DurationVar(&f.lead, "lead", 30*time.Second, "probe time before the trigger")
	fl.DurationVar(&f.poll, "poll", 10*time.Second, "endpoint read interval: in_service's resolution")
	fl.DurationVar(&f.maxWait, "max-wait", 25*time.Minute, "longest wait for the new instance")
	fl.DurationVar(&f.hold, "hold", 0, "longest probe time after in_service while recovery is awaited (default: recover window + 2m)")
	fl.DurationVar(&f.recoverWindow, "recover-window", scaleout.DefaultRecoverWindow, "how long the probe's p95 must stay under target")
	fl.DurationVar(&f.logWait, "log-wait", 3*time.Minute, "how long CloudWatch Logs may lag the endpoint")
	fl.StringVar(&f.out, "out", ".", "directory for the artifact")
	fl.StringVar(&f.modelName, "model-name", "", "model name in the artifact's file name (default: the qmax artifact's)")
	fl.StringVar(&f.stateDir, "state-dir", "", "directory of freeze state files")
	fl.BoolVar(&f.dryRun, "dry-run", false, "print what would be done; call nothing")
	fl.BoolVar(&f.allowConfigMismatch, "allow-config-mismatch", false, "pair with a qmax artifact of another transport or configuration")
	_ = cmd.MarkFlagRequired("endpoint-name")
	_ = cmd.MarkFlagRequired("qmax")
	return cmd
}

func runBenchTTotal(cmd *cobra.Command, f ttotalFlags) error {
	q, err := artifact.ReadQmax(f.qmax)
	if err != nil {
		return err
	}
	if f.transport == "" {
		f.transport = q.Target.Transport
	}
	if err := transport.Check(f.transport); err != nil {
		return err
	}
	if f.transport != q.Target.Transport && !f.allowConfigMismatch {
		return fmt.Errorf("the qmax artifact was measured over %s, the probe would run over %s: its Q_max and latencies do not apply (pass --transport %s, or --allow-config-mismatch)", q.Target.Transport, f.transport, q.Target.Transport)
	}
	if f.modelName == "" {
		f.modelName = q.Target.Model
	}
	if err := sagemaker.ValidateName(f.endpoint); err != nil {
		return err
	}
	out, errw := lockedPair(cmd.OutOrStdout(), cmd.ErrOrStderr())
	if f.dryRun {
		fmt.Fprintf(out, "dry run: nothing is called\n")
		fmt.Fprintf(out, "1. probe %s over %s at %s in flight for %v (load_applied)\n", f.endpoint, f.transport, concurrencyText(f.concurrency, q.QMax), f.lead)
		fmt.Fprintf(out, "2. record and suspend %s's autoscaling (state file in %s)\n", sagemaker.ResourceID(f.endpoint, f.variant), stateDir(f.stateDir))
		fmt.Fprintf(out, "3. UpdateEndpointWeightsAndCapacities: DesiredInstanceCount + 1 (desired_set: the clock starts)\n")
		fmt.Fprintf(out, "4. DescribeEndpoint every %v until CurrentInstanceCount rises (in_service, at most %v)\n", f.poll, f.maxWait)
		fmt.Fprintf(out, "5. hold the probe until its p95 TTFAB stays under target for %v (traffic_recovered)\n", f.recoverWindow)
		fmt.Fprintf(out, "6. read the new instance's log stream in %s (instance_logging, stage markers)\n", sagemaker.LogGroup(f.endpoint))
		fmt.Fprintf(out, "7. restore the instance count and the autoscaling; write the ttotal artifact into %s\n", f.out)
		return nil
	}

	var stateFile string
	ctx, stop := interruptContext(cmd.Context(), errw, func() string { return stateFile })
	defer stop()
	c, err := f.aws.control(ctx)
	if err != nil {
		return err
	}
	c.Poll = f.poll
	info, err := c.RequireInService(ctx, f.endpoint, f.variant)
	if err != nil {
		return err
	}
	v, _ := info.Variant(f.variant)
	target, err := c.EndpointTarget(ctx, f.endpoint, f.variant, f.transport, f.modelName)
	if err != nil {
		return err
	}
	f.probe.aws, f.probe.endpoint, f.probe.variant = f.aws, f.endpoint, f.variant
	job := &scaleout.TTotalJob{
		Cloud: ttotalCloud{c: c, endpoint: f.endpoint, variant: f.variant},
		Freeze: func(ctx context.Context) (func(context.Context) error, error) {
			stateFile = sagemaker.StatePath(stateDir(f.stateDir), c.Region, f.endpoint, f.variant)
			frozen, err := c.Freeze(ctx, sagemaker.FreezeSpec{Endpoint: f.endpoint, Variant: f.variant, RestoreCount: true, StateFile: stateFile, Purpose: "bench ttotal"})
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) error {
				fmt.Fprintf(errw, "restoring %s/%s to %d instance(s) and its scaling as recorded\n", f.endpoint, f.variant, frozen.State.DesiredInstanceCount)
				return frozen.Thaw(ctx)
			}, nil
		},
		OpenProbe: func(ctx context.Context, n int) (bench.Transport, func(), error) {
			return openProbe(ctx, f.transport, f.probe, n)
		},
		Qmax: q, QmaxFile: filepath.Base(f.qmax), Target: target, AllowConfigMismatch: f.allowConfigMismatch,
		Current:  v.Current,
		Endpoint: f.endpoint, Variant: f.variant, Transport: f.transport,
		ProbeConcurrency: f.concurrency, RecoveredMs: f.recoveredMs, Voice: f.voice,
		PolicyLagBoundS: f.policyLag,
		Config: scaleout.Config{
			Lead: f.lead, Poll: f.poll, MaxWait: f.maxWait, Hold: f.hold,
			RecoverWindow: f.recoverWindow, LogWait: f.logWait,
		},
		Provenance: func() artifact.Provenance { return artifact.NewProvenance(time.Now(), version, os.Args) },
		OutDir:     f.out, Out: out, Log: errw,
	}
	path, err := job.Run(ctx)
	var interrupted *scaleout.InterruptedError
	if errors.As(err, &interrupted) {
		return &exitError{code: 130, err: err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "artifact %s\n", path)
	return nil
}

func concurrencyText(flag, qmax int) string {
	if flag > 0 {
		return fmt.Sprint(flag)
	}
	return fmt.Sprintf("Q_max (%d) × instances", qmax)
}

// ttotalCloud is the scale-out timer's view of one endpoint variant.
type ttotalCloud struct {
	c                 *sagemaker.Control
	endpoint, variant string
}

func (t ttotalCloud) Counts(ctx context.Context) (int, int, string, error) {
	info, err := t.c.Status(ctx, t.endpoint)
	if err != nil {
		return 0, 0, "", err
	}
	v, ok := info.Variant(t.variant)
	if !ok {
		return 0, 0, "", fmt.Errorf("endpoint %s has no variant %s", t.endpoint, t.variant)
	}
	return v.Desired, v.Current, info.Status, nil
}

func (t ttotalCloud) SetDesired(ctx context.Context, n int) error {
	return t.c.SetDesired(ctx, t.endpoint, t.variant, n)
}

func (t ttotalCloud) Streams(ctx context.Context) ([]scaleout.Stream, error) {
	s, err := t.c.LogStreams(ctx, t.endpoint, t.variant)
	if err != nil {
		return nil, err
	}
	out := make([]scaleout.Stream, len(s))
	for i, x := range s {
		out[i] = scaleout.Stream{Name: x.Name, Instance: x.Instance, FirstEvent: x.FirstEvent}
	}
	return out, nil
}

func (t ttotalCloud) Events(ctx context.Context, stream string) ([]scaleout.Event, error) {
	ev, err := t.c.LogEvents(ctx, t.endpoint, stream, 5000)
	if err != nil {
		return nil, err
	}
	out := make([]scaleout.Event, len(ev))
	for i, e := range ev {
		out[i] = scaleout.Event{At: e.At, Message: e.Message}
	}
	return out, nil
}
