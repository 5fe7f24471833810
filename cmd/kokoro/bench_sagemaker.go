package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

// sageMakerFlags select the endpoint the sagemaker-* transports measure.
type sageMakerFlags struct {
	endpoint, variant         string
	aws                       awsFlags
	runtime                   runtimeFlags
	instanceType, imageDigest string
	// freeze runs the ladder under the control plane: autoscaling suspended and one instance
	// pinned (restored on exit), capacity watched, CloudWatch's concurrency read per rung, and
	// the fingerprint read from the endpoint itself.
	freeze   bool
	stateDir string
}

func addSageMakerFlags(fl *pflag.FlagSet, f *sageMakerFlags) {
	fl.StringVar(&f.endpoint, "endpoint-name", "", "sagemaker-*: the endpoint to measure")
	fl.StringVar(&f.variant, "variant", "", "sagemaker-*: production variant every request targets (TargetVariant)")
	f.runtime.add(fl)
	f.aws.add(fl, "sagemaker-*: ")
	fl.BoolVar(&f.freeze, "freeze", true, "sagemaker-*: suspend autoscaling and pin one instance for the ladder (restored on exit, or by kokoro thaw), watch the capacity, read CloudWatch's concurrency per rung and the fingerprint from the endpoint; --freeze=false measures through the runtime API alone (kokoro emulate without a control plane)")
	fl.StringVar(&f.stateDir, "state-dir", "", "sagemaker-*: directory of the freeze's state file (default: KOKORO_STATE_DIR, $XDG_STATE_HOME/kokoro or ~/.local/state/kokoro)")
	fl.StringVar(&f.instanceType, "instance-type", "", "sagemaker-*: the endpoint's instance type for the artifact's fingerprint, when the endpoint is not read (--freeze=false)")
	fl.StringVar(&f.imageDigest, "image-digest", "", "sagemaker-*: the container image digest for the fingerprint (sha256:…), when the endpoint does not report one")
}

// runtimeFlag names the flag the runtime's address came from, for messages.
func (f sageMakerFlags) runtimeFlag() string {
	if f.runtime.url != "" {
		return "--runtime-endpoint-url"
	}
	return "--aws-endpoint-url"
}

func isSageMakerTransport(name string) bool { return strings.HasPrefix(name, "sagemaker-") }

// open loads the AWS configuration, builds the runtime clients and says what the artifact
// measured. Nothing here calls AWS: the preflight does, before the ladder.
func (f sageMakerFlags) open(ctx context.Context, name string, maxConns int) (*transport.SageMaker, artifact.Target, func(), error) {
	if f.endpoint == "" {
		return nil, artifact.Target{}, nil, fmt.Errorf("transport %s needs --endpoint-name", name)
	}
	cfg, err := awsconf.LoadConfig(ctx, awsconf.Options{Region: f.aws.region, Profile: f.aws.profile, Deadlines: f.aws.deadlines()})
	if err != nil {
		return nil, artifact.Target{}, nil, err
	}
	// Credentials are resolved now, as the control-plane commands do, so that a run without
	// any fails before the preflight with the same line.
	if err := awsconf.CheckCredentials(ctx, cfg); err != nil {
		return nil, artifact.Target{}, nil, err
	}
	o := smruntime.Options{
		Endpoint:     smruntime.Endpoint{Name: f.endpoint, Variant: f.variant, TargetContainer: f.runtime.container},
		EndpointURL:  f.runtimeAddress(),
		EndpointFlag: f.runtimeFlag(),
		MaxConns:     maxConns,
		Deadlines:    f.aws.deadlines(),
	}
	target := artifact.Target{
		Kind: artifact.TargetSageMaker, Endpoint: f.endpoint, Variant: f.variant, Region: cfg.Region,
		InstanceType: f.instanceType, ImageDigest: f.imageDigest, BaseURL: f.runtimeAddress(),
	}
	sm := &transport.SageMaker{PreflightTimeout: f.aws.deadlines().Preflight()}
	if u := f.runtimeAddress(); u != "" {
		sm.Where = u + " (" + f.runtimeFlag() + ")"
	}
	closeFn := func() {}
	switch name {
	case artifact.TransportSageMakerStream:
		c, err := smruntime.NewStreamClient(cfg, o)
		if err != nil {
			return nil, target, nil, err
		}
		sm.InvokeStream = c.InvokeStream
	case artifact.TransportSageMakerBidi:
		c, err := smruntime.NewBidiClient(cfg, o)
		if err != nil {
			return nil, target, nil, err
		}
		sm.OpenBidi = func(ctx context.Context) (transport.BidiSession, error) {
			s, err := c.Open(ctx)
			if err != nil {
				return nil, err
			}
			return s, nil
		}
		closeFn = c.CloseIdleConnections
	}
	return sm, target, closeFn, nil
}

