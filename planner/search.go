package planner

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/kokoro-sm/kokoro/replay"
	"github.com/kokoro-sm/kokoro/scaling"
)

// Candidate policy kinds.
const (
	KindReference       = "reference"                   // target tracking on concurrency at C_scale_max (docs/planner.md's arithmetic)
	KindTTConcurrency   = "target-tracking-concurrency" // target tracking on ConcurrentRequestsPerModel (10 s)
	KindTTInvocations   = "target-tracking-invocations" // target tracking on InvocationsPerInstance (1 min)
	KindStepConcurrency = "step-concurrency"            // a step scale-out alarm on ConcurrentRequestsPerModel, one datapoint
	KindFloor           = "floor"                       // a fixed fleet sized for the surge at the peak
	KindFloorPlus       = "floor+"                      // a floor at the expected peak under the best dynamic policy
)

// Detection of each kind: the alarm's datapoints × period, plus one period for the one in
// progress when the surge begins (docs/replay.md: target tracking's alarms need 3 datapoints,
// 10 s for the high-resolution concurrency metric, 1 min for invocations; a step alarm here
// needs one).
const (
	detectTTConcurrencyS   = 3*10 + 10
	detectTTInvocationsS   = 3*60 + 60
	detectStepConcurrencyS = 1*10 + 10
	// FloorHorizonS is how long a fixed fleet must hold the surge: nothing will come.
	FloorHorizonS = 3600.0
	// DefaultMaxRefused is the default --max-refused: one request in a thousand.
	DefaultMaxRefused = 0.001
	// holdQuantile: a policy on ConcurrentRequestsPerModel's Maximum holds the load at which
	// the busiest instance's 10 s maximum exceeds the target in half the periods; above it the
	// alarm's three datapoints come within about two minutes.
	holdQuantile = 0.5
	// dayPoints samples the day's shape of the load for instance-hours.
	dayPoints = 96
	// simEventBudget bounds the events of one candidate's Monte Carlo check;
	// the proposal's, which the report's first lines rest on, gets proposalEventBudget.
	simEventBudget      = 2e6
	proposalEventBudget = 1e7
)

// Candidate is one policy the search weighed.
type Candidate struct {
	Kind        string  `json:"kind"`
	Description string  `json:"description"`
	Metric      string  `json:"metric,omitempty"`
	Target      float64 `json:"target,omitempty"`   // TargetValue, or the step alarm's threshold, in the metric's units
	ScaleIn     float64 `json:"scale_in,omitempty"` // the scale-in alarm's threshold, in the metric's units
	DetectS     float64 `json:"detect_s"`           // detection: the alarm's datapoints × period + one period
	HorizonS    float64 `json:"horizon_s"`          // detection + T_total: how long the surge meets the old fleet
	// OperatingRPS is the load per instance the policy holds before it scales out, at its
	// smallest fleet (the worst case: a policy on the busiest instance holds less per
	// instance in a larger fleet).
	OperatingRPS float64 `json:"operating_rps_per_instance"`
	// Refused is the share of requests refused while the surge meets the old fleet, at the
	// size of fleet where each instance carries the most (the smallest, for a policy on the
	// busiest instance); RefusedAtPeak the same at the peak fleet. Both are the steady state
	// at the surge's load with the measured service (exact, and an upper bound over any
	// horizon: the surge meets a queue that starts lower). Late is the share served beyond
	// the SLO there; RefusedExponential is Refused with exponential service times of the
	// same mean, an upper bound.
	Refused            float64 `json:"refused_share"`
	RefusedAtPeak      float64 `json:"refused_share_at_peak_fleet"`
	Late               float64 `json:"late_share"`
	RefusedExponential float64 `json:"refused_share_exponential"`
	// RefusedDay is the share refused over the day from trough to peak with no surge, the
	// fleet following the load.
	RefusedDay float64 `json:"refused_share_day"`
	// InstanceRefusal is the probability that one given instance refuses at least one request
	// within the horizon, exact with exponential service times (an upper bound); FleetAnyRefusal
	// is the chance that some instance of the peak fleet does, from the Monte Carlo estimate
	// where there is one, else from that bound.
	InstanceRefusal     float64  `json:"instance_refusal_probability_exponential"`
	FleetAnyRefusal     float64  `json:"fleet_any_refusal_at_peak"`
	Sim                 SimCheck `json:"monte_carlo"`
	MinInstances        int      `json:"min_instances"`
	PeakInstances       int      `json:"peak_instances"`
	InstanceHoursPerDay float64  `json:"instance_hours_per_day"` // over the day from trough to peak
	// Unbounded is true when no fleet holds the peak at the policy's operating point; its
	// fleet and cost are then not given.
	Unbounded bool   `json:"unbounded,omitempty"`
	Feasible  bool   `json:"feasible"`
	Why       string `json:"why"`

	// What the documents need.
	adjustPct, adjustMin int
	hold                 func(n int) float64 // per-instance load held with n instances
}

