package planner

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/kokoro-sm/kokoro/replay"
)

// MaxLateShare is the share of requests a policy may serve beyond the SLO during a surge: the
// SLO is a p95, so one request in twenty.
const MaxLateShare = 0.05

// instance is one instance as the search judges it: the service the ladder measured (one
// server with the fitted spread of service times, exact through the embedded chain) and, as a
// labelled bound, the same mean with exponential service times (a birth–death chain, which
// spreads the queue more; it is also the model for an instance of several servers, where the
// embedded chain does not apply).
type instance struct {
	svc     replay.Service
	limit   int
	general bool // one server: gq is the measured service
	gq      gqueue
	exp     chain
	budgetS float64 // SLO − first audio: the longest a request may wait
}

// maxGeneralLimit bounds the queues solved through the embedded chain, whose cost grows with
// the square of the limit; a longer queue falls back on the exponential chain, labelled so.
const maxGeneralLimit = 500

func newInstance(svc replay.Service, limit int, sloMs float64) instance {
	in := instance{svc: svc, limit: limit, exp: chainFor(svc, limit), general: svc.Servers == 1 && limit <= maxGeneralLimit,
		budgetS: sloMs/1000 - svc.FirstAudio.Seconds()}
	in.gq = gqueue{mean: svc.Mean.Seconds(), cv: svc.CV, limit: limit}
	return in
}

// model names the service model in words.
func (in instance) model() string {
	if in.general {
		return fmt.Sprintf("M/G/1/%d: one server, gamma service times of mean %.1f ms and coefficient of variation %.3f, exact by the chain embedded at departures",
			in.limit, ms(in.svc.Mean), in.svc.CV)
	}
	return fmt.Sprintf("M/M/%d/%d: %d server(s) with exponential service times of mean %.1f ms (an upper bound: the embedded chain covers one server and queues of at most %d)",
		in.svc.Servers, in.limit, in.svc.Servers, ms(in.svc.Mean), maxGeneralLimit)
}

// refused is the share of arrivals refused in the steady state at load lambda.
func (in instance) refused(lambda float64) float64 {
	if in.general {
		return in.gq.refused(lambda)
	}
	return in.exp.stationary(lambda)[in.limit]
}

// refusedExponential is the same with exponential service times: the labelled bound.
func (in instance) refusedExponential(lambda float64) float64 {
	return in.exp.stationary(lambda)[in.limit]
}

// late is the share of arrivals admitted but answered beyond the SLO in the steady state.
func (in instance) late(lambda float64) float64 {
	if in.general {
		return in.gq.late(lambda, in.budgetS+in.svc.FirstAudio.Seconds(), in.svc.FirstAudio.Seconds())
	}
	// Several servers, exponential: an arrival finding n ≥ c waits for n−c+1 departures at
	// rate c/mean, an Erlang law.
	p := in.exp.stationary(lambda)
	c := in.svc.Servers
	rate := float64(c) / in.svc.Mean.Seconds()
	var s float64
	for n := c; n < in.limit; n++ {
		s += p[n] * gammaQ(float64(n-c+1), math.Max(0, in.budgetS)*rate)
	}
	return s
}

// survives reports whether an instance at operating load lambda, its arrivals multiplied by
// surge, keeps the shares refused and late within the limits.
func (in instance) survives(lambda, surge, maxRefused float64) bool {
	return in.refused(surge*lambda) <= maxRefused && in.late(surge*lambda) <= MaxLateShare
}

// SimCheck is a Monte Carlo check of a candidate's surge: instances at the operating load,
// then the surge for the horizon, simulated request by request with service times drawn from
// the fitted law. It estimates the share refused during the horizon (which the steady state
// bounds from above: the queue starts lower) and the chance that one instance refuses at
// least one request in it.
type SimCheck struct {
	Trials int     `json:"trials"`
	Share  float64 `json:"refused_share"`
	Low    float64 `json:"refused_share_low"`  // 99.9 % interval: the trials stop as soon as it
	High   float64 `json:"refused_share_high"` // decides, so a single look's 95 % would claim too often
	Any    float64 `json:"instance_any_refusal"`
	AnyLow float64 `json:"instance_any_refusal_low"` // 95 % Wilson interval
	AnyHi  float64 `json:"instance_any_refusal_high"`
	// Verdict says whether the interval decides the claim share ≤ the limit: "below",
	// "above", or "undecided" when the budget ran out first.
	Verdict string `json:"verdict"`
}

