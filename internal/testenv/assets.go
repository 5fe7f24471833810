package testenv

import (
	"os"
	"strings"
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

// RealModelPrefix begins the name of every test whose time is single-goroutine work on real
// inputs at full size: the model, the corpora or lexicons whose loading dominates a test, the
// planner's search and replay over the reference measurements; RealFuzzPrefix begins the name
// of such a fuzz target (its seed corpus runs as a test). `make test` (scripts/test/test.sh) runs
// those once without the race detector (the model's time is spent in ONNX Runtime's C code,
// which the detector does not see, and the rest is work it would only slow down several
// times) and every other test under it, choosing them by these prefixes. RealModel refuses a
// test that loads the model under another name, so none is run twice or never.
const (
	RealModelPrefix = "TestReal"
	RealFuzzPrefix  = "FuzzReal"
)

// RealModel is Assets for a test that loads the real model: it is skipped under -short, and
// its name must begin with RealModelPrefix or RealFuzzPrefix (benchmarks may use it under any
// name).
func RealModel(tb testing.TB) assets.Paths {
	tb.Helper()
	if testing.Short() {
		tb.Skip("real model: skipped in -short")
	}
	top, _, _ := strings.Cut(tb.Name(), "/")
	if _, bench := tb.(*testing.B); !bench && !strings.HasPrefix(top, RealModelPrefix) && !strings.HasPrefix(top, RealFuzzPrefix) {
		tb.Fatalf("%s loads the real model: its name must begin with %s, which make test runs without the race detector", top, RealModelPrefix)
	}
	return Assets(tb)
}
