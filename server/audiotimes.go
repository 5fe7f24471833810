package server

import (
	"time"

	"github.com/kokoro-sm/kokoro/api"
	"github.com/kokoro-sm/kokoro/audio"
)

// audioTimes times a response's first audio byte and its first audible sample. The first byte
// can carry silence; what a listener waits for is sound. The sound is heard when a client that
// starts playing at the first byte reaches it: the first byte's time plus the sample's place in
// the stream, or the time its own bytes were written, whichever is later.
type audioTimes struct {
	onset *audio.Onset
	byte_ time.Time // first audio byte written; zero until then
	sound time.Time // first audible sample heard; zero until then
}

func newAudioTimes() *audioTimes { return &audioTimes{onset: audio.NewOnset(api.SampleRate)} }

// wrote records samples written to the client at t.
func (f *audioTimes) wrote(pcm []float32, t time.Time) {
	if len(pcm) == 0 {
		return
	}
	if f.byte_.IsZero() {
		f.byte_ = t
	}
	if !f.sound.IsZero() {
		return
	}
	if at, ok := f.onset.Write(pcm); ok {
		f.sound = f.byte_.Add(time.Duration(at) * time.Second / api.SampleRate)
		if t.After(f.sound) {
			f.sound = t
		}
	}
}