// simWarmupS is how long each trial runs at the operating load before the surge, so that the
// surge meets a queue (and a service in progress) drawn from the operating point's own state.
const simWarmupS = 60

// simulate runs trials in batches until the 99.9 % interval of the share refused lies wholly
// on one side of limit, or maxTrials or the event budget run out.
func (in instance) simulate(lambda, surge, horizonS, limit float64, maxTrials int, budget float64, seed uint64) SimCheck {
	rng := rand.New(rand.NewPCG(seed, 0x6b6f6b6f726f)) // second word: fixed stream id
	perTrial := (1 + surge) * lambda * (horizonS + simWarmupS)
	trials := min(maxTrials, int(budget/math.Max(perTrial, 1)))
	var ck SimCheck
	var sumA, sumR, sumRR, sumAA, sumAR float64
	anyN := 0
	const batch = 50
	for ck.Trials < trials {
		for range min(batch, trials-ck.Trials) {
			a, r := in.trial(rng, lambda, surge, horizonS)
			fa, fr := float64(a), float64(r)
			sumA, sumR = sumA+fa, sumR+fr
			sumAA, sumRR, sumAR = sumAA+fa*fa, sumRR+fr*fr, sumAR+fa*fr
			if r > 0 {
				anyN++
			}
			ck.Trials++
		}
		n := float64(ck.Trials)
		if sumA == 0 {
			continue
		}
		// The ratio estimator's variance: Var(r − share·a)/(n·mean(a)²).
		share := sumR / sumA
		v := (sumRR - 2*share*sumAR + share*share*sumAA) / n
		half := 3.290527 * math.Sqrt(math.Max(0, v)/n) / (sumA / n)
		ck.Share, ck.Low, ck.High = share, math.Max(0, share-half), share+half
		if ck.Trials >= 2*batch && (ck.High < limit || ck.Low > limit) {
			break
		}
	}
	if ck.Trials == 0 {
		return ck
	}
	ck.Any = float64(anyN) / float64(ck.Trials)
	ck.AnyLow, ck.AnyHi = wilson(anyN, ck.Trials)
	switch {
	case ck.High < limit:
		ck.Verdict = "below"
	case ck.Low > limit:
		ck.Verdict = "above"
	default:
		ck.Verdict = "undecided"
	}
	return ck
}

// trial is one surge: arrivals and refusals during the horizon.
func (in instance) trial(rng *rand.Rand, lambda, surge, horizonS float64) (arrived, refused int) {
	// FCFS with c servers: the completion times of the requests in service (a min-heap), and
	// the queue.
	c := in.svc.Servers
	busy := make(completions, 0, c)
	queued := 0
	service := func() float64 { return float64(in.svc.Draw(rng, 0)) / float64(time.Second) }
	end := simWarmupS + horizonS
	t := 0.0
	for {
		rate := lambda
		if t >= simWarmupS {
			rate = surge * lambda
		}
		next := t + rng.ExpFloat64()/rate
		boundary := t < simWarmupS && next > simWarmupS
		if boundary {
			// The rate changes at the warm-up's end: draw again from there (memoryless).
			next = simWarmupS
		}
		// Departures before the next arrival; a queued request takes the freed server.
		for len(busy) > 0 && busy[0] <= next {
			if queued > 0 {
				queued--
				busy[0] += service()
				heap.Fix(&busy, 0)
			} else {
				heap.Pop(&busy)
			}
		}
		t = next
		if t >= end {
			return arrived, refused
		}
		if boundary {
			continue
		}
		counted := t >= simWarmupS
		if counted {
			arrived++
		}
		switch {
		case len(busy)+queued >= in.limit:
			if counted {
				refused++
			}
		case len(busy) < c:
			heap.Push(&busy, t+service())
		default:
			queued++
		}
	}
}

// completions is a min-heap of the times at which the requests in service finish.
type completions []float64

func (h completions) Len() int           { return len(h) }
func (h completions) Less(i, j int) bool { return h[i] < h[j] }
func (h completions) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *completions) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *completions) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
