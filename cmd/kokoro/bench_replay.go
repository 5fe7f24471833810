package main

import (
	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/workflow"
)

func newBenchReplayCmd() *cobra.Command {
	f := workflow.NewBenchReplay()
	cmd := &cobra.Command{
		Use:   "replay (--trace FILE | --shape SHAPE --from RPS --to RPS) [--url URL | --transport sagemaker-… --endpoint-name E]",
		Short: "Send a traffic trace to a server or an endpoint open-loop and record every request",
		Long:  workflow.HelpBenchReplay,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.URL, "url", f.URL, "base URL of the server (http, ws)")
	fl.StringVar(&f.Transport, "transport", f.Transport, "transport: "+transport.Help())
	fl.StringVar(&f.Texts, "texts", f.Texts, "file of utterances, one per line; a request takes the one nearest its length (default: the built-in pool)")
	fl.StringVar(&f.Voice, "voice", f.Voice, "voice to request (default: the server's)")
	fl.Float64Var(&f.SLOms, "slo-ms", f.SLOms, "time to first audio a request should have within, for the summary")
	fl.DurationVar(&f.RequestTimeout, "request-timeout", f.RequestTimeout, "longest a single request may take")
	fl.IntVar(&f.MaxConns, "max-conns", f.MaxConns, "connections the client may hold at once")
	fl.StringVar(&f.Out, "out", f.Out, "directory for bench-replay.json and the requests")
	addTraceFlags(fl, &f.Traffic)
	addSageMakerFlags(fl, &f.SageMaker)
	return cmd
}
