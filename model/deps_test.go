package model

import (
	"slices"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

const module = testenv.Module

var deps = testenv.Deps

// TestModelApartFromPhonemize keeps the model free of the text side: it owns its input limit
// (MaxIDs) and builds without the phonemizer or the chunker.
func TestModelApartFromPhonemize(t *testing.T) {
	t.Parallel()
	t.Run("model", func(t *testing.T) {
		t.Parallel()
		testenv.NoDeps(t, "model", "phonemize", "chunk")
	})
	// The text side needs no model: phonemize reads text without the model's runtime, and
	// chunk takes only the model's limit from it, never the engine.
	for pkg, forbidden := range map[string][]string{"phonemize": {"model", "chunk"}, "chunk": {"tts"}} {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			testenv.NoDeps(t, pkg, forbidden...)
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
