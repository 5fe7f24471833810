package smruntime

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/kokoro-sm/kokoro/"

// deps lists the packages pkg imports, directly or not, as `go list -deps` sees them.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the import graph needs the go command: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", module+pkg).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr)
	}
	return strings.Fields(string(out))
}

// TestDataPlaneApartFromControlPlane keeps the runtime data plane, the emulator and the bench
// transports free of the control plane and the planner: each builds without them.
func TestDataPlaneApartFromControlPlane(t *testing.T) {
	t.Parallel()
	forbidden := []string{"sagemaker", "planner"}
	for _, pkg := range []string{"sagemaker/smruntime", "sagemaker/awsconf", "emulate", "emulate/emulatetest", "bench/transport"} {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			d := deps(t, pkg)
			if !slices.Contains(d, module+pkg) {
				t.Fatalf("go list -deps %s does not list the package itself: %v", pkg, d)
			}
			for _, f := range forbidden {
				if slices.Contains(d, module+f) {
					t.Errorf("%s depends on %s", pkg, f)
				}
			}
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
