package scaling

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Model is how AWS acts on the documents: the constants of CloudWatch and Application Auto
// Scaling the Scaler follows. DefaultModel gives the documented values (docs/replay.md names
// the source of each).
type Model struct {
	// ConcurrencyPeriod and InvocationsPeriod are the metrics' periods: ConcurrentRequestsPerModel
	// is high-resolution (10 s), InvocationsPerInstance a standard metric (1 min).
	ConcurrencyPeriod time.Duration
	InvocationsPeriod time.Duration
	// ConcurrencyStatistic is the statistic target tracking reads ConcurrentRequestsPerModel
	// with.
	ConcurrencyStatistic string
	// TTHighDatapoints consecutive datapoints above the target put target tracking's scale-out
	// alarm in ALARM.
	TTHighDatapoints int
	// TTLowWindow of datapoints under TTLowFraction × target put its scale-in alarm in ALARM
	// (90 datapoints of 10 s, 15 of a minute).
	TTLowWindow   time.Duration
	TTLowFraction float64
	// Reinvoke is how often an alarm that stays in ALARM invokes its scaling policy again.
	Reinvoke time.Duration
	// Delay is how long after a period ends its datapoint is evaluated (CloudWatch's ingestion
	// and the alarm's evaluation).
	Delay time.Duration
	// TimeScale multiplies every duration, the model's and the documents' (periods, cooldowns),
	// for runs that compress AWS's time at the same request rates: 0.1 plays a 10 s period in
	// 1 s. A count over a period (InvocationsPerInstance) is divided by it, so the metric reads
	// what AWS would read of the same rates over its own period. 0 means 1.
	TimeScale float64
}

// scale converts an AWS duration to the run's time.
func (m Model) scale(d time.Duration) time.Duration {
	if m.TimeScale == 0 || m.TimeScale == 1 {
		return d
	}
	return time.Duration(float64(d) * m.TimeScale)
}

// seconds converts a document's whole seconds to the run's time.
func (m Model) seconds(n int) time.Duration { return m.scale(time.Duration(n) * time.Second) }

// DefaultModel returns the model of docs/replay.md.
func DefaultModel() Model {
	return Model{
		ConcurrencyPeriod:    10 * time.Second,
		InvocationsPeriod:    time.Minute,
		ConcurrencyStatistic: "Maximum",
		TTHighDatapoints:     3,
		TTLowWindow:          15 * time.Minute,
		TTLowFraction:        0.9,
		Reinvoke:             time.Minute,
	}
}

// Activity is one change of the desired capacity.
type Activity struct {
	At     time.Duration `json:"at_ns"`
	From   int           `json:"from"`
	To     int           `json:"to"`
	Policy string        `json:"policy"`
	Reason string        `json:"reason"`
}

func (a Activity) String() string {
	return fmt.Sprintf("%v %s %d → %d: %s", a.At, a.Policy, a.From, a.To, a.Reason)
}

// metricKey identifies a metric aggregated at one period.
type metricKey struct {
	name   string
	period time.Duration
}

// series aggregates one metric into periods. Concurrency is a step function (each value holds
// until the next): the mean over the instances in service, whose time-weighted average is the
// period's Average, and the busiest instance, whose highest value is its Maximum (SageMaker
// reports each instance under the variant's dimensions, so CloudWatch's Maximum is the most
// requests any one instance held). Invocations are counts summed over the period.
type series struct {
	key    metricKey
	step   bool
	mean   float64 // step function: per-instance mean now
	peak   float64 // step function: the busiest instance now
	at     time.Duration
	period int64 // index of the open period
	max    float64
	min    float64
	area   float64 // ∫ mean dt over the open period
	sum    float64
	count  int
	closed []datapoint // most recent last
}

type datapoint struct {
	end   time.Duration
	stats map[string]float64
}

func (s *series) open(idx int64) {
	s.period, s.sum, s.count, s.area = idx, 0, 0, 0
	s.max, s.min = s.peak, s.mean
}

// advance closes every period that ends at or before t.
func (s *series) advance(t time.Duration) {
	for {
		end := time.Duration(s.period+1) * s.key.period
		if end > t {
			break
		}
		st := map[string]float64{"Sum": s.sum, "SampleCount": float64(s.count)}
		if s.step {
			s.area += s.mean * float64(end-s.at)
			s.at = end
			st["Maximum"], st["Minimum"] = s.max, s.min
			st["Average"] = s.area / float64(s.key.period)
		} else {
			st["Maximum"], st["Minimum"], st["Average"] = s.sum, s.sum, s.sum
		}
		s.closed = append(s.closed, datapoint{end: end, stats: st})
		if len(s.closed) > 64 {
			s.closed = s.closed[len(s.closed)-64:]
		}
		s.open(s.period + 1)
	}
}

