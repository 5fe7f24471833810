package model

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

// TestModelApartFromPhonemize keeps the model free of the text side: it owns its input limit
// (MaxIDs) and builds without the phonemizer or the chunker.
func TestModelApartFromPhonemize(t *testing.T) {
	t.Parallel()
	t.Run("model", func(t *testing.T) {
		t.Parallel()
		d := deps(t, "model")
		if !slices.Contains(d, module+"model") {
			t.Fatalf("go list -deps model does not list the package itself: %v", d)
		}
		for _, f := range []string{"phonemize", "chunk"} {
			if slices.Contains(d, module+f) {
				t.Errorf("model depends on %s", f)
			}
		}
	})
	// The text side needs no model: phonemize reads text without the model's runtime, and
	// chunk takes only the model's limit from it, never the engine.
	for pkg, forbidden := range map[string][]string{"phonemize": {"model", "chunk"}, "chunk": {"tts"}} {
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
	// The check sees a dependency where one exists: tts reaches them all.
	t.Run("tts", func(t *testing.T) {
		t.Parallel()
		d := deps(t, "tts")
		for _, p := range []string{"model", "phonemize", "chunk"} {
			if !slices.Contains(d, module+p) {
				t.Errorf("go list -deps tts does not list %s: the check cannot see dependencies", p)
			}
		}
	})
}
