package planner

import (
	"math"
	"testing"
)

// firstPassage is the exact probability that the birth–death chain of the surge model, started
// at start, reaches limit within horizonS: arrivals at lambda in every state, departures at
// x(n) in state n, limit absorbing. It is computed by uniformization: over a step h the state
// distribution moves by Σ_k Poisson(k; Λh)·(I + Q/Λ)^k, a series exact for a finite chain,
// summed until the Poisson tail left out is under 1e-13; the horizon is cut into steps with
// Λh ≤ 20 so that no weight underflows. It shares nothing with the simulator but the curve.
func firstPassage(x curve, lambda float64, start, limit int, horizonS float64) float64 {
	if start >= limit {
		return 1
	}
	mu := make([]float64, limit)
	var uniform float64
	for n := range mu {
		mu[n], _ = x.at(float64(n))
		uniform = math.Max(uniform, lambda+mu[n])
	}
	jump := func(v []float64) []float64 { // one jump of the uniformized chain
		out := make([]float64, len(v))
		out[limit] = v[limit]
		for n := range limit {
			up, down := lambda/uniform, mu[n]/uniform
			out[n] += v[n] * (1 - up - down)
			out[n+1] += v[n] * up
			if n > 0 {
				out[n-1] += v[n] * down
			}
		}
		return out
	}
	steps := int(math.Ceil(uniform * horizonS / 20))
	lh := uniform * horizonS / float64(steps)
	v := make([]float64, limit+1)
	v[start] = 1
	for range steps {
		sum := make([]float64, limit+1)
		weight, mass := math.Exp(-lh), 0.0
		for k, pk := 0, v; mass < 1-1e-13; k++ {
			for i := range sum {
				sum[i] += weight * pk[i]
			}
			mass += weight
			pk = jump(pk)
			weight *= lh / float64(k+1)
		}
		v = sum
	}
	return v[limit]
}

// The simulator's probability lies within four standard errors of the exact first-passage
// probability, in chains where reaching Q_max is neither certain nor impossible: a serialized
// server, a parallel one, and one that starts far below its limit.
func TestSurgeSimulationMatchesExactFirstPassage(t *testing.T) {
	t.Parallel()
	const trials = 20000
	serial := curve{{1, 2}, {2, 3}, {3, 3.2}} // plateaus at 3.2 req/s from 3 in flight
	linear := curve{{1, 1}, {1000, 1000}}     // X(n) = n: parallel service of 1 s
	cases := []struct {
		name            string
		x               curve
		cScaleMax       float64
		qmax            int
		surge, horizonS float64
		wantStart       int
		minP, maxP      float64 // the case must stay informative
	}{
		{"serial, limit close", serial, 4.5, 8, 1.25, 2, 5, 0.1, 0.9},
		{"serial, longer horizon", serial, 4.5, 8, 1.25, 6, 5, 0.1, 0.9},
		{"parallel, above the plateau", linear, 6, 10, 1.4, 3, 6, 0.1, 0.9},
		{"parallel, far from the limit", linear, 3, 9, 2.0, 4, 3, 0.05, 0.9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := simulateSurge(c.x, c.cScaleMax, c.qmax, c.surge, c.horizonS, trials, 7)
			if s.Start != c.wantStart || s.Trials != trials {
				t.Fatalf("start %d, trials %d; want %d, %d", s.Start, s.Trials, c.wantStart, trials)
			}
			service, _ := c.x.at(c.cScaleMax)
			exact := firstPassage(c.x, c.surge*service, s.Start, c.qmax, c.horizonS)
			if exact < c.minP || exact > c.maxP {
				t.Fatalf("exact P = %.4f: the case no longer tells a wrong chain from a right one", exact)
			}
			se := math.Sqrt(exact * (1 - exact) / trials)
			if d := math.Abs(s.Probability - exact); d > 4*se {
				t.Errorf("simulated P = %.4f, exact %.4f: %.1f standard errors (%.4f) apart", s.Probability, exact, d/se, se)
			}
			if math.Abs(s.StdErr-se) > 0.1*se {
				t.Errorf("reported standard error %.5f, want about %.5f", s.StdErr, se)
			}
			t.Logf("P simulated %.4f ± %.4f, exact %.4f", s.Probability, s.StdErr, exact)
		})
	}
}

// The exact computation itself, on chains whose answer is known in closed form.
func TestFirstPassageClosedForms(t *testing.T) {
	t.Parallel()
	// Pure birth from limit−1: the first arrival, P = 1 − e^{−λT}.
	none := curve{{1, 0}}
	if got, want := firstPassage(none, 2, 4, 5, 0.7), 1-math.Exp(-1.4); math.Abs(got-want) > 1e-9 {
		t.Errorf("one step: %v, want %v", got, want)
	}
	// Pure birth over two steps: Erlang(2, λ) by T, 1 − e^{−λT}(1 + λT).
	if got, want := firstPassage(none, 2, 3, 5, 0.7), 1-math.Exp(-1.4)*(1+1.4); math.Abs(got-want) > 1e-9 {
		t.Errorf("two steps: %v, want %v", got, want)
	}
	// A long horizon on a chain that drifts up reaches the limit almost surely.
	if got := firstPassage(curve{{1, 1}}, 3, 0, 4, 200); got < 1-1e-9 {
		t.Errorf("long horizon: %v", got)
	}
}
