package listen

import (
	"math"

	"github.com/kokoro-sm/kokoro/audio"
)

// The recognizer frames its analysis in 10 ms steps from the first sample it is given, and
// what it hears is not stable under a shift of a few milliseconds: the same speech by bf_emma,
// framed 14 ms differently, was heard as "the library closes" and as "but i agree guys". So
// the judge does not hear a clip as it was cut, but its audible speech, found to the sample:
// two systems that make the same speech get the same transcript, whatever silence each left
// around it. scripts/measure/listen_bench.py frames its clips the same way.

// AudibleSpan is the speech in pcm found to the sample: from the first sample whose following
// 10 ms window has a mean power above audio.SilenceFloorDB to the end of the last such window.
// Unlike audio.AudibleSpan it does not depend on where a 10 ms grid falls, so the same speech
// gives the same span however much silence precedes it. ok is false for a silent pcm (or one
// shorter than a window).
func AudibleSpan(pcm []float32, rate int) (span audio.Span, ok bool) {
	win := max(1, rate/audio.FrameRate)
	if len(pcm) < win {
		return audio.Span{}, false
	}
	limit := math.Pow(10, audio.SilenceFloorDB/10.0) * float64(win)
	// Prefix sums of the squares: the window sums are exact differences, in order, so the
	// decision does not drift over a long clip the way a running sum would.
	sq := make([]float64, len(pcm)+1)
	for i, s := range pcm {
		sq[i+1] = sq[i] + float64(s)*float64(s)
	}
	first, last := -1, -1
	for i := 0; i+win <= len(pcm); i++ {
		if sq[i+win]-sq[i] > limit {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return audio.Span{}, false
	}
	return audio.Span{Start: first, End: last + win}, true
}

// judgeFade ramps the cut edges of the speech (5 ms): the cuts fall where the sound is at the
// silence floor, so the ramp changes nothing audible and leaves no step for the recognizer.
const judgeFade = 200 // per second: rate/judgeFade samples

// heard is pcm as the judge hears it: its audible speech, faded at both cuts, with half a second
// of digital silence on either side (the recognizer estimates its noise floor and finds speech
// from the first frames: speech that starts within tens of milliseconds loses its first word).
func heard(pcm []float32, rate int) []float32 {
	pad := rate / 2
	span, ok := AudibleSpan(pcm, rate)
	out := make([]float32, pad+span.Len()+pad)
	if !ok {
		return out
	}
	speech := out[pad : pad+span.Len()]
	copy(speech, pcm[span.Start:span.End])
	n := min(max(1, rate/judgeFade), len(speech))
	for i := range n {
		g := float32(0.5 - 0.5*math.Cos(math.Pi*(float64(i)+0.5)/float64(n)))
		speech[i] *= g
		speech[len(speech)-1-i] *= g
	}
	return out
}
