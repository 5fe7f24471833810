package replay

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Arrival is one request of a trace: when it arrives and, when the trace says, how long its
// text is.
type Arrival struct {
	At    time.Duration
	Chars int // 0: unknown, the mean
}

// Rate is a traffic profile: requests per second as a function of time, piecewise linear
// between its points and constant after the last.
type Rate struct {
	Points []RatePoint
}

// RatePoint is the rate at one time.
type RatePoint struct {
	At  time.Duration
	RPS float64
}

// At returns the rate at t.
func (r Rate) At(t time.Duration) float64 {
	ps := r.Points
	if len(ps) == 0 {
		return 0
	}
	if t <= ps[0].At {
		return ps[0].RPS
	}
	for i := 1; i < len(ps); i++ {
		if t <= ps[i].At {
			a, b := ps[i-1], ps[i]
			if b.At == a.At {
				return b.RPS
			}
			f := float64(t-a.At) / float64(b.At-a.At)
			return a.RPS + f*(b.RPS-a.RPS)
		}
	}
	return ps[len(ps)-1].RPS
}

func (r Rate) peak() float64 {
	var m float64
	for _, p := range r.Points {
		m = math.Max(m, p.RPS)
	}
	return m
}

// Poisson draws the arrivals of a Poisson process with this rate over [0, length), by
// thinning a process at the peak rate.
func (r Rate) Poisson(length time.Duration, seed uint64) []Arrival {
	peak := r.peak()
	if peak <= 0 || length <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x7472616365)) // second word: the trace's stream
	var out []Arrival
	t := 0.0
	for {
		t += rng.ExpFloat64() / peak
		at := time.Duration(t * float64(time.Second))
		if at >= length {
			return out
		}
		if rng.Float64()*peak < r.At(at) {
			out = append(out, Arrival{At: at})
		}
	}
}

// Shapes are the built-in traffic profiles.

// Step is base rps until at, then base × surge.
func Step(base, surge float64, at time.Duration) Rate {
	return Rate{Points: []RatePoint{{0, base}, {at, base}, {at, base * surge}}}
}

// Ramp goes from one rate to another over [start, start+over].
func Ramp(from, to float64, start, over time.Duration) Rate {
	return Rate{Points: []RatePoint{{0, from}, {start, from}, {start + over, to}}}
}

// Day goes from trough to peak and back over one period (a raised cosine, the peak at half
// the period), sampled every period/96 (15 minutes for a day).
func Day(trough, peak float64, period time.Duration) Rate {
	var ps []RatePoint
	for i := 0; i <= 96; i++ {
		at := period * time.Duration(i) / 96
		x := (1 - math.Cos(2*math.Pi*float64(i)/96)) / 2
		ps = append(ps, RatePoint{at, trough + (peak-trough)*x})
	}
	return Rate{Points: ps}
}

// Bursts is base rps with a burst to peak lasting length at every multiple of every.
func Bursts(base, peak float64, every, length time.Duration, total time.Duration) Rate {
	ps := []RatePoint{{0, base}}
	for start := every; start < total; start += every {
		ps = append(ps, RatePoint{start, base}, RatePoint{start, peak}, RatePoint{start + length, peak}, RatePoint{start + length, base})
	}
	return Rate{Points: ps}
}

// ReadCSV reads a trace. Two forms are accepted, told apart by the header:
//
//	at_s[,chars]     one request per row: its arrival in seconds from the start, and
//	                 optionally its text length in characters;
//	t_s,rps          a rate profile: requests per second at each time, linear in between.
//
// Rows must be in time order. A rate profile is returned as a Rate (the arrivals are then
// nil); a list of requests as arrivals (the Rate is empty).
func ReadCSV(r io.Reader) ([]Arrival, Rate, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.Comment = '#'
	head, err := cr.Read()
	if err != nil {
		return nil, Rate{}, fmt.Errorf("trace: header: %w", err)
	}
	for i := range head {
		head[i] = strings.ToLower(strings.TrimSpace(head[i]))
	}
	rates := len(head) == 2 && head[0] == "t_s" && head[1] == "rps"
	arrivals := len(head) >= 1 && head[0] == "at_s" && (len(head) == 1 || len(head) == 2 && head[1] == "chars")
	if !rates && !arrivals {
		return nil, Rate{}, fmt.Errorf("trace: header %q: want \"at_s[,chars]\" (one request a row) or \"t_s,rps\" (a rate profile)", strings.Join(head, ","))
	}
	var out []Arrival
	var rate Rate
	var last time.Duration
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, Rate{}, fmt.Errorf("trace: %w", err)
		}
		if len(rec) != len(head) {
			return nil, Rate{}, fmt.Errorf("trace: line %d has %d fields, the header %d", line, len(rec), len(head))
		}
		sec, err := strconv.ParseFloat(strings.TrimSpace(rec[0]), 64)
		if err != nil || math.IsNaN(sec) || sec < 0 || sec > 1e7 {
			return nil, Rate{}, fmt.Errorf("trace: line %d: time %q is not a number of seconds in [0, 1e7]", line, rec[0])
		}
		at := time.Duration(sec * float64(time.Second))
		if at < last {
			return nil, Rate{}, fmt.Errorf("trace: line %d: %s s comes before the row above it", line, rec[0])
		}
		last = at
		if rates {
			rps, err := strconv.ParseFloat(strings.TrimSpace(rec[1]), 64)
			if err != nil || math.IsNaN(rps) || rps < 0 || rps > 1e6 {
				return nil, Rate{}, fmt.Errorf("trace: line %d: rate %q is not a number of requests per second in [0, 1e6]", line, rec[1])
			}
			rate.Points = append(rate.Points, RatePoint{at, rps})
			continue
		}
		a := Arrival{At: at}
		if len(rec) == 2 {
			n, err := strconv.Atoi(strings.TrimSpace(rec[1]))
			if err != nil || n < 0 || n > 1e6 {
				return nil, Rate{}, fmt.Errorf("trace: line %d: chars %q is not a count in [0, 1e6]", line, rec[1])
			}
			a.Chars = n
		}
		out = append(out, a)
	}
	if rates && len(rate.Points) == 0 || arrivals && len(out) == 0 {
		return nil, Rate{}, errors.New("trace: no rows after the header")
	}
	return out, rate, nil
}

// sorted reports whether arrivals are in time order.
func sorted(a []Arrival) bool {
	return sort.SliceIsSorted(a, func(i, j int) bool { return a[i].At < a[j].At })
}
