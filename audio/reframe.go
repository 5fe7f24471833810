package audio

import "math"

// Reframe returns pcm with exactly lead samples before its audible span and tail samples
// after it: silence beyond that is cut, and zeros are added where pcm has less. A cut edge is
// faded over fade samples (a raised-cosine ramp), so cutting
// through the model's low-level noise never leaves a step that clicks. A pcm with no audible
// frame is returned as lead+tail samples of zeros. The result is a new slice.
func Reframe(pcm []float32, rate, lead, tail, fade int) []float32 {
	span, ok := AudibleSpan(pcm, rate)
	if !ok {
		return make([]float32, max(0, lead)+max(0, tail))
	}
	lead, tail = max(0, lead), max(0, tail)
	out := make([]float32, 0, lead+span.Len()+tail)
	from := span.Start - lead // first source sample kept; negative = padded
	if from < 0 {
		out = append(out, make([]float32, -from)...)
		from = 0
	}
	to := span.End + tail // one past the last source sample kept; beyond len = padded
	out = append(out, pcm[from:min(to, len(pcm))]...)
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
	return out
}

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
