package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/bench/plot"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/tts"
)

// Qmax is `kokoro bench qmax`: the closed-loop concurrency ladder against a server, an
// in-process server (Self) or a SageMaker endpoint, written as a qmax artifact, the raw
// per-request results and a plot.
type Qmax struct {
	URL, Transport, Texts, Out string
	Ladder                     []int
	Hold, Window, Settle       time.Duration
	Runs                       int
	SLOms                      float64
	Seed                       uint64
	Voice                      string
	Speed                      float64
	// DryRun prints the schedule and the wall-clock estimate and touches no network.
	DryRun, Self, Timestamp bool
	WordTimestamps          bool
	// ServerMetrics is the Prometheus endpoint read per rung: "" for <url>/metrics, "off".
	ServerMetrics          string
	RequestTimeout         time.Duration
	ModelName, ServerBuild string
	ModelID                string
	MaxQueueDepth          int
	// Copies runs that many copies of the model behind the Self server's one port, each on
	// its share of the cores (serveCopies); 0 or 1 is one.
	Copies    int
	Engine    tts.LoadConfig
	SageMaker SageMaker
	// Version is this build's version, recorded in the artifact's provenance.
	Version string
}

// NewQmax returns a Qmax with the command's defaults: the bench package's ladder, hold,
// window, settle and SLO over http to 127.0.0.1:8080, one run, the artifact written here.
func NewQmax() Qmax {
	return Qmax{
		URL: "http://127.0.0.1:8080", Transport: artifact.TransportHTTP,
		Ladder: bench.DefaultLadder(), Hold: bench.DefaultHold, Window: bench.DefaultMeasureWindow, Settle: bench.DefaultSettle,
		Runs: 1, SLOms: float64(bench.DefaultSLO / time.Millisecond), Seed: 1, Out: ".",
		RequestTimeout: 65 * time.Second, ModelName: "kokoro-82m", SageMaker: SageMaker{Freeze: true},
	}
}

func (f Qmax) config() (bench.Config, error) {
	c := bench.Config{
		Ladder: f.Ladder, Hold: f.Hold, MeasureWindow: f.Window, Settle: f.Settle, Runs: f.Runs,
		SLO: time.Duration(f.SLOms * float64(time.Millisecond)), Seed: f.Seed, Voice: f.Voice, Speed: f.Speed,
		RequestTimeout: f.RequestTimeout,
	}
	var err error
	if c.Texts, err = readTexts(f.Texts, nil); err != nil {
		return c, err
	}
	if f.Runs < 1 {
		return c, fmt.Errorf("runs %d must be at least 1", f.Runs)
	}
	if err := c.Validate(); err != nil {
		return c, err
	}
	return c, nil
}

// Run measures the ladder, or with DryRun prints its schedule. An interrupt stops the ladder
// and writes a partial artifact; the error is then an ExitError of status 130.
func (f Qmax) Run(ctx context.Context, stdout, stderr io.Writer) error {
	cfg, err := f.config()
	if err != nil {
		return err
	}
	if err := transport.Check(f.Transport); err != nil {
		return err
	}
	if f.Copies > 1 && !f.Self {
		return fmt.Errorf("%w: --copies runs copies of the model in this process: give --self", ErrUsage)
	}
	if f.Self && isSageMakerTransport(f.Transport) {
		return fmt.Errorf("--self serves http and ws; put `kokoro emulate --serve 1` in front of the model to measure %s locally", f.Transport)
	}
	if f.DryRun {
		target := f.URL
		if f.Self {
			target = "in-process server (--self, model " + f.Engine.Assets.Model + ")"
		} else if isSageMakerTransport(f.Transport) {
			target = f.SageMaker.describe()
		}
		if err := bench.DryRun(cfg, target, f.Transport)(stdout); err != nil {
			return err
		}
		if isSageMakerTransport(f.Transport) && f.SageMaker.Freeze {
			f.SageMaker.writeFreezePlan(stdout)
		}
		return nil
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	target := artifact.Target{Kind: artifact.TargetLocal, Model: f.ModelName, Build: f.ServerBuild, ModelID: f.ModelID}
	prov := artifact.NewProvenance(time.Now(), f.Version, os.Args)
	baseURL := f.URL
	if f.Self {
		engine := f.Engine
		var (
			u          string
			stopServer func()
		)
		if f.Copies > 1 {
			fmt.Fprintf(stderr, "starting %d copies of the server in-process behind one port (model %s)…\n", f.Copies, f.Engine.Assets.Model)
			u, engine, stopServer, err = serveCopies(ctx, f.Engine, f.Copies, f.MaxQueueDepth, stderr)
			target.Copies = f.Copies
		} else {
			fmt.Fprintf(stderr, "starting the server in-process (model %s, %d slot(s))…\n", f.Engine.Assets.Model, f.Engine.Slots)
			u, stopServer, err = serveSelf(ctx, f.Engine, f.MaxQueueDepth, stderr)
		}
		if err != nil {
			return err
		}
		defer stopServer()
		baseURL = u
		target.ContainerEnv = EngineEnv(engine, f.MaxQueueDepth)
		target.Build = prov.Build
		if target.Build == "" {
			target.Build = f.Version
		}
		if target.ModelID == "" {
			if target.ModelID, err = fileSHA256(f.Engine.Assets.Model); err != nil {
				return err
			}
		}
	}
	target.BaseURL = baseURL
	target.Host = targetHost(baseURL)

	var hooks bench.Hooks
	topts := transport.Options{BaseURL: baseURL, MaxConns: cfg.Ladder[len(cfg.Ladder)-1], WordTimestamps: f.WordTimestamps}
	if f.Timestamp {
		topts.Timestamp = func() float64 { return float64(time.Now().UnixNano()) / 1e9 }
	}
	tr, smTarget, closeTransport, err := openTransport(ctx, f.Transport, topts, f.SageMaker)
	if err != nil {
		return err
	}
	defer closeTransport()
	if isSageMakerTransport(f.Transport) {
		target, baseURL = smTarget, f.SageMaker.describe()
		target.Model = f.ModelName
		if f.SageMaker.Freeze {
			if hooks, target, err = f.SageMaker.controlPlane(ctx, f.Transport, f.ModelName, stderr); err != nil {
				return err
			}
		}
	}
	if err := transport.Preflight(ctx, tr); err != nil {
		return err
	}
	job := &bench.QmaxJob{
		Ladder:         &bench.Ladder{Transport: tr, Config: cfg, Hooks: hooks},
		Target:         target,
		Provenance:     prov,
		UnboundedQueue: f.Self && f.MaxQueueDepth == 0,
		OutDir:         f.Out,
		Out:            stdout,
		Plot:           plot.PNG,
	}
	if f.ServerMetrics != "off" && (f.ServerMetrics != "" || !isSageMakerTransport(f.Transport)) {
		g := &bench.ServerGauge{URL: f.ServerMetrics}
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
	live := isTerminal(stderr)
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
			s.Run, s.N, s.OK, s.TTFAB.P95, s.Stall.P95, s.RPS, s.InFlightMean, usableText(s))
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
		return &ExitError{Code: 130, Err: fmt.Errorf("interrupted: the artifact is marked partial: %w", err)}
	}
	return err
}
