// Command kokoro serves the Kokoro-82M text-to-speech model, benchmarks itself and plans its
// own autoscaling policy. Each subcommand lives in its own file; flags and environment are read
// only here, in package main, and passed on as config structs.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
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

// exitError carries a specific process exit status (plan exits 1 on a STOP finding).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func exitCode(err error) int {
	if e, ok := err.(*exitError); ok {
		return e.code
	}
	return 2
}
