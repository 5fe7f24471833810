package server

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
	"github.com/kokoro-sm/kokoro/audio/codec"
	"github.com/kokoro-sm/kokoro/tts"
)

// checkRate is the sample rate a request asked for (nil: none) in format f, refused when f is
// not offered at it.
func checkRate(asked *int, f codec.Format) (int, error) {
	if asked == nil {
		return f.Rate(0), nil
	}
	valid := f.ValidRates()
	if !slices.Contains(valid, *asked) {
		names := make([]string, len(valid))
		for i, r := range valid {
			names[i] = strconv.Itoa(r)
		}
		return 0, fmt.Errorf("%w: %d Hz for %s; %s is offered at %s", errBadSampleRate, *asked, f.Name, f.Name, strings.Join(names, ", "))
	}
	return *asked, nil
}

// rateConv turns the engine's chunks, at api.SampleRate, into chunks at a request's rate: the
// samples through a band-limited resampler, the words' places mapped from the model's samples
// to the new rate's (exactly, whatever the resampler holds back: a word's place is counted
// from the utterance's start).
type rateConv struct {
	rs      *audio.Resampler
	in, out int // samples of the utterance taken (model rate), handed on (new rate)
}

// newRateConv converts to rate; nil when rate is the model's.
func newRateConv(rate int) (*rateConv, error) {
	if rate == api.SampleRate {
		return nil, nil
	}
	rs, err := audio.NewResampler(api.SampleRate, rate)
	if err != nil {
		return nil, err
	}
	return &rateConv{rs: rs}, nil
}

// chunk converts c: its samples, and its words' and speech marks' places relative to the converted samples (a
// word may start before them, in samples handed on with an earlier chunk).
func (r *rateConv) chunk(c tts.Chunk) tts.Chunk {
	out := c
	out.PCM = r.rs.Write(nil, c.PCM)
	out.Words = make([]tts.Word, len(c.Words))
	for i, w := range c.Words {
		out.Words[i] = tts.Word{Text: w.Text, Start: r.rs.Pos(r.in+w.Start) - r.out, End: r.rs.Pos(r.in+w.End) - r.out}
	}
	if len(c.Marks) > 0 {
		out.Marks = make([]tts.Mark, len(c.Marks))
		for i, m := range c.Marks {
			m.At = r.rs.Pos(r.in+m.At) - r.out
			out.Marks[i] = m
		}
	}
	r.in += len(c.PCM)
	r.out += len(out.PCM)
	return out
}

// tail is the last chunk: the samples the resampler still holds, once the utterance has ended.
func (r *rateConv) tail() tts.Chunk {
	pcm := r.rs.Flush(nil)
	r.out += len(pcm)
	return tts.Chunk{PCM: pcm, Final: true}
}

// converting wraps emit so that it receives chunks at rate, and returns with it the function
// that sends the held samples once the utterance has ended. At the model's rate both are
// emit itself and a no-op.
func converting(rate int, emit func(tts.Chunk) error) (func(tts.Chunk) error, func() error, error) {
	r, err := newRateConv(rate)
	if err != nil || r == nil {
		return emit, func() error { return nil }, err
	}
	return func(c tts.Chunk) error { return emit(r.chunk(c)) },
		func() error {
			if t := r.tail(); len(t.PCM) > 0 {
				return emit(t)
			}
			return nil
		}, nil
}
