package workflow

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
	"github.com/kokoro-sm/kokoro/scaling"
	"github.com/kokoro-sm/kokoro/tts"
)

// Emulate is `kokoro emulate`: the SageMaker runtime's wire protocol served in front of
// containers (Containers) or in-process servers with the real model (Serve), optionally scaled
// by a plan's policy (Autoscale).
type Emulate struct {
	Listen, Endpoint, Variant, Region string
	Containers                        []string
	Serve, MaxQueueDepth              int
	InvocationTimeout, SessionTimeout time.Duration
	CloudWatchURL                     string
	MetricPeriod                      time.Duration
	Throttle, StreamFailure           float64
	Engine                            tts.LoadConfig
	TLS                               bool
	TLSDir                            string
	Autoscale, AutoscalePolicy        string
	TimeScale                         float64
	Provision                         time.Duration
	// ControlUpstream, when set, also serves the control-plane APIs on the same port:
	// inference components and their scaling here, every other call forwarded to this AWS
	// API (e.g. moto).
	ControlUpstream string
	// Version is this build's version, part of the servers' stand-in image digest.
	Version string
}

// NewEmulate returns an Emulate with the command's defaults: endpoint kokoro-local, variant
// AllTraffic, region us-east-1, served on 127.0.0.1:8081 with SageMaker's invocation limit
// and metric period, autoscaling (when asked for) with the plan's proposal at AWS's pace.
func NewEmulate() Emulate {
	return Emulate{
		Listen: "127.0.0.1:8081", Endpoint: "kokoro-local", Variant: "AllTraffic", Region: cmp.Or(os.Getenv("AWS_REGION"), "us-east-1"),
		InvocationTimeout: emulate.DefaultInvocationTimeout, MetricPeriod: smruntime.MetricPeriod,
		AutoscalePolicy: "proposal", TimeScale: 1,
	}
}

