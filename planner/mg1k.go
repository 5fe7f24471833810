package planner

import "math"

// gqueue is one instance as an M/G/1/K queue: Poisson arrivals, one server whose service times
// follow a gamma law with the given mean (seconds) and coefficient of variation (0: fixed, 1:
// exponential), and an admission gate that refuses an arrival finding limit requests in the
// instance. It is solved exactly through the Markov chain embedded at departures: between two
// departures a service sees a number of Poisson arrivals whose law, for gamma service, is the
// negative binomial (Poisson for a fixed service time).
type gqueue struct {
	mean, cv float64
	limit    int
}

// fixedCV is the spread below which the service time is treated as fixed: the negative
// binomial's shape 1/cv² is then beyond what log-gamma differences carry accurately.
const fixedCV = 1e-3

// arrivals returns a_j = P(j arrivals during one service) for j ≤ n, and tail[m] = P(at least m
// arrivals) for m ≤ n+1, each tail summed from the small terms up so that tails far below one
// keep their precision.
func (q gqueue) arrivals(lambda float64, n int) (a, tail []float64) {
	r := lambda * q.mean // mean arrivals per service
	sd := math.Sqrt(r + r*r*q.cv*q.cv)
	top := n + int(r+30*sd) + 60 // terms past it are below 1e-40 of the tail they join
	// a_0, then a_{j+1} = a_j·(j+k)/(j+1)·θ/(1+θ) (negative binomial of shape k = 1/cv², with
	// θ = r/k) or a_j·r/(j+1) (Poisson): products only, each term within a few ulps.
	full := make([]float64, top+1)
	if q.cv < fixedCV {
		full[0] = math.Exp(-r)
		for j := 1; j <= top; j++ {
			full[j] = full[j-1] * r / float64(j)
		}
	} else {
		k := 1 / (q.cv * q.cv)
		theta := r / k
		full[0] = math.Exp(-k * math.Log1p(theta))
		ratio := theta / (1 + theta)
		for j := 1; j <= top; j++ {
			full[j] = full[j-1] * (float64(j-1) + k) / float64(j) * ratio
		}
	}
	tail = make([]float64, n+2)
	var s float64
	for j := top; j >= 0; j-- {
		s += full[j]
		if j <= n+1 {
			tail[j] = s
		}
	}
	return full[:n+1], tail
}

// departures returns the unnormalized distribution x_0 = 1, x_1, … x_{n-1} of the number left
// behind by a departure, from the level-crossing balance of the embedded chain: a departure
// leaving j+1 behind is crossed down only by a service with no arrival, so
//
//	x_{j+1}·a_0 = x_0·P(A ≥ j+1) + Σ_{i=1..j} x_i·P(A ≥ j−i+2).
//
// Every term is positive, so the recursion loses no precision however small the terms get. The
// equations for j < limit−1 do not depend on the limit, so asking for n > limit continues the
// solution of the unbounded queue, whose terms past the limit give the refused share of light
// loads without cancellation. ok is false when a_0 underflows (a load far past the server).
func (q gqueue) departures(lambda float64, n int) (x []float64, ok bool) {
	a, tail := q.arrivals(lambda, n)
	if a[0] < 1e-300 {
		return nil, false
	}
	x = make([]float64, n)
	x[0] = 1
	for j := 0; j+1 < n; j++ {
		s := x[0] * tail[j+1]
		for i := 1; i <= j; i++ {
			s += x[i] * tail[j-i+2]
		}
		x[j+1] = s / a[0]
		if x[j+1] > 1e250 { // rescale; the ratios are what matter
			for i := 0; i <= j+1; i++ {
				x[i] /= 1e250
			}
		}
	}
	return x, true
}

// saturatedRho is the load (arrivals per mean service) past which the server is taken as
// never idle: π_0 is then below e^-50 and p_limit = 1 − 1/ρ to that precision.
const saturatedRho = 50

