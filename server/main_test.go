package server

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: a cancelled request, a
// dropped WebSocket or a shutdown must not leave model work or writers running.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
