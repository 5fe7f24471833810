// Package emulatetest starts `kokoro emulate` on loopback for a test. Only tests import it.
package emulatetest

import (
	"testing"

	"github.com/kokoro-sm/kokoro/emulate"
)

// Start serves an emulator configured by cfg on loopback until the test ends, and returns
// its URL; stopping it with an error fails the test.
func Start(t testing.TB, cfg emulate.Config) string {
	t.Helper()
	em, err := emulate.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	url, stop, err := em.StartLocal()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("emulator: %v", err)
		}
	})
	return url
}
