package scaleout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
	"github.com/kokoro-sm/kokoro/bench"
)

// ThawTimeout bounds the restore after a run: it outlives the run's own context, so that an
// interrupted run still puts the variant back.
const ThawTimeout = 25 * time.Minute

// TTotalJob is one `kokoro bench ttotal`: check the qmax artifact against the endpoint's
// configuration, size the probe and its recovery target from it, freeze the variant's
// scaling, time one forced scale-out, restore the variant on every exit, and write the ttotal
// artifact and its table.
type TTotalJob struct {
	Cloud Cloud
	// Freeze suspends the variant's scaling and records what to restore; the thaw it returns
	// puts the count and the scaling back. The job thaws exactly once, on every exit after a
	// successful freeze, with a context of its own bounded by ThawTimeout.
	Freeze func(ctx context.Context) (thaw func(context.Context) error, err error)
	// OpenProbe builds the transport the probe load runs over, with room for concurrency
	// requests; close releases it.
	OpenProbe func(ctx context.Context, concurrency int) (tr bench.Transport, close func(), err error)

	Qmax     *artifact.Qmax
	QmaxFile string          // the artifact's file name, recorded as the pair
	Target   artifact.Target // the endpoint as it runs now
	// AllowConfigMismatch pairs with a qmax artifact of another configuration.
	AllowConfigMismatch bool
	// Current is the variant's instance count in service before the run.
	Current int

	Endpoint, Variant, Transport string // for messages
	// ProbeConcurrency is the probe's requests in flight; 0 means Q_max × instances.
	ProbeConcurrency int
	// RecoveredMs is the probe p95 TTFAB that counts as recovered; 0 means 1.25 × the qmax
	// p95 at the per-instance load after the scale-out.
	RecoveredMs float64
	Voice       string
	// PolicyLagBoundS bounds the detection lag a real policy adds, seconds.
	PolicyLagBoundS float64
	// Config configures the scale-out (Lead, Poll, MaxWait, Hold, RecoverWindow, LogWait); the
	// job fills in Probe, RecoverTarget and OnEvent.
	Config Config
	// Provenance is called when the artifact is made: it records that moment.
	Provenance func() artifact.Provenance

	OutDir string
	Out    io.Writer // the table, T_total and the artifact's path
	Log    io.Writer // progress lines
}

// InterruptedError is a run that its context cut short: no artifact was written.
type InterruptedError struct{ Err error }

func (e *InterruptedError) Error() string {
	return "interrupted; no artifact written: " + e.Err.Error()
}

// Unwrap returns the run's (and the restore's) errors.
func (e *InterruptedError) Unwrap() error { return e.Err }

// Sizing is a probe sized from a qmax artifact.
type Sizing struct {
	Concurrency int
	// ExpectedBeforeMs is the qmax p95 at the per-instance load before the scale-out.
	ExpectedBeforeMs float64
	// RecoveredMs is the p95 that counts as recovered.
	RecoveredMs float64
}

// Size sizes the probe: concurrency requests over max(1, current) instances (0: Q_max each),
// recovered at p95 ≤ recoveredMs (0: 1.25 × the qmax p95 at the load per instance once one
// more serves).
func Size(q *artifact.Qmax, current, concurrency int, recoveredMs float64) (Sizing, error) {
	from := max(1, current)
	p := concurrency
	if p == 0 {
		p = q.QMax * from
	}
	if p < 1 {
		return Sizing{}, errors.New("the qmax artifact has Q_max 0: pass --probe-concurrency")
	}
	s := Sizing{Concurrency: p, ExpectedBeforeMs: ExpectedP95(q, float64(p)/float64(from)), RecoveredMs: recoveredMs}
	if s.RecoveredMs <= 0 {
		s.RecoveredMs = 1.25 * ExpectedP95(q, float64(p)/float64(from+1))
	}
	if math.IsNaN(s.RecoveredMs) || s.RecoveredMs <= 0 {
		return Sizing{}, errors.New("the qmax artifact has no completed rung to set the recovery target from: pass --recovered-ms")
	}
	return s, nil
}

