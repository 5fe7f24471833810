package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/internal/assets"
	"github.com/kokoro-sm/kokoro/workflow"
)

func newVoicesCmd() *cobra.Command {
	f := workflow.Voices{Dir: assets.Resolve(os.Getenv).Voices}
	cmd := &cobra.Command{
		Use:   "voices",
		Short: "List the installed voices (blend them as af_bella(2)+af_sky(1))",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return f.Run(cmd.OutOrStdout()) },
	}
	workflow.Bind(cmd.Flags(), &f.Dir, "voices-dir", f.Dir)
	return cmd
}
