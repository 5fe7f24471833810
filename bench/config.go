package bench

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

// Config is the ladder to run.
type Config struct {
	Ladder        []int         // concurrency of each rung, ascending
	Hold          time.Duration // how long each rung runs
	MeasureWindow time.Duration // trailing part of the hold that is measured
	Settle        time.Duration // idle time after each rung
	Runs          int           // passes over the ladder
	SLO           time.Duration // TTFAB p95 target
	Seed          uint64        // text shuffle seed
	Texts         []string      // text pool; empty: DefaultTexts
	Voice         string        // empty: the server's default
	Speed         float64       // 0: the server's default

	// RequestTimeout bounds one request; 0 means 65 s, a little over the 60 s SageMaker gives
	// an invocation, so the server's own limit shows before ours.
	RequestTimeout time.Duration
	// DrainTimeout bounds how long requests still outstanding at the end of a hold may finish
	// before they are cancelled; 0 means RequestTimeout.
	DrainTimeout time.Duration
	// StopAfterSaturated ends a run after this many consecutive saturated rungs; 0 means 2.
	StopAfterSaturated int
}

// Defaults of the ladder (docs/bench.md).
const (
	DefaultHold          = 240 * time.Second
	DefaultMeasureWindow = 60 * time.Second
	DefaultSettle        = 30 * time.Second
	DefaultSLO           = 3 * time.Second
)

// DefaultLadder is the rung sequence used when none is given.
func DefaultLadder() []int { return []int{1, 2, 4, 8, 16, 32, 48, 64, 96, 128} }

func (c Config) withDefaults() Config {
	if len(c.Texts) == 0 {
		c.Texts = DefaultTexts()
	}
	if c.Runs == 0 {
		c.Runs = 1
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = 65 * time.Second
	}
	if c.DrainTimeout == 0 {
		c.DrainTimeout = c.RequestTimeout
	}
	if c.StopAfterSaturated == 0 {
		c.StopAfterSaturated = 2
	}
	return c
}

// Validate reports the first thing wrong with the configuration.
func (c Config) Validate() error {
	if len(c.Ladder) == 0 {
		return errors.New("ladder has no rungs")
	}
	for i, n := range c.Ladder {
		if n < 1 {
			return fmt.Errorf("rung %d has concurrency %d; want at least 1", i+1, n)
		}
	}
	if !slices.IsSorted(c.Ladder) || len(slices.Compact(slices.Clone(c.Ladder))) != len(c.Ladder) {
		return fmt.Errorf("ladder %v must be strictly ascending", c.Ladder)
	}
	switch {
	case c.Hold <= 0:
		return fmt.Errorf("hold %v must be positive", c.Hold)
	case c.MeasureWindow <= 0 || c.MeasureWindow > c.Hold:
		return fmt.Errorf("measure window %v must be positive and no longer than the hold %v", c.MeasureWindow, c.Hold)
	case c.Settle < 0:
		return fmt.Errorf("settle %v must not be negative", c.Settle)
	case c.Runs < 0:
		return fmt.Errorf("runs %d must be at least 1", c.Runs)
	case c.SLO <= 0:
		return fmt.Errorf("slo %v must be positive", c.SLO)
	case c.Speed != 0 && (c.Speed < api.MinSpeed || c.Speed > api.MaxSpeed):
		return fmt.Errorf("speed %v out of range %.1f–%.1f", c.Speed, api.MinSpeed, api.MaxSpeed)
	}
	return nil
}
