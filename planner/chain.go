package planner

import "math"

// chain is one instance as a birth–death process: requests arrive (Poisson) and leave at
// mu[n] per second with n in the instance, 0 ≤ n ≤ len(mu)−1; an arrival that finds the
// instance at its limit len(mu)−1 is refused (the admission gate's 503). With the service of
// replay.FromQmax, mu[n] = min(n, servers)/mean: an exponential service time with the
// measured mean, which spreads the queue more than the nearly fixed times Kokoro's inference
// takes, so the probabilities it gives err on the side of shedding.
type chain struct {
	mu []float64
}

func (c chain) limit() int { return len(c.mu) - 1 }

// stationary is the distribution of n at arrival rate lambda, the gate refusing at the limit.
func (c chain) stationary(lambda float64) []float64 {
	p := make([]float64, len(c.mu))
	p[0] = 1
	sum := 1.0
	for n := 1; n < len(p); n++ {
		p[n] = p[n-1] * lambda / c.mu[n]
		sum += p[n]
		if sum > 1e280 { // rescale before overflowing; the ratios are what matter
			for i := 0; i <= n; i++ {
				p[i] /= sum
			}
			sum = 1
		}
	}
	for n := range p {
		p[n] /= sum
	}
	return p
}

// mean is the mean of n at arrival rate lambda.
func (c chain) mean(lambda float64) float64 {
	var m float64
	for n, p := range c.stationary(lambda) {
		m += float64(n) * p
	}
	return m
}

// exceed returns the probability that, starting from the (sub-)distribution start over
// 0..limit, an arrival at rate lambda finds limit requests in the instance within t seconds:
// at the instance's own limit a refusal, below it a new high. limit ≤ c.limit(). It is exact,
// by uniformization: over a step h the distribution moves by Σ_k Poisson(k; Λh)·P^k with P the
// uniformized jump matrix, summed until the Poisson tail left out is under 1e-12; steps keep
// Λh ≤ 20 so that no weight underflows.
func (c chain) exceed(lambda float64, start []float64, limit int, t float64) float64 {
	if limit < 0 || t <= 0 || lambda <= 0 {
		return 0
	}
	var uniform float64
	for n := 0; n <= limit; n++ {
		uniform = math.Max(uniform, lambda+c.mu[n])
	}
	up := lambda / uniform
	down := make([]float64, limit+1)
	for n := range down {
		down[n] = c.mu[n] / uniform
	}
	steps := max(1, int(math.Ceil(uniform*t/20)))
	lh := uniform * t / float64(steps)
	// The state vector carries the absorbed mass in its last entry.
	jump := func(in, out []float64) {
		clear(out)
		out[limit+1] = in[limit+1]
		for n := 0; n <= limit; n++ {
			x := in[n]
			if x == 0 {
				continue
			}
			out[n] += x * (1 - up - down[n])
			out[n+1] += x * up // n+1 = limit+1: absorbed
			if n > 0 {
				out[n-1] += x * down[n]
			}
		}
	}
	// step applies one step of length lh, Σ_k Poisson(k; lh)·P^k, to v in place.
	pk := make([]float64, limit+2)
	next := make([]float64, limit+2)
	sum := make([]float64, limit+2)
	step := func(v []float64) {
		clear(sum)
		copy(pk, v)
		weight, mass := math.Exp(-lh), 0.0
		for k := 0; mass < 1-1e-12 && k < 10000; k++ {
			for i := range sum {
				sum[i] += weight * pk[i]
			}
			mass += weight
			jump(pk, next)
			pk, next = next, pk
			weight *= lh / float64(k+1)
		}
		// The Poisson tail left out is counted where it stands.
		for i := range sum {
			sum[i] += (1 - mass) * pk[i]
		}
		copy(v, sum)
	}
	v := make([]float64, limit+2)
	copy(v, start[:limit+1])
	// Step by step costs about steps·L jumps of L entries; the dense power L jumps for the
	// matrix and log2(steps) products of L³: the power pays when steps outnumber the states.
	if steps <= 4*(limit+2) || limit > maxDenseLimit {
		for range steps {
			step(v)
		}
		return math.Min(1, v[limit+1])
	}
	// Many steps: the step's matrix, raised to the number of steps by squaring.
	size := limit + 2
	m := make([][]float64, size) // row i: the step applied to basis vector i
	for i := range m {
		m[i] = make([]float64, size)
		m[i][i] = 1
		step(m[i])
	}
	for e := steps; e > 0; e >>= 1 {
		if e&1 == 1 {
			v = vecMat(v, m)
		}
		if e > 1 {
			m = matMul(m, m)
		}
	}
	return math.Min(1, math.Max(0, v[limit+1]))
}

// maxDenseLimit bounds the chains exceed raises to a power as dense matrices.
const maxDenseLimit = 300

// vecMat is v·m, with m's rows the images of the basis vectors.
func vecMat(v []float64, m [][]float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		if x == 0 {
			continue
		}
		for j, y := range m[i] {
			out[j] += x * y
		}
	}
	return out
}

// matMul is a·b for row-image matrices: applying a, then b.
func matMul(a, b [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = vecMat(a[i], b)
	}
	return out
}

// shed is the probability that an instance at its operating load lambda, hit by a surge that
// raises its arrivals to surge·lambda, refuses a request within t seconds.
func (c chain) shed(lambda, surge, t float64) float64 {
	return c.exceed(surge*lambda, c.stationary(lambda), c.limit(), t)
}

// windowMax is P(the most requests the instance holds over w seconds ≤ m) at load lambda.
func (c chain) windowMax(lambda float64, m int, w float64) float64 {
	if m >= c.limit() {
		return 1
	}
	pi := c.stationary(lambda)
	var below float64
	for n := 0; n <= m; n++ {
		below += pi[n]
	}
	return math.Max(0, below-c.exceed(lambda, pi, m, w))
}

// loadFor finds the largest load in (0, hi] at which ok holds, ok being monotone (true below
// some load, false above), to a relative precision of 1e-3.
func loadFor(hi float64, ok func(lambda float64) bool) float64 {
	lo := 0.0
	if ok(hi) {
		return hi
	}
	for range 60 {
		mid := (lo + hi) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-3*hi {
			break
		}
	}
	return lo
}

// wilson is the 95 % Wilson score interval of a proportion k/n.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959964
	p := float64(k) / float64(n)
	d := 1 + z*z/float64(n)
	c := (p + z*z/(2*float64(n))) / d
	h := z * math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n)*float64(n))) / d
	return math.Max(0, c-h), math.Min(1, c+h)
}
