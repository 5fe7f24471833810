package audio

import (
	"errors"
	"fmt"
	"math"
)

// Resampler converts a stream of mono samples from one rate to another by band-limited
// interpolation: a windowed-sinc low-pass filter (Kaiser window, about 80 dB of stop-band
// attenuation) evaluated at each output sample's exact place in the input, in polyphase form
// over the rational ratio of the two rates. The filter is centred on that place, so a sound at
// input sample t is at output sample t·to/from (Pos): times measured on the input hold on the
// output. The stop band starts just below the lower rate's Nyquist frequency; the pass band is
// flat to about 0.84 of it (3.3 kHz at 8 kHz, 6.7 kHz at 16 kHz).
//
// Write takes samples as they come and returns the output they complete; Flush ends the
// stream, after which the output holds exactly ceil(n·to/from) samples for n input samples. A
// Resampler is not safe for concurrent use.
type Resampler struct {
	up, down int         // output/input rate = up/down, in lowest terms
	half     int         // taps on each side of an output sample's place, in input samples
	coef     [][]float32 // [phase][2·half]: the filter at place phase/up between two inputs
	buf      []float32   // input samples from absolute index base on
	base     int         // index of buf[0]; negative while the leading zeros are in it
	in       int         // input samples written
	next     int         // index of the next output sample
	done     bool
}

// ErrBadRate is a sample rate a Resampler cannot convert from or to.
var ErrBadRate = errors.New("bad sample rate")

// Filter design. lowTaps is the filter's length counted in samples of the lower rate: the
// transition band is (A−7.95)/(14.36·lowTaps) of that rate wide (Kaiser's estimate), 0.078
// here, and it ends just below the lower rate's Nyquist frequency.
const (
	stopBandDB = 80.0
	lowTaps    = 64
	maxRate    = 384000
)

// NewResampler makes a Resampler from rate from to rate to (Hz).
func NewResampler(from, to int) (*Resampler, error) {
	if from <= 0 || to <= 0 || from > maxRate || to > maxRate {
		return nil, fmt.Errorf("%w: %d Hz to %d Hz; rates are 1 to %d Hz", ErrBadRate, from, to, maxRate)
	}
	g := gcd(from, to)
	r := &Resampler{up: to / g, down: from / g}
	low := min(from, to)
	r.half = (lowTaps*from/low + 1) / 2
	// Cut-off, in cycles per input sample: the transition band's middle, a little more than
	// half its width below the lower rate's Nyquist frequency.
	width := (stopBandDB - 7.95) / (14.36 * lowTaps)
	cutoff := (0.5 - 0.55*width) * float64(low) / float64(from)
	beta := 0.1102 * (stopBandDB - 8.7)
	i0beta := besselI0(beta)
	r.coef = make([][]float32, r.up)
	taps := make([]float64, 2*r.half)
	for p := range r.coef {
		sum := 0.0
		for k := range taps {
			// The tap k of an output at place p/up past input i is input i−half+1+k, whose
			// distance from the output's place is x.
			x := float64(p)/float64(r.up) + float64(r.half-1-k)
			w := 0.0
			if u := x / float64(r.half); u > -1 && u < 1 {
				w = besselI0(beta*math.Sqrt(1-u*u)) / i0beta
			}
			taps[k] = 2 * cutoff * sinc(2*cutoff*x) * w
			sum += taps[k]
		}
		// Each phase sums to 1: a constant stays that constant at every place.
		row := make([]float32, len(taps))
		for k, t := range taps {
			row[k] = float32(t / sum)
		}
		r.coef[p] = row
	}
	r.buf = make([]float32, r.half)
	r.base = -r.half
	return r, nil
}

// Identity reports a Resampler whose rates are equal: its output is its input.
func (r *Resampler) Identity() bool { return r.up == r.down }

// Pos is the output index at which input sample in lies, rounded to the nearest.
func (r *Resampler) Pos(in int) int {
	return int((2*int64(in)*int64(r.up) + int64(r.down)) / (2 * int64(r.down)))
}

// Len is the number of output samples of a stream of n input samples.
func (r *Resampler) Len(n int) int {
	return int((int64(n)*int64(r.up) + int64(r.down) - 1) / int64(r.down))
}

// Write feeds src and appends to dst the output samples it completes. An output sample needs
// the input up to half the filter past its place, so the last few wait for more input or for
// Flush.
func (r *Resampler) Write(dst, src []float32) []float32 {
	if r.done {
		return dst
	}
	if r.Identity() {
		r.in += len(src)
		r.next += len(src)
		return append(dst, src...)
	}
	r.buf = append(r.buf, src...)
	r.in += len(src)
	return r.emit(dst, r.in)
}

// Flush ends the stream: it appends the output samples still owed, the input after the last
// sample read as silence. Write and Flush do nothing after it.
func (r *Resampler) Flush(dst []float32) []float32 {
	if r.done || r.Identity() {
		r.done = true
		return dst
	}
	r.done = true
	r.buf = append(r.buf, make([]float32, r.half)...)
	return r.emit(dst, r.in+r.half)
}

// emit appends the output samples whose taps lie below avail and are owed for the input so
// far, then drops the input no later output needs.
func (r *Resampler) emit(dst []float32, avail int) []float32 {
	total := r.Len(r.in)
	for r.next < total {
		p := int64(r.next) * int64(r.down)
		i := int(p / int64(r.up))
		if i+r.half >= avail {
			break
		}
		row := r.coef[p%int64(r.up)]
		from := i - r.half + 1 - r.base
		win := r.buf[from : from+len(row)]
		var acc float32
		for k, c := range row {
			acc += c * win[k]
		}
		dst = append(dst, acc)
		r.next++
	}
	// The next output's first tap is the earliest input still needed.
	keep := int(int64(r.next)*int64(r.down)/int64(r.up)) - r.half + 1 - r.base
	if keep > 0 && keep >= len(r.buf)/2 {
		keep = min(keep, len(r.buf))
		n := copy(r.buf, r.buf[keep:])
		r.buf = r.buf[:n]
		r.base += keep
	}
	return dst
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Sin(math.Pi*x) / (math.Pi * x)
}

// besselI0 is the modified Bessel function of the first kind of order zero, by its series.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	for k := 1; k < 200; k++ {
		term *= (x / (2 * float64(k))) * (x / (2 * float64(k)))
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
