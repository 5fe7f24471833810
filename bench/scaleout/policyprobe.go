package scaleout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/kokoro-sm/kokoro/bench"
)

// Reading is one look at a variant while a policy probe drives it: its counts and the states
// of the alarms watched.
type Reading struct {
	At               time.Time
	Desired, Current int
	Alarms           []AlarmReading
}

// AlarmReading is one alarm's state ("OK", "ALARM", "INSUFFICIENT_DATA").
type AlarmReading struct {
	Name, State string
}

// ScalingWatch is what a policy probe reads of the variant it drives.
type ScalingWatch interface {
	// Counts reads the variant's desired and current instance counts.
	Counts(ctx context.Context) (desired, current int, err error)
	// ScaleOutAlarms names the alarms that act on the variant's scale-out.
	ScaleOutAlarms(ctx context.Context) ([]string, error)
	// Watch hands a Reading of the variant and the alarms to on every interval until ctx
	// ends (nil then); a failed read ends it with its error.
	Watch(ctx context.Context, alarms []string, every time.Duration, on func(Reading)) error
}

// PolicyProbeJob is `kokoro policy validate --probe`: hold a closed-loop load above the
// policy's scale-out target and report whether and when the scale-out alarm fired, the
// desired count rose and the new capacity came into service.
type PolicyProbeJob struct {
	Scaling ScalingWatch
	// OpenProbe builds the transport the load runs over, with room for concurrency
	// requests; close releases it.
	OpenProbe func(ctx context.Context, concurrency int) (tr bench.Transport, close func(), err error)
	Transport string // its name, for messages
	// CScaleMax is the policy's scale-out target, requests in flight per instance.
	CScaleMax float64
	// Concurrency is the probe's requests in flight; 0 means 1.5 × CScaleMax × instances.
	Concurrency int
	Duration    time.Duration // how long the load is held
	Every       time.Duration // how often the variant and the alarms are read
	Voice       string
	Out         io.Writer // the timeline and the verdict
}

// Run drives the probe. It reports whether the policy scaled out: false when no alarm fired
// or no capacity came into service within Duration.
func (j *PolicyProbeJob) Run(ctx context.Context) (bool, error) {
	desired, current, err := j.Scaling.Counts(ctx)
	if err != nil {
		return false, err
	}
	n := j.Concurrency
	if n == 0 {
		n = int(math.Ceil(1.5 * j.CScaleMax * float64(max(1, current))))
	}
	alarms, err := j.Scaling.ScaleOutAlarms(ctx)
	if err != nil {
		return false, err
	}
	if len(alarms) == 0 {
		return false, errors.New("probe: the target-tracking policy has no alarm to watch: `kokoro policy apply` first")
	}
	tr, closeProbe, err := j.OpenProbe(ctx, n)
	if err != nil {
		return false, err
	}
	defer closeProbe()
	fmt.Fprintf(j.Out, "probe: %d in flight over %s for %v against a scale-out target of %.4g per instance (%d instance(s)); watching %s\n",
		n, j.Transport, j.Duration, j.CScaleMax, current, strings.Join(alarms, ", "))

	pctx, cancel := context.WithTimeout(ctx, j.Duration)
	defer cancel()
	probe := &Probe{Transport: tr, Concurrency: n, Voice: j.Voice}
	w := &ScaleOutWatch{Start: time.Now().UTC(), Desired: desired, Current: current, Out: j.Out}
	stopProbe := probe.Start(pctx)
	var mu sync.Mutex
	werr := j.Scaling.Watch(pctx, alarms, j.Every, func(r Reading) {
		mu.Lock()
		defer mu.Unlock()
		if w.Observe(r) {
			cancel() // the policy acted: nothing more to learn
		}
	})
	stopProbe()
	if werr != nil && pctx.Err() == nil {
		return false, werr
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var v95 []float64
	for _, x := range probe.Samples() {
		v95 = append(v95, float64(x.TTFAB)/float64(time.Millisecond))
	}
	if len(v95) > 0 {
		fmt.Fprintf(j.Out, "probe: %d requests, p95 TTFAB %.0f ms\n", len(v95), P95(v95))
	}
	mu.Lock()
	defer mu.Unlock()
	return w.Verdict(j.Duration), nil
}

// ScaleOutWatch follows a variant through a scale-out from its readings: the first alarm in
// ALARM, the first rise of the desired count and the first rise of the current count, each
// printed to Out as it is seen, relative to Start.
type ScaleOutWatch struct {
	Start            time.Time
	Desired, Current int // the counts before the load
	Out              io.Writer

	AlarmAt, DesiredAt, InServiceAt time.Time // zero until seen
	Alarm                           string    // the alarm that fired first
	peakDesired, peakCurrent        int
	started                         bool
}

// Observe takes one reading; it reports true once new capacity is in service.
func (w *ScaleOutWatch) Observe(r Reading) bool {
	if !w.started {
		w.peakDesired, w.peakCurrent, w.started = w.Desired, w.Current, true
	}
	for _, a := range r.Alarms {
		if a.State == "ALARM" && w.AlarmAt.IsZero() {
			w.AlarmAt, w.Alarm = r.At, a.Name
			fmt.Fprintf(w.Out, "+%5.0f s  alarm %s: ALARM\n", r.At.Sub(w.Start).Seconds(), a.Name)
		}
	}
	if r.Desired > w.peakDesired {
		w.peakDesired = r.Desired
		if w.DesiredAt.IsZero() {
			w.DesiredAt = r.At
			fmt.Fprintf(w.Out, "+%5.0f s  desired count %d → %d\n", r.At.Sub(w.Start).Seconds(), w.Desired, r.Desired)
		}
	}
	if r.Current > w.peakCurrent {
		w.peakCurrent = r.Current
		if w.InServiceAt.IsZero() {
			w.InServiceAt = r.At
			fmt.Fprintf(w.Out, "+%5.0f s  in service: %d instance(s)\n", r.At.Sub(w.Start).Seconds(), r.Current)
			return true
		}
	}
	return false
}

// Verdict prints the scale-out check's line and reports whether it passed: an alarm fired and
// new capacity came into service within d.
func (w *ScaleOutWatch) Verdict(d time.Duration) bool {
	switch {
	case w.AlarmAt.IsZero():
		fmt.Fprintf(w.Out, "FAIL  scale-out               no alarm fired within %v of load above the target\n", d)
		return false
	case w.InServiceAt.IsZero():
		fmt.Fprintf(w.Out, "FAIL  scale-out               %s fired after %.0f s, but capacity did not come into service within %v\n", w.Alarm, w.AlarmAt.Sub(w.Start).Seconds(), d)
		return false
	}
	fmt.Fprintf(w.Out, "OK    scale-out               alarm after %.0f s, desired count after %.0f s, new capacity in service after %.0f s\n",
		w.AlarmAt.Sub(w.Start).Seconds(), w.DesiredAt.Sub(w.Start).Seconds(), w.InServiceAt.Sub(w.Start).Seconds())
	return true
}