// stationary is the time-average distribution p_0..p_limit of the requests in the instance at
// arrival rate lambda: with π the departure distribution over 0..limit−1 and ρ = λ·mean,
// p_n = π_n/(π_0+ρ) below the limit and p_limit = 1 − 1/(π_0+ρ) (the standard M/G/1/K
// relation). By PASTA, p_limit is the share of arrivals refused and p_n the share that find n.
func (q gqueue) stationary(lambda float64) []float64 {
	k := q.limit
	p := make([]float64, k+1)
	rho := lambda * q.mean
	if lambda <= 0 {
		p[0] = 1
		return p
	}
	x, ok := []float64(nil), false
	if rho <= saturatedRho {
		x, ok = q.departures(lambda, k)
	}
	if !ok {
		p[k] = 1 - 1/rho // saturated: the server is never idle
		if p[k] < 0 {
			p[k] = 0
		}
		p[0] = 1 - p[k]
		return p
	}
	var sum float64
	for _, v := range x {
		sum += v
	}
	pi0 := x[0] / sum
	d := pi0 + rho
	for n := range k {
		p[n] = x[n] / sum / d
	}
	p[k] = q.refusedFrom(lambda, x, sum, rho)
	return p
}

// refusedFrom is p_limit. At light loads 1 − 1/(π_0+ρ) cancels to nothing; there, with ρ < 1,
// the unbounded queue's departure terms past the limit give it directly:
// π_0 + ρ − 1 = (1−ρ)·Σ_{n≥limit} x_n / Σ_{n<limit} x_n.
func (q gqueue) refusedFrom(lambda float64, x []float64, sum, rho float64) float64 {
	k := q.limit
	direct := 1 - 1/(x[0]/sum+rho)
	if rho >= 1 || direct > 1e-6 {
		return math.Max(0, direct)
	}
	for n := 2 * k; n <= 64*k+4096; n *= 2 {
		ext, ok := q.departures(lambda, n)
		if !ok {
			break
		}
		var below, beyond float64
		for i, v := range ext {
			if i < k {
				below += v
			} else {
				beyond += v
			}
		}
		last := ext[len(ext)-1]
		if last <= 1e-15*beyond || beyond == 0 {
			return (1 - rho) * beyond / below / (1/below*ext[0] + rho)
		}
	}
	return math.Max(0, direct)
}

// refused is the share of arrivals the instance refuses in the steady state at load lambda.
func (q gqueue) refused(lambda float64) float64 {
	return q.stationary(lambda)[q.limit]
}

// late is the share of arrivals admitted whose first audio comes after budget seconds, given
// that first audio leaves firstAudio seconds after the request's service starts. An arrival
// finding n requests waits for the one in service to finish and for n−1 more; a gamma law with
// cv ≤ 1 ages well (what remains of a service is stochastically shorter than a new one), so the
// wait is at most n whole services, Gamma(n/cv², mean·cv²): the share is an upper bound, exact
// for fixed service times.
func (q gqueue) late(lambda, budget, firstAudio float64) float64 {
	p := q.stationary(lambda)
	wait := budget - firstAudio
	var s float64
	for n := 1; n < q.limit; n++ {
		s += p[n] * q.waitBeyond(n, wait)
	}
	return s
}

// waitBeyond is P(n whole services take longer than w seconds).
func (q gqueue) waitBeyond(n int, w float64) float64 {
	if w < 0 {
		return 1
	}
	if q.cv < fixedCV {
		if float64(n)*q.mean > w {
			return 1
		}
		return 0
	}
	k := 1 / (q.cv * q.cv)
	a, x := float64(n)*k, w*k/q.mean
	if a > 1e4 {
		// Wilson and Hilferty: the cube root of a gamma variable of large shape is nearly
		// normal; the series would take thousands of terms.
		z := (math.Cbrt(x/a) - (1 - 1/(9*a))) / math.Sqrt(1/(9*a))
		return 0.5 * math.Erfc(z/math.Sqrt2)
	}
	return gammaQ(a, x)
}

// gammaQ is the regularized upper incomplete gamma function Q(a, x) = Γ(a, x)/Γ(a): a power
// series for P below x = a+1 and a continued fraction (modified Lentz) for Q above it.
func gammaQ(a, x float64) float64 {
	if x <= 0 {
		return 1
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(a*math.Log(x) - x - lg)
	if x < a+1 {
		term, sum := 1/a, 1/a
		for n := 1; n < 1_000_000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if term < sum*1e-15 {
				break
			}
		}
		return math.Max(0, 1-sum*front)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1_000_000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return math.Min(1, front*h)
}
