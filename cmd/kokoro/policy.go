package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/workflow"
)

func newPolicyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Apply a plan's autoscaling policy to an endpoint, audit it for drift, validate it live",
	}
	cmd.AddCommand(newPolicyApplyCmd(), newPolicyDriftCmd(), newPolicyValidateCmd())
	return cmd
}

// addPolicyFlags registers the flags that locate the plan and the endpoint it is for.
func addPolicyFlags(fl *pflag.FlagSet, p *workflow.Policy) {
	addAWSFlags(fl, &p.AWS, "")
	fl.StringVar(&p.Plan, "plan", p.Plan, "plan.json, or the directory `kokoro plan --out` wrote")
	fl.StringVar(&p.Endpoint, "endpoint", p.Endpoint, "endpoint the policy is for (default: the plan's)")
	fl.StringVar(&p.Component, "inference-component", p.Component, "with a plan of several copies per instance: the inference component it scales (default: ENDPOINT-kokoro, as endpoint deploy --plan names it)")
}

func newPolicyApplyCmd() *cobra.Command {
	var f workflow.Policy
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "apply --plan DIR",
		Short: "Make the endpoint's autoscaling what the plan says (shows the differences first)",
		Long:  workflow.HelpPolicyApply,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Apply(cmd.Context(), cmd.OutOrStdout(), dryRun)
		},
	}
	addPolicyFlags(cmd.Flags(), &f)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the differences and the calls; change nothing")
	return cmd
}

func newPolicyDriftCmd() *cobra.Command {
	var f workflow.Policy
	cmd := &cobra.Command{
		Use:   "drift --plan DIR",
		Short: "Audit the deployed autoscaling against the plan, field by field (read only; exit 1 on drift)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return f.Drift(cmd.Context(), cmd.OutOrStdout()) },
	}
	addPolicyFlags(cmd.Flags(), &f)
	return cmd
}

func newPolicyValidateCmd() *cobra.Command {
	var f workflow.Policy
	p := workflow.NewPolicyProbe()
	cmd := &cobra.Command{
		Use:   "validate --plan DIR [--probe --transport T --url U]",
		Short: "Check the deployed policy against the plan; with --probe, drive load past the scale-out target and watch it act",
		Long:  workflow.HelpPolicyValidate,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Validate(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), p)
		},
	}
	fl := cmd.Flags()
	addPolicyFlags(fl, &f)
	fl.BoolVar(&p.On, "probe", p.On, "drive load across the scale-out threshold and watch the policy act")
	fl.StringVar(&p.Transport, "transport", p.Transport, "probe transport (default: the plan's): "+transport.Help())
	addProbeTargetFlags(fl, &p.Target)
	fl.IntVar(&p.Concurrency, "probe-concurrency", p.Concurrency, "requests kept in flight (default: 1.5 × C_scale_max × current instances)")
	fl.DurationVar(&p.Duration, "probe-duration", p.Duration, "how long the probe runs")
	fl.DurationVar(&p.Every, "poll", p.Every, "how often the alarms and the endpoint are read")
	fl.StringVar(&p.Voice, "voice", p.Voice, "voice the probe requests")
	return cmd
}
