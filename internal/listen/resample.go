package listen

import "math"

// halfTaps is the half-length of the interpolation filter in input samples at the lower of
// the two rates: long enough for a stop band well under the recognizer's noise floor, short
// enough that a few seconds of speech resample in milliseconds.
const halfTaps = 24

// Resample converts mono audio from rate in to rate out with a windowed-sinc interpolator
// whose cutoff sits at 90 % of the lower Nyquist frequency, so that nothing above the target's
// band folds back as aliasing. The recognizer wants 16 kHz; the model speaks at 24 kHz.
func Resample(pcm []float32, in, out int) []float32 {
	if in == out || len(pcm) == 0 {
		return append([]float32(nil), pcm...)
	}
	step := float64(in) / float64(out)             // input samples per output sample
	cut := 0.9 * 0.5 * math.Min(1, 1/step)         // cycles per input sample
	width := float64(halfTaps) * math.Max(1, step) // filter half-width in input samples
	n := int(float64(len(pcm)) / step)
	y := make([]float32, n)
	for j := range y {
		t := float64(j) * step
		lo := max(0, int(math.Ceil(t-width)))
		hi := min(len(pcm)-1, int(math.Floor(t+width)))
		var acc float64
		for k := lo; k <= hi; k++ {
			d := t - float64(k)
			acc += float64(pcm[k]) * 2 * cut * sinc(2*cut*d) * blackman(d/width)
		}
		y[j] = float32(acc)
	}
	return y
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Sin(math.Pi*x) / (math.Pi * x)
}

// blackman is the Blackman window over x in [-1, 1].
func blackman(x float64) float64 {
	if x <= -1 || x >= 1 {
		return 0
	}
	return 0.42 + 0.5*math.Cos(math.Pi*x) + 0.08*math.Cos(2*math.Pi*x)
}
