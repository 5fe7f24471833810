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
		Long: `A bench run against an endpoint records the scalable target, its policies and the instance
count in a state file before it suspends scaling and pins the count, and restores them when it
ends. If it was killed (SIGKILL, a crash, a closed laptop) the state file stays behind, and thaw
puts back exactly what it recorded, then removes it. Without --endpoint or --state it thaws every
state file in the state directory. It refuses a state file whose run is still alive (that run
restores on its own exit) unless --force. --dry-run reads what is deployed and prints the calls a
thaw would make, each with the fields it changes, and keeps the state files.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.Run(cmd.Context(), cmd.OutOrStdout()) },
	}
	fl := cmd.Flags()
	addAWSFlags(fl, &f.AWS, "")
	fl.StringVar(&f.Endpoint, "endpoint", f.Endpoint, "endpoint whose freeze to undo")
	fl.StringVar(&f.Variant, "variant", f.Variant, "production variant")
	fl.StringVar(&f.State, "state", f.State, "state file to restore from")
	fl.StringVar(&f.Dir, "state-dir", f.Dir, "directory of state files (default: KOKORO_STATE_DIR, $XDG_STATE_HOME/kokoro or ~/.local/state/kokoro)")
	fl.BoolVar(&f.Force, "force", f.Force, "thaw even when the run that froze it looks alive")
	fl.BoolVar(&f.DryRun, "dry-run", f.DryRun, "read what is deployed and print the calls a thaw would make; change nothing, keep the state files")
	return cmd
}
