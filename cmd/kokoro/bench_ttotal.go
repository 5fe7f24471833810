package main

import (
	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/bench/transport"
	"github.com/kokoro-sm/kokoro/workflow"
)

func newBenchTTotalCmd() *cobra.Command {
	f := workflow.NewTTotal()
	f.Version = version
	cmd := &cobra.Command{
		Use:   "ttotal --endpoint-name NAME --qmax FILE",
		Short: "Time a forced scale-out of a SageMaker endpoint, stage by stage: T_total",
		Long:  workflow.HelpTTotal,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	addAWSFlags(fl, &f.AWS, "")
	fl.StringVar(&f.Endpoint, "endpoint-name", f.Endpoint, "SageMaker endpoint to scale out")
	fl.StringVar(&f.Variant, "variant", f.Variant, "production variant")
	fl.StringVar(&f.Qmax, "qmax", f.Qmax, "qmax artifact of this endpoint's configuration: sizes the probe and its recovery target")
	fl.StringVar(&f.Transport, "transport", f.Transport, "probe transport (default: the qmax artifact's): "+transport.Help())
	addProbeTargetFlags(fl, &f.Probe)
	fl.StringVar(&f.Voice, "voice", f.Voice, "voice the probe requests (default: the server's)")
	fl.IntVar(&f.Concurrency, "probe-concurrency", f.Concurrency, "probe requests kept in flight (default: Q_max × current instances)")
	fl.Float64Var(&f.RecoveredMs, "recovered-ms", f.RecoveredMs, "probe p95 TTFAB that counts as recovered (default: 1.25 × the qmax p95 at the per-instance load after the scale-out)")
	fl.Float64Var(&f.PolicyLag, "policy-lag", f.PolicyLag, "detection lag bound a real policy adds (alarm periods × evaluation + cooldown), seconds")
	fl.DurationVar(&f.Lead, "lead", f.Lead, "probe time before the trigger")
	fl.DurationVar(&f.Poll, "poll", f.Poll, "endpoint read interval: in_service's resolution")
	fl.DurationVar(&f.MaxWait, "max-wait", f.MaxWait, "longest wait for the new instance")
	fl.DurationVar(&f.Hold, "hold", f.Hold, "longest probe time after in_service while recovery is awaited (default: recover window + 2m)")
	fl.DurationVar(&f.RecoverWindow, "recover-window", f.RecoverWindow, "how long the probe's p95 must stay under target")
	fl.DurationVar(&f.LogWait, "log-wait", f.LogWait, "how long CloudWatch Logs may lag the endpoint")
	fl.StringVar(&f.Out, "out", f.Out, "directory for the artifact")
	fl.StringVar(&f.ModelName, "model-name", f.ModelName, "model name in the artifact's file name (default: the qmax artifact's)")
	fl.StringVar(&f.StateDir, "state-dir", f.StateDir, "directory of freeze state files")
	fl.BoolVar(&f.DryRun, "dry-run", f.DryRun, "print what would be done; call nothing")
	fl.BoolVar(&f.AllowConfigMismatch, "allow-config-mismatch", f.AllowConfigMismatch, "pair with a qmax artifact of another transport or configuration")
	_ = cmd.MarkFlagRequired("endpoint-name")
	_ = cmd.MarkFlagRequired("qmax")
	return cmd
}
