package emulate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/scaling"
)

// Autoscale scales one variant of the emulated endpoint with a policy, as Application Auto
// Scaling and SageMaker would: the emulator's own ConcurrentRequestsPerModel and invocations
// feed package scaling's model of the alarms; a rise of the desired count starts containers
// (Spawn) that serve Provision later, one update at a time; a fall drains the least busy
// containers (among equals the newest) and stops those it started.
type Autoscale struct {
	Variant   string // the variant that scales; "" = the first
	Documents scaling.Documents
	// Model is scaling's model of AWS; its TimeScale compresses AWS's periods and cooldowns
	// for a run of minutes instead of hours.
	Model scaling.Model
	// Provision is how long from the desired count's rise until the new containers serve (a
	// container that takes longer to start serves when it is ready).
	Provision time.Duration
	// Spawn starts one container and returns its base URL and what stops it.
	Spawn func(ctx context.Context) (url string, stop func() error, err error)
	// Tick is how often concurrency is sampled; default 50 ms.
	Tick time.Duration
	// OnActivity, when set, sees each scaling activity as it happens.
	OnActivity func(scaling.Activity)
}

// CapacityPoint is the scaled variant's capacity from At (since the autoscaler started) on.
type CapacityPoint struct {
	At        time.Duration `json:"at_ns"`
	Desired   int           `json:"desired"`
	InService int           `json:"in_service"`
}

// autoscaler runs Autoscale for one variant.
type autoscaler struct {
	e      *Emulator
	v      *variant
	cfg    Autoscale
	scaler *scaling.Scaler
	began  time.Time
	cancel context.CancelFunc
	done   chan struct{}
	wg     sync.WaitGroup

	mu       sync.Mutex
	acts     []scaling.Activity
	capacity []CapacityPoint
	desired  int
	updating bool
	draining []*instance
	started  []*instance // containers Spawn started, stopped at close
	errs     []error
}

func newAutoscaler(e *Emulator, cfg Autoscale) (*autoscaler, error) {
	if cfg.Spawn == nil {
		return nil, errors.New("emulator: autoscaling needs a way to start containers")
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 50 * time.Millisecond
	}
	v := e.variants[0]
	if cfg.Variant != "" {
		i := slices.IndexFunc(e.variants, func(v *variant) bool { return v.name == cfg.Variant })
		if i < 0 {
			return nil, fmt.Errorf("emulator: no variant %s to scale", cfg.Variant)
		}
		v = e.variants[i]
	}
	n := len(v.instances)
	sc, err := scaling.NewScaler(cfg.Documents, cfg.Model, n)
	if err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	a := &autoscaler{e: e, v: v, cfg: cfg, scaler: sc, desired: n, done: make(chan struct{})}
	if d := sc.Desired(); d != n {
		// The scalable target's bounds move the fleet into them, as registering it does.
		a.desired = n
		a.act(0, scaling.Activity{From: n, To: d, Policy: "scalable target", Reason: "capacity bounds"})
	}
	return a, nil
}

func (a *autoscaler) start() {
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	a.began = time.Now()
	a.record(0)
	go func() {
		defer close(a.done)
		a.loop(ctx)
	}()
}

func (a *autoscaler) since() time.Duration { return time.Since(a.began) }

func (a *autoscaler) loop(ctx context.Context) {
	t := time.NewTicker(a.cfg.Tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := a.since()
		live := a.v.serving()
		var total, peak int64
		for _, in := range live {
			cur := in.inFlight.Load()
			p := max(cur, in.scalePeak.Swap(cur))
			total += cur
			peak = max(peak, p)
		}
		mean := 0.0
		if len(live) > 0 {
			mean = float64(total) / float64(len(live))
		}
		a.mu.Lock()
		a.scaler.Concurrency(now, mean, float64(peak))
		for range a.v.invocations.Swap(0) {
			a.scaler.Invocation(now)
		}
		acts := a.scaler.Advance(now)
		a.mu.Unlock()
		for _, act := range acts {
			a.act(now, act)
		}
		a.reap()
	}
}

