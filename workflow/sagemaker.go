package workflow

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/sagemaker"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
)

// SageMaker selects the endpoint the sagemaker-* transports measure.
type SageMaker struct {
	Endpoint, Variant string
	AWS               AWS
	Runtime           Runtime
	// InstanceType and ImageDigest go into the fingerprint when the endpoint is not read
	// (Freeze false) or does not report a digest.
	InstanceType, ImageDigest string
	// Freeze runs the ladder under the control plane: autoscaling suspended and one instance
	// pinned (restored on exit), capacity watched, CloudWatch's concurrency read per rung, and
	// the fingerprint read from the endpoint itself.
	Freeze   bool
	StateDir string
}

// runtimeFlag names the flag the runtime's address came from, for messages.
func (f SageMaker) runtimeFlag() string {
	if f.Runtime.URL != "" {
		return "--runtime-endpoint-url"
	}
	return "--aws-endpoint-url"
}

func isSageMakerTransport(name string) bool { return strings.HasPrefix(name, "sagemaker-") }

// open loads the AWS configuration, builds the runtime clients and says what the artifact
// measured. Nothing here calls AWS: the preflight does, before the ladder.
func (f SageMaker) open(ctx context.Context, name string, maxConns int) (*transport.SageMaker, artifact.Target, func(), error) {
	if f.Endpoint == "" {
		return nil, artifact.Target{}, nil, fmt.Errorf("transport %s needs --endpoint-name", name)
	}
	cfg, err := awsconf.LoadConfig(ctx, awsconf.Options{Region: f.AWS.Region, Profile: f.AWS.Profile, Deadlines: f.AWS.Deadlines()})
	if err != nil {
		return nil, artifact.Target{}, nil, err
	}
	// Credentials are resolved now, as the control-plane commands do, so that a run without
	// any fails before the preflight with the same line.
	if err := awsconf.CheckCredentials(ctx, cfg); err != nil {
		return nil, artifact.Target{}, nil, err
	}
	o := smruntime.Options{
		Endpoint:     smruntime.Endpoint{Name: f.Endpoint, Variant: f.Variant, TargetContainer: f.Runtime.Container},
		EndpointURL:  f.runtimeAddress(),
		EndpointFlag: f.runtimeFlag(),
		MaxConns:     maxConns,
		Deadlines:    f.AWS.Deadlines(),
	}
	target := artifact.Target{
		Kind: artifact.TargetSageMaker, Endpoint: f.Endpoint, Variant: f.Variant, Region: cfg.Region,
		InstanceType: f.InstanceType, ImageDigest: f.ImageDigest, BaseURL: f.runtimeAddress(),
	}
	sm := &transport.SageMaker{PreflightTimeout: f.AWS.Deadlines().Preflight()}
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
func (f SageMaker) describe() string {
	s := "SageMaker endpoint " + f.Endpoint
	if f.Variant != "" {
		s += " variant " + f.Variant
	}
	if u := f.runtimeAddress(); u != "" {
		s += " at " + u
	}
	return s
}

// runtimeAddress is where the runtime calls go: --runtime-endpoint-url, else
// --aws-endpoint-url, else AWS ("").
func (f SageMaker) runtimeAddress() string {
	if f.Runtime.URL != "" {
		return f.Runtime.URL
	}
	return f.AWS.EndpointURL
}

// controlPlane connects to the endpoint's control plane for a ladder: the hooks that freeze,
// pin and watch it, and the target as the endpoint describes itself (instance type, image
// digest, container environment), so that the fingerprint is the endpoint's own. A digest the
// endpoint does not report (an image named by tag, with no resolved digest) comes from
// --image-digest.
func (f SageMaker) controlPlane(ctx context.Context, transportName, model string, log io.Writer) (bench.Hooks, artifact.Target, error) {
	c, err := f.AWS.Control(ctx)
	if err != nil {
		return bench.Hooks{}, artifact.Target{}, err
	}
	variant := f.Variant
	if variant == "" {
		variant = sagemaker.DefaultVariant
	}
	target, err := c.EndpointTarget(ctx, f.Endpoint, variant, transportName, model)
	if err != nil {
		return bench.Hooks{}, artifact.Target{}, err
	}
	if f.InstanceType != "" && !strings.EqualFold(f.InstanceType, target.InstanceType) {
		return bench.Hooks{}, artifact.Target{}, fmt.Errorf("--instance-type %s, but endpoint %s variant %s runs %s", f.InstanceType, f.Endpoint, variant, target.InstanceType)
	}
	if target.ImageDigest == "" {
		target.ImageDigest = f.ImageDigest
	}
	target.BaseURL = f.runtimeAddress()
	hooks := endpointHooks(c, endpointHookOptions{Endpoint: f.Endpoint, Variant: variant, StateDir: f.StateDir, Log: log})
	return hooks, target, nil
}

// ProbeTarget says where a probe load goes: the base URL for http and ws, the endpoint for the
// SageMaker transports. The job that runs the probe fills in the AWS settings and the endpoint.
type ProbeTarget struct {
	URL               string
	AWS               AWS
	Endpoint, Variant string
	Runtime           Runtime
}

// openTransport is the one place a transport's name and its target become the bench
// transport a load runs over: o's base URL for http, ws and openai, the endpoint sm names
// (with its SDK clients) for the SageMaker transports, whose artifact target it also returns.
// Nothing is called yet: the preflight does that. close releases the transport, then what the
// SDK clients hold.
func openTransport(ctx context.Context, name string, o transport.Options, sm SageMaker) (transport.Transport, artifact.Target, func(), error) {
	closeClients := func() {}
	var target artifact.Target
	if isSageMakerTransport(name) {
		var err error
		if o.SageMaker, target, closeClients, err = sm.open(ctx, name, o.MaxConns); err != nil {
			return nil, target, nil, err
		}
	}
	tr, err := transport.New(name, o)
	if err != nil {
		closeClients()
		return nil, target, nil, err
	}
	return tr, target, func() { tr.Close(); closeClients() }, nil
}

// openProbe builds the transport a probe load runs over, with maxConns connections.
func openProbe(ctx context.Context, name string, p ProbeTarget, maxConns int) (bench.Transport, func(), error) {
	sm := SageMaker{Endpoint: p.Endpoint, Variant: p.Variant, AWS: p.AWS, Runtime: p.Runtime}
	tr, _, closeFn, err := openTransport(ctx, name, transport.Options{BaseURL: p.URL, MaxConns: maxConns}, sm)
	return tr, closeFn, err
}

// writeFreezePlan says, for a dry run, what the ladder would change on the endpoint and put
// back: the dry run reads nothing, so the recorded values are named, not shown.
func (f SageMaker) writeFreezePlan(w io.Writer) {
	variant := f.Variant
	if variant == "" {
		variant = sagemaker.DefaultVariant
	}
	rid := sagemaker.ResourceID(f.Endpoint, variant)
	fmt.Fprintf(w, "around the ladder (--freeze), after recording the variant's scaling and count in %s:\n", sagemaker.StatePath(stateDir(f.StateDir), orDefault(f.AWS.Region, "REGION"), f.Endpoint, variant))
	fmt.Fprintf(w, "would call application-autoscaling:RegisterScalableTarget %s: SuspendedState → scale-in,scale-out,scheduled (when a target is registered)\n", rid)
	fmt.Fprintf(w, "would call sagemaker:UpdateEndpointWeightsAndCapacities %s: variant %s DesiredInstanceCount → 1 (when it is not 1)\n", f.Endpoint, variant)
	fmt.Fprintf(w, "and after it, on every exit: the same two calls putting the recorded count and scaling back (kokoro thaw --dry-run shows them for a run that was killed)\n")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
