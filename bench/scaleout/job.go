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
	// successful freeze, with a context of its own bounded by ThawTimeout. FreezeSays ends
	// the plan's line for it (where the record is kept).
	Freeze     func(ctx context.Context) (thaw func(context.Context) error, err error)
	FreezeSays string
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

// Run runs the job and returns the artifact's path: the steps that Plan prints. A run its
// context ended returns an *InterruptedError and writes nothing.
func (j *TTotalJob) Run(ctx context.Context) (string, error) {
	r := &jobRun{j: j}
	defer func() { _ = r.restore(ctx) }() // panics and early returns; the normal path restores below
	before, after := r.steps()
	for _, st := range before {
		if err := st.do(ctx); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(j.Log, "ttotal: %s/%s, %d instance(s), probe %d in flight over %s, recovered at p95 ≤ %.0f ms\n",
		j.Endpoint, j.Variant, max(1, j.Current), r.size.Concurrency, j.Transport, r.size.RecoveredMs)
	cfg := j.Config
	cfg.Probe = &Probe{Transport: r.tr, Concurrency: r.size.Concurrency, Voice: j.Voice}
	cfg.RecoverTarget = time.Duration(r.size.RecoveredMs * float64(time.Millisecond))
	cfg.OnEvent = func(s string) { fmt.Fprintln(j.Log, s) }
	res, runErr := Run(ctx, j.Cloud, cfg)
	r.res = res
	if runErr != nil {
		err := errors.Join(runErr, r.restore(ctx))
		if ctx.Err() != nil {
			return "", &InterruptedError{Err: err}
		}
		return "", err
	}
	for _, st := range after {
		if err := st.do(ctx); err != nil {
			return "", err
		}
	}
	return r.path, nil
}

// Plan writes the steps Run takes, one numbered line each, calling nothing: the dry run.
func (j *TTotalJob) Plan(w io.Writer) {
	before, after := (&jobRun{j: j}).steps()
	n := 1
	for _, st := range before {
		fmt.Fprintf(w, "%d. %s\n", n, st.says)
		n++
	}
	n = Plan(w, j.Config, true, n)
	for _, st := range after {
		fmt.Fprintf(w, "%d. %s\n", n, st.says)
		n++
	}
}

// jobRun is one run of a TTotalJob: the state its steps share.
type jobRun struct {
	j          *TTotalJob
	size       Sizing
	tr         bench.Transport
	closeProbe func()
	thaw       func(context.Context) error // nil until frozen, and once restored
	res        Result
	path       string
}

// steps are the job's steps before the scale-out's own (Run's) and after them.
func (r *jobRun) steps() (before, after []step) {
	j := r.j
	probe := fmt.Sprintf("%d in flight", j.ProbeConcurrency)
	if j.ProbeConcurrency == 0 {
		probe = fmt.Sprintf("Q_max (%d) × the instances in service in flight", j.Qmax.QMax)
	}
	recovered := fmt.Sprintf("%.0f ms", j.RecoveredMs)
	if j.RecoveredMs <= 0 {
		recovered = "1.25 × the qmax p95 at the load per instance once one more serves"
	}
	before = []step{
		{"check that the qmax artifact measured the configuration the endpoint runs (instance type, image digest, container environment)",
			func(context.Context) error { return CheckPair(j.Qmax, j.Target, j.Endpoint, j.AllowConfigMismatch) }},
		{fmt.Sprintf("open the probe over %s: %s, recovered at p95 ≤ %s", j.Transport, probe, recovered), r.openProbe},
		{fmt.Sprintf("record and suspend %s/%s's autoscaling%s", j.Endpoint, j.Variant, j.FreezeSays), r.freeze},
	}
	after = []step{
		{"restore the instance count and the autoscaling as recorded", r.restore},
		{"write the ttotal artifact and its table into " + j.OutDir, r.write},
	}
	return before, after
}

func (r *jobRun) openProbe(ctx context.Context) error {
	size, err := Size(r.j.Qmax, r.j.Current, r.j.ProbeConcurrency, r.j.RecoveredMs)
	if err != nil {
		return err
	}
	r.size = size
	r.tr, r.closeProbe, err = r.j.OpenProbe(ctx, size.Concurrency)
	return err
}

func (r *jobRun) freeze(ctx context.Context) error {
	thaw, err := r.j.Freeze(ctx)
	r.thaw = thaw
	return err
}

// restore closes the probe and thaws the variant, once, with a context of its own bounded by
// ThawTimeout, so that an interrupted run still puts the variant back.
func (r *jobRun) restore(ctx context.Context) error {
	if r.closeProbe != nil {
		r.closeProbe()
		r.closeProbe = nil
	}
	if r.thaw == nil {
		return nil
	}
	thaw := r.thaw
	r.thaw = nil
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ThawTimeout)
	defer cancel()
	return thaw(tctx)
}

func (r *jobRun) write(context.Context) error {
	j := r.j
	var prov artifact.Provenance
	if j.Provenance != nil {
		prov = j.Provenance()
	}
	a, err := r.res.Artifact(Meta{
		Target:     j.Target,
		Provenance: prov,
		Trigger:    TriggerForceDesired, Pairs: j.Qmax.Ref(j.QmaxFile),
		PolicyLagBoundS: j.PolicyLagBoundS, ProbeConcurrency: r.size.Concurrency,
		P95ExpectedBeforeMs: r.size.ExpectedBeforeMs, P95RecoveredTargetMs: r.size.RecoveredMs,
	})
	if err != nil {
		return err
	}
	tab, err := NewTable(a.Stages)
	if err != nil {
		return err
	}
	if err := tab.Write(j.Out); err != nil {
		return err
	}
	fmt.Fprintf(j.Out, "T_total %.1f s measured, %.1f s with the %.0f s policy-lag bound (what kokoro plan sizes against)\n", a.MeasuredS, a.PlanningS, a.PolicyLagBoundS)
	for _, n := range a.Notes {
		fmt.Fprintln(j.Out, "note:", n)
	}
	r.path, err = artifact.Write(j.OutDir, a)
	return err
}
