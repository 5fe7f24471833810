package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/workflow"
)

// addTraceFlags declares them; from and to default to the caller's (0: the trough and surge ×
// it, for plan replay).
func addTraceFlags(fl *pflag.FlagSet, f *workflow.Trace) {
	fl.StringVar(&f.Trace, "trace", f.Trace, "traffic trace CSV: at_s[,chars] (one request a row) or t_s,rps (a rate profile)")
	fl.StringVar(&f.Shape, "shape", f.Shape, "built-in traffic shape when there is no --trace: step, ramp, day or bursts")
	fl.Float64Var(&f.From, "from", f.From, "base rate, requests per second")
	fl.Float64Var(&f.To, "to", f.To, "surge or peak rate, requests per second")
	fl.DurationVar(&f.At, "at", f.At, "when the step, ramp or first burst begins")
	fl.DurationVar(&f.Length, "length", f.Length, "length of the trace (a day's period for --shape day)")
	fl.DurationVar(&f.Over, "over", f.Over, "how long a ramp rises")
	fl.DurationVar(&f.Every, "every", f.Every, "time between bursts")
	fl.DurationVar(&f.Burst, "burst", f.Burst, "how long a burst lasts")
	fl.Uint64Var(&f.Seed, "replay-seed", f.Seed, "seed of the traffic (Poisson arrivals) and of the simulation")
}

func newPlanReplayCmd() *cobra.Command {
	f := workflow.NewPlanReplay()
	cmd := &cobra.Command{
		Use:   "replay --qmax FILE (--ttotal FILE | --assume-t-total S) --peak-rps N [--trace FILE | --shape SHAPE]",
		Short: "Replay the plan's policies against traffic in a simulation of the endpoint variant",
		Long:  workflow.HelpPlanReplay,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Run(cmd.OutOrStdout())
		},
	}
	addPlanFlags(cmd, &f.Plan)
	fl := cmd.Flags()
	addTraceFlags(fl, &f.Traffic)
	fl.StringVar(&f.Routing, "routing", f.Routing, "how requests reach instances: random (SageMaker's default) or least-outstanding")
	fl.StringSliceVar(&f.Policies, "policies", f.Policies, "policies to replay: reference, proposal, or a candidate kind of the plan (target-tracking-invocations, step-concurrency, floor, ...)")
	fl.Float64Var(&f.TimeScale, "time-scale", f.TimeScale, "multiply AWS's periods and cooldowns and the scale-out time by this factor, as kokoro emulate --time-scale does (the trace is not scaled)")
	fl.BoolVar(&f.Requests, "requests", f.Requests, "also write every request of each replay (JSONL)")
	fl.StringVar(&f.Out, "out", f.Out, "directory for replay.json and replay.png")
	return cmd
}
