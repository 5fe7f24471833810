package ctxtime

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	t.Parallel()
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Fatalf("a plain sleep: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) || time.Since(start) > time.Minute {
		t.Fatalf("a cancelled context: %v after %v; want context.Canceled at once", err, time.Since(start))
	}
	if err := Sleep(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("zero with a cancelled context: %v", err)
	}
	if err := Sleep(context.Background(), -time.Second); err != nil {
		t.Fatalf("a negative duration: %v", err)
	}
}
