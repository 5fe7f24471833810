package planner

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// SurgeModel describes the simulation in words, for the plan and the report.
const SurgeModel = "one instance as a birth-death queue: Poisson arrivals at surge × X(C_scale_max), " +
	"departures at the ladder's measured throughput X(n) with n requests in the system " +
	"(linear between rungs, flat beyond the last); it starts at ceil(C_scale_max), where the " +
	"policy fires, and runs for T, when the replacement arrives; a trial fails when n reaches Q_max"

// Surge is the result of the surge simulation.
type Surge struct {
	Model       string  `json:"model"`
	Seed        uint64  `json:"seed"`
	Trials      int     `json:"trials"`
	ArrivalRPS  float64 `json:"arrival_rps"`  // surge × X(C_scale_max)
	ServiceRPS  float64 `json:"service_rps"`  // X(C_scale_max), before the surge
	Start       int     `json:"start"`        // in-flight requests when the policy fires
	Limit       int     `json:"limit"`        // Q_max
	HorizonS    float64 `json:"horizon_s"`    // T
	Failures    int     `json:"failures"`     // trials that reached Q_max
	Probability float64 `json:"probability"`  // Failures / Trials
	StdErr      float64 `json:"std_err"`      // binomial standard error of Probability
	MedianHitS  float64 `json:"median_hit_s"` // median time to reach Q_max over failing trials
	// Skipped says why the simulation did not run (Trials is then 0).
	Skipped string `json:"skipped,omitempty"`
}

// Simulation budget. Each trial costs about (arrival + service rate) × T events; the trial
// count is lowered to fit the budget (never below minSurgeTrials, a standard error of at
// most 5 points), and inputs that would need more than that per trial are not simulated.
const (
	surgeEventBudget = 1e8
	minSurgeTrials   = 100
	maxSurgeLimit    = 1 << 20
)

// simulateSurge runs the birth-death chain exactly (Gillespie: exponential holding times,
// no time step), on its own PCG source so that a seed alone fixes the answer. Poisson
// arrivals matter: a fluid model says a queue fed below its drain rate never grows, and
// the variance is precisely the risk being measured.
func simulateSurge(x curve, cScaleMax float64, qmax int, surge, horizonS float64, trials int, seed uint64) Surge {
	start := int(math.Ceil(cScaleMax - 1e-9))
	service, _ := x.at(cScaleMax)
	s := Surge{
		Model: SurgeModel, Seed: seed, Trials: trials,
		ArrivalRPS: surge * service, ServiceRPS: service,
		Start: start, Limit: qmax, HorizonS: horizonS,
	}
	perTrial := (s.ArrivalRPS + x.peak()) * horizonS
	switch {
	case trials <= 0:
		s.Trials, s.Skipped = 0, "no trials requested"
		return s
	case qmax > maxSurgeLimit:
		s.Trials, s.Skipped = 0, fmt.Sprintf("Q_max %d is beyond the simulator's range", qmax)
		return s
	case perTrial*minSurgeTrials > surgeEventBudget:
		s.Trials, s.Skipped = 0, fmt.Sprintf("%.3g events per trial is beyond the simulation budget", perTrial)
		return s
	case perTrial*float64(trials) > surgeEventBudget:
		trials = max(minSurgeTrials, int(surgeEventBudget/perTrial))
		s.Trials = trials
	}
	// X(n) for every n the chain can visit, computed once.
	rate := make([]float64, qmax+1)
	for n := range rate {
		rate[n], _ = x.at(float64(n))
	}
	rng := rand.New(rand.NewPCG(seed, 0x6b6f6b6f726f)) // second word: fixed stream id
	var hits []float64
	for range trials {
		if start >= qmax {
			hits = append(hits, 0)
			continue
		}
		n, t := start, 0.0
		for {
			total := s.ArrivalRPS + rate[n]
			if total <= 0 {
				break // nothing arrives and nothing leaves: the state is frozen
			}
			t += rng.ExpFloat64() / total
			if t > horizonS {
				break
			}
			if rng.Float64()*total < s.ArrivalRPS {
				n++
				if n >= qmax {
					hits = append(hits, t)
					break
				}
			} else if n > 0 {
				n--
			}
		}
	}
	s.Failures = len(hits)
	s.Probability = float64(s.Failures) / float64(trials)
	s.StdErr = math.Sqrt(s.Probability * (1 - s.Probability) / float64(trials))
	if len(hits) > 0 {
		sort.Float64s(hits)
		s.MedianHitS = hits[len(hits)/2]
	}
	return s
}
