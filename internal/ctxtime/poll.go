package ctxtime

import (
	"context"
	"errors"
	"time"
)

// ErrDeadline is PollUntil's error when the deadline passed before the condition held.
var ErrDeadline = errors.New("poll deadline passed")

// PollUntil checks cond at once and then every interval until cond reports done, cond fails,
// ctx ends or the deadline passes. No wait runs past the deadline, so the last check happens
// at it; a zero deadline is none. It returns nil once cond is done, cond's error unchanged,
// ctx's error when ctx ended during a wait, and ErrDeadline when a check at or after the
// deadline found cond not done.
func PollUntil(ctx context.Context, interval time.Duration, deadline time.Time, cond func() (done bool, err error)) error {
	for {
		done, err := cond()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		wait := interval
		if !deadline.IsZero() {
			left := time.Until(deadline)
			if left <= 0 {
				return ErrDeadline
			}
			wait = min(wait, left)
		}
		if err := Sleep(ctx, wait); err != nil {
			return err
		}
	}
}
