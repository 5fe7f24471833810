package scaleout

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kokoro-sm/kokoro/internal/ctxtime"
)

// Cloud is what a scale-out run reads and changes: the variant's instance counts, its
// desired count, and the log streams of its instances.
type Cloud interface {
	Counts(ctx context.Context) (desired, current int, status string, err error)
	SetDesired(ctx context.Context, n int) error
	Streams(ctx context.Context) ([]Stream, error)
	Events(ctx context.Context, stream string) ([]Event, error)
}

// Stream is one instance's log stream.
type Stream struct {
	Name, Instance string
	FirstEvent     time.Time // zero while it has none
}

// Event is one log line.
type Event struct {
	At      time.Time
	Message string
}

// Config is one forced scale-out.
type Config struct {
	// Probe is the load held across the scale-out; nil runs none (then there is no
	// load_applied and no traffic_recovered).
	Probe *Probe
	Lead  time.Duration // probe time before the trigger, to see p95 under one instance; default 30 s
	Poll  time.Duration // endpoint read interval; default 10 s
	// MaxWait bounds the wait for the new instance; default 25 min (a cold multi-GB image
	// pull takes ten).
	MaxWait time.Duration
	// Hold bounds how long the probe runs after in_service while recovery is awaited;
	// default RecoverWindow + 2 min.
	Hold              time.Duration
	RecoverTarget     time.Duration // p95 TTFAB that counts as recovered
	RecoverWindow     time.Duration // default DefaultRecoverWindow
	RecoverMinSamples int           // default DefaultRecoverMinSamples
	LogWait           time.Duration // how long logs may lag the endpoint; default 3 min

	Now     func() time.Time                                 // nil: time.Now
	Sleep   func(ctx context.Context, d time.Duration) error // nil: a timer
	OnEvent func(string)                                     // progress lines
}

func (c Config) withDefaults() Config {
	if c.Lead == 0 {
		c.Lead = 30 * time.Second
	}
	if c.Poll <= 0 {
		c.Poll = 10 * time.Second
	}
	if c.MaxWait <= 0 {
		c.MaxWait = 25 * time.Minute
	}
	if c.RecoverWindow <= 0 {
		c.RecoverWindow = DefaultRecoverWindow
	}
	if c.RecoverMinSamples <= 0 {
		c.RecoverMinSamples = DefaultRecoverMinSamples
	}
	if c.Hold <= 0 {
		c.Hold = c.RecoverWindow + 2*time.Minute
	}
	if c.LogWait <= 0 {
		c.LogWait = 3 * time.Minute
	}
	now := c.Now
	if now == nil {
		now = time.Now
	}
	// Stages are compared with CloudWatch's timestamps, which are wall-clock times: drop the
	// monotonic reading so every difference is taken on the same clock.
	c.Now = func() time.Time { return now().UTC() }
	if c.Sleep == nil {
		c.Sleep = ctxtime.Sleep
	}
	return c
}

// Result is what a run observed.
type Result struct {
	Obs            Observations
	From, To       int
	P95BeforeMs    float64 // probe p95 TTFAB from load_applied to in_service
	P95AfterMs     float64 // after in_service
	RequestsBefore int
	RequestsAfter  int
	Notes          []string
}

