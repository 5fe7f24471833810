// Package ctxtime holds the one way kokoro waits: a sleep that a context cuts short, and a
// poll built on it that checks a condition at an interval until a deadline.
package ctxtime

import (
	"context"
	"time"
)

// Sleep waits for d, or until ctx ends, and returns ctx's error in that case. A d of zero or
// less returns at once with ctx's error, if any.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
