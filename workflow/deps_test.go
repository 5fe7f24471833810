package workflow

import (
	"slices"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// TestWorkflowsSitBelowTheCommandLine keeps the import graph one way: the command line imports
// the workflows, the workflows import the packages they compose, and none of those imports the
// workflows back.
func TestWorkflowsSitBelowTheCommandLine(t *testing.T) {
	t.Parallel()
	below := []string{"api", "artifact", "audio", "bench", "bench/scaleout", "bench/transport", "captions", "chunk",
		"emulate", "model", "phonemize", "planner", "replay", "sagemaker", "sagemaker/awsconf", "sagemaker/smruntime",
		"scaling", "server", "tts"}
	for _, pkg := range below {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			testenv.NoDeps(t, pkg, "workflow")
		})
	}
	// The check sees a dependency where one exists: the command line reaches the workflows,
	// and they reach the engine, the bench, the planner and both halves of the cloud code.
	t.Run("cmd/kokoro", func(t *testing.T) {
		t.Parallel()
		if !slices.Contains(testenv.Deps(t, "cmd/kokoro"), testenv.Module+"workflow") {
			t.Error("go list -deps cmd/kokoro does not list workflow: the check cannot see dependencies")
		}
	})
	t.Run("workflow", func(t *testing.T) {
		t.Parallel()
		d := testenv.Deps(t, "workflow")
		for _, p := range []string{"tts", "bench", "planner", "sagemaker", "sagemaker/smruntime", "emulate", "server"} {
			if !slices.Contains(d, testenv.Module+p) {
				t.Errorf("go list -deps workflow does not list %s", p)
			}
		}
	})
}