func (s *series) set(t time.Duration, mean, peak float64) {
	s.advance(t)
	s.area += s.mean * float64(t-s.at)
	if t == time.Duration(s.period)*s.key.period {
		// A change at the period's start: the value carried in held for no time in it.
		s.max, s.min = peak, mean
	}
	s.at, s.mean, s.peak = t, mean, peak
	s.max, s.min = math.Max(s.max, peak), math.Min(s.min, mean)
}

func (s *series) add(t time.Duration, v float64) {
	s.advance(t)
	s.sum += v
	s.count++
}

// alarm is an alarm the Scaler evaluates: one of the documents' or one target tracking makes.
type alarm struct {
	name       string
	metric     metricKey
	statistic  string
	evaluation int // EvaluationPeriods
	toAlarm    int // DatapointsToAlarm
	threshold  float64
	compare    func(v, threshold float64) bool
	state      bool // in ALARM
	lastInvoke time.Duration
	next       time.Duration // when it evaluates next
	act        func(t time.Duration, a *alarm, points []float64) *Activity
}

// Scaler models Application Auto Scaling and CloudWatch acting on one variant's documents.
// Feed it the variant's observations in time order (Concurrency, Invocation, InService) and
// call Advance to learn the capacity it asks for. It is not safe for concurrent use.
type Scaler struct {
	m        Model
	min, max int
	desired  int
	inSvc    int
	now      time.Duration
	series   map[metricKey]*series
	alarms   []*alarm
	// Cooldown state: when the last scale-out and scale-in activity of each policy began,
	// and the adjustment the last step scale-out made.
	lastOut, lastIn map[string]time.Duration
	outBase         map[string]int // capacity before the scale-out whose cooldown runs
	updating        bool           // the endpoint is being updated: activities are not taken
	deferred        int
	pending         []Activity
}

