package server

import (
	"bytes"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: a cancelled request, a
// dropped WebSocket or a shutdown must not leave model work or writers running.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// syncBuffer is a bytes.Buffer safe for the server's stage writer and the test's reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
