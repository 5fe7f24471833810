package main

import (
	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/workflow"
)

func newTuneCmd() *cobra.Command {
	f := workflow.NewTune()
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Measure slot shapes on this machine and print the configuration to run",
		Long: `For each slot shape (the intra-op threads of each model session) tune loads the real model
and measures, in this process with no HTTP: the time to first audio of one request at a time,
the engine's throughput with twice as many requests at once as cores, and the model alone with
every slot that fits in the cores kept busy (whole texts, one chunk each: the limit the server's
saturated throughput is a fraction of). Throughput is audio seconds per wall-clock second as a
listener gets them. It then prints the shape with the highest engine throughput (and, within 3 %
of it, the earliest first audio) as the flags and variables to run it with.

--model-only measures only the model-only limit, for each shape.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Shapes, "shapes", f.Shapes, "shapes to measure, ';' between shapes and ',' between slots, e.g. '2;1,1;2,1,1' (default: one session on all cores, one per core, two threads each from 4 cores, and the adaptive shape)")
	fl.DurationVar(&f.Hold, "hold", f.Hold, "how long each measurement runs")
	fl.StringVar(&f.Texts, "texts", f.Texts, "file of utterances, one per line (default: the built-in pool of bench qmax)")
	fl.StringVar(&f.Voice, "voice", f.Voice, "voice to speak (default: the engine's)")
	fl.BoolVar(&f.ModelOnly, "model-only", f.ModelOnly, "measure only the model-only limit")
	addEngineFlags(cmd, &f.Engine)
	return cmd
}