// Run forces one scale-out: probe load (when configured) for Lead, DesiredInstanceCount + 1,
// poll until the current count rises, hold the probe until its p95 recovers, then read the new
// instance's log stream. It does not restore the count: the caller's freeze does, on every
// exit path. When ctx ends, Run returns what it has with ctx's error.
func Run(ctx context.Context, cloud Cloud, cfg Config) (Result, error) {
	cfg = cfg.withDefaults()
	say := func(format string, args ...any) {
		if cfg.OnEvent != nil {
			cfg.OnEvent(fmt.Sprintf(format, args...))
		}
	}
	var res Result
	res.Obs.Poll = cfg.Poll
	_, cur, status, err := cloud.Counts(ctx)
	if err != nil {
		return res, err
	}
	if status != "InService" {
		return res, fmt.Errorf("endpoint is %s, not InService: a scale-out cannot be timed now", status)
	}
	res.From = cur
	before, err := cloud.Streams(ctx)
	if err != nil {
		return res, err
	}

	stopProbe := func() {}
	if cfg.Probe != nil {
		res.Obs.LoadApplied = cfg.Now()
		stopProbe = cfg.Probe.Start(ctx)
		say("probe: %d worker(s); holding %v before the trigger", cfg.Probe.Concurrency, cfg.Lead)
		if err := cfg.Sleep(ctx, cfg.Lead); err != nil {
			stopProbe()
			return res, err
		}
	}
	defer func() { stopProbe() }()

	res.Obs.DesiredSet = cfg.Now()
	if err := cloud.SetDesired(ctx, cur+1); err != nil {
		return res, err
	}
	say("desired_set: %d → %d instances", cur, cur+1)
	deadline := res.Obs.DesiredSet.Add(cfg.MaxWait)
	for {
		if err := cfg.Sleep(ctx, cfg.Poll); err != nil {
			return res, err
		}
		_, now, st, err := cloud.Counts(ctx)
		if err != nil {
			return res, err
		}
		if now > cur {
			res.Obs.InService, res.To = cfg.Now(), now
			say("in_service: %d instances after %.1f s", now, res.Obs.InService.Sub(res.Obs.DesiredSet).Seconds())
			break
		}
		if !cfg.Now().Before(deadline) {
			return res, fmt.Errorf("no new instance in service within %v (endpoint %s, %d instance(s)): SageMaker may lack capacity for the type; check `kokoro endpoint describe` for a failure reason", cfg.MaxWait, st, now)
		}
	}

	if cfg.Probe != nil {
		if err := holdForRecovery(ctx, cfg, &res); err != nil {
			return res, err
		}
		stopProbe()
		stopProbe = func() {}
		s := cfg.Probe.Samples()
		res.P95BeforeMs, res.RequestsBefore = p95Between(s, res.Obs.LoadApplied, res.Obs.InService)
		res.P95AfterMs, res.RequestsAfter = p95Between(s, res.Obs.InService, time.Time{})
		if n, last := cfg.Probe.Failures(); n > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%d probe request(s) failed; the last: %v", n, last))
		}
	}
	return res, readLogs(ctx, cloud, cfg, before, &res)
}

// holdForRecovery keeps the probe running after in_service until its p95 has recovered over a
// whole window, or Hold passes.
func holdForRecovery(ctx context.Context, cfg Config, res *Result) error {
	end := res.Obs.InService.Add(cfg.Hold)
	for {
		now := cfg.Now()
		at, note, ok := Recovered(cfg.Probe.Samples(), res.Obs.InService, now, cfg.RecoverTarget, cfg.RecoverWindow, cfg.RecoverMinSamples)
		res.Obs.RecoveryNote = note
		if ok {
			res.Obs.Recovered = at
			return nil
		}
		if !now.Before(end) {
			res.Notes = append(res.Notes, note)
			return nil
		}
		if err := cfg.Sleep(ctx, min(cfg.Poll, end.Sub(now))); err != nil {
			return err
		}
	}
}

// readLogs finds the stream that appeared with the new instance and reads its markers; logs
// may lag the endpoint by minutes.
func readLogs(ctx context.Context, cloud Cloud, cfg Config, before []Stream, res *Result) error {
	known := map[string]bool{}
	for _, s := range before {
		known[s.Name] = true
	}
	deadline := cfg.Now().Add(cfg.LogWait)
	for {
		all, err := cloud.Streams(ctx)
		if err != nil {
			return err
		}
		var fresh []Stream
		for _, s := range all {
			if !known[s.Name] && !s.FirstEvent.IsZero() {
				fresh = append(fresh, s)
			}
		}
		if len(fresh) > 0 {
			slices.SortFunc(fresh, func(a, b Stream) int { return a.FirstEvent.Compare(b.FirstEvent) })
			s := fresh[0]
			if len(fresh) > 1 {
				res.Notes = append(res.Notes, fmt.Sprintf("%d new log streams; timing %s, the first to log", len(fresh), s.Name))
			}
			res.Obs.Stream, res.Obs.Instance, res.Obs.FirstEvent = s.Name, s.Instance, s.FirstEvent
			events, err := cloud.Events(ctx, s.Name)
			if err != nil {
				return err
			}
			for _, e := range events {
				if m, ok := ParseMarker(e.Message); ok {
					res.Obs.Markers = append(res.Obs.Markers, m)
				}
			}
			if len(res.Obs.Markers) == 0 {
				res.Notes = append(res.Notes, "stream "+s.Name+" carried no stage markers: the container stages are one gap")
			}
			return nil
		}
		if !cfg.Now().Before(deadline) {
			res.Notes = append(res.Notes, fmt.Sprintf("no new log stream appeared within %v: the container stages are one gap", cfg.LogWait))
			return nil
		}
		if err := cfg.Sleep(ctx, cfg.Poll); err != nil {
			return err
		}
	}
}