// CheckPair refuses a qmax artifact of another configuration than target unless allowed.
func CheckPair(q *artifact.Qmax, target artifact.Target, endpoint string, allow bool) error {
	if fp := target.Fingerprint(); fp != q.Fingerprint && !allow {
		return fmt.Errorf("the qmax artifact measured another configuration (%s, fingerprint %.12s) than %s runs now (%s, fingerprint %.12s: instance type, image digest, container environment): measure it again, or pass --allow-config-mismatch",
			q.Slug, q.Fingerprint, endpoint, target.Slug(), fp)
	}
	return nil
}

// Run runs the job and returns the artifact's path. A run its context ended returns an
// *InterruptedError and writes nothing.
func (j *TTotalJob) Run(ctx context.Context) (string, error) {
	if err := CheckPair(j.Qmax, j.Target, j.Endpoint, j.AllowConfigMismatch); err != nil {
		return "", err
	}
	size, err := Size(j.Qmax, j.Current, j.ProbeConcurrency, j.RecoveredMs)
	if err != nil {
		return "", err
	}
	tr, closeProbe, err := j.OpenProbe(ctx, size.Concurrency)
	if err != nil {
		return "", err
	}
	defer closeProbe()

	thawFn, err := j.Freeze(ctx)
	if err != nil {
		return "", err
	}
	thawed := false
	thaw := func() error {
		if thawed {
			return nil
		}
		thawed = true
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ThawTimeout)
		defer cancel()
		return thawFn(tctx)
	}
	defer func() { _ = thaw() }() // panics and early returns; the normal path thaws below

	fmt.Fprintf(j.Log, "ttotal: %s/%s, %d instance(s), probe %d in flight over %s, recovered at p95 ≤ %.0f ms\n",
		j.Endpoint, j.Variant, max(1, j.Current), size.Concurrency, j.Transport, size.RecoveredMs)
	cfg := j.Config
	cfg.Probe = &Probe{Transport: tr, Concurrency: size.Concurrency, Voice: j.Voice}
	cfg.RecoverTarget = time.Duration(size.RecoveredMs * float64(time.Millisecond))
	cfg.OnEvent = func(s string) { fmt.Fprintln(j.Log, s) }
	res, runErr := Run(ctx, j.Cloud, cfg)
	thawErr := thaw()
	if runErr != nil {
		err := errors.Join(runErr, thawErr)
		if ctx.Err() != nil {
			return "", &InterruptedError{Err: err}
		}
		return "", err
	}
	if thawErr != nil {
		return "", thawErr
	}
	var prov artifact.Provenance
	if j.Provenance != nil {
		prov = j.Provenance()
	}
	a, err := res.Artifact(Meta{
		Target:     j.Target,
		Provenance: prov,
		Trigger:    TriggerForceDesired, Pairs: j.Qmax.Ref(j.QmaxFile),
		PolicyLagBoundS: j.PolicyLagBoundS, ProbeConcurrency: size.Concurrency,
		P95ExpectedBeforeMs: size.ExpectedBeforeMs, P95RecoveredTargetMs: size.RecoveredMs,
	})
	if err != nil {
		return "", err
	}
	tab, err := NewTable(a.Stages)
	if err != nil {
		return "", err
	}
	if err := tab.Write(j.Out); err != nil {
		return "", err
	}
	fmt.Fprintf(j.Out, "T_total %.1f s measured, %.1f s with the %.0f s policy-lag bound (what kokoro plan sizes against)\n", a.MeasuredS, a.PlanningS, a.PolicyLagBoundS)
	for _, n := range a.Notes {
		fmt.Fprintln(j.Out, "note:", n)
	}
	return artifact.Write(j.OutDir, a)
}
