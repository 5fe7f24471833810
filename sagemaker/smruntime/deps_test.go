package smruntime

import (
	"slices"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

const module = testenv.Module

var deps = testenv.Deps

// TestDataPlaneApartFromControlPlane keeps the runtime data plane, the emulator and the bench
// transports free of the control plane and the planner: each builds without them.
func TestDataPlaneApartFromControlPlane(t *testing.T) {
	t.Parallel()
	forbidden := []string{"sagemaker", "planner"}
	for _, pkg := range []string{"sagemaker/smruntime", "sagemaker/awsconf", "emulate", "emulate/emulatetest", "bench/transport"} {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			testenv.NoDeps(t, pkg, forbidden...)
		})
	}
	// The check sees a dependency where one exists: the CLI reaches both.
	t.Run("cmd/kokoro", func(t *testing.T) {
		t.Parallel()
		d := deps(t, "cmd/kokoro")
		for _, f := range forbidden {
			if !slices.Contains(d, module+f) {
				t.Errorf("go list -deps cmd/kokoro does not list %s: the check cannot see dependencies", f)
			}
		}
	})
}
