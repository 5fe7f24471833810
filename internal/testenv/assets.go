package testenv

import (
	"os"
	"testing"

	"github.com/kokoro-sm/kokoro/internal/assets"
)

// Assets returns the resolved runtime assets for a test that needs the real model. When they
// are missing the test is skipped under a bare `go test`, and fails under `make test`
// (KOKORO_REQUIRE_ASSETS=1): the full suite never skips the real model silently.
func Assets(tb testing.TB) assets.Paths {
	tb.Helper()
	p := assets.Resolve(os.Getenv)
	if err := p.Check(); err != nil {
		missing(tb, "%v", err)
	}
	return p
}
