package audio

import "math"

// Reframe returns pcm with exactly lead samples before its audible span and tail samples
// after it: silence beyond that is cut, and zeros are added where pcm has less. A cut edge is
// faded over fade samples (a raised-cosine ramp), so cutting
// through the model's low-level noise never leaves a step that clicks. A pcm with no audible
// frame is returned as lead+tail samples of zeros. A lead or tail of Keep leaves that edge as
// it is: an edge cut out of running speech, which must join the next piece without a pause.
// The result is a new slice; from is the sample of pcm it starts at (negative where silence was
// added before it), so that sample i of pcm is sample i-from of the result.
func Reframe(pcm []float32, rate, lead, tail, fade int) (out []float32, from int) {
	span, ok := AudibleSpan(pcm, rate)
	if !ok && lead != Keep && tail != Keep {
		return make([]float32, max(0, lead)+max(0, tail)), -max(0, lead)
	}
	if !ok {
		span = Span{Start: len(pcm) / 2, End: len(pcm) / 2}
	}
	if lead == Keep {
		lead = span.Start
	}
	if tail == Keep {
		tail = len(pcm) - span.End
	}
	lead, tail = max(0, lead), max(0, tail)
	out = make([]float32, 0, lead+span.Len()+tail)
	from = span.Start - lead // first source sample kept; negative = padded
	kept := max(from, 0)
	if from < 0 {
		out = append(out, make([]float32, -from)...)
	}
	to := span.End + tail // one past the last source sample kept; beyond len = padded
	out = append(out, pcm[kept:min(to, len(pcm))]...)
	if to > len(pcm) {
		out = append(out, make([]float32, to-len(pcm))...)
	}
	// A ramp lies inside the kept silence when lead and tail are at least fade long.
	if from > 0 {
		rampIn(out[:min(fade, len(out))])
	}
	if to < len(pcm) {
		rampOut(out[len(out)-min(fade, len(out)):])
	}
	return out, from
}

// Keep, as Reframe's lead or tail, keeps that edge untouched.
const Keep = -1

// QuietestCut is the sample in [from, to) of pcm where a cut disturbs least: the centre of the
// window of win samples with the least energy. from is returned for an empty range.
func QuietestCut(pcm []float32, from, to, win int) int {
	from, to = max(0, from), min(len(pcm), to)
	if to-from <= 1 {
		return max(0, min(from, len(pcm)))
	}
	half := max(1, win/2)
	energy := func(c int) float64 {
		var e float64
		for _, s := range pcm[max(0, c-half):min(len(pcm), c+half)] {
			e += float64(s) * float64(s)
		}
		return e
	}
	best, bestE := from, math.Inf(1)
	for c := from; c < to; c += max(1, half/4) {
		if e := energy(c); e < bestE {
			best, bestE = c, e
		}
	}
	return best
}

// FadeIn and FadeOut ramp the first and last n samples of pcm (a raised cosine).
func FadeIn(pcm []float32, n int)  { rampIn(pcm[:min(n, len(pcm))]) }
func FadeOut(pcm []float32, n int) { rampOut(pcm[len(pcm)-min(n, len(pcm)):]) }

// raisedCosine is the gain of step i of an n-step fade from silence to full level.
func raisedCosine(i, n int) float32 {
	return float32(0.5 - 0.5*math.Cos(math.Pi*(float64(i)+0.5)/float64(n)))
}

func rampIn(s []float32) {
	for i := range s {
		s[i] *= raisedCosine(i, len(s))
	}
}

func rampOut(s []float32) {
	for i := range s {
		s[len(s)-1-i] *= raisedCosine(i, len(s))
	}
}