// PolicySearch is the search for the cheapest policy that survives the surge.
type PolicySearch struct {
	Service      replay.Fit  `json:"service"`
	Limit        int         `json:"queue_limit"` // MAX_QUEUE_DEPTH
	Surge        float64     `json:"surge"`
	MaxRefused   float64     `json:"max_refused"`
	MaxLate      float64     `json:"max_late"`
	MaxInstances int         `json:"max_instances,omitempty"`
	TTotalS      float64     `json:"t_total_s"`
	Model        string      `json:"model"`
	Instance     string      `json:"instance_model"`
	Candidates   []Candidate `json:"candidates"` // the reference first, then by cost
	// Proposal indexes the chosen candidate in Candidates; -1 when none is feasible.
	Proposal int `json:"proposal"`
	// LargestSurge is, when no candidate is feasible, the largest surge one of them survives
	// within the instance limit.
	LargestSurge float64 `json:"largest_survivable_surge,omitempty"`
	// Day is the proposal's documents replayed over the day (DayReplay).
	Day     *DayReplay `json:"day_replay,omitempty"`
	Skipped string     `json:"skipped,omitempty"`
}

// PolicyModel describes the search's model in words, for the plan and the report.
const PolicyModel = "each instance as a queue fitted to the ladder, refusing at MAX_QUEUE_DEPTH; a policy holds each " +
	"instance at an operating load (a concurrency target: the load at which the busiest instance's 10 s maximum " +
	"exceeds it half the time; an invocations target: the target itself); a surge multiplies the load for " +
	"detection + T_total, after which new capacity serves; refused and late = the shares of requests refused " +
	"and answered beyond the SLO at the surge's load (steady state, exact; an upper bound over the horizon)"

// Searched reports whether the search ran (it needs a peak in requests per second and a queue
// bound).
func (s *PolicySearch) Searched() bool { return s.Skipped == "" && len(s.Candidates) > 0 }

// proposal returns the chosen candidate, or nil.
func (s *PolicySearch) proposal() *Candidate {
	if s.Proposal < 0 || s.Proposal >= len(s.Candidates) {
		return nil
	}
	return &s.Candidates[s.Proposal]
}

