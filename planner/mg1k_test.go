package planner

import (
	"math"
	"testing"
)

// exactMD1K is the share of arrivals an M/D/1/K queue refuses, computed independently of
// gqueue: the embedded chain's transition matrix with Poisson arrivals over a fixed service
// time, solved by Gaussian elimination, then p_K = 1 − 1/(π_0 + ρ).
func exactMD1K(rho float64, k int) float64 {
	a := make([]float64, k+1) // a[j] = P(j arrivals in one service), by products
	a[0] = math.Exp(-rho)
	for j := 1; j <= k; j++ {
		a[j] = a[j-1] * rho / float64(j)
	}
	// P[i][j]: departure leaving i → next departure leaving j, states 0..k−1.
	p := make([][]float64, k)
	for i := range p {
		p[i] = make([]float64, k)
		base := max(i-1, 0)
		rest := 1.0
		for j := base; j < k-1; j++ {
			p[i][j] = a[j-base]
			rest -= a[j-base]
		}
		p[i][k-1] += rest
	}
	// π(P − I) = 0 with Σπ = 1: rows of the system are the columns of P − I, the last
	// replaced by the normalization.
	m := make([][]float64, k)
	for j := range m {
		m[j] = make([]float64, k+1)
		for i := range k {
			m[j][i] = p[i][j]
			if i == j {
				m[j][i]--
			}
		}
	}
	for i := range k {
		m[k-1][i] = 1
	}
	m[k-1][k] = 1
	for c := range k {
		piv := c
		for r := c + 1; r < k; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[piv][c]) {
				piv = r
			}
		}
		m[c], m[piv] = m[piv], m[c]
		for r := range k {
			if r == c || m[r][c] == 0 {
				continue
			}
			f := m[r][c] / m[c][c]
			for x := c; x <= k; x++ {
				m[r][x] -= f * m[c][x]
			}
		}
	}
	pi0 := m[0][k] / m[0][0]
	return 1 - 1/(pi0+rho)
}

func TestGeneralServiceMatchesExactMD1K(t *testing.T) {
	t.Parallel()
	compared := 0
	for _, k := range []int{1, 2, 5, 10, 20, 50} {
		for _, rho := range []float64{0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1, 1.05, 1.2, 1.5, 2} {
			want := exactMD1K(rho, k)
			if want < 1e-8 { // below it the reference's own cancellation dominates
				continue
			}
			for _, cv := range []float64{0, 0.01} {
				got := gqueue{mean: 0.05, cv: cv, limit: k}.refused(rho / 0.05)
				if math.Abs(got-want) > 0.05*want {
					t.Errorf("K %d ρ %.2f cv %g: refused %.6g, exact M/D/1/K %.6g", k, rho, cv, got, want)
				}
			}
			compared++
		}
	}
	if compared < 40 {
		t.Fatalf("only %d grid points compared", compared)
	}
}

func TestGeneralServiceIsMM1KAtCV1(t *testing.T) {
	t.Parallel()
	for _, k := range []int{1, 3, 10, 50} {
		for _, rho := range []float64{0.1, 0.2, 0.5, 0.9, 1, 1.3} {
			q := gqueue{mean: 0.1, cv: 1, limit: k}
			p := q.stationary(rho / q.mean)
			for n, got := range p {
				want := 1 / float64(k+1)
				if rho != 1 {
					want = (1 - rho) * math.Pow(rho, float64(n)) / (1 - math.Pow(rho, float64(k+1)))
				}
				if math.Abs(got-want) > 1e-6*want {
					t.Errorf("K %d ρ %g: p_%d = %.8g, M/M/1/K %.8g", k, rho, n, got, want)
				}
			}
		}
	}
}

func TestRefusedGrowsWithTheSpread(t *testing.T) {
	t.Parallel()
	// An M/G/1 queue grows with the service time's convex order; for gamma laws of one mean,
	// with the coefficient of variation.
	for _, rho := range []float64{0.5, 0.8, 0.95, 1.1} {
		prev := -1.0
		for _, cv := range []float64{0, 0.05, 0.3, 0.7, 1} {
			got := gqueue{mean: 0.0558, cv: cv, limit: 30}.refused(rho / 0.0558)
			if got < prev {
				t.Errorf("ρ %g: refused %.4g at cv %g, below %.4g at a smaller cv", rho, got, cv, prev)
			}
			prev = got
		}
	}
}

func TestGammaQ(t *testing.T) {
	t.Parallel()
	for _, x := range []float64{0.01, 0.5, 1, 3, 10, 40} {
		if got, want := gammaQ(1, x), math.Exp(-x); math.Abs(got-want) > 1e-12+1e-9*want {
			t.Errorf("Q(1, %g) = %g, want %g", x, got, want)
		}
		for _, n := range []int{2, 5, 30} {
			var want float64
			term := math.Exp(-x)
			for i := range n {
				want += term
				term *= x / float64(i+1)
			}
			if got := gammaQ(float64(n), x); math.Abs(got-want) > 1e-12+1e-9*want {
				t.Errorf("Q(%d, %g) = %g, want %g", n, x, got, want)
			}
		}
	}
}

// Past a shape of 1e4 the wait's tail is Wilson and Hilferty's approximation: it agrees with the
// series.
func TestWaitBeyondLargeShape(t *testing.T) {
	t.Parallel()
	q := gqueue{mean: 0.05, cv: 0.01, limit: 50} // shape 1e4 a service
	for _, n := range []int{2, 10} {
		for _, f := range []float64{0.98, 1, 1.01, 1.03} {
			w := f * float64(n) * q.mean
			a := float64(n) * 1e4
			if got, want := q.waitBeyond(n, w), gammaQ(a, w*1e4/q.mean); math.Abs(got-want) > 1e-3 {
				t.Errorf("n %d, w %.4g: %.6g, series %.6g", n, w, got, want)
			}
		}
	}
}

func TestLateShare(t *testing.T) {
	t.Parallel()
	// Fixed service of 0.1 s, first audio 0.05 s, budget 1 s: an arrival that finds 10 or more
	// waits at least 1 s, so the share late is the share finding 10..K−1.
	q := gqueue{mean: 0.1, cv: 0, limit: 20}
	lambda := 9.0
	p := q.stationary(lambda)
	var want float64
	for n := 10; n < 20; n++ {
		want += p[n]
	}
	if got := q.late(lambda, 1, 0.05); math.Abs(got-want) > 1e-12 {
		t.Errorf("late %g, want %g", got, want)
	}
	// More spread: later.
	if spread := (gqueue{mean: 0.1, cv: 0.5, limit: 20}).late(lambda, 1, 0.05); spread <= want {
		t.Errorf("late with cv 0.5 %g, not above fixed service's %g", spread, want)
	}
}
