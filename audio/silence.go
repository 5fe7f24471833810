package audio

import "math"

// SilenceFloorDB is the level, in dBFS of RMS over one 10 ms frame, below which audio counts
// as silence. Kokoro's speech stays above −45 dBFS outside stop closures, while the
// silence it puts around and between phrases sits between −60 dBFS and digital zero, so the
// floor sits between the two with room on both sides.
const SilenceFloorDB = -50

// FrameRate is how many analysis frames a second of audio has (10 ms frames).
const FrameRate = 100

var floorPower = math.Pow(10, SilenceFloorDB/10.0)

// Span is a run of samples [Start, End).
type Span struct{ Start, End int }

// Len is the number of samples in the span.
func (s Span) Len() int { return s.End - s.Start }

// frameLen is the number of samples in one analysis frame at rate (at least one).
func frameLen(rate int) int { return max(1, rate/FrameRate) }

// Audible reports, frame by frame, whether each 10 ms frame of pcm is above the silence floor.
// A trailing partial frame is judged on the samples it has.
func Audible(pcm []float32, rate int) []bool {
	n := frameLen(rate)
	out := make([]bool, 0, (len(pcm)+n-1)/n)
	for i := 0; i < len(pcm); i += n {
		out = append(out, loud(pcm[i:min(i+n, len(pcm))]))
	}
	return out
}

func loud(frame []float32) bool {
	var sum float64
	for _, s := range frame {
		sum += float64(s) * float64(s)
	}
	return sum > floorPower*float64(len(frame))
}

// AudibleSpan is the part of pcm from the start of its first audible frame to the end of its
// last one; ok is false when pcm is silent throughout.
func AudibleSpan(pcm []float32, rate int) (span Span, ok bool) {
	a := Audible(pcm, rate)
	first, last := -1, -1
	for i, on := range a {
		if on {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return Span{}, false
	}
	n := frameLen(rate)
	return Span{Start: first * n, End: min((last+1)*n, len(pcm))}, true
}

// Pauses lists the silent runs of at least minFrames frames strictly inside the audible span
// of pcm (the leading and trailing silence are not pauses), in samples.
func Pauses(pcm []float32, rate, minFrames int) []Span {
	a := Audible(pcm, rate)
	n := frameLen(rate)
	var out []Span
	start := -1 // first frame of the current silent run; -1 before the first audible frame
	seen := false
	for i, on := range a {
		switch {
		case on && seen && start >= 0:
			if i-start >= max(1, minFrames) {
				out = append(out, Span{Start: start * n, End: i * n})
			}
			start = -1
		case on:
			seen = true
			start = -1
		case seen && start < 0:
			start = i
		}
	}
	return out
}

// Onset finds the first audible sample of a stream that arrives in pieces, so a client (or the
// server) can tell when sound, not just bytes, began. The zero value is not usable; use
// NewOnset.
type Onset struct {
	frame int     // samples per frame
	sum   float64 // energy of the current partial frame
	in    int     // samples in the current partial frame
	pos   int     // samples consumed so far
	at    int     // first audible sample, -1 until found
}

// NewOnset returns a detector for audio at rate samples per second.
func NewOnset(rate int) *Onset { return &Onset{frame: frameLen(rate), at: -1} }

// Write feeds samples and reports the index, counted from the first sample ever written, of the
// start of the first audible frame once one has been seen.
func (o *Onset) Write(pcm []float32) (at int, found bool) {
	for _, s := range pcm {
		if o.at >= 0 {
			break
		}
		o.sum += float64(s) * float64(s)
		o.in++
		if o.in == o.frame {
			if o.sum > floorPower*float64(o.frame) {
				o.at = o.pos + 1 - o.frame
			}
			o.sum, o.in = 0, 0
		}
		o.pos++
	}
	return o.at, o.at >= 0
}

// Found reports the onset, if one has been seen.
func (o *Onset) Found() (at int, found bool) { return o.at, o.at >= 0 }