// describe names the target for the dry run and the progress line.
func (f sageMakerFlags) describe() string {
	s := "SageMaker endpoint " + f.endpoint
	if f.variant != "" {
		s += " variant " + f.variant
	}
	if u := f.runtimeAddress(); u != "" {
		s += " at " + u
	}
	return s
}

// runtimeAddress is where the runtime calls go: --runtime-endpoint-url, else
// --aws-endpoint-url, else AWS ("").
func (f sageMakerFlags) runtimeAddress() string {
	if f.runtime.url != "" {
		return f.runtime.url
	}
	return f.aws.endpointURL
}

// controlPlane connects to the endpoint's control plane for a ladder: the hooks that freeze,
// pin and watch it, and the target as the endpoint describes itself (instance type, image
// digest, container environment), so that the fingerprint is the endpoint's own. A digest the
// endpoint does not report (an image named by tag, with no resolved digest) comes from
// --image-digest.
func (f sageMakerFlags) controlPlane(ctx context.Context, transportName, model string, log io.Writer) (bench.Hooks, artifact.Target, error) {
	c, err := f.aws.control(ctx)
	if err != nil {
		return bench.Hooks{}, artifact.Target{}, err
	}
	variant := f.variant
	if variant == "" {
		variant = sagemaker.DefaultVariant
	}
	target, err := c.EndpointTarget(ctx, f.endpoint, variant, transportName, model)
	if err != nil {
		return bench.Hooks{}, artifact.Target{}, err
	}
	if f.instanceType != "" && !strings.EqualFold(f.instanceType, target.InstanceType) {
		return bench.Hooks{}, artifact.Target{}, fmt.Errorf("--instance-type %s, but endpoint %s variant %s runs %s", f.instanceType, f.endpoint, variant, target.InstanceType)
	}
	if target.ImageDigest == "" {
		target.ImageDigest = f.imageDigest
	}
	target.BaseURL = f.runtimeAddress()
	hooks := endpointHooks(c, endpointHookOptions{Endpoint: f.endpoint, Variant: variant, StateDir: f.stateDir, Log: log})
	return hooks, target, nil
}

// probeTarget says where a probe load goes: the base URL for http and ws, the endpoint for the
// SageMaker transports.
type probeTarget struct {
	url               string
	aws               awsFlags
	endpoint, variant string
	runtime           runtimeFlags
}

// addProbeTargetFlags adds the flags a probe needs beyond the command's own: where the runtime
// API is and which container of a multi-container endpoint to reach.
func addProbeTargetFlags(fl *pflag.FlagSet, p *probeTarget) {
	fl.StringVar(&p.url, "url", "", "base URL for the http and ws transports")
	p.runtime.add(fl)
}

// openProbe builds the transport a probe load runs over, with maxConns connections. close
// releases the transport, then what the SageMaker clients hold.
func openProbe(ctx context.Context, name string, p probeTarget, maxConns int) (bench.Transport, func(), error) {
	o := transport.Options{BaseURL: p.url, MaxConns: maxConns}
	closeFn := func() {}
	if isSageMakerTransport(name) {
		f := sageMakerFlags{endpoint: p.endpoint, variant: p.variant, aws: p.aws, runtime: p.runtime}
		sm, _, c, err := f.open(ctx, name, maxConns)
		if err != nil {
			return nil, nil, err
		}
		o.SageMaker, closeFn = sm, c
	}
	tr, err := transport.New(name, o)
	if err != nil {
		closeFn()
		return nil, nil, err
	}
	return tr, func() { tr.Close(); closeFn() }, nil
}

// writeFreezePlan says, for a dry run, what the ladder would change on the endpoint and put
// back: the dry run reads nothing, so the recorded values are named, not shown.
func (f sageMakerFlags) writeFreezePlan(w io.Writer) {
	variant := f.variant
	if variant == "" {
		variant = sagemaker.DefaultVariant
	}
	rid := sagemaker.ResourceID(f.endpoint, variant)
	fmt.Fprintf(w, "around the ladder (--freeze), after recording the variant's scaling and count in %s:\n", sagemaker.StatePath(stateDir(f.stateDir), orDefault(f.aws.region, "REGION"), f.endpoint, variant))
	fmt.Fprintf(w, "would call application-autoscaling:RegisterScalableTarget %s: SuspendedState → scale-in,scale-out,scheduled (when a target is registered)\n", rid)
	fmt.Fprintf(w, "would call sagemaker:UpdateEndpointWeightsAndCapacities %s: variant %s DesiredInstanceCount → 1 (when it is not 1)\n", f.endpoint, variant)
	fmt.Fprintf(w, "and after it, on every exit: the same two calls putting the recorded count and scaling back (kokoro thaw --dry-run shows them for a run that was killed)\n")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
