package main

import (
	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/workflow"
)

func newPlanCmd() *cobra.Command {
	f := workflow.NewPlan()
	cmd := &cobra.Command{
		Use:   "plan --qmax FILE (--ttotal FILE | --assume-t-total S) --peak-rps N",
		Short: "Derive an autoscaling policy from bench artifacts (touches no cloud)",
		Long:  workflow.HelpPlan,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Run(cmd.OutOrStdout())
		},
	}
	addPlanFlags(cmd, &f)
	cmd.Flags().StringVar(&f.Out, "out", f.Out, "directory for plan.json, report.txt, report.html and the policy documents")
	cmd.Flags().StringSliceVar(&f.Compare, "compare", f.Compare, "qmax artifacts of other instance types (repeatable): plan each for the same scenario and rank the types by cost per million characters")
	cmd.Flags().StringVar(&f.Prices, "prices", f.Prices, "with --compare: price table, JSON as planner/prices.json (default: that dated table)")
	cmd.AddCommand(newPlanReplayCmd())
	return cmd
}

// addPlanFlags declares the inputs and scenario of a plan, shared by plan and plan replay.
func addPlanFlags(cmd *cobra.Command, f *workflow.Plan) {
	fl := cmd.Flags()
	sc := &f.Scenario
	fl.StringVar(&f.Qmax, "qmax", f.Qmax, "qmax artifact (kokoro or tts-bench format)")
	fl.StringVar(&f.TTotal, "ttotal", f.TTotal, "ttotal artifact (kokoro or tts-bench format)")
	fl.Float64Var(&sc.AssumeTTotalS, "assume-t-total", sc.AssumeTTotalS, "assumed scale-out time from desired_set, seconds, when there is no ttotal artifact")
	fl.Float64Var(&sc.PolicyLagBoundS, "policy-lag", sc.PolicyLagBoundS, "policy detection lag added to an assumed T_total, seconds")
	fl.Float64Var(&sc.SLOms, "slo-ms", sc.SLOms, "p95 TTFAB SLO in ms (default: the qmax artifact's; another value re-derives Q_max from its rungs)")
	fl.Float64Var(&sc.Surge, "surge", sc.Surge, "load surge to survive within one T (1 ≤ surge < 1.5)")
	fl.Float64Var(&sc.PeakRPS, "peak-rps", sc.PeakRPS, "peak load, requests per second")
	fl.Float64Var(&sc.TroughRPS, "trough-rps", sc.TroughRPS, "trough load, requests per second")
	fl.Float64Var(&sc.PeakStreams, "peak-streams", sc.PeakStreams, "peak load, concurrent requests")
	fl.Float64Var(&sc.TroughStreams, "trough-streams", sc.TroughStreams, "trough load, concurrent requests")
	fl.IntVar(&sc.MinFloor, "min-floor", sc.MinFloor, "smallest fleet the policy may scale in to")
	fl.Float64Var(&sc.CeilingS, "ceiling-s", sc.CeilingS, "invocation time limit, seconds")
	fl.BoolVar(&sc.AllowConfigMismatch, "allow-config-mismatch", sc.AllowConfigMismatch, "plan from artifacts of different configurations (reported as a finding)")
	fl.StringVar(&sc.EndpointName, "endpoint", sc.EndpointName, "endpoint name for the policy documents (default: the artifact's)")
	fl.StringVar(&sc.VariantName, "variant", sc.VariantName, "production variant for the policy documents")
	fl.Float64Var(&sc.MaxRefused, "max-refused", sc.MaxRefused, "largest share of requests a proposed policy may refuse while the surge meets the old fleet (0.001: one in a thousand)")
	fl.IntVar(&sc.MaxInstances, "max-instances", sc.MaxInstances, "most instances a proposed policy may need at the peak (0: no limit); past it the plan stops and names the largest surge a policy survives")
	fl.Uint64Var(&sc.Seed, "seed", sc.Seed, "seed of the surge simulation")
	fl.IntVar(&sc.SurgeTrials, "surge-trials", sc.SurgeTrials, "trials of the surge simulation")
	_ = cmd.MarkFlagRequired("qmax")
	cmd.MarkFlagsMutuallyExclusive("ttotal", "assume-t-total")
}
