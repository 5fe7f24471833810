package replay

import (
	"math"
	"sort"
	"time"

	"github.com/kokoro-sm/kokoro/scaling"
)

// Result is what a replay found.
type Result struct {
	Summary    Summary            `json:"summary"`
	Minutes    []Minute           `json:"minutes"`
	Activities []scaling.Activity `json:"activities"`
	Capacity   []CapacityPoint    `json:"capacity"`
	Requests   []Request          `json:"-"` // with Config.KeepRequests
}

// Summary is the whole run in a few numbers.
type Summary struct {
	Requests int `json:"requests"`
	OK       int `json:"ok"`
	Shed     int `json:"shed_503"`
	// WithinSLO counts requests whose first audio came within the SLO; ShareWithinSLO is
	// that over all requests (a shed request is outside it).
	WithinSLO      int     `json:"within_slo"`
	ShareWithinSLO float64 `json:"share_within_slo"`
	ShedShare      float64 `json:"shed_share"`
	TTFABP50Ms     float64 `json:"ttfab_p50_ms"`
	TTFABP95Ms     float64 `json:"ttfab_p95_ms"`
	// MinutesOverSLO counts the minutes whose p95 request (by arrival) got its first audio
	// after the SLO, or none (over 5 % shed).
	MinutesOverSLO int     `json:"minutes_over_slo"`
	InstanceHours  float64 `json:"instance_hours"` // instances billed: provisioning, serving, draining
	MaxInService   int     `json:"max_in_service"`
	ScaleOuts      int     `json:"scale_outs"`
	ScaleIns       int     `json:"scale_ins"`
	LengthS        float64 `json:"length_s"`
}

// Minute is one minute of the run, by the requests' arrival.
type Minute struct {
	Start      time.Duration `json:"start_ns"`
	Offered    int           `json:"offered"`
	OK         int           `json:"ok"`
	Shed       int           `json:"shed_503"`
	WithinSLO  int           `json:"within_slo"`
	TTFABP95Ms float64       `json:"ttfab_p95_ms"` // of the requests served
	// P95Shed is true when over 5 % of the minute's requests were shed: its p95 request got
	// no audio at all.
	P95Shed   bool `json:"p95_shed,omitempty"`
	InService int  `json:"in_service"` // at the minute's end
	Desired   int  `json:"desired"`
}

// minuteLog gathers requests by the minute they arrived in.
type minuteLog struct {
	slo   time.Duration
	ttfab [][]float64 // per minute, the requests served
	m     []Minute
	all   []float64 // ok requests' TTFAB, ms
}

func (l *minuteLog) add(r Request) {
	i := int(r.At / time.Minute)
	for len(l.m) <= i {
		l.m = append(l.m, Minute{Start: time.Duration(len(l.m)) * time.Minute})
		l.ttfab = append(l.ttfab, nil)
	}
	m := &l.m[i]
	m.Offered++
	if r.Outcome != OutcomeOK {
		m.Shed++
		return
	}
	m.OK++
	ms := float64(r.TTFAB) / float64(time.Millisecond)
	l.ttfab[i] = append(l.ttfab[i], ms)
	l.all = append(l.all, ms)
	if r.TTFAB <= l.slo {
		m.WithinSLO++
	}
}

// quantile is the q-quantile of v with linear interpolation (v is sorted in place).
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	pos := q * float64(len(v)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	if lo == hi {
		return v[hi]
	}
	return v[lo] + (pos-float64(lo))*(v[hi]-v[lo])
}

// Tally sums requests up as a replay does: a run measured against a real server or an emulated
// endpoint, set beside its simulation. The instance figures stay zero.
func Tally(reqs []Request, slo time.Duration) (Summary, []Minute) {
	l := minuteLog{slo: slo}
	for _, r := range reqs {
		l.add(r)
	}
	var sum Summary
	minutes := l.close(&sum)
	return sum, minutes
}

// close computes the minutes' percentiles and the summary's request figures.
func (l *minuteLog) close(sum *Summary) []Minute {
	for i := range l.m {
		m := &l.m[i]
		m.TTFABP95Ms = quantile(l.ttfab[i], 0.95)
		m.P95Shed = m.Offered > 0 && float64(m.Shed) > 0.05*float64(m.Offered)
		sum.Requests += m.Offered
		sum.OK += m.OK
		sum.Shed += m.Shed
		sum.WithinSLO += m.WithinSLO
		if m.P95Shed || m.Offered > 0 && m.TTFABP95Ms > float64(l.slo)/float64(time.Millisecond) {
			sum.MinutesOverSLO++
		}
	}
	if sum.Requests > 0 {
		sum.ShareWithinSLO = float64(sum.WithinSLO) / float64(sum.Requests)
		sum.ShedShare = float64(sum.Shed) / float64(sum.Requests)
	}
	sum.TTFABP50Ms = quantile(l.all, 0.5)
	sum.TTFABP95Ms = quantile(l.all, 0.95)
	return l.m
}

func (s *sim) result() *Result {
	end := s.now
	res := &Result{Activities: s.acts, Capacity: s.capacity, Requests: s.reqs}
	sum := &res.Summary
	res.Minutes = s.minutes.close(sum)
	for i := range res.Minutes {
		m := &res.Minutes[i]
		at := m.Start + time.Minute
		for _, c := range s.capacity {
			if c.At <= at {
				m.InService, m.Desired = c.InService, c.Desired
			}
		}
	}
	for i, c := range s.capacity {
		next := end
		if i+1 < len(s.capacity) {
			next = s.capacity[i+1].At
		}
		sum.InstanceHours += float64(c.Billed) * (next - c.At).Hours()
		sum.MaxInService = max(sum.MaxInService, c.InService)
	}
	for _, a := range s.acts {
		if a.To > a.From {
			sum.ScaleOuts++
		} else {
			sum.ScaleIns++
		}
	}
	sum.LengthS = end.Seconds()
	return res
}
