package testenv

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Module is the module's import path with its trailing slash: Module+"model" is the package
// model.
const Module = "github.com/kokoro-sm/kokoro/"

// Deps lists the packages pkg (a path inside the module) imports, directly or not, itself
// included, as `go list -deps` sees them. Tests of the import graph use it.
func Deps(t testing.TB, pkg string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the import graph needs the go command: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", Module+pkg).Output()
	if err != nil {
		var stderr string
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr)
	}
	return strings.Fields(string(out))
}

// NoDeps fails t unless pkg builds without every package in forbidden (paths inside the
// module); that `go list -deps` lists pkg itself shows the listing was read.
func NoDeps(t testing.TB, pkg string, forbidden ...string) {
	t.Helper()
	d := Deps(t, pkg)
	if !slices.Contains(d, Module+pkg) {
		t.Fatalf("go list -deps %s does not list the package itself: %v", pkg, d)
	}
	for _, f := range forbidden {
		if slices.Contains(d, Module+f) {
			t.Errorf("%s depends on %s", pkg, f)
		}
	}
}
