package audio

import (
	"fmt"
	"math"
	"testing"
)

// The rates the server offers, from the model's 24 kHz.
var resampleRates = []int{8000, 16000, 22050, 24000, 44100, 48000}

func sine(freq float64, rate, n int) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(0.5 * math.Sin(2*math.Pi*freq*float64(i)/float64(rate)))
	}
	return out
}

// resampleAll runs src through a Resampler in pieces of the given size, then flushes.
func resampleAll(t testing.TB, from, to int, src []float32, piece int) []float32 {
	t.Helper()
	r, err := NewResampler(from, to)
	if err != nil {
		t.Fatal(err)
	}
	var out []float32
	for len(src) > 0 {
		n := min(piece, len(src))
		out = r.Write(out, src[:n])
		src = src[n:]
	}
	return r.Flush(out)
}

// rms is the root mean square of s without a margin at each end, where the filter meets the
// stream's edges.
func rms(s []float32, margin int) float64 {
	s = s[margin : len(s)-margin]
	sum := 0.0
	for _, v := range s {
		sum += float64(v) * float64(v)
	}
	return math.Sqrt(sum / float64(len(s)))
}

// goertzel is the amplitude of the frequency f in s (sampled at rate).
func goertzel(s []float32, f float64, rate int) float64 {
	w := 2 * math.Pi * f / float64(rate)
	c := 2 * math.Cos(w)
	var s1, s2 float64
	for _, v := range s {
		s0 := float64(v) + c*s1 - s2
		s2, s1 = s1, s0
	}
	p := s1*s1 + s2*s2 - c*s1*s2
	return 2 * math.Sqrt(math.Max(p, 0)) / float64(len(s))
}

func db(ratio float64) float64 { return 20 * math.Log10(ratio) }

// Downsampling: a tone in the pass band keeps its level, and any tone above the new Nyquist
// frequency (which plain sample dropping would fold back into the band) comes out at least
// 60 dB under it.
func TestResampleNoAliasing(t *testing.T) {
	t.Parallel()
	const from, n = 24000, 24000
	for _, to := range []int{8000, 16000, 22050} {
		t.Run(fmt.Sprint(to), func(t *testing.T) {
			t.Parallel()
			nyq := float64(to) / 2
			margin := to / 50
			pass := rms(resampleAll(t, from, to, sine(1000, from, n), 4800), margin)
			if d := db(pass / (0.5 / math.Sqrt2)); math.Abs(d) > 0.1 {
				t.Errorf("1 kHz comes out at %.2f dB, want 0 ± 0.1", d)
			}
			worst := -math.MaxFloat64
			for f := nyq + 10; f < from/2; f += 37 {
				out := rms(resampleAll(t, from, to, sine(f, from, n/4), 1000), margin)
				if d := db(out / pass); d > worst {
					worst = d
				}
				if d := db(out / pass); d > -60 {
					t.Errorf("%.0f Hz, above the new Nyquist frequency %.0f Hz, comes out at %.1f dB of the pass band; want under -60", f, nyq, d)
				}
			}
			t.Logf("%d Hz: worst tone above %.0f Hz at %.1f dB of the pass band", to, nyq, worst)
		})
	}
}

// Upsampling: the images of the model's band above its 12 kHz are gone.
func TestResampleNoImages(t *testing.T) {
	t.Parallel()
	const from = 24000
	for _, to := range []int{44100, 48000} {
		for _, f := range []float64{200, 1000, 5000, 9000} {
			out := resampleAll(t, from, to, sine(f, from, from), 1000)
			margin := to / 50
			body := out[margin : len(out)-margin]
			pass := goertzel(body, f, to)
			image := goertzel(body, from-f, to)
			if d := db(image / pass); d > -60 {
				t.Errorf("%d Hz, %.0f Hz tone: image at %.0f Hz at %.1f dB, want under -60", to, f, from-f, d)
			}
			if d := db(pass / 0.5); math.Abs(d) > 0.1 {
				t.Errorf("%d Hz, %.0f Hz tone at %.2f dB, want 0 ± 0.1", to, f, d)
			}
		}
	}
}

// Every rate: the output lasts as long as the input, to the sample, whatever pieces the input
// came in; and a click at input sample t comes out at Pos(t), so times measured on the model's
// audio (word times) hold on the resampled audio.
func TestResampleLengthAndTimes(t *testing.T) {
	t.Parallel()
	const from = 24000
	for _, to := range resampleRates {
		for _, piece := range []int{1, 7, 480, 100000} {
			r, _ := NewResampler(from, to)
			for _, n := range []int{0, 1, 2, 3, 1000, 24001} {
				src := make([]float32, n)
				click := n / 2
				if n > 0 {
					src[click] = 1
				}
				out := resampleAll(t, from, to, src, piece)
				want := r.Len(n)
				if len(out) != want {
					t.Errorf("%d Hz, pieces of %d: %d samples in, %d out, want %d", to, piece, n, len(out), want)
					continue
				}
				if d := math.Abs(float64(len(out))/float64(to) - float64(n)/from); d > 1.0/float64(to) {
					t.Errorf("%d Hz: duration off by %.6f s", to, d)
				}
				if n < 1000 {
					continue
				}
				peak := 0
				for i, v := range out {
					if v > out[peak] {
						peak = i
					}
				}
				if p := r.Pos(click); peak < p-1 || peak > p+1 {
					t.Errorf("%d Hz: a click at input %d peaks at output %d, want %d ± 1", to, click, peak, p)
				}
			}
		}
	}
}

// A constant stays that constant (each phase sums to one), and the identity passes samples
// through untouched.
func TestResampleDCAndIdentity(t *testing.T) {
	t.Parallel()
	for _, to := range resampleRates {
		src := make([]float32, 4800)
		for i := range src {
			src[i] = 0.25
		}
		out := resampleAll(t, 24000, to, src, 333)
		for i := to / 100; i < len(out)-to/100; i++ {
			if math.Abs(float64(out[i])-0.25) > 1e-5 {
				t.Fatalf("%d Hz: sample %d is %v, want 0.25", to, i, out[i])
			}
		}
	}
	src := sine(440, 24000, 1000)
	out := resampleAll(t, 24000, 24000, src, 100)
	for i := range src {
		if out[i] != src[i] {
			t.Fatalf("identity changed sample %d", i)
		}
	}
}

func TestResampleBadRates(t *testing.T) {
	t.Parallel()
	for _, rr := range [][2]int{{0, 8000}, {24000, 0}, {-1, 8000}, {24000, maxRate + 1}} {
		if _, err := NewResampler(rr[0], rr[1]); err == nil {
			t.Errorf("%v: no error", rr)
		}
	}
}

// BenchmarkResample is the CPU one second of the model's audio costs to convert.
func BenchmarkResample(b *testing.B) {
	src := sine(440, 24000, 24000)
	for _, to := range []int{8000, 16000, 22050, 44100, 48000} {
		b.Run(fmt.Sprint(to), func(b *testing.B) {
			r, _ := NewResampler(24000, to)
			out := make([]float32, 0, 2*len(src))
			b.ResetTimer()
			for range b.N {
				out = r.Write(out[:0], src)
			}
			b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N)*1e3, "ms/audio_s")
		})
	}
}
