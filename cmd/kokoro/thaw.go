package main

import (
	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/workflow"
)

func newThawCmd() *cobra.Command {
	f := workflow.NewThaw()
	cmd := &cobra.Command{
		Use:   "thaw [--endpoint NAME | --state FILE]",
		Short: "Restore the autoscaling and instance count a killed bench run left frozen",
		Long:  workflow.HelpThaw,
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return f.Run(cmd.Context(), cmd.OutOrStdout()) },
	}
	fl := cmd.Flags()
	addAWSFlags(fl, &f.AWS, "")
	fl.StringVar(&f.Endpoint, "endpoint", f.Endpoint, "endpoint whose freeze to undo")
	fl.StringVar(&f.Variant, "variant", f.Variant, "production variant")
	fl.StringVar(&f.State, "state", f.State, "state file to restore from")
	workflow.Bind(fl, &f.Dir, "state-dir")
	fl.BoolVar(&f.Force, "force", f.Force, "thaw even when the run that froze it looks alive")
	fl.BoolVar(&f.DryRun, "dry-run", f.DryRun, "read what is deployed and print the calls a thaw would make; change nothing, keep the state files")
	return cmd
}
