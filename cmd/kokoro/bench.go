package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/workflow"
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

func newBenchQmaxCmd() *cobra.Command {
	f := workflow.NewQmax()
	f.Version = version
	cmd := &cobra.Command{
		Use:   "qmax",
		Short: "Closed-loop concurrency ladder: find Q_max, the highest concurrency inside the TTFAB SLO",
		Long:  workflow.HelpQmax,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.URL, "url", f.URL, "base URL of the server to measure")
	fl.StringVar(&f.Transport, "transport", f.Transport, "transport: "+transport.Help())
	fl.IntSliceVar(&f.Ladder, "ladder", f.Ladder, "concurrency of each rung, ascending")
	fl.DurationVar(&f.Hold, "hold", f.Hold, "how long each rung runs")
	fl.DurationVar(&f.Window, "measure-window", f.Window, "trailing part of the hold that is measured")
	fl.DurationVar(&f.Settle, "settle", f.Settle, "idle time after each rung")
	fl.IntVar(&f.Runs, "runs", f.Runs, "passes over the ladder; Q_max is the minimum, S_mean and S_p95 the maximum")
	fl.Float64Var(&f.SLOms, "slo-ms", f.SLOms, "p95 TTFAB target in milliseconds")
	fl.Uint64Var(&f.Seed, "seed", f.Seed, "seed of the text shuffle")
	fl.StringVar(&f.Texts, "texts", f.Texts, "file of utterances, one per line (default: a built-in pool, ~25 characters each)")
	fl.StringVar(&f.Voice, "voice", f.Voice, "voice to request (default: the server's)")
	fl.Float64Var(&f.Speed, "speed", f.Speed, fmt.Sprintf("speed to request, %.1f–%.1f (default: the server's)", api.MinSpeed, api.MaxSpeed))
	fl.StringVar(&f.Out, "out", f.Out, "directory for the artifact, raw results and plot")
	fl.StringVar(&f.ServerMetrics, "server-metrics", f.ServerMetrics, "Prometheus endpoint whose kokoro_requests_in_flight gauge gives the server's view of concurrency per rung (default: <url>/metrics; off to disable)")
	fl.BoolVar(&f.Timestamp, "send-timestamp", f.Timestamp, "http: send request_timestamp so the server's staleness check (408) applies")
	fl.BoolVar(&f.WordTimestamps, "word-timestamps", f.WordTimestamps, "http and ws: ask for each word's time with the audio (newline-delimited JSON events on http, an audio message before each frame on ws), to measure what they cost")
	fl.DurationVar(&f.RequestTimeout, "request-timeout", f.RequestTimeout, "longest a single request may take before it counts as a transport error")
	fl.BoolVar(&f.DryRun, "dry-run", f.DryRun, "print the schedule and the wall-clock estimate; touch no network")
	fl.BoolVar(&f.Self, "self", f.Self, "start the server in-process on a loopback port and measure it")
	fl.IntVar(&f.Copies, "copies", f.Copies, "with --self: serve this many copies of the model behind the one port, each on its share of the cores, each request to the copy with the fewest in flight (as SageMaker places inference components)")
	bindScoped(fl, &f.MaxQueueDepth, "max-queue-depth", "with --self: ")
	fl.StringVar(&f.ModelName, "model-name", f.ModelName, "model name in the artifact's file name")
	fl.StringVar(&f.ServerBuild, "server-build", f.ServerBuild, "build of the measured server, part of the fingerprint (--self: this build)")
	fl.StringVar(&f.ModelID, "model-id", f.ModelID, "identity of the served model file, part of the fingerprint (--self: its SHA-256)")
	workflow.BindEngine(cmd.Flags(), &f.Engine)
	addSageMakerFlags(fl, &f.SageMaker)
	return cmd
}
