package ctxtime

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// TestPollUntil runs in a synctest bubble: time moves only when every goroutine waits, so the
// instants of the checks are exact.
func TestPollUntil(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	cases := []struct {
		name     string
		interval time.Duration
		deadline time.Duration // 0: none
		doneAt   int           // check (0-based) that reports done; -1: never
		failAt   int           // check that fails; -1: never
		cancelAt time.Duration // 0: never
		want     error
		checks   []time.Duration // offsets of the checks from the start
	}{
		{name: "done at once", interval: time.Second, deadline: time.Minute, doneAt: 0, failAt: -1,
			checks: []time.Duration{0}},
		{name: "done on the third check", interval: 10 * time.Second, deadline: time.Minute, doneAt: 2, failAt: -1,
			checks: []time.Duration{0, 10 * time.Second, 20 * time.Second}},
		{name: "last wait stops at the deadline", interval: 10 * time.Second, deadline: 25 * time.Second, doneAt: -1, failAt: -1, want: ErrDeadline,
			checks: []time.Duration{0, 10 * time.Second, 20 * time.Second, 25 * time.Second}},
		{name: "deadline already passed: one check", interval: time.Second, deadline: -time.Second, doneAt: -1, failAt: -1, want: ErrDeadline,
			checks: []time.Duration{0}},
		{name: "done at the deadline is done", interval: 10 * time.Second, deadline: 15 * time.Second, doneAt: 2, failAt: -1,
			checks: []time.Duration{0, 10 * time.Second, 15 * time.Second}},
		{name: "cond fails", interval: time.Second, deadline: time.Minute, doneAt: -1, failAt: 1, want: boom,
			checks: []time.Duration{0, time.Second}},
		{name: "no deadline, cancelled in a wait", interval: 10 * time.Second, doneAt: -1, failAt: -1, cancelAt: 35 * time.Second, want: context.Canceled,
			checks: []time.Duration{0, 10 * time.Second, 20 * time.Second, 30 * time.Second}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tc.cancelAt > 0 {
					time.AfterFunc(tc.cancelAt, cancel)
				}
				start := time.Now()
				var deadline time.Time
				if tc.deadline != 0 {
					deadline = start.Add(tc.deadline)
				}
				var got []time.Duration
				err := PollUntil(ctx, tc.interval, deadline, func() (bool, error) {
					n := len(got)
					got = append(got, time.Since(start))
					if n == tc.failAt {
						return false, boom
					}
					return n == tc.doneAt, nil
				})
				if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
					t.Errorf("err = %v, want %v", err, tc.want)
				}
				if len(got) != len(tc.checks) {
					t.Fatalf("checks at %v, want %v", got, tc.checks)
				}
				for i := range got {
					if got[i] != tc.checks[i] {
						t.Fatalf("checks at %v, want %v", got, tc.checks)
					}
				}
			})
		})
	}
}
