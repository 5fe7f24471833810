package server

import (
	"testing"
	"time"

	"github.com/kokoro-sm/kokoro/api"
)

func TestAudioTimesHearTheFirstSoundNotTheFirstByte(t *testing.T) {
	t.Parallel()
	sound := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = 0.2
		}
		return s
	}
	silence := func(d time.Duration) []float32 { return make([]float32, int(d*api.SampleRate/time.Second)) }
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		name   string
		writes [][]float32
		at     []time.Duration // when each write left
		want   time.Duration   // first sound heard, after t0; 0 = none
	}{
		{"sound in the first write", [][]float32{append(silence(30*time.Millisecond), sound(240)...)}, []time.Duration{0}, 30 * time.Millisecond},
		{"played silence covers the wait", [][]float32{silence(500 * time.Millisecond), sound(240)}, []time.Duration{0, 200 * time.Millisecond}, 500 * time.Millisecond},
		{"the sound came late", [][]float32{silence(100 * time.Millisecond), sound(240)}, []time.Duration{0, time.Second}, time.Second},
		{"silence only", [][]float32{silence(time.Second)}, []time.Duration{0}, 0},
	} {
		a := newAudioTimes(api.SampleRate)
		for i, w := range c.writes {
			a.wrote(w, t0.Add(c.at[i]))
		}
		if !a.byte_.Equal(t0) {
			t.Errorf("%s: first byte %v", c.name, a.byte_.Sub(t0))
		}
		if got := a.sound.Sub(t0); c.want == 0 && !a.sound.IsZero() || c.want != 0 && got != c.want {
			t.Errorf("%s: first sound at %v, want %v", c.name, got, c.want)
		}
	}
}

// An encoder that holds its samples (a FLAC leaves whole at the end) is timed when its bytes
// leave: the first byte then, and the first sound no earlier.
func TestAudioTimesWaitForTheBytes(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1000, 0)
	loud := make([]float32, api.SampleRate/10)
	for i := range loud {
		loud[i] = 0.2
	}
	a := newAudioTimes(api.SampleRate)
	a.encoded(loud, false, t0)
	a.encoded(loud, false, t0.Add(time.Second))
	if !a.byte_.IsZero() || !a.sound.IsZero() {
		t.Fatalf("timed before any byte left: %v %v", a.byte_, a.sound)
	}
	a.encoded(nil, true, t0.Add(3*time.Second))
	if want := t0.Add(3 * time.Second); !a.byte_.Equal(want) || !a.sound.Equal(want) {
		t.Errorf("first byte %v, sound %v; want both at 3 s", a.byte_.Sub(t0), a.sound.Sub(t0))
	}
}
