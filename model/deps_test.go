package model

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/kokoro-sm/kokoro/phonemize"
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
// (MaxIDs) and builds without the phonemizer.
func TestModelApartFromPhonemize(t *testing.T) {
	t.Parallel()
	t.Run("model", func(t *testing.T) {
		t.Parallel()
		d := deps(t, "model")
		if !slices.Contains(d, module+"model") {
			t.Fatalf("go list -deps model does not list the package itself: %v", d)
		}
		if slices.Contains(d, module+"phonemize") {
			t.Errorf("model depends on phonemize")
		}
	})
	// The check sees a dependency where one exists: tts reaches both.
	t.Run("tts", func(t *testing.T) {
		t.Parallel()
		d := deps(t, "tts")
		for _, p := range []string{"model", "phonemize"} {
			if !slices.Contains(d, module+p) {
				t.Errorf("go list -deps tts does not list %s: the check cannot see dependencies", p)
			}
		}
	})
}

// TestMaxIDsAgreeWithPhonemize: the phonemizer's chunker cuts to its own copy of the limit.
func TestMaxIDsAgreeWithPhonemize(t *testing.T) {
	if phonemize.MaxIDs != MaxIDs {
		t.Errorf("phonemize.MaxIDs = %d, model.MaxIDs = %d", phonemize.MaxIDs, MaxIDs)
	}
}