// searchPolicies runs the search for plan p.
func searchPolicies(p *Plan, fit replay.Fit, sc Scenario) PolicySearch {
	th := p.Thresholds
	ps := PolicySearch{Service: fit, Limit: th.QueueMaxDepth, Surge: sc.Surge, MaxRefused: sc.MaxRefused, MaxLate: MaxLateShare,
		MaxInstances: sc.MaxInstances, TTotalS: th.TTotalS, Model: PolicyModel, Proposal: -1}
	svc := fit.Service
	if ps.Limit < 1 {
		ps.Skipped = "no Q_max, so no queue bound to keep"
		return ps
	}
	in := newInstance(svc, ps.Limit, sc.SLOms)
	ps.Instance = in.model()
	trough, peak := sc.TroughRPS, sc.PeakRPS
	if peak <= 0 {
		ps.Skipped = "the search sizes fleets by requests per second: give --peak-rps"
		return ps
	}
	cap1 := svc.Capacity()
	// The largest operating load whose surge stays within the limits; the shares are steady
	// states, so one load serves every horizon.
	lim := loadFor(cap1, func(l float64) bool { return in.survives(l, sc.Surge, sc.MaxRefused) })
	e := evaluator{c: in.exp, in: in, sc: sc, trough: trough, peak: peak, minFloor: sc.MinFloor, cap1: cap1}

	// The reference arithmetic: target tracking on concurrency at C_scale_max.
	ref := e.concurrency(KindReference, th.CScaleMax, float64(detectTTConcurrencyS)+th.TTotalS)
	ref.Description = fmt.Sprintf("target tracking on %s at C_scale_max %.4g (the arithmetic above)", scaling.MetricConcurrency, th.CScaleMax)
	e.day(&ref)
	cands := []Candidate{ref}

	// Target tracking on concurrency and the step alarm: the largest target whose operating
	// load survives.
	for _, k := range []struct {
		kind   string
		detect float64
	}{{KindTTConcurrency, detectTTConcurrencyS}, {KindStepConcurrency, detectStepConcurrencyS}} {
		horizon := k.detect + th.TTotalS
		// The largest integer target whose operating load at the smallest fleet is at most lim.
		lo, hi := 0, ps.Limit-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if e.concurrency(k.kind, float64(mid), horizon).OperatingRPS <= lim {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		cd := e.concurrency(k.kind, float64(max(lo, 1)), horizon)
		e.day(&cd)
		if k.kind == KindStepConcurrency {
			cd.adjustPct = int(math.Ceil(100*(sc.Surge-1) - 1e-9))
			cd.adjustMin = 2
			cd.Description = fmt.Sprintf("step scaling on %s > %.4g (1 datapoint of 10 s): +%d %%, at least %d instances",
				scaling.MetricConcurrency, cd.Target, cd.adjustPct, cd.adjustMin)
		} else {
			cd.Description = fmt.Sprintf("target tracking on %s at %.4g", scaling.MetricConcurrency, cd.Target)
		}
		cands = append(cands, cd)
	}

	// Target tracking on invocations: the operating load is the target itself.
	{
		horizon := detectTTInvocationsS + th.TTotalS
		cd := e.fixedLoad(KindTTInvocations, lim, horizon)
		cd.Metric = scaling.MetricInvocations
		// A whole number of invocations a minute where that loses under 1 %, else two decimals.
		cd.Target = math.Floor(lim * 60)
		if cd.Target < 100 {
			cd.Target = math.Floor(lim*60*100) / 100
		}
		cd.OperatingRPS = cd.Target / 60
		cd.hold = func(int) float64 { return cd.OperatingRPS }
		e.finish(&cd)
		e.day(&cd)
		cd.Description = fmt.Sprintf("target tracking on %s at %.4g a minute (%.3g rps per instance)", scaling.MetricInvocations, cd.Target, cd.OperatingRPS)
		cands = append(cands, cd)
	}

	// The best dynamic candidate so far, for the floor beside it.
	best := -1
	for i := 1; i < len(cands); i++ {
		if !cands[i].Unbounded && (best < 0 || cands[i].InstanceHoursPerDay < cands[best].InstanceHoursPerDay) {
			best = i
		}
	}

	// A floor alone: a fixed fleet that holds the surge at the peak for an hour.
	{
		n := max(sc.MinFloor, ceilDiv(peak, lim))
		cd := Candidate{Kind: KindFloor, DetectS: 0, HorizonS: FloorHorizonS, MinInstances: n, PeakInstances: n,
			OperatingRPS: peak / float64(n), InstanceHoursPerDay: float64(n) * 24}
		cd.Description = fmt.Sprintf("a fixed fleet of %d instances (MinCapacity = MaxCapacity), sized for the surge at the peak for an hour", n)
		cd.RefusedDay = e.dayRefused(func(float64) int { return n })
		e.judge(&cd, cd.OperatingRPS)
		cands = append(cands, cd)
	}
	// A floor at the expected peak beside the best dynamic policy.
	if best >= 0 {
		b := cands[best]
		cd := b
		cd.Kind = KindFloorPlus + b.Kind
		cd.MinInstances = b.PeakInstances
		cd.InstanceHoursPerDay = float64(cd.MinInstances) * 24
		cd.OperatingRPS = math.Min(b.OperatingRPS, peak/float64(cd.MinInstances))
		cd.Description = fmt.Sprintf("a floor of %d instances (MinCapacity, the expected peak) under %s", cd.MinInstances, b.Description)
		cd.RefusedDay = e.dayRefused(func(float64) int { return cd.MinInstances })
		e.judge(&cd, cd.OperatingRPS)
		cands = append(cands, cd)
	}

	// The cheapest feasible one.
	for i := 1; i < len(cands); i++ {
		cd := &cands[i]
		if !cd.Feasible {
			continue
		}
		if ps.Proposal < 0 || cd.InstanceHoursPerDay < cands[ps.Proposal].InstanceHoursPerDay-1e-9 {
			ps.Proposal = i
		}
	}
	for i := range cands {
		cd := &cands[i]
		switch {
		case i == ps.Proposal:
			cd.Why = "proposed: the cheapest that survives the surge"
		case cd.Why != "":
		case i == 0 && !cd.Feasible:
			cd.Why = e.failures(cd)
		case ps.Proposal >= 0:
			pr := cands[ps.Proposal]
			cd.Why = fmt.Sprintf("costs %.0f instance-hours a day, %.0f more than the proposal", cd.InstanceHoursPerDay, cd.InstanceHoursPerDay-pr.InstanceHoursPerDay)
		}
	}
	// Monte Carlo checks of the reference and the proposal: the proposal's with a budget that
	// lets its interval decide the claim. The others have the exponential bound alone.
	for i := range cands {
		cd := &cands[i]
		if cd.OperatingRPS > 0 && (i == 0 || i == ps.Proposal) {
			budget := simEventBudget
			if i == ps.Proposal {
				budget = proposalEventBudget
			}
			cd.Sim = in.simulate(cd.OperatingRPS, sc.Surge, cd.HorizonS, sc.MaxRefused, sc.SurgeTrials, budget, sc.Seed+uint64(i))
		}
		any := cd.InstanceRefusal
		if cd.Sim.Trials > 0 {
			any = cd.Sim.Any
		}
		cd.FleetAnyRefusal = 1 - math.Pow(1-any, float64(max(cd.PeakInstances, 1)))
	}
	// Reference first, then by cost.
	rest := cands[1:]
	chosen := ""
	if ps.Proposal > 0 {
		chosen = cands[ps.Proposal].Kind
	}
	sort.SliceStable(rest, func(i, j int) bool {
		if rest[i].Unbounded != rest[j].Unbounded {
			return !rest[i].Unbounded
		}
		return rest[i].InstanceHoursPerDay < rest[j].InstanceHoursPerDay
	})
	ps.Candidates = cands
	if chosen != "" {
		for i, cd := range cands {
			if cd.Kind == chosen {
				ps.Proposal = i
			}
		}
	}
	if ps.Proposal < 0 {
		ps.LargestSurge = e.largestSurge()
	}
	return ps
}

// chainFor is the birth–death chain of one instance with the fitted service, refusing at limit.
func chainFor(s replay.Service, limit int) chain {
	mu := make([]float64, limit+1)
	for n := range mu {
		mu[n] = float64(min(n, s.Servers)) / s.Mean.Seconds()
	}
	return chain{mu: mu}
}

// evaluator computes one candidate's operating point, fleet and cost.
type evaluator struct {
	c        chain // exponential service: the per-instance bound and the concurrency targets' windows
	in       instance
	sc       Scenario
	trough   float64
	peak     float64
	minFloor int
	cap1     float64
	grid     []float64         // loads at which window maxima are tabulated
	windows  map[int][]float64 // m → P(an instance's 10 s maximum ≤ m) at each grid load
}

// gridPoints tabulates P(10 s maximum ≤ m) against load, from 0 to 1.25 times the capacity
// (no policy holds an instance beyond it).
const gridPoints = 64

// holdFor is the per-instance load at which the busiest of n instances' 10 s maximum exceeds
// target in half the periods: P(one instance's maximum ≤ ⌊target⌋)ⁿ = 1/2. The probability
// falls as the load grows; it is tabulated once per target and read by interpolation.
func (e *evaluator) holdFor(target float64, n int) float64 {
	m := int(math.Floor(target + 1e-9))
	if e.windows == nil {
		e.windows = map[int][]float64{}
		e.grid = make([]float64, gridPoints+1)
		for i := range e.grid {
			e.grid[i] = 1.25 * e.cap1 * float64(i) / gridPoints
		}
	}
	f, ok := e.windows[m]
	if !ok {
		// Only down to one half: no fleet asks for a lower probability.
		for _, l := range e.grid {
			f = append(f, e.c.windowMax(l, m, 10))
			if f[len(f)-1] < holdQuantile {
				break
			}
		}
		e.windows[m] = f
	}
	want := math.Pow(holdQuantile, 1/float64(max(n, 1)))
	for i := 1; i < len(f); i++ {
		if f[i] < want {
			// f falls from f[i-1] ≥ want to f[i] < want between the two loads.
			x := (f[i-1] - want) / (f[i-1] - f[i])
			return e.grid[i-1] + x*(e.grid[i]-e.grid[i-1])
		}
	}
	return e.grid[len(f)-1]
}

func (e *evaluator) concurrency(kind string, target, horizon float64) Candidate {
	cd := Candidate{Kind: kind, Metric: scaling.MetricConcurrency, Target: target, HorizonS: horizon}
	cd.hold = func(n int) float64 { return e.holdFor(target, n) }
	e.finish(&cd)
	return cd
}

func detectFor(kind string) float64 {
	switch kind {
	case KindStepConcurrency:
		return detectStepConcurrencyS
	case KindTTInvocations:
		return detectTTInvocationsS
	}
	return detectTTConcurrencyS
}

func (e *evaluator) fixedLoad(kind string, load, horizon float64) Candidate {
	return Candidate{Kind: kind, DetectS: detectFor(kind), HorizonS: horizon, OperatingRPS: load}
}

// maxFleet bounds the fleets the search sizes: a policy that cannot hold a load with this many
// instances cannot hold it at all.
const maxFleet = 1 << 20

// fleet is the smallest fleet of at least min instances that holds load at the policy's
// operating point, and false when no fleet up to maxFleet does (a target on the busiest
// instance can hold only so much, however many instances share it).
func (e *evaluator) fleet(cd *Candidate, load float64, least int) (int, bool) {
	n := max(least, 1)
	if cd.hold(n)*float64(n) >= load {
		return n, true
	}
	// Grow geometrically, then bisect: n·hold(n) grows with n.
	hi := n
	for cd.hold(hi)*float64(hi) < load {
		if hi >= maxFleet {
			return 0, false
		}
		hi = min(2*hi, maxFleet)
	}
	lo := hi / 2
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if cd.hold(mid)*float64(mid) >= load {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// finish sizes the candidate's fleets and cost over the day and judges its surge.
func (e *evaluator) finish(cd *Candidate) {
	cd.DetectS = detectFor(cd.Kind)
	if cd.hold == nil || cd.hold(1) <= 0 {
		cd.Why = "holds no load"
		return
	}
	var ok bool
	if cd.MinInstances, ok = e.fleet(cd, e.trough, e.minFloor); ok {
		cd.PeakInstances, ok = e.fleet(cd, e.peak, cd.MinInstances)
	}
	if !ok {
		cd.Unbounded = true
		cd.OperatingRPS = cd.hold(max(cd.MinInstances, e.minFloor, 1))
		e.judge(cd, cd.OperatingRPS)
		cd.Feasible = false
		cd.Why = fmt.Sprintf("cannot hold the load with any fleet up to %d instances: the busiest instance's maximum passes %.4g however the load is spread", maxFleet, cd.Target)
		return
	}
	cd.OperatingRPS = cd.hold(cd.MinInstances)
	day := replay.Day(e.trough, e.peak, 24*time.Hour)
	var hours float64
	for i := range dayPoints {
		at := 24 * time.Hour * time.Duration(2*i+1) / (2 * dayPoints)
		n, _ := e.fleet(cd, day.At(at), cd.MinInstances)
		hours += float64(n) * 24 / dayPoints
	}
	cd.InstanceHoursPerDay = hours
	e.judge(cd, cd.hold(cd.PeakInstances))
}

// day sets the candidate's share refused over the day.
func (e *evaluator) day(cd *Candidate) {
	if cd.Unbounded || cd.hold == nil {
		return
	}
	cd.RefusedDay = e.dayRefused(func(load float64) int {
		n, _ := e.fleet(cd, load, cd.MinInstances)
		return n
	})
}

// dayRefused is the share refused over the day from trough to peak, the fleet at each load
// being fleet(load) instances sharing it evenly, each in its steady state.
func (e *evaluator) dayRefused(fleet func(load float64) int) float64 {
	return dayShare(e.in, e.trough, e.peak, fleet)
}

// judge computes the candidate's surge figures, its operating load at the peak fleet being
// atPeak, and its feasibility.
func (e *evaluator) judge(cd *Candidate, atPeak float64) {
	s := e.sc.Surge
	cd.Refused = e.in.refused(s * cd.OperatingRPS)
	cd.RefusedAtPeak = e.in.refused(s * math.Min(atPeak, cd.OperatingRPS))
	cd.Late = e.in.late(s * cd.OperatingRPS)
	cd.RefusedExponential = e.in.refusedExponential(s * cd.OperatingRPS)
	cd.InstanceRefusal = e.c.shed(cd.OperatingRPS, s, cd.HorizonS)
	e.check(cd)
}

// check judges feasibility: the shares refused and late, and the instance limit.
func (e *evaluator) check(cd *Candidate) {
	if cd.Unbounded {
		cd.Feasible = false
		return
	}
	cd.Why = e.failures(cd)
	cd.Feasible = cd.Why == ""
}

// failures says which limits the candidate breaks, empty when none.
func (e *evaluator) failures(cd *Candidate) string {
	var why []string
	if cd.Refused > e.sc.MaxRefused {
		why = append(why, fmt.Sprintf("refuses %s of requests in the surge > %s", pct(cd.Refused), pct(e.sc.MaxRefused)))
	}
	if cd.Late > MaxLateShare {
		why = append(why, fmt.Sprintf("answers %s of requests beyond the SLO in the surge > %s", pct(cd.Late), pct(MaxLateShare)))
	}
	if e.sc.MaxInstances > 0 && cd.PeakInstances > e.sc.MaxInstances {
		why = append(why, fmt.Sprintf("needs %d instances at the peak, over --max-instances %d", cd.PeakInstances, e.sc.MaxInstances))
	}
	return strings.Join(why, "; ")
}

// pct writes a share as a percentage with three significant digits.
func pct(x float64) string { return fmt.Sprintf("%.3g %%", 100*x) }

// largestSurge is the largest surge some policy survives with the instance limit: the peak
// spread over MaxInstances instances, multiplied by the surge, must keep the shares refused
// and late within the limits.
func (e *evaluator) largestSurge() float64 {
	if e.sc.MaxInstances <= 0 {
		return 0
	}
	load := e.peak / float64(e.sc.MaxInstances)
	if !e.in.survives(load, 1, e.sc.MaxRefused) {
		return 0
	}
	lo, hi := 1.0, 10.0
	for range 50 {
		mid := (lo + hi) / 2
		if e.in.survives(load, mid, e.sc.MaxRefused) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
