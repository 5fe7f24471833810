package testenv

import (
	"os/exec"
	"testing"
)

// LookPath returns the path of a program the test needs from PATH, skipping the test under a
// bare `go test` and failing it under `make test` when the program is not installed.
func LookPath(tb testing.TB, name string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		missing(tb, "%s not found on PATH: run `make setup` as root to install it", name)
	}
	return path
}