// act carries out one activity: a rise starts an update, a fall drains.
func (a *autoscaler) act(now time.Duration, act scaling.Activity) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.acts = append(a.acts, act)
	if a.cfg.OnActivity != nil {
		a.cfg.OnActivity(act)
	}
	live := a.v.serving()
	a.desired = act.To
	switch {
	case act.To > len(live) && !a.updating:
		a.updating = true
		a.scaler.Updating(now, true)
		a.wg.Add(1)
		go a.update(act.To - len(live))
	case act.To < len(live):
		// The least busy first, and among equals the newest: the containers this autoscaler
		// started go before the ones the emulator was given.
		byLoad := slices.Clone(live)
		slices.Reverse(byLoad)
		slices.SortStableFunc(byLoad, func(x, y *instance) int { return int(x.inFlight.Load() - y.inFlight.Load()) })
		drain := byLoad[:len(live)-act.To]
		a.v.mu.Lock()
		a.v.instances = slices.DeleteFunc(slices.Clone(a.v.instances), func(in *instance) bool { return slices.Contains(drain, in) })
		a.v.mu.Unlock()
		a.draining = append(a.draining, drain...)
		a.scaler.InService(now, act.To)
	}
	a.record(now)
}

// update starts n containers and puts them in service once they are up and Provision has
// passed since the desired count rose.
func (a *autoscaler) update(n int) {
	defer a.wg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-a.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	ready := time.After(a.cfg.Provision)
	type spawned struct {
		in  *instance
		err error
	}
	out := make(chan spawned, n)
	for range n {
		go func() {
			raw, stop, err := a.cfg.Spawn(ctx)
			if err != nil {
				out <- spawned{err: err}
				return
			}
			u, err := url.Parse(strings.TrimSuffix(raw, "/"))
			if err != nil {
				_ = stop()
				out <- spawned{err: err}
				return
			}
			out <- spawned{in: &instance{base: u, stop: stop}}
		}()
	}
	var fresh []*instance
	var errs []error
	for range n {
		s := <-out
		if s.err != nil {
			errs = append(errs, s.err)
			continue
		}
		fresh = append(fresh, s.in)
	}
	select {
	case <-ready:
	case <-ctx.Done():
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.started = append(a.started, fresh...)
	a.errs = append(a.errs, errs...)
	if ctx.Err() != nil {
		return
	}
	a.v.mu.Lock()
	a.v.instances = append(slices.Clone(a.v.instances), fresh...)
	inSvc := len(a.v.instances)
	a.v.mu.Unlock()
	now := a.since()
	a.scaler.InService(now, inSvc)
	a.scaler.Updating(now, false)
	a.updating = false
	for _, err := range errs {
		a.e.log.Warn("autoscaling: a container did not start", "err", err)
	}
	a.record(now)
}

// reap stops drained containers once their requests are done.
func (a *autoscaler) reap() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.draining = slices.DeleteFunc(a.draining, func(in *instance) bool {
		if in.inFlight.Load() > 0 {
			return false
		}
		if in.stop != nil {
			if err := in.stop(); err != nil {
				a.errs = append(a.errs, err)
			}
			in.stop = nil
		}
		return true
	})
}

func (a *autoscaler) record(now time.Duration) {
	p := CapacityPoint{At: now, Desired: a.desired, InService: len(a.v.serving())}
	if n := len(a.capacity); n > 0 && a.capacity[n-1].Desired == p.Desired && a.capacity[n-1].InService == p.InService {
		return
	}
	a.capacity = append(a.capacity, p)
}

// close stops the loop, waits for updates under way and stops every container it started.
func (a *autoscaler) close() error {
	if a.cancel != nil {
		a.cancel()
		<-a.done
	}
	a.wg.Wait()
	a.mu.Lock()
	defer a.mu.Unlock()
	errs := a.errs
	for _, in := range a.started {
		if in.stop != nil {
			errs = append(errs, in.stop())
			in.stop = nil
		}
	}
	return errors.Join(errs...)
}

// Scaling returns the scaling activities and the capacity of the scaled variant so far, times
// counted from the emulator's start.
func (e *Emulator) Scaling() ([]scaling.Activity, []CapacityPoint) {
	if e.scaler == nil {
		return nil, nil
	}
	a := e.scaler
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.acts), slices.Clone(a.capacity)
}
