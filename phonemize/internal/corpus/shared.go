package corpus

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/testenv"
)

// Shared is one G2P for a package's tests, made on first use from the installed lexicon's
// directory of a language (`make setup`) and loaded on every Get, which its Load makes cheap
// after the first.
type Shared[G interface{ Load() error }] struct {
	Lang string             // the language's directory under the lexicon assets
	New  func(dir string) G // makes the G2P on that directory
	once sync.Once
	g    G
}

// Get returns the loaded G2P. Without its dictionaries the test skips, and fails under
// `make test` (KOKORO_REQUIRE_ASSETS=1).
func (s *Shared[G]) Get(t testing.TB) G {
	t.Helper()
	dir := filepath.Join(testenv.Assets(t).Lexicon, s.Lang)
	s.once.Do(func() { s.g = s.New(dir) })
	if err := s.g.Load(); err != nil {
		if os.Getenv("KOKORO_REQUIRE_ASSETS") == "1" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return s.g
}
