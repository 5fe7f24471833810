package main

import (
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

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/emulate"
	"github.com/kokoro-sm/kokoro/planner"
	"github.com/kokoro-sm/kokoro/sagemaker/awsconf"
	"github.com/kokoro-sm/kokoro/sagemaker/smruntime"
	"github.com/kokoro-sm/kokoro/scaling"
	"github.com/kokoro-sm/kokoro/tts"
)

// emulateFlags are the flags of `kokoro emulate`.
type emulateFlags struct {
	listen, endpoint, variant, region string
	containers                        []string
	serve, maxQueueDepth              int
	invocationTimeout, sessionTimeout time.Duration
	cloudwatchURL                     string
	metricPeriod                      time.Duration
	throttle, streamFailure           float64
	engine                            tts.LoadConfig
	tls                               bool
	tlsDir                            string
	autoscale, autoscalePolicy        string
	timeScale                         float64
	provision                         time.Duration
}

func newEmulateCmd() *cobra.Command {
	var f emulateFlags
	cmd := &cobra.Command{
		Use:   "emulate",
		Short: "Run a local SageMaker runtime in front of containers, to try a container and the bench before paying for an endpoint",
		Long: `Serves the SageMaker runtime's wire protocol on one port: InvokeEndpoint and
InvokeEndpointWithResponseStream over HTTP/1.1, InvokeEndpointWithBidirectionalStream over
HTTP/2 cleartext (h2c). With --tls it serves HTTPS instead, HTTP/1.1 and HTTP/2 on the same
port by ALPN, with a certificate signed by a local authority it keeps in --tls-dir and prints
the path of: SDKs that speak HTTP/2 only over TLS (the official Python bidirectional-stream
SDK) reach it that way. Requests go to the containers given by --container (any server on the
SageMaker contract), or to --serve N servers this process starts with the real model (the model
flags --model, --slots, --threads, … apply).

Point any AWS SDK or kokoro bench at it with --aws-endpoint-url (or AWS_ENDPOINT_URL) and any
credentials: requests must be signed for --region and the service "sagemaker", but the secret
is not checked. See docs/emulator.md for what behaves like SageMaker and what does not.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runEmulate(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "127.0.0.1:8081", "address to serve the runtime API on")
	fl.StringVar(&f.endpoint, "endpoint-name", "kokoro-local", "name of the emulated endpoint")
	fl.StringVar(&f.variant, "variant", "AllTraffic", "name of its production variant")
	fl.StringVar(&f.region, "region", envOr("AWS_REGION", "us-east-1"), "region requests must be signed for")
	fl.StringSliceVar(&f.containers, "container", nil, "base URL of a container (an instance of the variant); repeat for more")
	fl.IntVar(&f.serve, "serve", 0, "start this many in-process servers with the real model as the instances")
	fl.IntVar(&f.maxQueueDepth, "max-queue-depth", 0, "with --serve: admission bound of each server; 0 = unbounded, or with --autoscale the plan's MAX_QUEUE_DEPTH")
	fl.DurationVar(&f.invocationTimeout, "invocation-timeout", emulate.DefaultInvocationTimeout, "limit on InvokeEndpoint and the response stream, as SageMaker's 60 s")
	fl.DurationVar(&f.sessionTimeout, "session-timeout", 0, "limit on a bidirectional session; 0 = none")
	fl.StringVar(&f.cloudwatchURL, "cloudwatch-url", "", "publish ConcurrentRequestsPerModel to this CloudWatch API (e.g. moto); empty: publish nothing")
	fl.DurationVar(&f.metricPeriod, "metric-period", smruntime.MetricPeriod, "period of the published metric")
	fl.Float64Var(&f.throttle, "fault-throttle", 0, "fraction of calls refused with ThrottlingException")
	fl.Float64Var(&f.streamFailure, "fault-stream-failure", 0, "fraction of streams ended by InternalStreamFailure after their first part")
	fl.BoolVar(&f.tls, "tls", false, "serve HTTPS (HTTP/1.1 and HTTP/2 by ALPN) with a certificate of a local authority, whose CA file is printed for clients")
	fl.StringVar(&f.autoscale, "autoscale", "", "with --serve: scale the variant with the policy of this plan (plan.json of kokoro plan --out), starting and stopping in-process servers")
	fl.StringVar(&f.autoscalePolicy, "autoscale-policy", "proposal", "the plan's policy to scale with: proposal, reference or a candidate kind (as plan replay --policies)")
	fl.Float64Var(&f.timeScale, "time-scale", 1, "with --autoscale: multiply AWS's periods, cooldowns and the scale-out time by this (0.1 plays ten minutes in one)")
	fl.DurationVar(&f.provision, "provision", 0, "with --autoscale: how long a new server takes to serve, before --time-scale (default: the plan's T_total)")
	fl.StringVar(&f.tlsDir, "tls-dir", "", "where --tls keeps its certificate authority (default: the state directory's emulate-tls, see kokoro thaw --help)")
	addEngineFlags(cmd, &f.engine)
	return cmd
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func runEmulate(cmd *cobra.Command, f emulateFlags) error {
	if (f.serve > 0) == (len(f.containers) > 0) {
		return errors.New("give the instances: --container URL (repeatable) or --serve N, one of the two")
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stderr := cmd.ErrOrStderr()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

	var autoscale *emulate.Autoscale
	if f.autoscale != "" {
		if f.serve == 0 {
			return errors.New("--autoscale starts servers of its own: give --serve N, not --container")
		}
		var err error
		if autoscale, err = emulateAutoscale(&f, stderr); err != nil {
			return err
		}
	}
	instances := f.containers
	digest := ""
	if f.serve > 0 {
		fmt.Fprintf(stderr, "starting %d server(s) with the real model (%s)…\n", f.serve, f.engine.Assets.Model)
		for range f.serve {
			u, stopServer, err := benchStartSelf(ctx, f.engine, f.maxQueueDepth)
			if err != nil {
				return err
			}
			defer func() {
				if err := stopServer(); err != nil {
					fmt.Fprintln(stderr, "kokoro: in-process server:", err)
				}
			}()
			instances = append(instances, u)
		}
		var err error
		if digest, err = emulatePseudoDigest(f.engine.Assets.Model, engineEnv(f.engine, f.maxQueueDepth)); err != nil {
			return err
		}
	}

	cfg := emulate.Config{
		EndpointName: f.endpoint, Region: f.region,
		Variants:          []emulate.Variant{{Name: f.variant, Instances: instances}},
		InvocationTimeout: f.invocationTimeout, SessionTimeout: f.sessionTimeout,
		Faults:       emulate.Faults{Throttle: f.throttle, StreamFailure: f.streamFailure},
		MetricPeriod: f.metricPeriod,
		Logger:       log,
	}
	if f.cloudwatchURL != "" {
		awsCfg, err := awsconf.LoadConfig(ctx, awsconf.Options{Region: f.region})
		if err != nil {
			return err
		}
		if err := awsconf.CheckCredentials(ctx, awsCfg); err != nil {
			return err
		}
		cfg.Metrics = smruntime.NewMetricPublisher(awsCfg, f.cloudwatchURL)
	}
	caPath := ""
	if f.tls {
		dir := f.tlsDir
		if dir == "" {
			dir = filepath.Join(stateDir(""), "emulate-tls")
		}
		host, _, _ := net.SplitHostPort(f.listen)
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
	em, err := emulate.New(cfg)
	if err != nil {
		return err
	}
	defer em.Close()
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	url := "http://" + ln.Addr().String()
	if f.tls {
		url = "https://" + ln.Addr().String()
	}
	emulateBanner(cmd.OutOrStdout(), f, url, len(instances), digest, caPath)
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
func emulatePseudoDigest(model string, env map[string]string) (string, error) {
	sum, err := benchFileSHA256(model)
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

func emulateBanner(w io.Writer, f emulateFlags, url string, instances int, digest, caPath string) {
	fmt.Fprintf(w, "SageMaker runtime emulator on %s: endpoint %s, variant %s (%d instance(s)), region %s\n",
		url, f.endpoint, f.variant, instances, f.region)
	ca := ""
	if caPath != "" {
		fmt.Fprintln(w, "  HTTPS: HTTP/1.1 and HTTP/2 by ALPN (h2, http/1.1) on this port, every operation on either")
		fmt.Fprintf(w, "  CA: %s (trust it: AWS_CA_BUNDLE for boto3, the AWS CLI, the Go SDK and kokoro; NODE_EXTRA_CA_CERTS for the JS SDK; docs/emulator.md for the Python HTTP/2 SDK)\n", caPath)
		ca = "AWS_CA_BUNDLE=" + caPath + " "
	} else {
		fmt.Fprintln(w, "  InvokeEndpoint, InvokeEndpointWithResponseStream: HTTP/1.1; InvokeEndpointWithBidirectionalStream: HTTP/2 cleartext (h2c); --tls for HTTPS")
	}
	fp := "--instance-type local-emulator"
	if digest != "" {
		fp += " --image-digest " + digest
	} else {
		fmt.Fprintln(w, "  image digest unknown (containers given by URL): pass --image-digest to the bench if you know it")
	}
	fmt.Fprintln(w, "measure it (any credentials; the emulator checks the signature's form, not its secret):")
	fmt.Fprintf(w, "  %sAWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local kokoro bench qmax --transport sagemaker-bidi \\\n    --endpoint-name %s --variant %s --region %s --aws-endpoint-url %s --freeze=false %s\n",
		ca, f.endpoint, f.variant, f.region, url, strings.TrimSpace(fp))
}

// emulateAutoscale reads the plan --autoscale names and scales with its policy, starting
// in-process servers with the real model as the emulator's instances. Without
// --max-queue-depth every server admits the plan's MAX_QUEUE_DEPTH, as the deployed
// container does with the plan's container environment.
func emulateAutoscale(f *emulateFlags, log io.Writer) (*emulate.Autoscale, error) {
	data, err := os.ReadFile(f.autoscale)
	if err != nil {
		return nil, fmt.Errorf("--autoscale: %w", err)
	}
	var p planner.Plan
	if err := json.Unmarshal(data, &p); err != nil || p.Kind != "plan" {
		return nil, fmt.Errorf("--autoscale: %s is not the plan.json of kokoro plan (%v)", f.autoscale, err)
	}
	docs, err := planPolicy(&p, f.autoscalePolicy)
	if err != nil {
		return nil, fmt.Errorf("--autoscale-policy %s: %w", f.autoscalePolicy, err)
	}
	if !(f.timeScale > 0) {
		return nil, fmt.Errorf("--time-scale %v must be positive", f.timeScale)
	}
	if f.maxQueueDepth == 0 {
		f.maxQueueDepth = p.Thresholds.QueueMaxDepth
		fmt.Fprintf(log, "autoscaling: each server admits at most MAX_QUEUE_DEPTH=%d requests (the plan's)\n", f.maxQueueDepth)
	}
	provision := f.provision
	if provision == 0 {
		provision = time.Duration(p.Thresholds.TTotalS * float64(time.Second))
	}
	model := scaling.DefaultModel()
	model.TimeScale = f.timeScale
	return &emulate.Autoscale{
		Variant: f.variant, Documents: docs, Model: model,
		Provision: time.Duration(float64(provision) * f.timeScale),
		Spawn: func(ctx context.Context) (string, func() error, error) {
			return benchStartSelf(ctx, f.engine, f.maxQueueDepth)
		},
		OnActivity: func(a scaling.Activity) {
			fmt.Fprintf(log, "autoscaling: %v %s: %d → %d (%s)\n", a.At.Round(time.Millisecond), a.Policy, a.From, a.To, a.Reason)
		},
	}, nil
}
