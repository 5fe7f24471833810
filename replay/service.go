package replay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/kokoro-sm/kokoro/artifact"
)

// Service is how one instance serves: Servers requests at once, first come first served, each
// holding its server for a service time drawn around Mean; its first audio leaves FirstAudio
// after its service starts (never after it ends).
type Service struct {
	Servers    int           `json:"servers"`
	Mean       time.Duration `json:"mean_ns"`
	CV         float64       `json:"cv"` // service time's coefficient of variation: 0 fixed, 1 exponential
	FirstAudio time.Duration `json:"first_audio_ns"`
	// MeanChars is the mean text length the service time was measured on; a request of c
	// characters takes c/MeanChars times as long. 0: every request takes the same.
	MeanChars float64 `json:"mean_chars,omitempty"`
}

// Capacity is the requests per second the instance completes when busy.
func (s Service) Capacity() float64 { return float64(s.Servers) / s.Mean.Seconds() }

func (s Service) validate() error {
	if s.Servers < 1 || s.Mean <= 0 || s.CV < 0 || s.FirstAudio < 0 || s.MeanChars < 0 {
		return fmt.Errorf("replay: service %+v: need servers ≥ 1, a positive mean, cv and first audio ≥ 0", s)
	}
	return nil
}

// Draw returns one service time of a request of chars characters (0: of the mean length),
// gamma-distributed with the service's mean and coefficient of variation.
func (s Service) Draw(rng *rand.Rand, chars int) time.Duration {
	mean := s.Mean.Seconds()
	if s.MeanChars > 0 && chars > 0 {
		mean *= float64(chars) / s.MeanChars
	}
	var x float64
	switch {
	case s.CV == 0:
		x = mean
	case s.CV == 1:
		x = rng.ExpFloat64() * mean
	default:
		// Gamma with shape 1/cv² has the mean and the coefficient of variation asked for.
		k := 1 / (s.CV * s.CV)
		x = gamma(rng, k) * mean / k
	}
	return time.Duration(x * float64(time.Second))
}

// gamma draws from Gamma(k, 1) (Marsaglia and Tsang; k < 1 through the boost k+1).
func gamma(rng *rand.Rand, k float64) float64 {
	if k < 1 {
		return gamma(rng, k+1) * math.Pow(rng.Float64(), 1/k)
	}
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// Fit is a Service fitted to a measured ladder, with the measured and predicted time to first
// audio at each rung, so that a reader can see how well the model follows the measurement.
type Fit struct {
	Service Service   `json:"service"`
	Run     int       `json:"run"` // the ladder run fitted (the slowest)
	Rungs   []FitRung `json:"rungs"`
	// ErrorMs is the root mean square of predicted − measured p50 TTFAB over the rungs.
	ErrorMs float64 `json:"rms_error_ms"`
}

// FitRung compares one rung.
type FitRung struct {
	Concurrency   int     `json:"concurrency"`
	MeasuredRPS   float64 `json:"measured_rps"`
	MeasuredP50Ms float64 `json:"measured_ttfab_p50_ms"`
	PredictedMs   float64 `json:"predicted_ttfab_ms"`
}

// FromQmax fits a Service to the slowest run of a qmax artifact's ladder. The busy capacity is
// the highest throughput any usable rung reached; the number of servers is the one whose
// closed-loop prediction, TTFAB(N) = ⌈N/servers − 1⌉ service times plus the first audio,
// follows the measured p50 TTFAB best over the rungs; the first audio is the p50 TTFAB of the
// lowest rung, where no request waits; the spread of service times is what the rungs' p95 full
// latencies say of their means (spread).
func FromQmax(q *artifact.Qmax) (Fit, error) {
	if q == nil || len(q.Steps) == 0 {
		return Fit{}, errors.New("replay: the qmax artifact has no rungs")
	}
	var best Fit
	found := false
	for _, run := range q.Runs() {
		f, ok := fitRun(q.Run(run))
		if !ok {
			continue
		}
		f.Run = run
		if !found || f.Service.Capacity() < best.Service.Capacity() {
			best, found = f, true
		}
	}
	if !found {
		return Fit{}, errors.New("replay: no rung of the qmax artifact completed a request")
	}
	return best, nil
}

func fitRun(rungs []artifact.Rung) (Fit, bool) {
	var use []artifact.Rung
	for _, r := range rungs {
		if r.Usable && r.OK > 0 && r.AchievedRPS > 0 {
			use = append(use, r)
		}
	}
	if len(use) == 0 {
		for _, r := range rungs {
			if r.OK > 0 && r.AchievedRPS > 0 {
				use = append(use, r)
			}
		}
	}
	if len(use) == 0 {
		return Fit{}, false
	}
	sort.Slice(use, func(i, j int) bool { return use[i].Concurrency < use[j].Concurrency })
	var plateau float64
	for _, r := range use {
		plateau = math.Max(plateau, r.AchievedRPS)
	}
	low := use[0]
	first := time.Duration(low.TTFABP50Ms * float64(time.Millisecond))
	var chars float64
	if low.OK > 0 && low.Chars > 0 {
		chars = float64(low.Chars) / float64(low.OK)
	}
	var best Fit
	top := use[len(use)-1].Concurrency
	for k := 1; k <= max(1, top); k++ {
		svc := Service{Servers: k, Mean: time.Duration(float64(k) / plateau * float64(time.Second)), FirstAudio: first, MeanChars: chars}
		f := Fit{Service: svc}
		var sq float64
		for _, r := range use {
			pred := svc.closedLoopTTFAB(r.Concurrency)
			ms := float64(pred) / float64(time.Millisecond)
			f.Rungs = append(f.Rungs, FitRung{Concurrency: r.Concurrency, MeasuredRPS: r.AchievedRPS, MeasuredP50Ms: r.TTFABP50Ms, PredictedMs: ms})
			sq += (ms - r.TTFABP50Ms) * (ms - r.TTFABP50Ms)
		}
		f.ErrorMs = math.Sqrt(sq / float64(len(use)))
		if k == 1 || f.ErrorMs < best.ErrorMs-1e-9 {
			best = f
		}
	}
	best.Service.CV = spread(use, best.Service)
	return best, true
}

// spread is the coefficient of variation of the service time that the rungs show. In a closed
// loop of N clients on s servers a request's full latency spans about ⌈N/s⌉ independent
// services (its own and those ahead of it), so its p95 lies about 1.645·σ·√⌈N/s⌉ above its
// mean; each rung gives an estimate of σ, and the largest over the rungs is kept, the spread
// that errs toward risk. At most 1.
func spread(use []artifact.Rung, svc Service) float64 {
	var cv float64
	for _, r := range use {
		if r.SMeanS <= 0 || r.SP95S <= r.SMeanS {
			continue
		}
		services := float64((r.Concurrency + svc.Servers - 1) / svc.Servers)
		sigma := (r.SP95S - r.SMeanS) / (1.645 * math.Sqrt(max(1, services)))
		cv = math.Max(cv, sigma/svc.Mean.Seconds())
	}
	return math.Min(1, cv)
}

// closedLoopTTFAB is the first audio of a request in a closed loop of n clients: it waits for
// ⌈n/servers⌉ − 1 whole services ahead of it, then its own first audio.
func (s Service) closedLoopTTFAB(n int) time.Duration {
	waits := (n+s.Servers-1)/s.Servers - 1
	return time.Duration(waits)*s.Mean + min(s.FirstAudio, s.Mean*time.Duration(max(1, waits+1)))
}
