package workflow

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/kokoro-sm/kokoro/bench"
	"github.com/kokoro-sm/kokoro/sagemaker"
)

// endpointHookOptions say which endpoint a ladder measures and how its hooks behave.
type endpointHookOptions struct {
	Endpoint, Variant string
	// StateDir holds the freeze's state file (default: stateDir("")).
	StateDir string
	// MetricWait bounds how long AfterRung waits for CloudWatch to publish the rung's last
	// period (default 90 s; the high-resolution metric lags the rung by up to a minute).
	MetricWait time.Duration
	Log        io.Writer // progress of the freeze; nil: stderr
}

// endpointHooks builds the hooks on an existing control plane.
func endpointHooks(c *sagemaker.Control, h endpointHookOptions) bench.Hooks {
	if h.Variant == "" {
		h.Variant = sagemaker.DefaultVariant
	}
	if h.StateDir == "" {
		h.StateDir = stateDir("")
	}
	if h.MetricWait == 0 {
		h.MetricWait = 90 * time.Second
	}
	log := h.Log
	if log == nil {
		log = os.Stderr
	}
	file := sagemaker.StatePath(h.StateDir, c.Region, h.Endpoint, h.Variant)
	return bench.Hooks{
		Freeze: func(ctx context.Context) (func(context.Context) error, error) {
			fmt.Fprintf(log, "freezing %s/%s: suspending autoscaling, pinning 1 instance (state in %s)\n", h.Endpoint, h.Variant, file)
			f, err := c.Freeze(ctx, sagemaker.FreezeSpec{
				Endpoint: h.Endpoint, Variant: h.Variant, Pin: 1, StateFile: file, Purpose: "bench qmax",
				OnProgress: progressPrinter(log),
			})
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) error {
				fmt.Fprintf(log, "thawing %s/%s: restoring %d instance(s) and the scaling as recorded\n", h.Endpoint, h.Variant, f.State.DesiredInstanceCount)
				return f.Thaw(ctx)
			}, nil
		},
		Capacity: func(ctx context.Context) (int, error) {
			return c.Capacity(ctx, h.Endpoint, h.Variant)
		},
		AfterRung: func(ctx context.Context, s *bench.RungStats) error {
			if s.HoldStartedAt.IsZero() {
				return nil
			}
			from, to := s.HoldStartedAt.Add(s.Window.Start), s.HoldStartedAt.Add(s.Window.End)
			mean, peak, n, err := c.ConcurrencyStats(ctx, h.Endpoint, h.Variant, from, to, h.MetricWait)
			if err != nil {
				return err
			}
			if n == 0 {
				fmt.Fprintf(log, "note: no %s datapoints for rung %d yet; its ratio is unknown\n", "ConcurrentRequestsPerModel", s.N)
				return nil
			}
			s.CloudWatchMean, s.CloudWatchPeak = mean, peak
			if s.InFlightMean > 0 {
				s.ConcurrencyRatio = mean / s.InFlightMean
			}
			return nil
		},
	}
}
