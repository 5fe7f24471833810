package server

import (
	"time"

	"github.com/kokoro-sm/kokoro/audio"
)

// audioTimes times a response's first audio byte and its first audible sample. The first byte
// can carry silence; what a listener waits for is sound. The sound is heard when a client that
// starts playing at the first byte reaches it: the first byte's time plus the sample's place in
// the stream, or the time its own bytes were written, whichever is later.
type audioTimes struct {
	rate  int // samples per second of the audio timed
	onset *audio.Onset
	byte_ time.Time // first audio byte written; zero until then
	sound time.Time // first audible sample heard; zero until then
	held  int       // samples encoded before any byte left (an encoder that holds them)
	heard int       // the first audible sample's place in the stream, once found; -1 before
}

func newAudioTimes(rate int) *audioTimes {
	return &audioTimes{rate: rate, onset: audio.NewOnset(rate), heard: -1}
}

// wrote records samples written to the client at t.
func (f *audioTimes) wrote(pcm []float32, t time.Time) { f.encoded(pcm, true, t) }

// encoded records samples handed to the encoder at t, and whether any bytes left with them:
// an encoder may hold its first samples (a FLAC file leaves whole at the end), and the first
// byte and the first sound are timed when bytes leave, not when samples were encoded.
func (f *audioTimes) encoded(pcm []float32, sent bool, t time.Time) {
	if f.sound.IsZero() && f.heard < 0 && len(pcm) > 0 {
		if at, ok := f.onset.Write(pcm); ok {
			f.heard = int(at)
		}
	}
	if f.byte_.IsZero() {
		if !sent {
			f.held += len(pcm)
			return
		}
		if f.held+len(pcm) == 0 {
			return
		}
		f.byte_ = t
	}
	if f.sound.IsZero() && f.heard >= 0 {
		f.sound = f.byte_.Add(time.Duration(f.heard) * time.Second / time.Duration(f.rate))
		if t.After(f.sound) {
			f.sound = t
		}
	}
}
