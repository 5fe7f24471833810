package server

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// stager prints one marker line per stage. Lines are written whole under a lock so that they
// never interleave with each other; the timer reading the container log matches them exactly.
type stager struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	now   func() time.Time
}

// FormatStage renders a stage marker line (without the newline): elapsed_s counts from start,
// which is CONTAINER_START_EPOCH when the container sets it, else the process start.
func FormatStage(name string, t, start time.Time) string {
	return fmt.Sprintf("=== STAGE %s t=%sZ elapsed_s=%.3f ===", name, t.UTC().Format("2006-01-02T15:04:05.000"), t.Sub(start).Seconds())
}

func (s *stager) mark(name string) {
	line := FormatStage(name, s.now(), s.start) + "\n"
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = io.WriteString(s.w, line)
}
