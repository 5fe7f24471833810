package phonemize

import (
	"slices"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// TestReadersImportOneWay keeps the readers below the routing: the root package imports en,
// espeak, ja and zh, none of them imports it, and each reader stays apart from the others
// (English uses espeak-ng for its unknown words, espeak-ng knows nothing of English).
func TestReadersImportOneWay(t *testing.T) {
	t.Parallel()
	for pkg, forbidden := range map[string][]string{
		"phonemize/en":     {"phonemize", "phonemize/ja", "phonemize/zh"},
		"phonemize/espeak": {"phonemize", "phonemize/en", "phonemize/ja", "phonemize/zh"},
		"phonemize/ja":     {"phonemize", "phonemize/en", "phonemize/espeak", "phonemize/zh"},
		"phonemize/zh":     {"phonemize", "phonemize/en", "phonemize/espeak", "phonemize/ja"},
	} {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			testenv.NoDeps(t, pkg, forbidden...)
		})
	}
	// The check sees a dependency where one exists: the root reaches every reader.
	d := testenv.Deps(t, "phonemize")
	for _, p := range []string{"phonemize/en", "phonemize/espeak", "phonemize/ja", "phonemize/zh"} {
		if !slices.Contains(d, testenv.Module+p) {
			t.Errorf("go list -deps phonemize does not list %s: the check cannot see dependencies", p)
		}
	}
}