// NewScaler builds the model of d at time 0 with desired and in-service capacity start.
func NewScaler(d Documents, m Model, start int) (*Scaler, error) {
	st := d.ScalableTarget
	if st == nil {
		return nil, errors.New("scaling: the documents have no scalable target")
	}
	if st.MinCapacity < 0 || st.MaxCapacity < st.MinCapacity {
		return nil, fmt.Errorf("scaling: capacity bounds %d..%d", st.MinCapacity, st.MaxCapacity)
	}
	// The model's own durations in the run's time; document seconds are scaled as read.
	m.ConcurrencyPeriod, m.InvocationsPeriod = m.scale(m.ConcurrencyPeriod), m.scale(m.InvocationsPeriod)
	m.TTLowWindow, m.Reinvoke, m.Delay = m.scale(m.TTLowWindow), m.scale(m.Reinvoke), m.scale(m.Delay)
	s := &Scaler{m: m, min: st.MinCapacity, max: st.MaxCapacity, series: map[metricKey]*series{},
		lastOut: map[string]time.Duration{}, lastIn: map[string]time.Duration{}, outBase: map[string]int{}}
	s.desired = s.clamp(start)
	s.inSvc = s.desired
	if tt := d.TargetTracking; tt != nil {
		if err := s.addTargetTracking(tt); err != nil {
			return nil, err
		}
	}
	for _, pair := range []struct {
		p *ScalingPolicy
		a *MetricAlarm
	}{{d.StepScaleOut, d.ScaleOutAlarm}, {d.StepScaleIn, d.ScaleInAlarm}} {
		if pair.p == nil && pair.a == nil {
			continue
		}
		if pair.p == nil || pair.a == nil {
			return nil, errors.New("scaling: a step policy needs its alarm, and an alarm its policy")
		}
		if err := s.addStep(pair.p, pair.a); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Desired is the capacity the Scaler asks for now.
func (s *Scaler) Desired() int { return s.desired }

func (s *Scaler) clamp(n int) int { return min(max(n, s.min), s.max) }

func (s *Scaler) seriesFor(k metricKey, step bool) *series {
	sr, ok := s.series[k]
	if !ok {
		sr = &series{key: k, step: step}
		sr.open(int64(s.now / k.period))
		sr.at = s.now
		s.series[k] = sr
	}
	return sr
}

func (s *Scaler) addAlarm(a *alarm) {
	a.next = a.metric.period + s.m.Delay
	s.alarms = append(s.alarms, a)
}

func comparison(op string) (func(v, th float64) bool, error) {
	switch op {
	case "GreaterThanThreshold":
		return func(v, th float64) bool { return v > th }, nil
	case "GreaterThanOrEqualToThreshold":
		return func(v, th float64) bool { return v >= th }, nil
	case "LessThanThreshold":
		return func(v, th float64) bool { return v < th }, nil
	case "LessThanOrEqualToThreshold":
		return func(v, th float64) bool { return v <= th }, nil
	}
	return nil, fmt.Errorf("scaling: comparison %q is not modelled", op)
}

// metricFor maps a predefined metric type or an alarm's metric name to the series it reads.
func (s *Scaler) metricFor(name string, period time.Duration) (metricKey, bool, error) {
	switch name {
	case MetricConcurrency, PredefinedConcurrency:
		if period == 0 {
			period = s.m.ConcurrencyPeriod
		}
		return metricKey{MetricConcurrency, period}, true, nil
	case MetricInvocations, PredefinedInvocations:
		if period == 0 {
			period = s.m.InvocationsPeriod
		}
		return metricKey{MetricInvocations, period}, false, nil
	}
	return metricKey{}, false, fmt.Errorf("scaling: metric %q is not modelled (only %s and %s)", name, MetricConcurrency, MetricInvocations)
}

func (s *Scaler) addTargetTracking(p *ScalingPolicy) error {
	c := p.TargetTrackingScalingPolicyConfiguration
	if c == nil || !(c.TargetValue > 0) {
		return fmt.Errorf("scaling: target-tracking policy %s has no positive target", p.PolicyName)
	}
	mt := c.PredefinedMetricSpecification.PredefinedMetricType
	key, step, err := s.metricFor(mt, 0)
	if err != nil {
		return err
	}
	s.seriesFor(key, step)
	stat := "Sum"
	if step {
		stat = s.m.ConcurrencyStatistic
	}
	name, target := p.PolicyName, c.TargetValue
	cooldownIn := s.m.seconds(c.ScaleInCooldown)
	s.addAlarm(&alarm{
		name: name + " AlarmHigh", metric: key, statistic: stat,
		evaluation: s.m.TTHighDatapoints, toAlarm: s.m.TTHighDatapoints, threshold: target,
		compare: func(v, th float64) bool { return v > th },
		act: func(t time.Duration, _ *alarm, points []float64) *Activity {
			v := points[len(points)-1]
			// Proportional to the capacity that made the metric: the instances in service.
			want := s.clamp(int(math.Ceil(float64(max(s.inSvc, 1))*v/target - 1e-9)))
			if want <= s.desired {
				return nil
			}
			s.lastOut[name] = t
			delete(s.lastIn, name) // a scale-out ends the scale-in cooldown
			return &Activity{At: t, From: s.desired, To: want, Policy: name,
				Reason: fmt.Sprintf("%s %.4g > target %.4g for %d datapoints", mt, v, target, s.m.TTHighDatapoints)}
		},
	})
	if c.DisableScaleIn {
		return nil
	}
	lowPoints := max(1, int(s.m.TTLowWindow/key.period))
	s.addAlarm(&alarm{
		name: name + " AlarmLow", metric: key, statistic: stat,
		evaluation: lowPoints, toAlarm: lowPoints, threshold: s.m.TTLowFraction * target,
		compare: func(v, th float64) bool { return v < th },
		act: func(t time.Duration, _ *alarm, points []float64) *Activity {
			if last, ok := s.lastIn[name]; ok && t-last < cooldownIn {
				return nil
			}
			v := points[len(points)-1]
			want := s.clamp(int(math.Ceil(float64(max(s.inSvc, 1))*v/target - 1e-9)))
			// Not below what would take the metric back over the target.
			want = max(want, s.desired-1)
			if want >= s.desired {
				return nil
			}
			s.lastIn[name] = t
			return &Activity{At: t, From: s.desired, To: want, Policy: name,
				Reason: fmt.Sprintf("%s %.4g < %.0f %% of target %.4g for %v", mt, v, 100*s.m.TTLowFraction, target, s.m.TTLowWindow)}
		},
	})
	return nil
}

func (s *Scaler) addStep(p *ScalingPolicy, a *MetricAlarm) error {
	c := p.StepScalingPolicyConfiguration
	if c == nil || len(c.StepAdjustments) == 0 {
		return fmt.Errorf("scaling: step policy %s has no step adjustments", p.PolicyName)
	}
	if a.Period <= 0 || a.EvaluationPeriods <= 0 || a.DatapointsToAlarm <= 0 || a.DatapointsToAlarm > a.EvaluationPeriods {
		return fmt.Errorf("scaling: alarm %s: period %d, %d of %d datapoints", a.AlarmName, a.Period, a.DatapointsToAlarm, a.EvaluationPeriods)
	}
	key, step, err := s.metricFor(a.MetricName, s.m.seconds(a.Period))
	if err != nil {
		return err
	}
	s.seriesFor(key, step)
	cmp, err := comparison(a.ComparisonOperator)
	if err != nil {
		return err
	}
	switch c.AdjustmentType {
	case ChangeInCapacity, PercentChangeInCapacity, ExactCapacity:
	default:
		return fmt.Errorf("scaling: adjustment type %q is not modelled", c.AdjustmentType)
	}
	name := p.PolicyName
	cooldown := s.m.seconds(c.Cooldown)
	s.addAlarm(&alarm{
		name: a.AlarmName, metric: key, statistic: a.Statistic,
		evaluation: a.EvaluationPeriods, toAlarm: a.DatapointsToAlarm, threshold: a.Threshold, compare: cmp,
		act: func(t time.Duration, al *alarm, points []float64) *Activity {
			v := aggregate(c.MetricAggregationType, points)
			adj, ok := stepFor(c.StepAdjustments, v-al.threshold, strings.HasPrefix(a.ComparisonOperator, "LessThan"))
			if !ok {
				return nil
			}
			// During a scale-out's cooldown the capacity it added counts: a larger step adds
			// only the difference, computed from the capacity before it.
			base := s.desired
			inOut := false
			if last, ok := s.lastOut[name]; ok && t-last < cooldown {
				base, inOut = s.outBase[name], true
			}
			want := base
			switch c.AdjustmentType {
			case ChangeInCapacity:
				want += adj
			case ExactCapacity:
				want = adj
			case PercentChangeInCapacity:
				want += percentChange(base, adj, c.MinAdjustmentMagnitude)
			}
			want = s.clamp(want)
			switch {
			case want > s.desired:
				if !inOut {
					s.lastOut[name], s.outBase[name] = t, s.desired
				}
				for k := range s.lastIn {
					delete(s.lastIn, k) // a scale-out ends every scale-in cooldown
				}
			case want < s.desired && !inOut:
				if last, ok := s.lastIn[name]; ok && t-last < cooldown {
					return nil
				}
				s.lastIn[name] = t
			default:
				return nil
			}
			return &Activity{At: t, From: s.desired, To: want, Policy: name,
				Reason: fmt.Sprintf("alarm %s: %s of %s %.4g against %.4g", a.AlarmName, strings.ToLower(aggregation(c.MetricAggregationType)), a.MetricName, v, al.threshold)}
		},
	})
	return nil
}

func aggregation(kind string) string {
	if kind == "" {
		return "Average"
	}
	return kind
}

func aggregate(kind string, v []float64) float64 {
	switch kind {
	case "Maximum":
		m := math.Inf(-1)
		for _, x := range v {
			m = math.Max(m, x)
		}
		return m
	case "Minimum":
		m := math.Inf(1)
		for _, x := range v {
			m = math.Min(m, x)
		}
		return m
	}
	var sum float64
	for _, x := range v {
		sum += x
	}
	return sum / float64(len(v))
}

// stepFor finds the step whose interval holds diff = metric − threshold. For an alarm that
// breaches above its threshold a lower bound is inclusive and an upper bound exclusive; for one
// that breaches below it (or at it), the other way round.
func stepFor(steps []StepAdjustment, diff float64, below bool) (int, bool) {
	for _, st := range steps {
		lo, hi := math.Inf(-1), math.Inf(1)
		if st.MetricIntervalLowerBound != nil {
			lo = *st.MetricIntervalLowerBound
		}
		if st.MetricIntervalUpperBound != nil {
			hi = *st.MetricIntervalUpperBound
		}
		var in bool
		if below {
			in = diff > lo && diff <= hi
		} else {
			in = diff >= lo && diff < hi
		}
		if in {
			return st.ScalingAdjustment, true
		}
	}
	return 0, false
}

// percentChange is a PercentChangeInCapacity adjustment of capacity: a change between 0 and 1
// instance (either way) counts as one, larger ones are rounded toward zero, and at least
// minMagnitude instances change.
func percentChange(capacity, percent, minMagnitude int) int {
	raw := float64(capacity) * float64(percent) / 100
	var n int
	switch {
	case raw > 0 && raw < 1:
		n = 1
	case raw < 0 && raw > -1:
		n = -1
	default:
		n = int(raw) // toward zero
	}
	if minMagnitude > 0 {
		if n > 0 && n < minMagnitude {
			n = minMagnitude
		}
		if n < 0 && -n < minMagnitude {
			n = -minMagnitude
		}
	}
	return n
}

// Concurrency records, from t on (each value holds until the next call), the requests in
// flight per instance in service (mean) and on the busiest one (peak).
func (s *Scaler) Concurrency(t time.Duration, mean, peak float64) {
	s.advance(t)
	for k, sr := range s.series {
		if k.name == MetricConcurrency {
			sr.set(t, mean, peak)
		}
	}
}

// NextEvaluation is when the next alarm evaluates: a simulation has an event there, so that
// the activity it may cause happens at its time.
func (s *Scaler) NextEvaluation() (time.Duration, bool) {
	var next time.Duration
	found := false
	for _, a := range s.alarms {
		if !found || a.next < next {
			next, found = a.next, true
		}
	}
	return next, found
}

// countScale is what a count over a compressed period is divided by.
func (s *Scaler) countScale() float64 {
	if s.m.TimeScale == 0 {
		return 1
	}
	return s.m.TimeScale
}

// Invocation counts one invocation at t: InvocationsPerInstance adds 1/instances in service.
func (s *Scaler) Invocation(t time.Duration) {
	s.advance(t)
	for k, sr := range s.series {
		if k.name == MetricInvocations {
			sr.add(t, 1/(float64(max(s.inSvc, 1))*s.countScale()))
		}
	}
}

// Updating tells the Scaler whether the endpoint is being updated from t on: while it is, a
// scaling activity is refused (SageMaker takes one change at a time) and tried again at the
// alarm's next invocation.
func (s *Scaler) Updating(t time.Duration, u bool) {
	s.advance(t)
	s.updating = u
}

// Deferred counts the invocations refused while the endpoint was updating.
func (s *Scaler) Deferred() int { return s.deferred }

// InService tells the Scaler how many instances serve from t on; a new desired capacity
// takes effect in service only when the caller says so.
func (s *Scaler) InService(t time.Duration, n int) {
	s.advance(t)
	s.inSvc = n
}

// Advance moves the clock to t, evaluating every alarm whose period has ended, and returns
// the activities since the last call, in time order.
func (s *Scaler) Advance(t time.Duration) []Activity {
	s.advance(t)
	out := s.pending
	s.pending = nil
	return out
}

func (s *Scaler) advance(t time.Duration) {
	for {
		var due *alarm
		for _, a := range s.alarms {
			if a.next <= t && (due == nil || a.next < due.next) {
				due = a
			}
		}
		if due == nil {
			break
		}
		at := due.next
		for _, sr := range s.series {
			sr.advance(at - s.m.Delay)
		}
		s.now = max(s.now, at)
		for _, a := range s.alarms {
			if a.next == at {
				s.evaluate(at, a)
				a.next += a.metric.period
			}
		}
	}
	s.now = max(s.now, t)
	for _, sr := range s.series {
		sr.advance(s.now - s.m.Delay)
	}
}

// evaluate runs alarm a at t on the datapoints of the periods that ended by t − Delay.
func (s *Scaler) evaluate(t time.Duration, a *alarm) {
	points := lastPoints(s.series[a.metric].closed, t-s.m.Delay, a.metric.period, a.evaluation, a.statistic)
	breaching := 0
	var valid []float64
	for _, v := range points {
		if math.IsNaN(v) {
			continue // missing data is not breaching (TreatMissingData notBreaching)
		}
		valid = append(valid, v)
		if a.compare(v, a.threshold) {
			breaching++
		}
	}
	if breaching < a.toAlarm {
		a.state = false
		return
	}
	if a.state && t-a.lastInvoke < s.m.Reinvoke {
		return
	}
	a.state, a.lastInvoke = true, t
	if s.updating {
		// SageMaker refuses a change while the endpoint is updating; the alarm's next
		// invocation, a minute later, tries again.
		s.deferred++
		return
	}
	if act := a.act(t, a, valid); act != nil && act.To != s.desired {
		s.desired = act.To
		s.pending = append(s.pending, *act)
	}
}

// lastPoints returns the statistic of the n datapoints ending at end (NaN where a period has
// no datapoint), oldest first.
func lastPoints(closed []datapoint, end, period time.Duration, n int, stat string) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	for _, dp := range closed {
		k := int((end - dp.end) / period) // 0 for the last period
		if k >= 0 && k < n && (end-dp.end)%period == 0 {
			if v, ok := dp.stats[stat]; ok {
				out[n-1-k] = v
			}
		}
	}
	return out
}
