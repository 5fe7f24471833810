package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/scaleout"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/sagemaker"
)

// TTotal is `kokoro bench ttotal`: a forced scale-out of a SageMaker endpoint under a probe
// load, timed stage by stage and written as a ttotal artifact.
type TTotal struct {
	AWS                         AWS
	Endpoint, Variant           string
	Qmax, Transport, Voice      string
	Probe                       ProbeTarget
	Out, ModelName, StateDir    string
	Concurrency                 int
	RecoveredMs, PolicyLag      float64
	Lead, Poll, MaxWait, Hold   time.Duration
	RecoverWindow, LogWait      time.Duration
	DryRun, AllowConfigMismatch bool
	// Version is this build's version, recorded in the artifact's provenance.
	Version string
}

// NewTTotal returns a TTotal with the command's defaults: the default variant, 30 s of probe
// before the trigger, the endpoint read every 10 s for at most 25 minutes, CloudWatch Logs
// given 3 minutes to catch up, a 60 s policy lag, the artifact written here.
func NewTTotal() TTotal {
	return TTotal{
		Variant: sagemaker.DefaultVariant, PolicyLag: 60, Lead: 30 * time.Second, Poll: 10 * time.Second,
		MaxWait: 25 * time.Minute, RecoverWindow: scaleout.DefaultRecoverWindow, LogWait: 3 * time.Minute, Out: ".",
	}
}

// Run times the scale-out, or with DryRun prints its steps. The endpoint's count and scaling
// are restored on every exit; an interrupt is an ExitError of status 130.
func (f TTotal) Run(ctx context.Context, stdout, stderr io.Writer) error {
	q, err := artifact.ReadQmax(f.Qmax)
	if err != nil {
		return err
	}
	if f.Transport == "" {
		f.Transport = q.Target.Transport
	}
	if err := transport.Check(f.Transport); err != nil {
		return err
	}
	if f.Transport != q.Target.Transport && !f.AllowConfigMismatch {
		return fmt.Errorf("the qmax artifact was measured over %s, the probe would run over %s: its Q_max and latencies do not apply (pass --transport %s, or --allow-config-mismatch)", q.Target.Transport, f.Transport, q.Target.Transport)
	}
	if f.ModelName == "" {
		f.ModelName = q.Target.Model
	}
	if err := sagemaker.ValidateName(f.Endpoint); err != nil {
		return err
	}
	out, errw := lockedPair(stdout, stderr)
	var (
		c         *sagemaker.Control
		stateFile string
	)
	f.Probe.AWS, f.Probe.Endpoint, f.Probe.Variant = f.AWS, f.Endpoint, f.Variant
	job := &scaleout.TTotalJob{
		Freeze: func(ctx context.Context) (func(context.Context) error, error) {
			stateFile = sagemaker.StatePath(stateDir(f.StateDir), c.Region, f.Endpoint, f.Variant)
			frozen, err := c.Freeze(ctx, sagemaker.FreezeSpec{Endpoint: f.Endpoint, Variant: f.Variant, RestoreCount: true, StateFile: stateFile, Purpose: "bench ttotal"})
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) error {
				fmt.Fprintf(errw, "restoring %s/%s to %d instance(s) and its scaling as recorded\n", f.Endpoint, f.Variant, frozen.State.DesiredInstanceCount)
				return frozen.Thaw(ctx)
			}, nil
		},
		FreezeSays: fmt.Sprintf(" (state file in %s); the new instance's log stream is read from %s", stateDir(f.StateDir), sagemaker.LogGroup(f.Endpoint)),
		OpenProbe: func(ctx context.Context, n int) (bench.Transport, func(), error) {
			return openProbe(ctx, f.Transport, f.Probe, n)
		},
		Qmax: q, QmaxFile: filepath.Base(f.Qmax), AllowConfigMismatch: f.AllowConfigMismatch,
		Endpoint: f.Endpoint, Variant: f.Variant, Transport: f.Transport,
		ProbeConcurrency: f.Concurrency, RecoveredMs: f.RecoveredMs, Voice: f.Voice,
		PolicyLagBoundS: f.PolicyLag,
		Config: scaleout.Config{
			Lead: f.Lead, Poll: f.Poll, MaxWait: f.MaxWait, Hold: f.Hold,
			RecoverWindow: f.RecoverWindow, LogWait: f.LogWait,
		},
		Provenance: func() artifact.Provenance { return artifact.NewProvenance(time.Now(), f.Version, os.Args) },
		OutDir:     f.Out, Out: out, Log: errw,
	}
	if f.DryRun {
		fmt.Fprintf(out, "dry run: nothing is called\n")
		job.Plan(out)
		return nil
	}

	ctx, stop := interruptContext(ctx, errw, func() string { return stateFile })
	defer stop()
	c, err = f.AWS.Control(ctx)
	if err != nil {
		return err
	}
	c.Poll = f.Poll
	info, err := c.RequireInService(ctx, f.Endpoint, f.Variant)
	if err != nil {
		return err
	}
	v, _ := info.Variant(f.Variant)
	job.Current = v.Current
	job.Target, err = c.EndpointTarget(ctx, f.Endpoint, f.Variant, f.Transport, f.ModelName)
	if err != nil {
		return err
	}
	job.Cloud = ttotalCloud{c: c, endpoint: f.Endpoint, variant: f.Variant}
	path, err := job.Run(ctx)
	var interrupted *scaleout.InterruptedError
	if errors.As(err, &interrupted) {
		return &ExitError{Code: 130, Err: err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "artifact %s\n", path)
	return nil
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
