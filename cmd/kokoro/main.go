// Command kokoro serves the Kokoro-82M text-to-speech model, benchmarks itself and plans its
// own autoscaling policy. Each subcommand lives in its own file; flags and environment are read
// only here, in package main, and passed on as the job structs of package workflow.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/kokoro-sm/kokoro/workflow"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if err := newRootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "kokoro:", err)
		os.Exit(exitCode(err))
	}
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "kokoro",
		Short:         "Kokoro-82M text-to-speech server, self-benchmark and autoscaling planner",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(
		newVersionCmd(),
		newPhonemizeCmd(),
		newBenchCmd(),
		newSynthCmd(),
		newVoicesCmd(),
		newPlanCmd(),
		newServeCmd(),
		newEmulateCmd(),
		newEndpointCmd(),
		newPolicyCmd(),
		newThawCmd(),
		newTuneCmd(),
	)
	return root
}

// exitCode is the process status for err: a workflow.ExitError's own, else 2.
func exitCode(err error) int {
	var e *workflow.ExitError
	if errors.As(err, &e) {
		return e.Code
	}
	return 2
}
