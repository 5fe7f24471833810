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
		Long:  workflow.HelpTune,
		Args:  cobra.NoArgs,
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
	workflow.BindEngine(cmd.Flags(), &f.Engine)
	return cmd
}