// Run serves until ctx ends or an interrupt arrives, which is how the emulator stops.
func (f Emulate) Run(ctx context.Context, stdout, stderr io.Writer) error {
	if (f.Serve > 0) == (len(f.Containers) > 0) {
		return errors.New("give the instances: --container URL (repeatable) or --serve N, one of the two")
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

	var autoscale *emulate.Autoscale
	if f.Autoscale != "" {
		if f.Serve == 0 {
			return errors.New("--autoscale starts servers of its own: give --serve N, not --container")
		}
		var err error
		if autoscale, err = emulateAutoscale(&f, stderr); err != nil {
			return err
		}
	}
	instances := f.Containers
	digest := ""
	if f.Serve > 0 {
		fmt.Fprintf(stderr, "starting %d server(s) with the real model (%s)…\n", f.Serve, f.Engine.Assets.Model)
		for range f.Serve {
			u, stopServer, err := serveSelf(ctx, f.Engine, f.MaxQueueDepth, stderr)
			if err != nil {
				return err
			}
			defer stopServer()
			instances = append(instances, u)
		}
		var err error
		if digest, err = emulatePseudoDigest(f.Engine.Assets.Model, f.Version, EngineEnv(f.Engine, f.MaxQueueDepth)); err != nil {
			return err
		}
	}

	cfg := emulate.Config{
		EndpointName: f.Endpoint, Region: f.Region,
		Variants:          []emulate.Variant{{Name: f.Variant, Instances: instances}},
		InvocationTimeout: f.InvocationTimeout, SessionTimeout: f.SessionTimeout,
		Faults:       emulate.Faults{Throttle: f.Throttle, StreamFailure: f.StreamFailure},
		MetricPeriod: f.MetricPeriod,
		Logger:       log,
	}
	if f.CloudWatchURL != "" {
		awsCfg, err := awsconf.LoadConfig(ctx, awsconf.Options{Region: f.Region})
		if err != nil {
			return err
		}
		if err := awsconf.CheckCredentials(ctx, awsCfg); err != nil {
			return err
		}
		cfg.Metrics = smruntime.NewMetricPublisher(awsCfg, f.CloudWatchURL)
	}
	caPath := ""
	if f.TLS {
		dir := f.TLSDir
		if dir == "" {
			dir = filepath.Join(stateDir(""), "emulate-tls")
		}
		host, _, _ := net.SplitHostPort(f.Listen)
		hosts := []string{host}
		if name, err := os.Hostname(); err == nil {
			hosts = append(hosts, name)
		}
		t, err := emulate.NewTLS(dir, hosts, time.Now())
		if err != nil {
			return err
		}
		cfg.TLS, caPath = t.Config, t.CAPath
	}
	cfg.Autoscale = autoscale
	if f.ControlUpstream != "" {
		cp, err := emulate.NewControlPlane(f.ControlUpstream, emulate.ControlPlaneOptions{Logger: log})
		if err != nil {
			return fmt.Errorf("--control-upstream: %w", err)
		}
		cfg.Control = cp
	}
	em, err := emulate.New(cfg)
	if err != nil {
		return err
	}
	defer em.Close()
	ln, err := net.Listen("tcp", f.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	url := "http://" + ln.Addr().String()
	if f.TLS {
		url = "https://" + ln.Addr().String()
	}
	emulateBanner(stdout, f, url, len(instances), digest, caPath)
	err = em.Serve(ctx, ln)
	if ctx.Err() != nil {
		return nil // Ctrl-C is how the emulator ends
	}
	return err
}

// emulatePseudoDigest stands in for the image digest SageMaker would report: no image runs
// here, so the servers are identified by what decides their speed: this build, the model file
// and the engine's settings (env, as engineEnv gives them). The artifact's slug then changes
// whenever any of them does, as it would with a new image or container environment.
func emulatePseudoDigest(model, version string, env map[string]string) (string, error) {
	sum, err := fileSHA256(model)
	if err != nil {
		return "", err
	}
	prov := artifact.NewProvenance(time.Now(), version, nil)
	build := prov.Build
	if build == "" {
		build = version
	}
	h := sha256.New()
	h.Write([]byte("kokoro emulate\x00" + build + "\x00" + sum))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		h.Write([]byte("\x00" + k + "=" + env[k]))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func emulateBanner(w io.Writer, f Emulate, url string, instances int, digest, caPath string) {
	fmt.Fprintf(w, "SageMaker runtime emulator on %s: endpoint %s, variant %s (%d instance(s)), region %s\n",
		url, f.Endpoint, f.Variant, instances, f.Region)
	ca := ""
	if caPath != "" {
		fmt.Fprintln(w, "  HTTPS: HTTP/1.1 and HTTP/2 by ALPN (h2, http/1.1) on this port, every operation on either")
		fmt.Fprintf(w, "  CA: %s (trust it: AWS_CA_BUNDLE for boto3, the AWS CLI, the Go SDK and kokoro; NODE_EXTRA_CA_CERTS for the JS SDK; docs/emulator.md for the Python HTTP/2 SDK)\n", caPath)
		ca = "AWS_CA_BUNDLE=" + caPath + " "
	} else {
		fmt.Fprintln(w, "  InvokeEndpoint, InvokeEndpointWithResponseStream: HTTP/1.1; InvokeEndpointWithBidirectionalStream: HTTP/2 cleartext (h2c); --tls for HTTPS")
	}
	if f.ControlUpstream != "" {
		fmt.Fprintf(w, "  control plane on the same port: inference components and their scaling here, every other call to %s\n", f.ControlUpstream)
	}
	fp := "--instance-type local-emulator"
	if digest != "" {
		fp += " --image-digest " + digest
	} else {
		fmt.Fprintln(w, "  image digest unknown (containers given by URL): pass --image-digest to the bench if you know it")
	}
	fmt.Fprintln(w, "measure it (any credentials; the emulator checks the signature's form, not its secret):")
	fmt.Fprintf(w, "  %sAWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local kokoro bench qmax --transport sagemaker-bidi \\\n    --endpoint-name %s --variant %s --region %s --aws-endpoint-url %s --freeze=false %s\n",
		ca, f.Endpoint, f.Variant, f.Region, url, strings.TrimSpace(fp))
}

// emulateAutoscale reads the plan --autoscale names and scales with its policy, starting
// in-process servers with the real model as the emulator's instances. Without
// --max-queue-depth every server admits the plan's MAX_QUEUE_DEPTH, as the deployed
// container does with the plan's container environment.
func emulateAutoscale(f *Emulate, log io.Writer) (*emulate.Autoscale, error) {
	data, err := os.ReadFile(f.Autoscale)
	if err != nil {
		return nil, fmt.Errorf("--autoscale: %w", err)
	}
	var p planner.Plan
	if err := json.Unmarshal(data, &p); err != nil || p.Kind != "plan" {
		return nil, fmt.Errorf("--autoscale: %s is not the plan.json of kokoro plan (%v)", f.Autoscale, err)
	}
	docs, err := planPolicy(&p, f.AutoscalePolicy)
	if err != nil {
		return nil, fmt.Errorf("--autoscale-policy %s: %w", f.AutoscalePolicy, err)
	}
	if !(f.TimeScale > 0) {
		return nil, fmt.Errorf("--time-scale %v must be positive", f.TimeScale)
	}
	if f.MaxQueueDepth == 0 {
		f.MaxQueueDepth = p.Thresholds.QueueMaxDepth
		fmt.Fprintf(log, "autoscaling: each server admits at most MAX_QUEUE_DEPTH=%d requests (the plan's)\n", f.MaxQueueDepth)
	}
	provision := f.Provision
	if provision == 0 {
		provision = time.Duration(p.Thresholds.TTotalS * float64(time.Second))
	}
	model := scaling.DefaultModel()
	model.TimeScale = f.TimeScale
	return &emulate.Autoscale{
		Variant: f.Variant, Documents: docs, Model: model,
		Provision: time.Duration(float64(provision) * f.TimeScale),
		Spawn: func(ctx context.Context) (string, func() error, error) {
			return startSelf(ctx, f.Engine, f.MaxQueueDepth)
		},
		OnActivity: func(a scaling.Activity) {
			fmt.Fprintf(log, "autoscaling: %v %s: %d → %d (%s)\n", a.At.Round(time.Millisecond), a.Policy, a.From, a.To, a.Reason)
		},
	}, nil
}
