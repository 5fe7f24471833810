package scaleout

import (
	"context"
	"fmt"
	"io"
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
// instance's log stream: the steps that Plan prints. It does not restore the count: the
// caller's freeze does, on every exit path. When ctx ends, Run returns what it has with ctx's
// error.
func Run(ctx context.Context, cloud Cloud, cfg Config) (Result, error) {
	r := &runner{cloud: cloud, cfg: cfg.withDefaults(), stopProbe: func() {}}
	r.res.Obs.Poll = r.cfg.Poll
	defer func() { r.stopProbe() }()
	for _, st := range r.steps(r.cfg.Probe != nil) {
		if err := st.do(ctx); err != nil {
			return r.res, err
		}
	}
	return r.res, nil
}

// Plan writes the steps Run takes with cfg, one line each, numbered from first; probe says
// whether a probe load is held (its Probe may not be built yet). It returns the next number.
func Plan(w io.Writer, cfg Config, probe bool, first int) int {
	r := &runner{cfg: cfg.withDefaults()}
	for _, st := range r.steps(probe) {
		fmt.Fprintf(w, "%d. %s\n", first, st.says)
		first++
	}
	return first
}

// step is one step of a run: what it does, in words, and doing it.
type step struct {
	says string
	do   func(ctx context.Context) error
}

// runner is one run's state, shared by its steps.
type runner struct {
	cloud     Cloud
	cfg       Config
	res       Result
	from      int      // instances in service before the trigger
	before    []Stream // log streams before the trigger
	stopProbe func()
}

func (r *runner) say(format string, args ...any) {
	if r.cfg.OnEvent != nil {
		r.cfg.OnEvent(fmt.Sprintf(format, args...))
	}
}

func (r *runner) steps(probe bool) []step {
	cfg := r.cfg
	steps := []step{{"DescribeEndpoint: the variant must be InService; list its instances' log streams", r.start}}
	if probe {
		steps = append(steps, step{fmt.Sprintf("hold the probe load for %v before the trigger (load_applied)", cfg.Lead), r.startProbe})
	}
	steps = append(steps,
		step{"UpdateEndpointWeightsAndCapacities: DesiredInstanceCount + 1 (desired_set: the clock starts)", r.trigger},
		step{fmt.Sprintf("DescribeEndpoint every %v until CurrentInstanceCount rises (in_service, at most %v)", cfg.Poll, cfg.MaxWait), r.awaitInService})
	if probe {
		steps = append(steps, step{fmt.Sprintf("hold the probe until its p95 TTFAB stays under the recovery target for %v, at most %v after in_service (traffic_recovered)", cfg.RecoverWindow, cfg.Hold), r.recover})
	}
	return append(steps, step{fmt.Sprintf("read the new instance's log stream, waiting up to %v for it (instance_logging, the container's stage markers)", cfg.LogWait),
		func(ctx context.Context) error { return readLogs(ctx, r.cloud, r.cfg, r.before, &r.res) }})
}

func (r *runner) start(ctx context.Context) error {
	_, cur, status, err := r.cloud.Counts(ctx)
	if err != nil {
		return err
	}
	if status != "InService" {
		return fmt.Errorf("endpoint is %s, not InService: a scale-out cannot be timed now", status)
	}
	r.from, r.res.From = cur, cur
	r.before, err = r.cloud.Streams(ctx)
	return err
}

func (r *runner) startProbe(ctx context.Context) error {
	r.res.Obs.LoadApplied = r.cfg.Now()
	r.stopProbe = r.cfg.Probe.Start(ctx)
	r.say("probe: %d worker(s); holding %v before the trigger", r.cfg.Probe.Concurrency, r.cfg.Lead)
	return r.cfg.Sleep(ctx, r.cfg.Lead)
}

func (r *runner) trigger(ctx context.Context) error {
	r.res.Obs.DesiredSet = r.cfg.Now()
	if err := r.cloud.SetDesired(ctx, r.from+1); err != nil {
		return err
	}
	r.say("desired_set: %d → %d instances", r.from, r.from+1)
	return nil
}

func (r *runner) awaitInService(ctx context.Context) error {
	deadline := r.res.Obs.DesiredSet.Add(r.cfg.MaxWait)
	for {
		if err := r.cfg.Sleep(ctx, r.cfg.Poll); err != nil {
			return err
		}
		_, now, st, err := r.cloud.Counts(ctx)
		if err != nil {
			return err
		}
		if now > r.from {
			r.res.Obs.InService, r.res.To = r.cfg.Now(), now
			r.say("in_service: %d instances after %.1f s", now, r.res.Obs.InService.Sub(r.res.Obs.DesiredSet).Seconds())
			return nil
		}
		if !r.cfg.Now().Before(deadline) {
			return fmt.Errorf("no new instance in service within %v (endpoint %s, %d instance(s)): SageMaker may lack capacity for the type; check `kokoro endpoint describe` for a failure reason", r.cfg.MaxWait, st, now)
		}
	}
}

func (r *runner) recover(ctx context.Context) error {
	if err := holdForRecovery(ctx, r.cfg, &r.res); err != nil {
		return err
	}
	r.stopProbe()
	r.stopProbe = func() {}
	s := r.cfg.Probe.Samples()
	r.res.P95BeforeMs, r.res.RequestsBefore = p95Between(s, r.res.Obs.LoadApplied, r.res.Obs.InService)
	r.res.P95AfterMs, r.res.RequestsAfter = p95Between(s, r.res.Obs.InService, time.Time{})
	if n, last := r.cfg.Probe.Failures(); n > 0 {
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("%d probe request(s) failed; the last: %v", n, last))
	}
	return nil
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
