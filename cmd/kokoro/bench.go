package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/plot"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/server"
	"github.com/kokoro-sm/kokoro/tts"
)

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure a server: the Q_max concurrency ladder",
	}
	cmd.AddCommand(newBenchQmaxCmd())
	cmd.AddCommand(newBenchTTotalCmd())
	cmd.AddCommand(newBenchReplayCmd())
	return cmd
}

// qmaxFlags are the flags of `kokoro bench qmax`.
type qmaxFlags struct {
	url, transport, texts, out string
	ladder                     []int
	hold, window, settle       time.Duration
	runs                       int
	sloMs                      float64
	seed                       uint64
	voice                      string
	speed                      float64
	dryRun, self, timestamp    bool
	wordTimestamps             bool
	serverMetrics              string
	requestTimeout             time.Duration
	modelName, serverBuild     string
	modelID                    string
	maxQueueDepth              int
	engine                     tts.LoadConfig
	sm                         sageMakerFlags
}

func newBenchQmaxCmd() *cobra.Command {
	var f qmaxFlags
	cmd := &cobra.Command{
		Use:   "qmax",
		Short: "Closed-loop concurrency ladder: find Q_max, the highest concurrency inside the TTFAB SLO",
		Long: `At rung N exactly N workers each keep one request outstanding for --hold; only the trailing
--measure-window is measured, then the server idles for --settle. Q_max is the highest usable
rung whose p95 time to first audio byte meets --slo-ms. Writes the artifact JSON, the raw
per-request JSONL and a PNG plot into --out. Ctrl-C stops the ladder and writes a partial artifact.

With --self the server runs in this process on a loopback port with the real model (the model
flags --model, --slots, --threads, … apply), the quick way to size a machine.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBenchQmax(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.url, "url", "http://127.0.0.1:8080", "base URL of the server to measure")
	fl.StringVar(&f.transport, "transport", artifact.TransportHTTP, "transport: "+transport.Help())
	fl.IntSliceVar(&f.ladder, "ladder", bench.DefaultLadder(), "concurrency of each rung, ascending")
	fl.DurationVar(&f.hold, "hold", bench.DefaultHold, "how long each rung runs")
	fl.DurationVar(&f.window, "measure-window", bench.DefaultMeasureWindow, "trailing part of the hold that is measured")
	fl.DurationVar(&f.settle, "settle", bench.DefaultSettle, "idle time after each rung")
	fl.IntVar(&f.runs, "runs", 1, "passes over the ladder; Q_max is the minimum, S_mean and S_p95 the maximum")
	fl.Float64Var(&f.sloMs, "slo-ms", float64(bench.DefaultSLO/time.Millisecond), "p95 TTFAB target in milliseconds")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the text shuffle")
	fl.StringVar(&f.texts, "texts", "", "file of utterances, one per line (default: a built-in pool, ~25 characters each)")
	fl.StringVar(&f.voice, "voice", "", "voice to request (default: the server's)")
	fl.Float64Var(&f.speed, "speed", 0, fmt.Sprintf("speed to request, %.1f–%.1f (default: the server's)", api.MinSpeed, api.MaxSpeed))
	fl.StringVar(&f.out, "out", ".", "directory for the artifact, raw results and plot")
	fl.StringVar(&f.serverMetrics, "server-metrics", "", "Prometheus endpoint whose kokoro_requests_in_flight gauge gives the server's view of concurrency per rung (default: <url>/metrics; off to disable)")
	fl.BoolVar(&f.timestamp, "send-timestamp", false, "http: send request_timestamp so the server's staleness check (408) applies")
	fl.BoolVar(&f.wordTimestamps, "word-timestamps", false, "http and ws: ask for each word's time with the audio (newline-delimited JSON events on http, an audio message before each frame on ws), to measure what they cost")
	fl.DurationVar(&f.requestTimeout, "request-timeout", 65*time.Second, "longest a single request may take before it counts as a transport error")
	fl.BoolVar(&f.dryRun, "dry-run", false, "print the schedule and the wall-clock estimate; touch no network")
	fl.BoolVar(&f.self, "self", false, "start the server in-process on a loopback port and measure it")
	q := lookupSetting("max-queue-depth")
	fl.IntVar(&f.maxQueueDepth, q.Flag, envInt(q.Env, q.Default.(int)), "with --self: admission bound of the server; 0 = unbounded (env "+q.Env+")")
	fl.StringVar(&f.modelName, "model-name", "kokoro-82m", "model name in the artifact's file name")
	fl.StringVar(&f.serverBuild, "server-build", "", "build of the measured server, part of the fingerprint (--self: this build)")
	fl.StringVar(&f.modelID, "model-id", "", "identity of the served model file, part of the fingerprint (--self: its SHA-256)")
	addEngineFlags(cmd, &f.engine)
	addSageMakerFlags(fl, &f.sm)
	return cmd
}

func (f qmaxFlags) config() (bench.Config, error) {
	c := bench.Config{
		Ladder: f.ladder, Hold: f.hold, MeasureWindow: f.window, Settle: f.settle, Runs: f.runs,
		SLO: time.Duration(f.sloMs * float64(time.Millisecond)), Seed: f.seed, Voice: f.voice, Speed: f.speed,
		RequestTimeout: f.requestTimeout,
	}
	if f.texts != "" {
		fh, err := os.Open(f.texts)
		if err != nil {
			return c, fmt.Errorf("texts: %w", err)
		}
		defer fh.Close()
		if c.Texts, err = bench.LoadTexts(fh); err != nil {
			return c, fmt.Errorf("texts %s: %w", f.texts, err)
		}
	}
	if f.runs < 1 {
		return c, fmt.Errorf("runs %d must be at least 1", f.runs)
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, nil
}

func runBenchQmax(cmd *cobra.Command, f qmaxFlags) error {
	cfg, err := f.config()
	if err != nil {
		return err
	}
	if err := transport.Check(f.transport); err != nil {
		return err
	}
	if f.self && isSageMakerTransport(f.transport) {
		return fmt.Errorf("--self serves http and ws; put `kokoro emulate --serve 1` in front of the model to measure %s locally", f.transport)
	}
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if f.dryRun {
		target := f.url
		if f.self {
			target = "in-process server (--self, model " + f.engine.Assets.Model + ")"
		} else if isSageMakerTransport(f.transport) {
			target = f.sm.describe()
		}
		if err := bench.DryRun(cfg, target, f.transport)(stdout); err != nil {
			return err
		}
		if isSageMakerTransport(f.transport) && f.sm.freeze {
			f.sm.writeFreezePlan(stdout)
		}
		return nil
	}

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	target := artifact.Target{Kind: artifact.TargetLocal, Model: f.modelName, Build: f.serverBuild, ModelID: f.modelID}
	prov := artifact.NewProvenance(time.Now(), version, os.Args)
	baseURL := f.url
	if f.self {
		fmt.Fprintf(stderr, "starting the server in-process (model %s, %d slot(s))…\n", f.engine.Assets.Model, f.engine.Slots)
		u, stopServer, err := benchStartSelf(ctx, f.engine, f.maxQueueDepth)
		if err != nil {
			return err
		}
		defer func() {
			if err := stopServer(); err != nil {
				fmt.Fprintln(stderr, "kokoro: in-process server:", err)
			}
		}()
		baseURL = u
		target.ContainerEnv = engineEnv(f.engine, f.maxQueueDepth)
		target.Build = prov.Build
		if target.Build == "" {
			target.Build = version
		}
		if target.ModelID == "" {
			if target.ModelID, err = benchFileSHA256(f.engine.Assets.Model); err != nil {
				return err
			}
		}
	}
	target.BaseURL = baseURL
	target.Host = benchTargetHost(baseURL)

	var hooks bench.Hooks
	topts := transport.Options{BaseURL: baseURL, MaxConns: cfg.Ladder[len(cfg.Ladder)-1], WordTimestamps: f.wordTimestamps}
	if f.timestamp {
		topts.Timestamp = func() float64 { return float64(time.Now().UnixNano()) / 1e9 }
	}
	if isSageMakerTransport(f.transport) {
		sm, smTarget, closeClients, err := f.sm.open(ctx, f.transport, topts.MaxConns)
		if err != nil {
			return err
		}
		defer closeClients()
		topts.SageMaker, target, baseURL = sm, smTarget, f.sm.describe()
		target.Model = f.modelName
		if f.sm.freeze {
			if hooks, target, err = f.sm.controlPlane(ctx, f.transport, f.modelName, stderr); err != nil {
				return err
			}
		}
	}
	tr, err := transport.New(f.transport, topts)
	if err != nil {
		return err
	}
	defer tr.Close()
	if err := transport.Preflight(ctx, tr); err != nil {
		return err
	}
	job := &bench.QmaxJob{
		Ladder:         &bench.Ladder{Transport: tr, Config: cfg, Hooks: hooks},
		Target:         target,
		Provenance:     prov,
		UnboundedQueue: f.self && f.maxQueueDepth == 0,
		OutDir:         f.out,
		Out:            stdout,
		Plot:           plot.PNG,
	}
	if f.serverMetrics != "off" && (f.serverMetrics != "" || !isSageMakerTransport(f.transport)) {
		g := &bench.ServerGauge{URL: f.serverMetrics}
		if g.URL == "" {
			g.URL = strings.TrimRight(baseURL, "/") + "/metrics"
		}
		if _, err := g.Scrape(ctx); err != nil {
			fmt.Fprintf(stderr, "note: no server-side concurrency (%v); thresholds will assume it equals the client's\n", err)
		} else {
			gctx, stopGauge := context.WithCancel(ctx)
			gdone := make(chan struct{})
			go func() { g.Run(gctx); close(gdone) }()
			defer func() { stopGauge(); <-gdone }()
			job.Ladder.Hooks.AfterRung = chainAfterRung(job.Ladder.Hooks.AfterRung, g.AfterRung)
		}
	}
	live := benchIsTerminal(stderr)
	job.Ladder.OnProgress = func(p bench.Progress) {
		if live {
			_ = bench.RenderProgress(stderr, p, 24)
		}
	}
	job.Ladder.OnRung = func(s bench.RungStats) {
		if live {
			fmt.Fprint(stderr, "\r\x1b[K")
		}
		fmt.Fprintf(stderr, "run %d N=%d: ok %d, p95 TTFAB %.0f ms, stall p95 %.0f ms, %.2f rps, in-flight %.2f, %s\n",
			s.Run, s.N, s.OK, s.TTFAB.P95, s.Stall.P95, s.RPS, s.InFlightMean, benchUsableText(s))
	}
	fmt.Fprintf(stderr, "qmax ladder against %s via %s, estimated %v\n", baseURL, tr.Name(), bench.Estimate(cfg).Round(time.Second))
	_, out, err := job.Run(ctx)
	if out.Artifact != "" {
		fmt.Fprintf(stdout, "artifact %s\nraw results %s\n", out.Artifact, out.Raw)
		if out.Plot != "" {
			fmt.Fprintf(stdout, "plot %s\n", out.Plot)
		}
	}
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return &exitError{code: 130, err: fmt.Errorf("interrupted: the artifact is marked partial: %w", err)}
	}
	return err
}

// chainAfterRung runs the hooks in order, stopping at the first error; nil hooks are skipped.
// A later hook's ConcurrencyRatio wins: a server gauge named explicitly with --server-metrics
// overrides CloudWatch's.
func chainAfterRung(hooks ...func(context.Context, *bench.RungStats) error) func(context.Context, *bench.RungStats) error {
	return func(ctx context.Context, s *bench.RungStats) error {
		for _, h := range hooks {
			if h == nil {
				continue
			}
			if err := h(ctx, s); err != nil {
				return err
			}
		}
		return nil
	}
}

func benchUsableText(s bench.RungStats) string {
	if s.Usable {
		return "usable"
	}
	return fmt.Sprintf("unusable %v", s.Unusable)
}

// benchStartSelf runs the real server on a loopback port and waits until it is ready. stop
// shuts it down and waits for it to exit.
func benchStartSelf(ctx context.Context, ec tts.LoadConfig, maxQueueDepth int) (baseURL string, stop func() error, err error) {
	if err := ec.Validate(); err != nil {
		return "", nil, err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ec.Logger = log
	srv, err := server.New(server.Config{
		MaxQueueDepth: maxQueueDepth,
		Logger:        log,
		Load:          engineLoader(ec),
	})
	if err != nil {
		return "", nil, fmt.Errorf("in-process server: %w", err)
	}
	if baseURL, stop, err = srv.StartLocal(ctx); err != nil {
		return "", nil, fmt.Errorf("in-process server: %w", err)
	}
	return baseURL, stop, nil
}

// benchTargetHost names the machine serving the model for the fingerprint: this machine for a
// loopback URL, else the URL's host.
func benchTargetHost(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return baseURL
	}
	h := u.Hostname()
	if ip := net.ParseIP(h); (ip != nil && ip.IsLoopback()) || h == "localhost" {
		if name, err := os.Hostname(); err == nil {
			return name
		}
	}
	return u.Host
}

func benchFileSHA256(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("fingerprint model: %w", err)
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", fmt.Errorf("fingerprint model %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func benchIsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
